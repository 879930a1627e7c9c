"""The XLA client: a process singleton that starts on first use.

Clients are named as in EXLA (`cuda`, `rocm`, `tpu`, `host`) and map onto
JAX platforms; the default is the configured one, else the first available in the
preferred order (EXLA's: cuda, rocm, tpu, host). A device id left out means the
client's `default_device_id` (device 0 unless configured).
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import os
import pkgutil
import re

import jax

from .._core import _jax_private
from .._core._errors import ArgumentError, ClientError

PLATFORMS = {"cuda": "cuda", "rocm": "rocm", "tpu": "tpu", "host": "cpu"}
SETTINGS = ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_FLAGS", "JAX_PLATFORMS")

# Set by the notebook extension before each cell, so we can say which cell started the client.
current_cell: int | None = None
_started_in_cell: int | None = None
_default: str | None = None  # set by nbt.xla.configure(default_client=...)
default_device_ids: dict[str, int] = {}  # per client, from nbt.xla.configure
_preferred: tuple[str, ...] | None = None  # set by nbt.xla.configure(preferred_clients=...)
_HOST_COUNT_FLAG = re.compile(r"--xla_force_host_platform_device_count=(\d+)")


def set_default(name: str) -> None:
    """Makes `name` the default client (before the client starts)."""
    global _default
    _default = name


def set_preferred(names: list[str]) -> None:
    """Makes `names` the order in which clients are preferred (before the client starts)."""
    global _preferred
    _preferred = tuple(names)


def preferred() -> tuple[str, ...]:
    """The order in which the default client is chosen among the available ones."""
    return _preferred if _preferred is not None else tuple(PLATFORMS)


def host_device_count() -> tuple[int, str]:
    """How many host devices the host client has (or will have when it starts), and where
    that number comes from: "numbat" (configure), "XLA_FLAGS", or "default".

    >>> host_device_count()[0] >= 1
    True
    """
    if started() and "host" in available():
        return len(jax.local_devices(backend="cpu")), _host_origin()
    return _host_count_setting(), _host_origin()


def _host_count_setting() -> int:
    configured = jax.config.jax_num_cpu_devices
    if configured is not None and configured > 0:
        return configured
    flag = _HOST_COUNT_FLAG.search(os.environ.get("XLA_FLAGS", ""))
    return int(flag.group(1)) if flag else 1


def _host_origin() -> str:
    configured = jax.config.jax_num_cpu_devices
    if configured is not None and configured > 0:
        return "numbat"
    return "XLA_FLAGS" if _HOST_COUNT_FLAG.search(os.environ.get("XLA_FLAGS", "")) else "default"


def configured_default() -> str | None:
    """The default client set by `configure`, if any."""
    return _default


def started() -> bool:
    """Whether JAX's backends (and so the XLA client) have initialized."""
    return _jax_private.backends_are_initialized()


def started_in_cell() -> int | None:
    """The notebook cell whose code started the client, when numbat saw it start."""
    return _started_in_cell


def _start() -> None:
    global _started_in_cell
    if not started():
        _started_in_cell = current_cell
    jax.devices()


@functools.cache
def available() -> tuple[str, ...]:
    """The client names this process can use, in EXLA's preference order."""
    _start()
    names = []
    for name, platform in PLATFORMS.items():
        try:
            jax.devices(platform)
        except RuntimeError:
            continue
        names.append(name)
    return tuple(names)


def present() -> tuple[str, ...]:
    """The clients this machine has, known without starting the client: once it started, the
    available ones; before, host and each accelerator whose JAX plugin is installed and whose
    device is there (NVIDIA's /dev/nvidiactl, AMD's /dev/kfd, libtpu for a TPU).

    >>> "host" in present()
    True
    """
    if started():
        return available()
    plugins = {entry.name for entry in importlib.metadata.entry_points(group="jax_plugins")}
    spec = importlib.util.find_spec("jax_plugins")
    if spec is not None and spec.submodule_search_locations:
        plugins |= {module.name for module in pkgutil.iter_modules(spec.submodule_search_locations)}
    found = {
        "cuda": any("cuda" in name for name in plugins) and os.path.exists("/dev/nvidiactl"),
        "rocm": any("rocm" in name for name in plugins) and os.path.exists("/dev/kfd"),
        "tpu": importlib.util.find_spec("libtpu") is not None,
        "host": True,
    }
    return tuple(name for name in PLATFORMS if found[name])


def default_client() -> str:
    """The configured default client, else the first available in the preferred order
    (an unavailable client in that order is skipped, as in EXLA, never required).

    >>> default_client() in available()
    True
    """
    if _default is not None:
        if _default not in available():
            raise ClientError(
                f"the default XLA client {_default!r} is not available here; available: {', '.join(available())}"
            )
        return _default
    for name in preferred():
        if name in available():
            return name
    raise ClientError(
        f"none of the preferred XLA clients ({', '.join(preferred())}) is available here; "
        f"available: {', '.join(available())}"
    )


def device(client: str | None, device_id: int | None = None) -> jax.Device:
    """The JAX device for `client` (None: the default) and `device_id` (None: the
    client's `default_device_id`).

    >>> device("host", 0).platform
    'cpu'
    """
    if client is not None and (not isinstance(client, str) or client not in PLATFORMS):
        raise ArgumentError(f"unknown XLA client {client!r}; clients are {', '.join(PLATFORMS)}")
    if device_id is not None and (isinstance(device_id, bool) or not isinstance(device_id, int)):
        raise ArgumentError(f"device_id must be an int, got {device_id!r}")
    return _device(client, device_id)


@functools.cache
def _device(client: str | None, device_id: int | None) -> jax.Device:
    name = client or default_client()
    if name not in available():
        raise ClientError(f"XLA client {name!r} is not available here; available clients: {', '.join(available())}")
    devices = jax.local_devices(backend=PLATFORMS[name])  # this process's: with several, ids are local
    if device_id is None:
        device_id = default_device_ids.get(name, 0)
        if not 0 <= device_id < len(devices):
            raise ArgumentError(
                f"default_device_id {device_id} of client {name!r} is out of range: it has {len(devices)} "
                "device(s); configure an id below that (nbt.xla.configure, before the client starts)"
            )
    if not 0 <= device_id < len(devices):
        raise ArgumentError(f"device_id {device_id} is out of range: client {name!r} has {len(devices)} device(s)")
    return devices[device_id]


def clients() -> dict[str, dict]:
    """Each available client with its platform, device count and whether it is the default.

    >>> clients()["host"]["platform"]
    'cpu'
    """
    return {
        name: {
            "platform": PLATFORMS[name],
            "devices": len(jax.devices(PLATFORMS[name])),
            "default": name == default_client(),
        }
        for name in available()
    }


def devices(client: str | None = None) -> list[dict]:
    """Every device of `client` (default: of every available client).

    >>> devices()[0]["client"] in ("cuda", "rocm", "tpu", "host")
    True
    >>> devices("host")[0]["platform"]
    'cpu'
    """
    if client is not None:
        device(client, 0)  # checks the client exists (and is a name)
    names = available() if client is None else (client,)
    return [
        {"client": name, "id": d.id, "kind": d.device_kind, "platform": d.platform}
        for name in names
        for d in jax.devices(PLATFORMS[name])
    ]


def settings() -> dict[str, str | None]:
    """The XLA environment settings in force (None where unset)."""
    return {name: os.environ.get(name) for name in SETTINGS}
