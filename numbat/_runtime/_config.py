"""Client configuration, as EXLA's `config :exla, :clients`: options become XLA's own
settings before JAX's backend starts, and changing them afterwards is a clear error.

>>> configure(clients={"host": {"platform": "host"}}, default_client="host") if not started() else None
"""

from __future__ import annotations

import os

import jax

from .._core._errors import ArgumentError, ClientError
from . import _client
from ._client import PLATFORMS, started

CLIENT_OPTIONS = ("platform", "preallocate", "memory_fraction", "default_device_id", "device_count")
MAX_DEVICES = 1024  # devices a client may have: XLA starts a thread pool and buffers for each host device
# numbat's `precision` option -> JAX's matmul precision. "default" is XLA's default, as EXLA's:
# f32 on the CPU, TF32 for f32 products and convolutions on NVIDIA GPUs since Ampere (measured on
# an H200: a largest relative error of 3.2e-4 on an f32 8192 product); "high" is TF32 there too
# and "highest" f32 everywhere (docs/guides/xla.md, "Precision on each platform").
PRECISIONS = {"default": "bfloat16", "high": "tensorfloat32", "highest": "float32"}

# Where each setting in force came from: "numbat" (set by configure/magics), "environment" or "default".
_origin: dict[str, str] = {}


def refuse_after_start(what: str) -> None:
    if started():
        cell = _client.started_in_cell()
        where = f" (in cell [{cell}])" if cell is not None else ""
        raise ClientError(
            f"the XLA client already started{where}; {what} applies only when it starts. "
            "Restart the kernel (or the Python process) and set it before creating any tensor, "
            "or use the Numbat kernel's settings."
        )


def _check_client(name: str, options) -> dict:
    if not isinstance(options, dict):
        raise ArgumentError(f"xla.configure: the options of client {name!r} must be a dict, got {options!r}")
    unknown = set(options) - set(CLIENT_OPTIONS)
    if unknown:
        raise ArgumentError(
            f"xla.configure: unknown option(s) {sorted(unknown)} for client {name!r}; options are {', '.join(CLIENT_OPTIONS)}"
        )
    platform = options.get("platform", name)
    if platform not in PLATFORMS:
        raise ArgumentError(f"xla.configure: unknown platform {platform!r}; platforms are {', '.join(PLATFORMS)}")
    fraction = options.get("memory_fraction")
    if fraction is not None and (
        isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0 < fraction <= 1
    ):
        raise ArgumentError(f"xla.configure: memory_fraction must be in (0, 1], got {fraction!r}")
    count = options.get("device_count")
    if count is not None and (isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_DEVICES):
        raise ArgumentError(f"xla.configure: device_count must be an int from 1 to {MAX_DEVICES}, got {count!r}")
    if "preallocate" in options and not isinstance(options["preallocate"], bool):
        raise ArgumentError(f"xla.configure: preallocate must be True or False, got {options['preallocate']!r}")
    device_id = options.get("default_device_id", 0)
    if isinstance(device_id, bool) or not isinstance(device_id, int) or not 0 <= device_id < MAX_DEVICES:
        raise ArgumentError(
            f"xla.configure: default_device_id must be an int from 0 to {MAX_DEVICES - 1}, got {device_id!r}"
        )
    if platform == "host":  # the host's device count is known before it starts; a GPU's is checked when it starts
        devices = count if count is not None else _client.host_device_count()[0]
        if device_id >= devices:
            raise ArgumentError(
                f"xla.configure: default_device_id {device_id} of client {name!r} is out of range: it has "
                f"{devices} device(s) (set device_count to have more host devices)"
            )
    return {**options, "platform": platform}


