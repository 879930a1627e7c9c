"""Device memory: in use, peak and limit, per device of a client.

GPUs and TPUs report their own statistics (`jax.Device.memory_stats`); the host
client has none, so numbat counts the bytes held by live JAX arrays on each host
device, with the process's peak resident memory and the machine's memory as peak
and limit.
"""

from __future__ import annotations

import os
import resource

import jax

from . import _client


def memory(client: str | None = None) -> list[dict]:
    """One dict per device of `client` (default: the default client): `device`,
    `in_use`, `peak` and `limit` in bytes, and `source` (where the figures come from).

    >>> row = memory("host")[0]
    >>> sorted(row), row["source"]
    (['device', 'in_use', 'limit', 'peak', 'source'], 'live arrays; process peak RSS')
    """
    name = _client.default_client() if client is None else client
    _client.device(name, 0)  # checks the client exists
    devices = jax.devices(_client.PLATFORMS[name])
    live: dict[int, int] = {}
    rows = []
    for device in devices:
        stats = device.memory_stats()
        if stats:
            rows.append(
                {
                    "device": str(device),
                    "in_use": stats.get("bytes_in_use", 0),
                    "peak": stats.get("peak_bytes_in_use", 0),
                    "limit": stats.get("bytes_limit", 0),
                    "source": "device statistics",
                }
            )
            continue
        if not live:
            for array in jax.live_arrays():
                for shard in array.addressable_shards:
                    live[shard.device.id] = live.get(shard.device.id, 0) + shard.data.nbytes
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        rows.append(
            {
                "device": str(device),
                "in_use": live.get(device.id, 0),
                "peak": peak_kib * 1024,
                "limit": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"),
                "source": "live arrays; process peak RSS",
            }
        )
    return rows
