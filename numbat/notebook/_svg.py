"""An expression graph (`Expr`) drawn as self-contained SVG, laid out in pure
Python: no Graphviz, no JavaScript.

The layout is a layered DAG: a node's layer is the longest path to it from a
parameter or constant; layers run top to bottom, wrapped every `PER_ROW`
boxes; within a layer, nodes are ordered by the mean position of their inputs
(one barycenter pass), ties by node id. Past `MAX_NODES`, only the nodes
nearest the outputs are drawn and the caption says so. Scalar constants are
not boxes of their own: they show inline, in the line of the op that uses them.

>>> svg = expr_svg(nbt.debug_expr(lambda t: nbt.exp(t) * 2)(nbt.tensor([1.0])))
>>> svg.startswith("<svg"), "b = exp" in svg, "c = multiply" in svg
(True, True, True)
"""

from __future__ import annotations

import heapq
import html
import itertools
import re

MAX_NODES = 150  # boxes drawn at most; the rest are summarized in the caption
PER_ROW = 8  # boxes per row before a layer wraps
MAX_CHARS = 30  # longest text line in a box

_FONT = 12
_CHAR = 7.3  # width of a monospace character at _FONT px
_LINE = 15
_PAD_X, _PAD_Y = 8, 5
_GAP_X, _GAP_Y = 22, 34
_MARGIN = 14
_CAPTION = 22

_STYLE = """
.numbat-expr .nbt-bg{fill:#fcfcfc;stroke:#d4d4d4}
.numbat-expr .nbt-node{fill:#ffffff;stroke:#8c8c8c;stroke-width:1}
.numbat-expr .nbt-param{fill:#e6eef9;stroke:#5a7db3}
.numbat-expr .nbt-const{fill:#f1f1f1;stroke:#9a9a9a;stroke-dasharray:4 2}
.numbat-expr .nbt-out{stroke:#c26d00;stroke-width:2.5}
.numbat-expr .nbt-title{fill:#222222}
.numbat-expr .nbt-dim{fill:#6b6b6b}
.numbat-expr .nbt-badge{fill:#c26d00;font-size:10px}
.numbat-expr .nbt-edge{stroke:#8c8c8c;stroke-width:1.2;fill:none}
.numbat-expr .nbt-cut{stroke-dasharray:2 3}
.numbat-expr .nbt-arrow{fill:#8c8c8c}
@media (prefers-color-scheme: dark){
.numbat-expr .nbt-bg{fill:#1e1e1e;stroke:#444444}
.numbat-expr .nbt-node{fill:#2a2a2a;stroke:#9a9a9a}
.numbat-expr .nbt-param{fill:#1f3350;stroke:#7fa2d6}
.numbat-expr .nbt-const{fill:#333333;stroke:#8a8a8a}
.numbat-expr .nbt-out{stroke:#f0a030}
.numbat-expr .nbt-title{fill:#e6e6e6}
.numbat-expr .nbt-dim{fill:#a8a8a8}
.numbat-expr .nbt-badge{fill:#f0a030}
.numbat-expr .nbt-edge{stroke:#9a9a9a}
.numbat-expr .nbt-arrow{fill:#9a9a9a}
}
"""

_FAMILY = "ui-monospace,SFMono-Regular,Menlo,Consolas,monospace"
_PALETTE = {  # the light theme, also in _STYLE
    "nbt-bg": {"fill": "#fcfcfc", "stroke": "#d4d4d4"},
    "nbt-node": {"fill": "#ffffff", "stroke": "#8c8c8c", "stroke-width": "1"},
    "nbt-param": {"fill": "#e6eef9", "stroke": "#5a7db3"},
    "nbt-const": {"fill": "#f1f1f1", "stroke": "#9a9a9a", "stroke-dasharray": "4 2"},
    "nbt-out": {"stroke": "#c26d00", "stroke-width": "2.5"},
    "nbt-title": {"fill": "#222222"},
    "nbt-dim": {"fill": "#6b6b6b"},
    "nbt-badge": {"fill": "#c26d00", "font-size": "10"},
    "nbt-edge": {"stroke": "#8c8c8c", "stroke-width": "1.2", "fill": "none"},
    "nbt-cut": {"stroke-dasharray": "2 3"},
    "nbt-arrow": {"fill": "#8c8c8c"},
}

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffe\uffff]")


