"""The expression graph: a view of the numbat ops recorded while a defn traces.

Each op records its name, params, input nodes and output template; the
graph prints in Nx's letter format and draws as SVG in a notebook (the drawing is
installed on `Expr` by `numbat.notebook._display`).

>>> @nbt.defn
... def softmax(t):
...     return nbt.exp(t) / nbt.sum(nbt.exp(t))
>>> print(nbt.debug_expr(softmax)(nbt.tensor([1, 2])))
numbat.Expr<
  f32[2]
<BLANKLINE>
  parameter a:0                               s32[2]
  b = exp [ a ]                               f32[2]
  c = exp [ a ]                               f32[2]
  d = sum [ c, axes: [0], keep_axes: False ]  f32
  e = divide [ b, d ]                         f32[2]
>
"""

from __future__ import annotations

import contextvars
import functools
import re
import typing

import jax
import numpy as np

from .._core import _format
from .._core._scoped import scoped
from . import _check, _tensor
from ._tensor import Template, Tensor, array_of


@typing.final
class Node(typing.NamedTuple):
    """One value in the graph: a parameter, a constant, or an op's result (immutable; a
    named tuple, as a trace makes one per op)."""

    id: int
    op: str
    args: tuple[int, ...]
    params: tuple[tuple[str, object], ...]
    template: Template
    value: object = None  # a parameter's position; a constant's number or values; an outer node's id
    subgraphs: tuple = ()  # (label, Expr) pairs: a cond's branches, a loop's body, a grad's function


def _param_text(value) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_param_text(v) for v in value) + "]"
    if isinstance(value, slice):
        return f"{value.start}:{value.stop}" + (f":{value.step}" if value.step != 1 else "")
    if callable(value):  # a reduce's function: its name, not its address (Nx prints &Nx.add/2)
        return getattr(value, "__name__", type(value).__name__)
    return repr(value)


def _letters(index: int) -> str:
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


