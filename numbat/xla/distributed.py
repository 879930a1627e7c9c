"""Several processes, one computation: `initialize` joins this process to a group
through `jax.distributed` (a coordinator at `coordinator_address`, `num_processes`
processes, this one `process_id`). Afterwards `jax.devices()` (and so every
`nbt.Mesh`) spans the devices of all processes, and `shard_jit` runs one program
across them: each process passes the shards of every device, and places those
of its own devices.

On GPUs, run one process per host (or per GPU) with the same coordinator; on the
host platform, CPU collectives go through Gloo. Call `initialize` before any
tensor exists: it must run before the XLA client starts.
"""

from __future__ import annotations

import jax

from .._core._errors import ArgumentError
from .._runtime import _config


def initialize(
    coordinator_address: str,
    num_processes: int,
    process_id: int,
    local_device_ids: list[int] | None = None,
    cpu_collectives: str = "gloo",
) -> None:
    """Joins this process to the group (before the XLA client starts).

    `coordinator_address` is "host:port" of process 0, which serves it; `local_device_ids`
    restricts this process to some of its devices (one GPU per process, say);
    `cpu_collectives` ("gloo" or "mpi") carries collectives between host devices.
    """
    if not isinstance(coordinator_address, str) or ":" not in coordinator_address:
        raise ArgumentError(f"initialize: coordinator_address must be 'host:port', got {coordinator_address!r}")
    for name, value in (("num_processes", num_processes), ("process_id", process_id)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ArgumentError(f"initialize: {name} must be a non-negative int, got {value!r}")
    if num_processes < 1 or process_id >= num_processes:
        raise ArgumentError(f"initialize: process_id {process_id} is not one of {num_processes} processes")
    if cpu_collectives not in ("gloo", "mpi"):
        raise ArgumentError(f'initialize: cpu_collectives must be "gloo" or "mpi", got {cpu_collectives!r}')
    _config.refuse_after_start("distributed.initialize")
    jax.config.update("jax_cpu_collectives_implementation", cpu_collectives)
    jax.distributed.initialize(
        coordinator_address, num_processes=num_processes, process_id=process_id, local_device_ids=local_device_ids
    )


def shutdown() -> None:
    """Leaves the group (process 0 stops the coordinator)."""
    jax.distributed.shutdown()


def process_index() -> int:
    """This process's index in the group (0 without `initialize`).

    >>> nbt.xla.distributed.process_index()
    0
    """
    return jax.process_index()


def process_count() -> int:
    """How many processes are in the group (1 without `initialize`).

    >>> nbt.xla.distributed.process_count()
    1
    """
    return jax.process_count()


__all__ = ["initialize", "process_count", "process_index", "shutdown"]


def __dir__() -> list[str]:
    """Tab completion lists the public API (`__all__`), not the names this module imports."""
    return sorted(__all__)
