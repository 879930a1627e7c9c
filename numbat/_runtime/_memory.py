"""Device memory: in use, peak and limit, per device of a client.

A device with an allocator of its own (a GPU, a TPU) reports its figures through
`jax.Device.memory_stats()`: bytes in use, the peak and the limit of that device. The
host client keeps no such statistics, so numbat counts the bytes held by live JAX
arrays on each host device (each buffer once per device), gives the machine's memory as
the limit, and reports the peak as not tracked (None): the process's peak resident
memory is not any one device's peak. All host devices are the same RAM: an array moved
from one to another may share the original's buffer, and then counts on both.
"""

from __future__ import annotations

import os

import jax

from . import _client


def memory(client: str | None = None) -> list[dict]:
    """One dict per device of `client` (default: the default client): `device`,
    `in_use`, `peak` and `limit` in bytes (None where the device does not track the
    figure), and `source` (where the figures come from).

    >>> row = memory("host")[0]
    >>> sorted(row), row["peak"], row["source"]
    (['device', 'in_use', 'limit', 'peak', 'source'], None, 'live arrays; no allocator statistics on the host')
    """
    name = _client.default_client() if client is None else client
    _client.device(name, 0)  # checks the client exists
    devices = jax.local_devices(backend=_client.PLATFORMS[name])
    live: dict[int, int] = {}
    rows = []
    for device in devices:
        stats = device.memory_stats()
        if stats:
            rows.append(
                {
                    "device": str(device),
                    "in_use": stats.get("bytes_in_use"),
                    "peak": stats.get("peak_bytes_in_use"),
                    "limit": stats.get("bytes_limit"),
                    "source": "device allocator statistics",
                }
            )
            continue
        if not live:
            live = _live_bytes(_client.PLATFORMS[name])
        rows.append(
            {
                "device": str(device),
                "in_use": live.get(device.id, 0),
                "peak": None,
                "limit": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"),
                "source": "live arrays; no allocator statistics on the host",
            }
        )
    return rows


def _live_bytes(platform: str) -> dict[int, int]:
    """Bytes of the live arrays of `platform`, per device id, each buffer counted once.

    Several Arrays can share one buffer: reading a shard's `data` makes a second, single-device
    Array on it (cached on the first, so it stays alive as long as the first does). Counting every
    Array would count that buffer twice, and more each time it is asked; a buffer is counted once,
    by its address on its device. A single-device Array's address is read without making one.
    """
    buffers: dict[tuple[int, int], int] = {}
    for array in jax.live_arrays(platform):
        try:
            if len(array.sharding.device_set) == 1:
                pieces = [(next(iter(array.sharding.device_set)), array)]
            else:
                pieces = [(shard.device, shard.data) for shard in array.addressable_shards]
            for device, piece in pieces:
                buffers[(device.id, piece.unsafe_buffer_pointer())] = piece.nbytes
        except RuntimeError:  # deleted (donated, or freed by another thread) since live_arrays listed it
            continue
    live: dict[int, int] = {}
    for (device_id, _), nbytes in buffers.items():
        live[device_id] = live.get(device_id, 0) + nbytes
    return live