@typing.final
class Expr:
    """The recorded graph of a defn's outputs. `str(expr)` is Nx's letter
    format; in a notebook it also draws as SVG.

    `nodes` are in the order they were recorded (each node's `args` are ids of
    earlier nodes) and `outputs` are the ids of the results. A node of a
    control-flow or grad op carries `subgraphs`, `(label, Expr)` pairs: a cond's
    branches (`"true"`/`"false"`, or `"clause i"` and `"otherwise"`), a loop's
    `"condition"` and `"body"`, a grad's differentiated function (`"of"`); the
    printed form heads each with its label and results (`true -> e:`). A sub-graph's `parameter`
    nodes are the operands or loop state it receives; a value it uses from the
    enclosing graph is an `outer` node whose `value` is the id of that node in the
    enclosing Expr. Letters run on through the sub-graphs, so every line of the
    printed form names one value; `letters` maps this graph's own node ids to them.
    """

    def __init__(self, nodes: tuple[Node, ...], outputs: tuple[int, ...], limit: int | None = None):
        self.nodes = nodes
        self.outputs = outputs
        self.limit = limit  # rows the text form shows (the last ones); None shows all
        self._by_id = {node.id: node for node in nodes}

    @functools.cached_property
    def _laid_out(self) -> tuple:
        # On first print: most traced graphs are never shown.
        refs: dict[int, typing.Callable] = {}
        rows, letters, _, _ = self._layout(0, None, refs)
        return rows, letters, refs

    def naming(self) -> dict[int, typing.Callable[[int], str]]:
        """For this graph and each sub-graph (by `id()`), how a node id is written in the
        printed form: letters run on through sub-graphs, and an `outer` node is written
        as the enclosing graph's letter."""
        return self._laid_out[2]

    @property
    def letters(self) -> dict[int, str]:
        """This graph's node ids to their letters in the printed form."""
        return self._laid_out[1]

    def is_inline(self, node: Node) -> bool:
        """Scalar constants print inline, as their value, and values from the enclosing
        graph as their letter there: neither has a line of its own."""
        return (node.op == "constant" and not node.template.shape) or node.op == "outer"

    def ref(self, node_id: int) -> str:
        """How node `node_id` is referred to: its letter, or an inline constant's value."""
        letter = self.letters.get(node_id)
        return str(self._by_id[node_id].value) if letter is None else letter

    def rows(self) -> list[tuple[str, str]]:
        """One `(expression, type header)` pair per named node, in order, with each
        sub-graph's rows indented under the node that owns it."""
        return list(self._laid_out[0])

    def _layout(self, start: int, outer_ref, refs: dict) -> tuple:
        """The rows and letters of this graph, lettered from `start`; `outer_ref` names
        the enclosing graph's nodes. Returns the next free letter index and this
        graph's naming function too, which `refs` also collects by the graph's `id()`."""
        letters: dict[int, str] = {}
        rows: list[tuple[str, str]] = []
        # a lone scalar constant result gets a row (nothing else would show its value)
        shown = self.outputs if outer_ref is None and len(self.outputs) == 1 else ()

        def ref(node_id: int) -> str:
            node = self._by_id[node_id]
            if node.op == "outer":
                return outer_ref(node.value) if outer_ref is not None else "?"
            return letters[node_id] if node_id in letters else str(node.value)

        refs[id(self)] = ref
        index = start
        for node in self.nodes:
            if self.is_inline(node) and node.id not in shown:
                continue
            letter = letters[node.id] = _letters(index)
            index += 1
            header = str(node.template)
            if node.op == "parameter":
                rows.append((f"parameter {letter}:{node.value}", header))
            elif node.op == "constant":
                rows.append((f"{letter} = tensor [ {node.value} ]", header))
            else:
                items = [ref(arg) for arg in node.args]
                items += [f"{key}: {_param_text(value)}" for key, value in node.params]
                rows.append((f"{letter} = {node.op} [ {', '.join(items)} ]", header))
                for label, sub in node.subgraphs:
                    sub_rows, _, index, sub_ref = sub._layout(index, ref, refs)
                    rows.append((f"    {label} -> {', '.join(sub_ref(o) for o in sub.outputs)}:", ""))
                    rows.extend((f"      {left}", sub_header) for left, sub_header in sub_rows)
        return rows, letters, index, ref

    def __str__(self) -> str:
        return self.format()

    def format(self, limit: int | None = None) -> str:
        """The letter format; with `limit` (default: the Expr's own `limit`), only the
        last `limit` rows, after a line that counts the ones left out.

        >>> expr = nbt.debug_expr(lambda t: nbt.exp(nbt.sin(t)) + 1)(nbt.tensor([1.0]))
        >>> print(expr.format(limit=1))
        numbat.Expr<
          f32[1]
        <BLANKLINE>
          ... 3 earlier rows left out ...
          d = add [ c, 1.0 ]                        f32[1]
        >
        """
        limit = self.limit if limit is None else limit
        rows = self.rows()
        if limit is not None and len(rows) > limit:
            rows = [(f"... {len(rows) - limit} earlier rows left out ...", "")] + rows[len(rows) - limit :]
        width = max((len(left) for left, _ in rows), default=0)
        width = max(width, 40)
        by_id = self._by_id
        if len(self.outputs) == 1:
            top = str(by_id[self.outputs[0]].template)
        else:
            top = "(" + ", ".join(self.ref(o) for o in self.outputs) + ")"
        body = [f"  {left.ljust(width)}  {header}".rstrip() for left, header in rows]
        return "\n".join(["numbat.Expr<", "  " + top, "", *body, ">"])

    __repr__ = __str__


class ConstantValue:
    """A constant's values, formatted as Nx prints them when first shown: a trace
    records many constants (every scalar operand) and prints few of them."""

    __slots__ = ("_text", "_type", "_values")

    def __init__(self, values, type_):
        self._values, self._type, self._text = values, type_, None

    def __str__(self) -> str:
        if self._text is None:
            values = self._values
            if values.shape:  # on one line: a graph's row holds it
                text = _format.values(values, self._type, limit=5)
                self._text = re.sub(r"\n\s*", "", re.sub(r",\n\s*", ", ", text))
            else:
                self._text = _format.number(values[()], self._type)
        return self._text

    def __repr__(self) -> str:
        return str(self)

    def __eq__(self, other) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))


_BACKEND_HINTS = frozenset({"for_shift"})  # params no public op takes


