"""The live telemetry dashboard: compilations, compile time and cache hits per
function, as bars and a table of the latest compilations. With the extension
loaded it redraws after each cell that compiled or hit the cache; without a
widget front-end it shows the same view as static HTML."""

from __future__ import annotations

from .. import telemetry
from .._tensor import _check
from ._html import escape
from ._strip import loaded_extensions
from ._tables import Section
from ._widget_box import box_class, ipywidgets

_BOX = "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;line-height:1.4;color:inherit;"
_DIM = "opacity:0.7;"
_BAR = "display:inline-block;height:10px;background:rgba(70,120,190,0.75);border-radius:2px;vertical-align:middle;"


def function_rows(since: int = 0) -> list[tuple[str, int, int, float]]:
    """(function, compilations, cache hits, compile ms) per function, most compile time first."""
    milliseconds: dict[str, float] = {}
    for record in telemetry.log(since=since, event=telemetry.COMPILATION):
        value = record.measurements.get("compile_time")
        name = str(record.metadata.get("function", "?"))
        milliseconds[name] = milliseconds.get(name, 0.0) + (value / 1000 if isinstance(value, (int, float)) else 0)
    rows = [
        (str(name), c["compilations"], c["cache_hits"], milliseconds.get(str(name), 0.0))
        for name, c in telemetry.counts().items()
    ]
    return sorted(rows, key=lambda row: (-row[3], row[0]))


def dashboard_text() -> str:
    """The dashboard as text: totals, then one line per function."""
    rows = function_rows()
    lines = [f"numbat telemetry: {sum(r[1] for r in rows)} compilation(s), {sum(r[2] for r in rows)} cache hit(s)"]
    lines += [f"  {name}: {count} compiled, {hits} hits, {ms:.1f} ms compiling" for name, count, hits, ms in rows]
    return "\n".join(lines)


def dashboard_html(limit: int = 10, live: bool = True) -> str:
    """Totals, a bar of compile time per function, and the last `limit` compilations."""
    rows = function_rows()
    longest = max((row[3] for row in rows), default=0.0) or 1.0
    totals = f"{sum(r[1] for r in rows)} compilation(s), {sum(r[3] for r in rows):.1f} ms compiling, "
    totals += f"{sum(r[2] for r in rows)} cache hit(s)"
    state = "updates after each cell" if live else "static view: %load_ext numbat and a widget front-end update it"
    parts = [
        f"<div><b>numbat telemetry</b> <span style='{_DIM}'>{escape(state)}</span></div>",
        f"<div>{totals}</div>",
        "<table style='border-collapse:collapse;margin:4px 0;font-size:inherit'>",
    ]
    for name, count, hits, ms in rows[:20]:
        width = max(1, round(160 * ms / longest))
        parts.append(
            f"<tr><td style='padding:0 8px 0 0;white-space:nowrap'>{escape(name)}</td>"
            f"<td><span style='{_BAR}width:{width}px'></span></td>"
            f"<td style='padding:0 8px;white-space:nowrap'>{ms:.1f} ms, {count} compiled, {hits} hits</td></tr>"
        )
    parts.append("</table>")
    parts.append(_recent(limit).html())
    return f"<div class='numbat-dashboard' style='{_BOX}overflow-x:auto'>{''.join(parts)}</div>"


def _recent(limit: int) -> Section:
    """The last `limit` compilations: function, signature, why, and the total time."""
    records = telemetry.log(event=telemetry.COMPILATION)[-limit:] if limit > 0 else []
    rows = []
    for record in reversed(records):  # the newest first
        total = record.measurements.get("total_time")
        time = f"{total / 1000:.1f} ms" if isinstance(total, (int, float)) else "?"
        meta = record.metadata
        rows.append((meta.get("function", "?"), meta.get("signature", ""), meta.get("reason", ""), time))
    note = "" if rows else "no compilations yet"
    return Section("latest compilations", ("function", "signature", "reason", "time"), rows, note)


def _watcher():
    """The cell watcher of the current IPython shell, when the extension is loaded there."""
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    entry = loaded_extensions.get(id(shell)) if shell is not None else None
    return entry[1] if entry is not None and entry[0] is shell else None


class _Redraw:
    """Redraws a dashboard view after a cell that compiled or hit the cache."""

    def __init__(self, view, limit: int):
        self.view, self.limit = view, limit

    def __call__(self, records: list, hits: dict) -> None:
        if records or hits:
            self.view.value = dashboard_html(self.limit)


def dashboard(limit: int = 10):
    """A live telemetry dashboard (an ipywidgets box): compilations and cache hits per
    function, compile time as bars, and the last `limit` compilations.

    >>> "numbat telemetry" in dashboard()._repr_mimebundle_()["text/html"]
    True
    """
    limit = _check.integer("dashboard", "limit", limit, minimum=0)
    widgets = ipywidgets()
    watcher = _watcher()
    view = widgets.HTML(value=dashboard_html(limit, live=watcher is not None))

    def static():
        return {"text/plain": dashboard_text(), "text/html": dashboard_html(limit, live=False)}

    box = box_class()([view], static)
    box.add_class("numbat-dashboard-widget")
    if watcher is not None:
        redraw = _Redraw(view, limit)
        box._keep.append(redraw)  # the watcher holds it weakly: it goes when the widget goes
        watcher.listen(redraw)
    box.view = view
    return box