def configure(clients: dict | None = None, default_client: str | None = None, preferred_clients: list | None = None):
    """Configures the XLA clients before the client starts: per client `platform`
    (cuda, rocm, tpu, host), `preallocate`, `memory_fraction` (GPU memory), `device_count`
    (host devices), `default_device_id` (where new tensors and defns without a
    `device_id` go); which client is the default; and the order in which clients are
    preferred (EXLA's default: cuda, rocm, tpu, host): the default client is the first
    of them that is available, and an unavailable one is skipped. Returns the settings
    in force.

    >>> configure(clients={"host": {"platform": "host", "device_count": 2, "default_device_id": 7}})
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: xla.configure: default_device_id 7 of client 'host' is out of range: it has 2 device(s) (set device_count to have more host devices)
    """
    clients = {} if clients is None else clients
    if not isinstance(clients, dict) or not all(isinstance(name, str) for name in clients):
        raise ArgumentError(f"xla.configure: clients must be a dict of client name to options, got {clients!r}")
    checked = {name: _check_client(name, options) for name, options in clients.items()}
    if preferred_clients is not None and not isinstance(preferred_clients, (list, tuple)):
        raise ArgumentError(
            f"xla.configure: preferred_clients must be a list of client names, got {preferred_clients!r}"
        )
    order = list(preferred_clients) if preferred_clients is not None else None
    for name in [default_client, *(order or [])]:
        if name is not None and not isinstance(name, str):
            raise ArgumentError(f"xla.configure: a client name is a str, got {name!r}")
        if name is not None and name not in PLATFORMS and name not in checked:
            raise ArgumentError(f"xla.configure: unknown client {name!r}; clients are {', '.join(PLATFORMS)}")
    refuse_after_start("client configuration")
    present = _client.present()  # checked before anything is stored: a refusal changes nothing
    if order is not None and not any(_client_name(checked, n) in present for n in order):
        raise ArgumentError(
            f"xla.configure: none of the preferred clients {order} is on this machine; it has {', '.join(present)}. "
            "Nothing was changed"
        )
    if default_client is not None and _client_name(checked, default_client) not in present:
        raise ArgumentError(
            f"xla.configure: this machine has no {_client_name(checked, default_client)} client (its JAX plugin "
            f"or device is missing); it has {', '.join(present)}. Nothing was changed"
        )
    for options in checked.values():
        if "preallocate" in options:
            set_memory(preallocate=options["preallocate"])
        if options.get("memory_fraction") is not None:
            set_memory(fraction=options["memory_fraction"])
        if options.get("device_count") is not None and options["platform"] == "host":
            jax.config.update("jax_num_cpu_devices", options["device_count"])
            _origin["host device_count"] = "numbat"
    if order is not None:
        # Only the choice of the default client: JAX_PLATFORMS would make every listed platform
        # mandatory (JAX fails to start without it), where EXLA takes the first available.
        _client.set_preferred(list(dict.fromkeys(_client_name(checked, n) for n in order)))
        _origin["preferred clients"] = "numbat"
    if default_client is not None:
        _client.set_default(_client_name(checked, default_client))
        _origin["default client"] = "numbat"
    for name, options in checked.items():
        if "default_device_id" in options:
            _client.default_device_ids[_client_name(checked, name)] = options["default_device_id"]
    return settings()


def _client_name(checked: dict, name: str) -> str:
    """numbat's client for a configured name: the name of its platform ("gpu" configured
    with platform "cuda" is the cuda client)."""
    return checked.get(name, {}).get("platform", name)


def set_memory(preallocate: bool | None = None, fraction: float | None = None) -> None:
    """Sets GPU memory preallocation and the fraction of GPU memory XLA may use
    (`XLA_PYTHON_CLIENT_PREALLOCATE`, and `XLA_CLIENT_MEM_FRACTION`, removing its older
    spelling `XLA_PYTHON_CLIENT_MEM_FRACTION`, since jaxlib refuses both at once), before the client starts."""
    if preallocate is not None and not isinstance(preallocate, bool):
        raise ArgumentError(f"memory preallocate must be True, False or None, got {preallocate!r}")
    if fraction is not None and (
        isinstance(fraction, bool) or not isinstance(fraction, (int, float)) or not 0 < fraction <= 1
    ):
        raise ArgumentError(f"memory fraction must be in (0, 1], got {fraction!r}")
    refuse_after_start("the memory setting")
    if preallocate is not None:
        os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "true" if preallocate else "false"
        _origin["XLA_PYTHON_CLIENT_PREALLOCATE"] = "numbat"
    if fraction is not None:
        os.environ["XLA_CLIENT_MEM_FRACTION"] = f"{fraction:g}"
        _origin["XLA_CLIENT_MEM_FRACTION"] = "numbat"
        os.environ.pop("XLA_PYTHON_CLIENT_MEM_FRACTION", None)  # jaxlib refuses to start with both spellings


def settings() -> dict[str, tuple[str, str]]:
    """Each XLA setting in force, as `(value, where it came from)`.

    >>> settings()["XLA_PYTHON_CLIENT_PREALLOCATE"][1] in ("numbat", "environment", "default")
    True
    """
    out = {}
    for name in (
        "XLA_PYTHON_CLIENT_PREALLOCATE",
        "XLA_PYTHON_CLIENT_MEM_FRACTION",
        "XLA_CLIENT_MEM_FRACTION",
        "JAX_PLATFORMS",
        "XLA_FLAGS",
    ):
        value = os.environ.get(name)
        origin = _origin.get(name, "environment") if value is not None else "default"
        out[name] = (value if value is not None else "(unset)", origin)
    count, origin = _client.host_device_count()
    out["host device_count"] = (str(count), origin)
    out["default client"] = (
        _client.configured_default() or "(first available)",
        _origin.get("default client", "default"),
    )
    return out


def precision_name(precision: str) -> str:
    """JAX's matmul precision for numbat's `precision` option (`PRECISIONS`: "default" is
    XLA's own, TF32 for f32 on recent NVIDIA GPUs; "highest" is f32 on every platform).

    >>> precision_name("highest"), precision_name("default")
    ('float32', 'bfloat16')
    """
    if precision not in PRECISIONS:
        raise ArgumentError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    return PRECISIONS[precision]