class Recorder:
    """Collects the nodes of one trace, keyed by the identity of each tensor's data.
    A sub-graph's recorder (a branch, a loop body, a differentiated function) has the
    enclosing one as `parent`: a value recorded there becomes an `outer` node."""

    def __init__(self, parent: Recorder | None = None):
        self.nodes: list[Node] = []
        self.parent = parent
        self._ids: dict[int, int] = {}
        self._alive: list = []  # keeps traced data alive so `id()`s stay unique

    def _add(self, tensor: Tensor, op: str, args=(), params=(), value=None, subgraphs=()) -> int:
        data, nodes = tensor.data, self.nodes
        node_id = len(nodes)
        template = Template(tuple(data.shape), tensor.type, tensor.names)
        nodes.append(Node(node_id, op, tuple(args), tuple(params), template, value, tuple(subgraphs)))
        self._ids[id(data)] = node_id
        self._alive.append(data)
        return node_id

    def known(self, tensor: Tensor) -> int | None:
        """The node of `tensor` here or in an enclosing graph (as an `outer` node), or None."""
        found = self._ids.get(id(tensor.data))
        if found is None and self.parent is not None:
            outer = self.parent.known(tensor)
            if outer is not None:
                found = self._add(tensor, "outer", value=outer)
        return found

    def parameter(self, tensor: Tensor, position: int) -> None:
        self._add(tensor, "parameter", value=position)

    def alias(self, inner: Tensor, outer: Tensor) -> None:
        """Makes `inner` (e.g. the tracer `jax.grad` wraps around `outer`) the same node."""
        self._ids[id(inner.data)] = self.node(outer)
        self._alive.append(inner.data)

    def node(self, tensor: Tensor) -> int:
        """The node of `tensor`, recording it as a constant if it was never seen."""
        found = self._ids.get(id(tensor.data))  # the common case, before `known` looks further out
        if found is not None:
            return found
        found = self.known(tensor)
        if found is not None:
            return found
        data = tensor.data
        if isinstance(array_of(tensor), jax.core.Tracer):
            return self._add(tensor, "constant", value="?")
        # A scalar operand's host data is already the values to show (and needs no copy).
        return self.constant(tensor, data if type(data) is np.ndarray else tensor.to_numpy())

    def constant(self, tensor: Tensor, values) -> int:
        """Records `tensor` as a constant built from host `values` (a NumPy array)."""
        return self._add(tensor, "constant", value=ConstantValue(values, tensor.type))

    def record(self, op: str, inputs: tuple, params: dict, result: Tensor, subgraphs=()) -> None:
        """Records op `op` over `inputs` giving `result`; `subgraphs` are `(label, Expr)` pairs.
        A backend hint (how to compute, not what: logsumexp's `for_shift`) is left out."""
        args = tuple(map(self.node, inputs))  # first: a constant input gets its node before the result
        shown = [(key, value) for key, value in params.items() if key not in _BACKEND_HINTS]
        self._add(result, op, args, shown, subgraphs=subgraphs)

    def record_many(self, op: str, inputs: tuple, params: dict, results: list, subgraphs=()) -> None:
        """Records an op with several results (a loop's state, a cond's container): one node
        for the first result, and an `elem` node for each other, as Nx prints them."""
        self.record(op, inputs, params, results[0], subgraphs)
        first = self.node(results[0])
        for index, result in enumerate(results[1:], start=1):
            self._add(result, "elem", (first,), (("index", index),))

    def expr(self, outputs: list[Tensor]) -> Expr:
        """The graph reaching `outputs`, pruned of nodes they don't use."""
        out_ids = tuple(self.node(t) for t in outputs)
        needed, stack = set(), list(out_ids)
        while stack:
            node_id = stack.pop()
            if node_id not in needed:
                needed.add(node_id)
                stack.extend(self.nodes[node_id].args)
        return Expr(tuple(n for n in self.nodes if n.id in needed or n.op == "parameter"), out_ids)


_current: contextvars.ContextVar[Recorder | None] = _tensor.recording  # the recorder of the defn tracing now


def current() -> Recorder | None:
    """The recorder of the defn being traced, if any."""
    return _current.get()


def recording(recorder: Recorder):
    """Makes `recorder` collect the ops run inside the `with` block."""
    return scoped(_current, recorder)


def inspect_expr(tensor: Tensor) -> Expr:
    """The expression that computes `tensor` inside a defn (a constant outside one).

    >>> nbt.inspect_expr(nbt.tensor([1, 2]))
    numbat.Expr<
      s32[2]
    <BLANKLINE>
      a = tensor [ [1, 2] ]                     s32[2]
    >
    """
    _check.tensor("inspect_expr", "tensor", tensor)
    recorder = current() or Recorder()
    return recorder.expr([tensor])


def print_expr(tensor: Tensor, label: str | None = None) -> Tensor:
    """Prints `tensor`'s expression while the defn traces, after `label: ` if given (as
    print_value); returns `tensor`.

    >>> @nbt.defn
    ... def double(t):
    ...     return nbt.print_expr(t * 2)
    >>> _ = double(nbt.tensor([1.0]))
    numbat.Expr<
      f32[1]
    <BLANKLINE>
      parameter a:0                             f32[1]
      b = multiply [ a, 2.0 ]                   f32[1]
    >
    """
    expr = inspect_expr(tensor)
    print(f"{label}: {expr}" if label else expr)
    return tensor
