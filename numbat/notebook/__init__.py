"""The IPython extension: `%load_ext numbat` registers the `%numbat` magics and
the cell hooks that show the telemetry strip; `%unload_ext numbat` removes
them. Tensors and expressions render through their own `_repr_mimebundle_`
(HTML from `_html`, SVG from `_svg`), so no formatter is registered.
"""

from __future__ import annotations

from ..xla import _client
from ._dashboard import dashboard as dashboard
from ._explorer import explorer as explorer
from ._panel import panel as panel
from ._plots import heatmap as heatmap
from ._plots import histogram as histogram
from ._plots import telemetry_chart as telemetry_chart
from ._shards import shards as shards

# The public API: what `help()`, `import *`, tab completion and the API pages list.
__all__ = [
    "dashboard",
    "explorer",
    "heatmap",
    "histogram",
    "load_ipython_extension",
    "panel",
    "shards",
    "telemetry_chart",
    "unload_ipython_extension",
]

# One (shell, watcher, magics) per shell, so loading twice registers nothing twice.
# IPython is imported only when the extension loads: the renderers don't need it.
_loaded: dict[int, tuple] = {}


def load_ipython_extension(ip) -> None:
    """Registers the `%numbat` magics and the `pre_run_cell`/`post_run_cell` hooks on `ip`."""
    if not all(hasattr(ip, name) for name in ("register_magics", "events", "magics_manager")):
        from .._errors import ArgumentError

        raise ArgumentError(f"load_ipython_extension expects an IPython shell, got {type(ip).__name__}")
    if id(ip) in _loaded and _loaded[id(ip)][0] is ip:
        return
    from ._magics import NumbatMagics
    from ._strip import CellWatcher

    watcher, magics = CellWatcher(ip), NumbatMagics(ip)
    ip.register_magics(magics)
    ip.events.register("pre_run_cell", watcher.pre_run_cell)
    ip.events.register("post_run_cell", watcher.post_run_cell)
    _loaded[id(ip)] = (ip, watcher, magics)


def unload_ipython_extension(ip) -> None:
    """Removes what `load_ipython_extension` registered on `ip`."""
    entry = _loaded.pop(id(ip), None)
    if entry is None or entry[0] is not ip:
        return
    _, watcher, magics = entry
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