def _text(value, limit: int = MAX_CHARS) -> str:
    """One line of escaped text: control characters (invalid in XML) replaced,
    whitespace collapsed, cut at `limit` characters."""
    text = " ".join(_CONTROL.sub("?", str(value)).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return html.escape(text, quote=True)


def _param_text(value) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_param_text(v) for v in value) + "]"
    if isinstance(value, slice):
        return f"{value.start}:{value.stop}" + (f":{value.step}" if value.step not in (None, 1) else "")
    return repr(value)


def _ref(expr, by_id: dict, node_id: int) -> str:
    node = by_id.get(node_id)
    if node is None:
        return "?"
    return str(node.value) if expr.is_inline(node) else expr.letters.get(node_id, "?")


def _labels(expr, by_id: dict, node, outputs: dict) -> tuple[str, str, str, str]:
    """(title, type header, detail line, css class) of one box."""
    header = str(node.template)
    letter = _ref(expr, by_id, node.id)
    if node.op == "parameter":
        title, detail, kind = f"parameter {letter}:{node.value}", "", "nbt-param"
    elif node.op == "constant":
        title = "constant" if expr.is_inline(node) else f"{letter} = tensor"
        detail, kind = str(node.value), "nbt-const"
    else:
        title, kind, items = f"{letter} = {node.op}", "", []
        inline = any(arg in by_id and expr.is_inline(by_id[arg]) for arg in node.args)
        if inline or node.params:
            items = [_ref(expr, by_id, arg) for arg in node.args]
            items += [f"{key}: {_param_text(value)}" for key, value in node.params]
        detail = ", ".join(items)
    if node.id in outputs:
        kind = (kind + " nbt-out").strip()
    return title, header, detail, kind


def _kept(expr, drawable: list) -> tuple[list, int]:
    """The nodes to draw: all of them, or past MAX_NODES those nearest the outputs."""
    if len(drawable) <= MAX_NODES:
        return drawable, 0
    allowed = set(drawable)
    by_id = {n.id: n for n in expr.nodes}
    seen, order, queue = set(), [], [o for o in expr.outputs if o in allowed]
    while queue and len(order) < MAX_NODES:
        next_queue = []
        for node_id in queue:
            if node_id in seen or len(order) >= MAX_NODES:
                continue
            seen.add(node_id)
            order.append(node_id)
            next_queue.extend(a for a in sorted(by_id[node_id].args, reverse=True) if a in allowed)
        queue = next_queue
    return sorted(order), len(drawable) - len(order)


def _layers(ids: list, preds: dict) -> dict[int, int]:
    """Longest path from a source, in a topological order with ties by id."""
    indegree = {i: len(preds[i]) for i in ids}
    succs: dict[int, list] = {i: [] for i in ids}
    for i in ids:
        for p in preds[i]:
            succs[p].append(i)
    heap = [i for i in ids if indegree[i] == 0]
    heapq.heapify(heap)
    layer = {}
    while heap:
        i = heapq.heappop(heap)
        layer[i] = 1 + max((layer[p] for p in preds[i]), default=-1)
        for s in succs[i]:
            indegree[s] -= 1
            if indegree[s] == 0:
                heapq.heappush(heap, s)
    for i in ids:  # a cycle cannot happen in a trace; never loop on one anyway
        layer.setdefault(i, 0)
    return layer


