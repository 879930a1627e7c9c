"""`%numbat client`, `%numbat memory` and `%numbat precision`: show the XLA settings in
effect and, before the client starts, change them. After the client started, a change
is answered with one line saying so and what to do, never a traceback."""

from __future__ import annotations

from .._core._errors import ArgumentError, ClientError
from .._defn import _options
from .._runtime import _client, _config
from .._runtime._memory import memory as device_memory
from ._tables import Section


def _one_line(error: Exception) -> str:
    return f"numbat: {error}"


def client(arguments: list[str]) -> list[Section] | str:
    """With a client name, makes it the default (before the client starts); always shows the clients."""
    if len(arguments) > 1:
        return "numbat: %numbat client takes at most one client name"
    if arguments:
        try:
            _config.configure(default_client=arguments[0])
        except (ArgumentError, ClientError) as error:
            return _one_line(error)
    if not _client.started():
        default = _client.configured_default() or f"the first available of {', '.join(_client.PLATFORMS)}"
        return [Section("XLA client", (), [], f"not started; it will start as {default}")]
    rows = [(name, c["platform"], c["devices"], "yes" if c["default"] else "") for name, c in _client.clients().items()]
    return [Section("clients", ("client", "platform", "devices", "default"), rows)]


def _parse_bool(text: str) -> bool:
    if text.lower() in ("true", "1", "yes", "on"):
        return True
    if text.lower() in ("false", "0", "no", "off"):
        return False
    raise ArgumentError(f"preallocate must be true or false, got {text!r}")


def memory(arguments: list[str]) -> list[Section] | str:
    """`preallocate=true|false` and `fraction=F` set GPU memory settings before the client
    starts; always shows the settings in effect (and, once started, memory per device)."""
    changes = {}
    for argument in arguments:
        key, _, value = argument.partition("=")
        if key not in ("preallocate", "fraction") or not value:
            return f"numbat: %numbat memory takes preallocate=true|false and fraction=F, got {argument!r}"
        changes[key] = value
    if changes:
        try:
            preallocate = _parse_bool(changes["preallocate"]) if "preallocate" in changes else None
            fraction = float(changes["fraction"]) if "fraction" in changes else None
            _config.set_memory(preallocate=preallocate, fraction=fraction)
        except (ArgumentError, ClientError) as error:  # before ValueError: ArgumentError is one
            return _one_line(error)
        except ValueError:
            return f"numbat: fraction must be a number in (0, 1], got {changes['fraction']!r}"
    settings = [(name, value, origin) for name, (value, origin) in _config.settings().items()]
    sections = [Section("memory settings", ("setting", "value", "from"), settings)]
    if _client.started():
        rows = [
            (row["device"], _bytes(row["in_use"]), _bytes(row["peak"]), _bytes(row["limit"]), row["source"])
            for row in device_memory()
        ]
        sections.append(Section("device memory", ("device", "in use", "peak", "limit", "source"), rows))
    return sections


def precision(arguments: list[str]) -> list[Section] | str:
    """`default`, `high` or `highest`: the matmul precision of defns created from now on."""
    if len(arguments) > 1:
        return "numbat: %numbat precision takes one of default, high, highest"
    if arguments:
        try:
            _config.precision_name(arguments[0])
        except ArgumentError as error:
            return _one_line(error)
        _options.global_default_defn_options({**_options.global_default_defn_options(), "precision": arguments[0]})
    current = _options.effective({}).get("precision", "default")
    rows = [("*" if name == current else "", name, *meanings) for name, meanings in PRECISION_MEANINGS.items()]
    note = (
        f"defns created from now on compile with precision {current!r} (marked *); it changes float32 "
        "matrix products and convolutions only, and only on GPUs and TPUs"
    )
    return [Section("precision", ("", "setting", "CPU", "NVIDIA GPU", "TPU"), rows, note)]


def interruptible(arguments: list[str]) -> str:
    """`on` or `off`: whether the while_loops of defns created from now on stop on Ctrl-C
    (Jupyter's "Interrupt kernel") and a live view's Stop button (the defn option
    `interruptible`); with no argument, says which."""
    if len(arguments) > 1 or (arguments and arguments[0] not in ("on", "off")):
        return "numbat: %numbat interruptible takes on or off"
    if arguments:
        _options.global_default_defn_options(
            {**_options.global_default_defn_options(), "interruptible": arguments[0] == "on"}
        )
    on = _options.effective({}).get("interruptible", False)
    return f"numbat: the while_loops of defns created from now on are {'' if on else 'not '}interruptible" + (
        " (Ctrl-C or Interrupt kernel stops them with numbat.Interrupted)" if on else ""
    )


# What each matmul precision computes a float32 product in, per platform (jax.lax.Precision).
PRECISION_MEANINGS = {
    "default": ("float32", "tensorfloat32 (Ampere and newer)", "one bfloat16 pass"),
    "high": ("float32", "tensorfloat32", "three bfloat16 passes"),
    "highest": ("float32", "float32", "float32"),
}


def _bytes(count: int | None) -> str:
    if count is None:  # a figure the device's allocator does not keep (the host's peak)
        return "not tracked"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if count < 1024 or unit == "GiB":
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1024
    return f"{count} B"
