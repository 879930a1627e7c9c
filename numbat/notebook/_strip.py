"""The telemetry strip: after a cell that compiled something, one compact line
per compilation (function, input signature, trace and compile time, and why
it recompiled) and the cache hits per function during the cell.

`CellWatcher` holds the per-shell state: `pre_run_cell` notes where the
telemetry log and counts stood, `post_run_cell` shows what happened since.
It only reads telemetry, so the strip itself never counts as numbat's work.

>>> from numbat import telemetry
>>> start, counts = telemetry.last_sequence(), telemetry.counts()
>>> telemetry.execute(telemetry.COMPILATION, {"eval_time": 1500, "compile_time": 20000, "total_time": 21500},
...                   {"function": "strip_example", "signature": "(f32[3])", "reason": "first call"})
>>> print(strip(telemetry.log(since=start, event=telemetry.COMPILATION), {})["text/plain"])
numbat: compiled strip_example (f32[3]): trace 1.5 ms, compile 20.0 ms
"""

from __future__ import annotations

import logging
import weakref

from .. import telemetry
from .._runtime import _client
from ._html import escape

# The shells where the extension is loaded: id -> (shell, watcher, magics), so loading
# twice registers nothing twice and the dashboard finds the shell's watcher.
loaded_extensions: dict[int, tuple] = {}

MAX_ROWS = 20  # compilations listed per cell; the rest are counted

_BOX = (
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:11px;line-height:1.5;"
    "color:inherit;border-left:3px solid rgba(128,128,128,0.5);padding:1px 8px;margin:2px 0;"
    "background:rgba(128,128,128,0.07);"
)
_DIM = "opacity:0.7;"


def _ms(microseconds) -> str:
    try:
        return f"{float(microseconds) / 1000:.1f} ms"
    except (TypeError, ValueError):
        return "? ms"


def hits_between(before: dict, after: dict) -> dict[str, int]:
    """Cache hits per function between two `telemetry.counts()` snapshots.

    >>> hits_between({"f": {"compilations": 1, "cache_hits": 2}}, {"f": {"compilations": 1, "cache_hits": 5}})
    {'f': 3}
    """
    hits = {}
    for function, count in after.items():
        new = count.get("cache_hits", 0) - before.get(function, {}).get("cache_hits", 0)
        if new > 0:
            hits[function] = new
    return hits


def strip(records: list, hits: dict[str, int]) -> dict[str, str]:
    """The mimebundle of the strip for compilation `records` and cache `hits`."""
    text, rows = [], []
    for record in records[:MAX_ROWS]:
        meta, measure = record.metadata, record.measurements
        function, signature = str(meta.get("function", "?")), str(meta.get("signature", ""))
        trace, compile_ = _ms(measure.get("eval_time")), _ms(measure.get("compile_time"))
        reason = meta.get("reason")
        again = reason not in (None, "first call")
        disk = bool(meta.get("cached_on_disk"))  # read back, not compiled: its "compile" time is the load's
        verb = "loaded" if disk else "recompiled" if again else "compiled"
        where = " from the disk cache" if disk else ""
        step = "load" if disk else "compile"
        line = f"numbat: {verb} {function} {signature}{where}: trace {trace}, {step} {compile_}"
        if again:
            line += f" ({reason})"
        text.append(line)
        rows.append(
            f"<div><span style='{_DIM}'>{verb}</span> <b>{escape(function)}</b> {escape(signature)}"
            + (f" <span style='{_DIM}'>{where.strip()}</span>" if disk else "")
            + f" <span style='{_DIM}'>trace</span> {escape(trace)} <span style='{_DIM}'>{step}</span> {escape(compile_)}"
            + (f" <span style='{_DIM}'>({escape(reason)})</span>" if again else "")
            + "</div>"
        )
    if len(records) > MAX_ROWS:
        more = len(records) - MAX_ROWS
        text.append(f"numbat: ... and {more} more compilation(s); see %numbat telemetry")
        rows.append(f"<div style='{_DIM}'>... and {more} more compilation(s); see %numbat telemetry</div>")
    if hits:
        listed = ", ".join(f"{function} {count}" for function, count in sorted(hits.items()))
        text.append(f"numbat: cache hits: {listed}")
        rows.append(f"<div><span style='{_DIM}'>cache hits</span> {escape(listed)}</div>")
    return {
        "text/plain": "\n".join(text),
        "text/html": f"<div class='numbat-strip' style='{_BOX}'>{''.join(rows)}</div>",
    }


_logger = logging.getLogger("numbat.notebook")


class CellWatcher:
    """The `pre_run_cell` / `post_run_cell` callbacks of one shell."""

    def __init__(self, shell):
        self.shell = shell
        self.start: int | None = None
        self.counts: dict = {}
        self._listeners: list = []  # weak references to callbacks(records, hits) run after each cell

    def listen(self, callback) -> None:
        """Calls `callback(records, hits)` after each cell, for as long as something else
        holds `callback` (a widget that closes stops being called)."""
        self._listeners.append(weakref.ref(callback))

    def pre_run_cell(self, info=None) -> None:
        store = getattr(info, "store_history", True)
        # `prompt_count` is this cell's number whether IPython increments the
        # execution count before the cell (9.10+) or after it (before 9.10).
        _client.current_cell = self.shell.displayhook.prompt_count if store else None
        self.start = telemetry.last_sequence()
        self.counts = telemetry.counts()

    enabled = True  # `%numbat telemetry off` hides the strip (the log goes on)

    def post_run_cell(self, result=None) -> None:
        if self.start is None:  # loaded during this cell: nothing was noted before it
            return
        records = telemetry.log(since=self.start, event=telemetry.COMPILATION)
        hits = hits_between(self.counts, telemetry.counts())
        self.start = None
        # Work between cells (widget callbacks, threads) belongs to no cell.
        _client.current_cell = None
        if records and self.enabled:
            from IPython.display import display

            display(strip(records, hits), raw=True)
        self._notify(records, hits)

    def _notify(self, records: list, hits: dict) -> None:
        alive = []
        for reference in self._listeners:
            callback = reference()
            if callback is None:
                continue
            alive.append(reference)
            try:
                callback(records, hits)
            except Exception as error:  # noqa: BLE001 - a broken listener must not break the cell
                _logger.warning("numbat: a telemetry listener failed and was removed: %r", error)
                alive.pop()
        self._listeners = alive
