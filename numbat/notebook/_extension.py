"""Loading and unloading the extension: `%load_ext numbat` registers the `%numbat`
magics and the cell hooks that show the telemetry strip (and, when the environment
variable `NUMBAT_INTERRUPTIBLE` is 1, as a kernel spec's "env" can set it, makes defns
interruptible, as `%numbat interruptible on` does); `%unload_ext numbat` removes
exactly what loading registered. This module imports IPython (the magics subclass its
`Magics`), so it loads with the extension, not with `import numbat`."""

from __future__ import annotations

import os

from .._core._errors import ArgumentError
from .._runtime import _client
from . import _settings
from ._magics import NumbatMagics
from ._progress import CompileProgress
from ._strip import CellWatcher, loaded_extensions

_progress: dict[int, CompileProgress] = {}  # the shells' "compiling ..." lines


def load(ip) -> None:
    """Registers the `%numbat` magics and the `pre_run_cell`/`post_run_cell` hooks on `ip`."""
    if not all(hasattr(ip, name) for name in ("register_magics", "events", "magics_manager")):
        raise ArgumentError(f"load_ipython_extension expects an IPython shell, got {type(ip).__name__}")
    if id(ip) in loaded_extensions and loaded_extensions[id(ip)][0] is ip:
        return
    if os.environ.get("NUMBAT_INTERRUPTIBLE") == "1":  # a kernel spec's "env" turns it on per kernel
        _settings.interruptible(["on"])
    watcher, magics = CellWatcher(ip), NumbatMagics(ip)
    ip.register_magics(magics)
    ip.events.register("pre_run_cell", watcher.pre_run_cell)
    ip.events.register("post_run_cell", watcher.post_run_cell)
    _progress[id(ip)] = progress = CompileProgress()
    progress.attach()
    loaded_extensions[id(ip)] = (ip, watcher, magics)


def unload(ip) -> None:
    """Removes what `load_ipython_extension` registered on `ip`."""
    entry = loaded_extensions.pop(id(ip), None)
    if entry is None or entry[0] is not ip:
        return
    _, watcher, magics = entry
    _progress.pop(id(ip)).detach()
    for event, callback in (
        ("pre_run_cell", watcher.pre_run_cell),
        ("post_run_cell", watcher.post_run_cell),
    ):
        if callback in ip.events.callbacks[event]:
            ip.events.unregister(event, callback)
    manager = ip.magics_manager
    for kind, table in magics.magics.items():
        for name, function in table.items():
            if manager.magics[kind].get(name) == function:
                del manager.magics[kind][name]
    if manager.registry.get(type(magics).__name__) is magics:
        del manager.registry[type(magics).__name__]
    _client.current_cell = None