def expr_svg(expr) -> str:
    """The SVG drawing of `expr`: one box per named node (letter and op, type
    header; parameters, constants and outputs styled apart), edges with arrows
    from inputs to the ops that use them.

    >>> import xml.etree.ElementTree as ET
    >>> ET.fromstring(expr_svg(nbt.debug_expr(lambda t: -t)(nbt.tensor([1])))).tag
    '{http://www.w3.org/2000/svg}svg'
    """
    by_id = {n.id: n for n in expr.nodes}
    outputs: dict[int, list[int]] = {}
    for position, node_id in enumerate(expr.outputs):
        outputs.setdefault(node_id, []).append(position)
    drawable = [n.id for n in expr.nodes if not expr.is_inline(n) or n.id in outputs]
    ids, hidden = _kept(expr, drawable)
    named = set(drawable)
    kept = set(ids)
    preds = {i: list(dict.fromkeys(a for a in by_id[i].args if a in kept)) for i in ids}
    cut = {i for i in ids if any(a in by_id and a not in kept and a in named for a in by_id[i].args)}
    labels = {i: _labels(expr, by_id, by_id[i], outputs) for i in ids}
    badges = {i: "out " + ",".join(map(str, outputs[i])) for i in ids if i in outputs}
    layout = _Layout(ids, preds, labels, badges)
    caption = _text(_caption(expr, by_id, len(ids), hidden), 200)
    width, height = layout.width, layout.height
    parts = [
        (
            f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:g}' height='{height:g}' "
            f"viewBox='0 0 {width:g} {height:g}' class='numbat-expr' role='img' "
            f"font-family='{_FAMILY}' font-size='{_FONT}'>"
        ),
        f"<title>{caption}</title>",
        f"<style>{_STYLE}</style>",
        (
            "<defs><marker id='numbat-arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='7' "
            f"markerHeight='7' orient='auto-start-reverse'><path {_look('nbt-arrow')} d='M0,0 L10,5 L0,10 z'/>"
            "</marker></defs>"
        ),
        f"<rect {_look('nbt-bg')} x='0.5' y='0.5' width='{width - 1:g}' height='{height - 1:g}' rx='6'/>",
        f"<text {_look('nbt-dim')} x='{_MARGIN}' y='{_MARGIN + 10}'>{caption}</text>",
    ]
    for i in ids:
        for p in preds[i]:
            parts.append(f"<path {_look('nbt-edge')} marker-end='url(#numbat-arrow)' d='{layout.route(p, i)}'/>")
        if i in cut:
            x, y = layout.center[i], layout.top[i]
            parts.append(f"<path {_look('nbt-edge nbt-cut')} d='M{x:.1f},{y - _GAP_Y / 2:.1f} L{x:.1f},{y:.1f}'/>")
    box_w, box_h = layout.box_w, layout.box_h
    for i in ids:
        title, header, detail, kind = labels[i]
        x, y = layout.center[i] - box_w / 2, layout.top[i]
        left, first = x + _PAD_X, y + _PAD_Y + _FONT
        parts.append(
            f"<g><rect {_look('nbt-node ' + kind)} x='{x:.1f}' y='{y:.1f}' width='{box_w}' height='{box_h}' rx='4'/>"
        )
        parts.append(f"<text {_look('nbt-title')} x='{left:.1f}' y='{first:.1f}'>{_text(title)}</text>")
        if i in badges:
            right = x + box_w - _PAD_X
            parts.append(
                f"<text {_look('nbt-badge')} x='{right:.1f}' y='{first:.1f}' text-anchor='end'>{_text(badges[i])}</text>"
            )
        parts.append(f"<text {_look('nbt-dim')} x='{left:.1f}' y='{first + _LINE:.1f}'>{_text(header)}</text>")
        if detail:
            parts.append(f"<text {_look('nbt-dim')} x='{left:.1f}' y='{first + 2 * _LINE:.1f}'>{_text(detail)}</text>")
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)


