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

from ._heatmap_png import escape

MAX_NODES = 150  # boxes drawn at most; the rest are summarized in the caption
PER_ROW = 8  # boxes per row before a layer wraps
MAX_CHARS = 30  # longest text line in a box
MAX_DEPTH = 3  # sub-graphs nested deeper are counted, not drawn

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
.numbat-expr .nbt-frame{fill:none;stroke:#7d68b3;stroke-dasharray:5 3}
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
.numbat-expr .nbt-frame{stroke:#a995e0}
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
    "nbt-frame": {"fill": "none", "stroke": "#7d68b3", "stroke-dasharray": "5 3"},
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


def _namer(expr, naming: dict):
    """How nodes of `expr` are written: as in the printed form of the whole graph
    (`naming`, from `Expr.naming()`), else by `expr`'s own letters."""
    printed = naming.get(id(expr))

    def ref(by_id: dict, node_id: int) -> str:
        node = by_id.get(node_id)
        if node is None:
            return "?"
        if printed is not None:
            try:
                return printed(node_id)
            except KeyError:
                return "?"
        return str(node.value) if expr.is_inline(node) else expr.letters.get(node_id, "?")

    return ref


def _labels(expr, by_id: dict, node, outputs: dict, kernel: str | None = None, ref=None) -> tuple[str, str, str, str]:
    """(title, type header, detail line, css class) of one box; `kernel` (the
    XLA fusion computing the node) leads the detail line."""
    _ref = ref or _namer(expr, {})
    header = str(node.template)
    letter = _ref(by_id, node.id)
    if node.op == "parameter":
        title, detail, kind = f"parameter {letter}:{node.value}", "", "nbt-param"
    elif node.op == "constant":
        title = "constant" if expr.is_inline(node) else f"{letter} = tensor"
        detail, kind = str(node.value), "nbt-const"
    else:
        title, kind, items = f"{letter} = {node.op}", "", []
        inline = any(arg in by_id and expr.is_inline(by_id[arg]) for arg in node.args)
        if inline or node.params:
            items = [_ref(by_id, arg) for arg in node.args]
            items += [f"{key}: {_param_text(value)}" for key, value in node.params]
        detail = ", ".join(items)
    if node.id in outputs:
        kind = (kind + " nbt-out").strip()
    if kernel is not None:
        detail = f"[{kernel}] {detail}".strip()
    return title, header, detail, kind


def _kept(expr, drawable: list, limit: int = MAX_NODES) -> tuple[list, int]:
    """The nodes to draw: all of them, or past `limit` those nearest the outputs."""
    if len(drawable) <= limit:
        return drawable, 0
    allowed = set(drawable)
    by_id = {n.id: n for n in expr.nodes}
    seen, order, queue = set(), [], [o for o in expr.outputs if o in allowed]
    while queue and len(order) < limit:
        next_queue = []
        for node_id in queue:
            if node_id in seen or len(order) >= limit:
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


def expr_svg(expr, kernels: dict | None = None, limit: int | None = None, heat: dict | None = None) -> str:
    """The SVG drawing of `expr`: one box per named node (letter and op, type
    header; parameters, constants and outputs styled apart), edges with arrows
    from inputs to the ops that use them. A node that carries sub-graphs (a
    cond's branches, a loop's condition and body, a grad's function) has each
    drawn in a dashed frame to the right, linked to it. `kernels` maps node
    ids to the XLA kernel (fusion) that computes them, shown in each box;
    `limit` overrides `MAX_NODES`; `heat` maps node ids to a share (0 to 1) of
    the time, and shades each box by it (a profile's view).

    >>> import xml.etree.ElementTree as ET
    >>> ET.fromstring(expr_svg(nbt.debug_expr(lambda t: -t)(nbt.tensor([1])))).tag
    '{http://www.w3.org/2000/svg}svg'
    """
    naming = expr.naming() if hasattr(expr, "naming") else {}
    width, height, parts = _drawing(expr, kernels or {}, MAX_NODES if limit is None else limit, 0, naming, heat or {})
    caption = _text(_caption(expr, {n.id: n for n in expr.nodes}, *_counts(expr, limit)), 200)
    return "".join(
        [
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
            *parts,
            "</svg>",
        ]
    )


def expr_bundle(expr, limit: int | None = None, kernels: dict | None = None, heat: dict | None = None) -> dict:
    """An Expr's mimebundle: its text form and its drawing. A graph with more boxes than
    the drawing shows also gets an HTML form: the drawing, then the whole graph as text
    in a `<details>` element to expand (no JavaScript), and how to draw every node.

    >>> sorted(expr_bundle(nbt.debug_expr(lambda t: -t)(nbt.tensor([1]))))
    ['image/svg+xml', 'text/plain']
    """
    text, svg = str(expr), expr_svg(expr, kernels=kernels, limit=limit, heat=heat)
    bundle = {"text/plain": text, "image/svg+xml": svg}
    _, hidden = _counts(expr, limit)
    if hidden:
        rows = len(expr.rows())
        bundle["text/html"] = (
            f"<div class='numbat-expr-large'>{svg}<details><summary>the whole graph as text ({rows} rows); "
            "<code>%numbat graph FUN ARGS --all</code> draws every node</summary>"
            f"<pre style='font-size:12px;max-height:480px;overflow:auto'>{escape(text)}</pre></details></div>"
        )
    return bundle


def subgraphs(node) -> tuple:
    """The `(label, Expr)` sub-graphs a node carries (`Node.subgraphs`: a cond's
    branches, a loop's condition and body, a grad's function); none on graphs
    recorded before the expression graph had them."""
    found = getattr(node, "subgraphs", ()) or ()
    return tuple((str(label), sub) for label, sub in found if hasattr(sub, "nodes") and hasattr(sub, "outputs"))


def size(expr) -> int:
    """Nodes in `expr` and, recursively, in its sub-graphs."""
    return len(expr.nodes) + sum(size(sub) for node in expr.nodes for _, sub in subgraphs(node))


def _counts(expr, limit) -> tuple[int, int]:
    drawable = [n.id for n in expr.nodes if not expr.is_inline(n) or n.id in expr.outputs]
    cap = MAX_NODES if limit is None else limit
    drawn = min(len(drawable), cap)
    return drawn, len(drawable) - drawn


def _drawing(expr, kernels: dict, limit: int, depth: int, naming: dict, heat: dict) -> tuple[float, float, list]:
    """(width, height, SVG elements) of `expr` with its sub-graphs, at the origin; `naming`
    writes nodes as the whole graph's printed form does."""
    by_id = {n.id: n for n in expr.nodes}
    outputs: dict[int, list[int]] = {}
    for position, node_id in enumerate(expr.outputs):
        outputs.setdefault(node_id, []).append(position)
    drawable = [n.id for n in expr.nodes if not expr.is_inline(n) or n.id in outputs]
    ids, hidden = _kept(expr, drawable, limit)
    named = set(drawable)
    kept = set(ids)
    preds = {i: list(dict.fromkeys(a for a in by_id[i].args if a in kept)) for i in ids}
    cut = {i for i in ids if any(a in by_id and a not in kept and a in named for a in by_id[i].args)}
    ref = _namer(expr, naming)
    labels = {i: _labels(expr, by_id, by_id[i], outputs, kernels.get(i), ref) for i in ids}
    badges = {i: "out " + ",".join(map(str, outputs[i])) for i in ids if i in outputs}
    layout = _Layout(ids, preds, labels, badges)
    caption = _text(_caption(expr, by_id, len(ids), hidden), 200)
    width, height = max(layout.width, _width(caption) * _CHAR + 2 * _MARGIN), layout.height
    parts = [
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
        shade = _shade(heat[i]) if i in heat else ""
        parts.append(
            f"<g><rect {_look('nbt-node ' + kind)}{shade} x='{x:.1f}' y='{y:.1f}' width='{box_w}' "
            f"height='{box_h}' rx='4'/>"
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
    return _with_subgraphs(expr, ids, layout, labels, naming, limit, depth, width, height, parts)


def _with_subgraphs(expr, ids, layout, labels, naming, limit, depth, width, height, parts):
    """`parts` with each node's sub-graphs framed in a column to the right."""
    by_id = {n.id: n for n in expr.nodes}
    frames = [(i, label, sub) for i in ids for label, sub in subgraphs(by_id[i])]
    if not frames:
        return width, height, parts
    x0, y = width + _GAP_X, 0.0
    right = width
    for i, label, sub in frames:
        title = _text(f"{labels[i][0]}: {label}")
        if depth >= MAX_DEPTH:
            inner_w, inner_h, inner = 12 * _CHAR + 2 * _MARGIN, _LINE + 2 * _MARGIN, []
            inner.append(
                f"<text {_look('nbt-dim')} x='{_MARGIN}' y='{_MARGIN + 10}'>{size(sub)} nodes, not drawn</text>"
            )
        else:
            inner_w, inner_h, inner = _drawing(sub, {}, limit, depth + 1, naming, {})  # kernels: top-level nodes
        frame_w = max(inner_w, _width(title) * _CHAR) + 2 * _PAD_X
        frame_h = inner_h + _CAPTION + _PAD_Y
        parts.append(
            f"<g><rect {_look('nbt-frame')} x='{x0:.1f}' y='{y + 0.5:.1f}' width='{frame_w:.1f}' "
            f"height='{frame_h:.1f}' rx='6'/>"
            f"<text {_look('nbt-title')} x='{x0 + _PAD_X:.1f}' y='{y + _PAD_Y + _FONT:.1f}'>{title}</text>"
            f"<g transform='translate({x0 + _PAD_X:.1f},{y + _CAPTION:.1f})'>{''.join(inner)}</g></g>"
        )
        start_x, start_y = layout.center[i] + layout.box_w / 2, layout.top[i] + layout.box_h / 2
        parts.append(
            f"<path {_look('nbt-edge nbt-cut')} d='M{start_x:.1f},{start_y:.1f} L{x0:.1f},{y + _CAPTION / 2:.1f}'/>"
        )
        right = max(right, x0 + frame_w)
        y += frame_h + _GAP_Y / 2
    return right + 1, max(height, y), parts


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


def _shade(share: float) -> str:
    """An inline fill (it overrides the theme's rule) whose strength is `share` of the time."""
    return f" style='fill:#e6550d;fill-opacity:{0.08 + 0.8 * min(max(float(share), 0.0), 1.0):.2f}'"


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