class _Layout:
    """Box size, rows, and each box's center and top; `route` draws an edge."""

    def __init__(self, ids: list, preds: dict, labels: dict, badges: dict):
        lines = 3 if any(detail for _, _, detail, _ in labels.values()) else 2
        widths = [12]
        for i, (title, header, detail, _) in labels.items():
            badge = len(badges[i]) + 2 if i in badges else 0
            widths += [_width(title) + badge, _width(header), _width(detail)]
        self.box_w = round(max(widths) * _CHAR + 2 * _PAD_X)
        self.box_h = lines * _LINE + 2 * _PAD_Y
        self.step_x = self.box_w + _GAP_X
        self.preds = preds
        layer = _layers(ids, preds)
        by_layer: dict[int, list[int]] = {}
        for i in ids:
            by_layer.setdefault(layer[i], []).append(i)
        columns = min(PER_ROW, max((len(v) for v in by_layer.values()), default=1))
        self.width = 2 * _MARGIN + columns * self.step_x - _GAP_X
        self.center: dict[int, float] = {}
        self.top: dict[int, float] = {}
        self.row_of: dict[int, int] = {}
        self.rows: list[tuple[float, list[float]]] = []  # (top, sorted box centers) per row
        y = _MARGIN + _CAPTION
        for index in sorted(by_layer):
            members = by_layer[index]
            if index > 0:  # barycenter: under the mean position of the inputs
                members.sort(key=lambda i: (sum(self.center[p] for p in preds[i]) / max(len(preds[i]), 1), i))
            for start in range(0, len(members), PER_ROW):
                row = members[start : start + PER_ROW]
                x0 = _MARGIN + (columns - len(row)) * self.step_x / 2
                for k, i in enumerate(row):
                    self.center[i] = x0 + k * self.step_x + self.box_w / 2
                    self.top[i] = y
                    self.row_of[i] = len(self.rows)
                self.rows.append((y, [self.center[i] for i in row]))
                y += self.box_h + _GAP_Y
        self.height = y - _GAP_Y + _MARGIN if ids else 2 * _MARGIN + _CAPTION

    def route(self, source: int, target: int) -> str:
        """An edge from the bottom of `source` to the top of `target`: an
        S-curve across one gap; across rows in between, straight lines that
        pass a row through the gap between its boxes where they would hit one."""
        start = (self.center[source], self.top[source] + self.box_h)
        end = (self.center[target], self.top[target])
        between = self.rows[self.row_of[source] + 1 : self.row_of[target]]
        points = [start, *self._waypoints(start, end, between), end]
        path = [f"M{start[0]:.1f},{start[1]:.1f}"]
        for (xa, ya), (xb, yb) in itertools.pairwise(points):
            if xa == xb or yb - ya > _GAP_Y:
                path.append(f"L{xb:.1f},{yb:.1f}")
            else:  # within one gap between rows, where no box can be
                bend = (yb - ya) / 2
                path.append(f"C{xa:.1f},{ya + bend:.1f} {xb:.1f},{yb - bend:.1f} {xb:.1f},{yb:.1f}")
        return " ".join(path)

    def _waypoints(self, start: tuple, end: tuple, rows: list) -> list:
        (xa, ya), (xb, yb) = start, end
        for index, (top, centers) in enumerate(rows):
            low, high = top - 4, top + self.box_h + 4
            at = [xa + (xb - xa) * (y - ya) / max(yb - ya, 1) for y in (low, high)]
            reach = self.box_w / 2 + 4
            if not any(min(at) < c + reach and max(at) > c - reach for c in centers):
                continue
            lanes = [centers[0] - self.step_x / 2, centers[-1] + self.step_x / 2]
            lanes += [(a + b) / 2 for a, b in itertools.pairwise(centers)]
            middle = sum(at) / 2
            lane = min(lanes, key=lambda x: (abs(x - middle), x))
            into, out = (lane, low), (lane, high)
            before = self._waypoints(start, into, rows[:index])
            after = self._waypoints(out, end, rows[index + 1 :])
            return [*before, into, out, *after]
        return []


def _width(value) -> int:
    return len(html.unescape(_text(value)))


def _look(classes: str) -> str:
    """`class` plus the light palette as presentation attributes, so the
    drawing stays readable where a sanitizer drops the `<style>` element
    (its rules, when present, take precedence)."""
    names = classes.split()
    attributes = {}
    for name in names:
        attributes.update(_PALETTE.get(name, {}))
    text = " ".join(f"{key}='{value}'" for key, value in attributes.items())
    return f"class='{' '.join(names)}' {text}".rstrip()


def _caption(expr, by_id: dict, drawn: int, hidden: int) -> str:
    if len(expr.outputs) == 1 and expr.outputs[0] in by_id:
        result = str(by_id[expr.outputs[0]].template)
    else:
        result = "(" + ", ".join(str(by_id[o].template) for o in expr.outputs if o in by_id) + ")"
    caption = f"numbat.Expr {result}: {drawn + hidden} nodes"
    if hidden:
        caption += f", showing the {drawn} nearest the outputs"
    return caption
