"""Control flow: `cond`, `while_loop` and `fori_loop`, on `jax.lax` over the Tensor pytree.

Inside a defn they compile to XLA's conditional and while ops and are recorded as
one node whose sub-graphs are the branches or the loop body. Outside a defn they
run eagerly, with the same result types: `cond` merges its branches' types (and
broadcasts their shapes) as Nx does, so the compiled and eager results agree.
"""

from __future__ import annotations

import functools

import jax
from jax.experimental import io_callback

from .._core import _format, _names, _shape, _types
from .._core._errors import ArgumentError
from .._core._scoped import scoped
from .._ops._convert import tensor as new_tensor
from .._ops._convert import to_tensor
from .._ops.primitive.creation import as_type, broadcast
from .._tensor import _check, _expr
from .._tensor._tensor import Template, Tensor, array_of, is_tensor
from ..backends import _default
from ..backends.xla_backend import XLABackend
from . import _effects, _interrupt, _vectorized_control


def _tensor(value, backend) -> Tensor:
    return to_tensor(value, backend)


def _leaves(tree) -> tuple[list, object]:
    _check.nesting("a control-flow state", tree)
    return jax.tree_util.tree_flatten(tree, is_leaf=is_tensor)


def _as_state(tree, backend, what: str):
    """`tree` with every number and array as a tensor; anything else is an error."""
    leaves, treedef = _leaves(tree)
    tensors = []
    for position, leaf in enumerate(leaves):
        if not isinstance(leaf, Tensor) and not _types.is_number(leaf) and not hasattr(leaf, "shape"):
            raise ArgumentError(f"{what}: leaf {position} is {type(leaf).__name__} {leaf!r}, expected a tensor")
        tensors.append(_tensor(leaf, backend))
    return jax.tree_util.tree_unflatten(treedef, tensors)


def _templates(tree) -> tuple:
    leaves, treedef = _leaves(tree)
    return treedef, tuple(Template(t.shape, t.type, t.names) for t in leaves)


def is_traced(tree) -> bool:
    return any(isinstance(array_of(leaf), jax.core.Tracer) for leaf in _leaves(tree)[0] if isinstance(leaf, Tensor))


def _placed(tree, backend):
    """`tree` with its concrete tensors on `backend`, the backend a traced loop runs on (a
    tensor captured from a NumPy-backend caller cannot hold a tracer)."""
    leaves, treedef = _leaves(tree)
    moved = [
        _default.transfer(leaf, backend)
        if leaf.backend is not backend and not isinstance(leaf.data, jax.core.Tracer)
        else leaf
        for leaf in leaves
    ]
    return jax.tree_util.tree_unflatten(treedef, moved)


def _predicate(pred, backend, where: str) -> Tensor:
    pred = _tensor(pred, backend)
    if pred.vectorized_axes:
        raise ArgumentError(
            f"{where}: the predicate is vectorized ({_format.vectorized_header(pred.vectorized_axes)}), so each entry "
            "could take a different branch; compute both and pick per entry with nbt.select(pred, on_true, on_false)"
        )
    if pred.shape != ():
        raise ArgumentError(
            f"{where}: the predicate must be a scalar tensor, got {_format.header(pred.type, pred.shape, pred.names)}; "
            "reduce it first, e.g. nbt.all(p) or nbt.any(p)"
        )
    return pred


def _abstract_outputs(fun, operands, backend, numbers: list | None = None, vectorized: list | None = None):
    """The output structure and templates of `fun(*operands)`, found by tracing it
    abstractly on XLA (nothing runs, nothing is recorded). `numbers`, if given, gets
    each result leaf that is a Python number (else None); `vectorized`, whether each
    result leaf is vectorized."""
    abstract_backend = backend if isinstance(backend, XLABackend) else XLABackend()
    leaves, treedef = _leaves(operands)
    structs = [jax.ShapeDtypeStruct(t.shape, t.type.dtype) for t in leaves]

    def run(*datas):
        inner = [Tensor(d, t.type, t.names, abstract_backend) for d, t in zip(datas, leaves)]
        with (
            _expr.recording(_expr.Recorder()),
            _default.default_backend(abstract_backend),
            scoped(_effects.abstract, True),
        ):
            out = fun(*jax.tree_util.tree_unflatten(treedef, inner))
            if numbers is not None:
                numbers.extend(leaf if _types.is_number(leaf) else None for leaf in _leaves(out)[0])
            out = _as_state(out, abstract_backend, "cond branch result")
        found["out"] = _templates(out)
        if vectorized is not None:
            vectorized.extend(bool(t.vectorized_axes) for t in _leaves(out)[0])
        return [array_of(t) for t in _leaves(out)[0]]

    found = {}
    with jax.enable_x64(True):
        jax.eval_shape(run, *structs)
    return found["out"]


def _merge(results: list, where: str) -> tuple:
    """The common structure and templates of every branch's result, as Nx merges them."""
    treedef, templates = results[0]
    for index, (other_treedef, others) in enumerate(results[1:], start=1):
        if other_treedef != treedef:
            raise ArgumentError(f"{where}: branch 0 returns {treedef} but branch {index} returns {other_treedef}")
        merged = []
        for position, (a, b) in enumerate(zip(templates, others)):
            try:
                shape = _shape.broadcast(a.shape, b.shape)
                names = _names.broadcast_names(a.shape, a.names, b.shape, b.names)
            except ArgumentError as error:
                raise ArgumentError(f"{where}: output {position} of the branches cannot merge ({a} and {b}): {error}")
            merged.append(Template(shape, _types.merge(a.type, b.type), names))
        templates = tuple(merged)
    return treedef, templates


def _weak_types(results: list, numbers: list, templates: tuple) -> tuple:
    """`templates` with the types of branch results that were Python numbers merged
    weakly, as Nx merges literals: the other branches' types decide, a literal widening
    them only if it does not fit (`if a, do: b, else: 0` keeps `b`'s u16)."""
    out = []
    for position, template in enumerate(templates):
        strong = [r[1][position].type for r, n in zip(results, numbers) if n[position] is None]
        literals = [n[position] for n in numbers if n[position] is not None]
        if not strong or not literals:
            out.append(template)
            continue
        type_ = strong[0]
        for other in strong[1:]:
            type_ = _types.merge(type_, other)
        for literal in literals:
            type_ = _types.merge_number(type_, literal)
        out.append(Template(template.shape, type_, template.names))
    return tuple(out)


def _conform(result, templates: tuple, backend):
    """`result` cast and broadcast to the merged `templates` (a Python number made a
    tensor of its template's type directly, so that 1.4 in an f64 result is f64's 1.4)."""
    raw, _ = _leaves(result)
    leaves, treedef = _leaves(_as_state(result, backend, "cond branch result"))
    leaves = [
        new_tensor(number, type=template.type, backend=backend) if _types.is_number(number) else leaf
        for number, leaf, template in zip(raw, leaves, templates)
    ]
    out = []
    for tensor, template in zip(leaves, templates):
        if tensor.type != template.type:
            tensor = as_type(tensor, template.type)
        if tensor.shape != template.shape or tensor.names != template.names:
            tensor = broadcast(tensor, template.shape, names=template.names)
        out.append(tensor)
    return jax.tree_util.tree_unflatten(treedef, out)


def cond(pred_or_clauses, *args):
    """Runs one branch, chosen at run time: `cond(pred, on_true, on_false, *operands)`
    or `cond([(pred, fun), ...], default_fun, *operands)` (the first true predicate
    wins). Each branch is called with `operands`; results merge to a common type.

    >>> @nbt.defn
    ... def safe_abs(x):
    ...     return nbt.cond(nbt.sum(x) < 0, lambda v: -v, lambda v: v, x)
    >>> safe_abs(nbt.tensor([-3, 1]))
    numbat.Tensor<
      s32[2]
      [3, -1]
    >
    >>> nbt.cond(nbt.tensor(1), lambda: 1, lambda: 2.5)
    numbat.Tensor<
      f32
      1.0
    >
    """
    if isinstance(pred_or_clauses, list):
        if not args:
            raise ArgumentError("cond([(pred, fun), ...], default_fun, *operands) needs a default function")
        clauses, (default, *operands) = pred_or_clauses, args
        for index, clause in enumerate(clauses):
            if not isinstance(clause, tuple) or len(clause) != 2 or not callable(clause[1]):
                raise ArgumentError(f"cond: clause {index} must be a (predicate, function) pair, got {clause!r}")
        preds, funs = [p for p, _ in clauses], [f for _, f in clauses] + [default]
    else:
        if len(args) < 2:
            raise ArgumentError("cond(pred, on_true, on_false, *operands) needs two branch functions")
        (on_true, on_false, *operands) = args
        preds, funs = [pred_or_clauses], [on_true, on_false]
    for fun in funs:
        if not callable(fun):
            raise ArgumentError(f"cond: branches must be functions, got {type(fun).__name__} {fun!r}")
    backend = _default.current()
    if any(_vectorized_control.is_vectorized(p) for p in preds):
        return _vectorized_control.cond(preds, funs, operands, backend, cond, _abstract_outputs)
    preds = [_predicate(p, backend, "cond") for p in preds]
    operands = _as_state(tuple(operands), backend, "cond operand")
    numbers, vectorized = [[] for _ in funs], []
    vectorized_operands = any(_vectorized_control.is_vectorized(leaf) for leaf in _leaves(operands)[0])
    if not vectorized_operands:
        results = [_abstract_outputs(f, operands, backend, found, vectorized) for f, found in zip(funs, numbers)]
    if vectorized_operands or any(vectorized):  # vectorized operands or results: their axes merge per entry
        return _vectorized_control.cond(preds, funs, operands, backend, cond, _abstract_outputs)
    _, templates = _merge(results, "cond")
    templates = _weak_types(results, numbers, templates)
    recorder = _expr.current()
    if recorder is None and not is_traced((preds, operands)):
        for pred, fun in zip(preds, funs):
            if pred.to_numpy().item():
                return _conform(fun(*operands), templates, backend)
        return _conform(funs[-1](*operands), templates, backend)
    return _traced_cond(preds, funs, operands, templates, backend, recorder)


def _traced_cond(preds, funs, operands, templates, backend, recorder):
    # The branch index: the first true predicate, or the default (the last branch).
    index = jax.numpy.asarray(len(preds), dtype="int32")
    for position in reversed(range(len(preds))):
        index = jax.numpy.where(preds[position].data != 0, position, index)
    graphs = []

    def branch(fun, label):
        def run(operands):
            sub = _expr.Recorder(parent=recorder)
            for position, leaf in enumerate(_leaves(operands)[0]):
                sub.parameter(leaf, position)
            with _expr.recording(sub), _default.default_backend(backend):
                result = _conform(fun(*operands), templates, backend)
            graphs.append((label, sub.expr(_leaves(result)[0])))
            return result

        return run

    labels = [f"clause {i}" for i in range(len(preds))] + ["otherwise"] if len(preds) > 1 else ["true", "false"]
    branches = [branch(f, label) for f, label in zip(funs, labels)]
    with jax.enable_x64(True):
        if len(preds) == 1:
            result = jax.lax.cond(preds[0].data != 0, branches[0], branches[1], operands)
        else:
            result = jax.lax.switch(index, branches, operands)
    if recorder is not None and _leaves(result)[0]:  # a cond returning an empty container has no node
        inputs = tuple(preds) + tuple(_leaves(operands)[0])
        recorder.record_many("cond", inputs, {}, _leaves(result)[0], subgraphs=tuple(graphs))
    return result


def _check_state(before: tuple, after: tuple, where: str) -> None:
    (treedef, templates), (new_treedef, new_templates) = before, after
    if treedef != new_treedef:
        raise ArgumentError(f"{where}: the body changed the state's structure from {treedef} to {new_treedef}")
    for position, (old, new) in enumerate(zip(templates, new_templates)):
        if old != new:
            raise ArgumentError(
                f"{where}: the body changed {_leaf_name(treedef, position)} from {old} to {new}; the loop state "
                "must keep its shapes, types and names (cast with nbt.as_type, or start from the final type)"
            )


def _leaf_name(treedef, position: int) -> str:
    """How leaf `position` of a state with structure `treedef` is written: `state`, `state[1]`, `state['x']`."""
    paths = jax.tree_util.tree_flatten_with_path(jax.tree_util.tree_unflatten(treedef, range(treedef.num_leaves)))[0]
    return "state" + jax.tree_util.keystr(paths[position][0])


def while_loop(condition, body, state, unroll: int = 1):
    """Runs `state = body(state)` while `condition(state)` is true and returns the
    final state (any container of tensors). With `unroll=n`, each compiled iteration
    runs the body up to `n` times. A compiled loop stops on Ctrl-C (Jupyter's "Interrupt
    kernel") or a live view's Stop button with `numbat.Interrupted` when it is
    interruptible: the defn option `interruptible=True`, or the default that the numbat
    kernel and `%numbat interruptible on` set (see `numbat._defn._interrupt`).

    >>> nbt.while_loop(lambda s: s[0] < 10, lambda s: (s[0] * 2, s[1] + 1), (nbt.tensor(1), nbt.tensor(0)))
    (numbat.Tensor<
      s32
      16
    >, numbat.Tensor<
      s32
      4
    >)
    """
    if not callable(condition) or not callable(body):
        raise ArgumentError("while_loop(condition, body, state) needs two functions")
    if not isinstance(unroll, int) or isinstance(unroll, bool) or unroll < 1:
        raise ArgumentError(f"while_loop: unroll must be a positive int, got {unroll!r}")
    backend = _default.current()
    state = _as_state(state, backend, "while_loop state")
    if any(_vectorized_control.is_vectorized(leaf) for leaf in _leaves(state)[0]):
        with _expr.recording(_expr.Recorder()):  # only its vectorized axes matter
            first = _tensor(condition(state), backend)
        if first.vectorized_axes:
            return _vectorized_control.while_loop(condition, body, state, first, while_loop, unroll)
    before = _templates(state)
    recorder = _expr.current()
    if recorder is None and not is_traced(state):
        return _eager_while(condition, body, state, backend, before)
    return _traced_while(condition, body, _placed(state, backend), backend, before, recorder, unroll)


def _traced_while(condition, body, state, backend, before: tuple, recorder, unroll: int):
    """`while_loop` as a `jax.lax.while_loop` inside a trace (a defn's, or a JAX
    transformation's), recorded as one `while` node with the condition's and the body's
    graphs when a defn records."""
    _check_state(before, _abstract_outputs(body, (state,), backend), "while_loop")
    graphs = []

    def test(state):
        sub = _expr.Recorder(parent=recorder)
        for position, leaf in enumerate(_leaves(state)[0]):
            sub.parameter(leaf, position)
        with _default.default_backend(backend), _expr.recording(sub):
            pred = _predicate(condition(state), backend, "while_loop condition")
        graphs.append(("condition", sub.expr([pred])))
        return pred.data != 0

    def step(state):
        sub = _expr.Recorder(parent=recorder)
        for position, leaf in enumerate(_leaves(state)[0]):
            sub.parameter(leaf, position)
        with _expr.recording(sub), _default.default_backend(backend):
            state = _as_state(body(state), backend, "while_loop body result")
            for _ in range(unroll - 1):  # the unrolled copies check the condition themselves
                state = cond(condition(state), body, lambda s: s, state)
        graphs.append(("body", sub.expr(_leaves(state)[0])))
        return state

    def graphs_of(label: str) -> list:
        return [graph for graph in graphs if graph[0] == label]

    label = _interrupt.label(body)
    with jax.enable_x64(True):
        final = jax.lax.while_loop(test, step, state) if label is None else _checked(test, step, state, label)
    if recorder is not None:
        params = {"unroll": unroll} if unroll > 1 else {}
        subgraphs = (graphs_of("condition")[-1], graphs_of("body")[-1])
        recorder.record_many("while", tuple(_leaves(state)[0]), params, _leaves(final)[0], subgraphs=subgraphs)
    return final


def _eager_while(condition, body, state, backend, before):
    """The loop run in Python (eagerly, or on the Evaluator), as an interruptible call of
    its own (`_interrupt.Scope`): a stop request for it, or Ctrl-C between or inside
    iterations, stops it with `numbat.Interrupted`."""
    count = 0
    try:
        with _interrupt.Scope() as call:
            while _predicate(condition(state), backend, "while_loop condition").to_numpy().item():
                if _interrupt.requested(call):
                    raise KeyboardInterrupt
                state = _as_state(body(state), backend, "while_loop body result")
                _check_state(before, _templates(state), "while_loop")
                count += 1
    except KeyboardInterrupt:
        raise _interrupt.interrupted(_interrupt.label(body, eager=True), count) from None
    return state


def _checked(test, step, state, label: str):
    """`jax.lax.while_loop(test, step, state)` that asks between strides whether to stop
    (see `_interrupt`): an inner loop runs up to `stride` steps, then a host callback
    returns the run's id and the next stride, 0 to stop, which the outer loop's condition
    reads; a loop that ends within a stride does not call back."""
    int32 = jax.numpy.int32  # 32-bit values keep the code 32-bit (jit's fast call path); Python counts

    def inner(carry):
        run, stride, state = carry

        def more(inner_carry):
            k, state = inner_carry
            return (k < stride) & test(state)

        def once(inner_carry):
            k, state = inner_carry
            return k + 1, step(state)

        k, state = jax.lax.while_loop(more, once, (int32(0), state))
        ask = functools.partial(_interrupt.check, label, _interrupt.raising())
        reply = jax.lax.cond(
            test(state),
            lambda: io_callback(ask, jax.ShapeDtypeStruct((2,), int32), run, k, stride),
            lambda: jax.numpy.stack([run, stride]),
        )
        return reply[0], reply[1], state

    _interrupt.traced_checks[0] += 1
    first = (int32(0), int32(_interrupt.FIRST_STRIDE), state)
    return jax.lax.while_loop(lambda carry: (carry[1] > 0) & test(carry[2]), inner, first)[2]


def fori_loop(start: int, stop: int, body, state):
    """Runs `state = body(i, state)` for `i` in `range(start, stop)` and returns the
    final state. With Python int bounds it is differentiable (JAX lowers it to a scan).

    >>> nbt.fori_loop(0, 5, lambda i, total: total + i, nbt.tensor(0))
    numbat.Tensor<
      s32
      10
    >
    """
    if not callable(body):
        raise ArgumentError("fori_loop(start, stop, body, state) needs a body function")
    backend = _default.current()
    state = _as_state(state, backend, "fori_loop state")
    before = _templates(state)
    recorder = _expr.current()
    static = all(isinstance(b, int) and not isinstance(b, bool) for b in (start, stop))
    if recorder is None and static and not is_traced(state):
        for i in range(start, stop):
            state = _as_state(body(_tensor(i, backend), state), backend, "fori_loop body result")
            _check_state(before, _templates(state), "fori_loop")
        return state
    state = _placed(state, backend)
    graphs = []

    def step(i, state):
        sub = _expr.Recorder(parent=recorder)
        index = Tensor(i, _types.S32, (), backend)
        for position, leaf in enumerate([index, *_leaves(state)[0]]):
            sub.parameter(leaf, position)
        with _expr.recording(sub), _default.default_backend(backend):
            state = _as_state(body(index, state), backend, "fori_loop body result")
        _check_state(before, _templates(state), "fori_loop")
        graphs.append(("body", sub.expr(_leaves(state)[0])))
        return state

    bounds = [b if isinstance(b, int) else _tensor(b, backend) for b in (start, stop)]
    for name, bound in zip(("start", "stop"), bounds):
        if not isinstance(bound, int) and (bound.shape != () or not bound.type.is_integer):
            raise ArgumentError(
                f"fori_loop: {name} must be an int or an integer scalar tensor, "
                f"got {_format.header(bound.type, bound.shape, bound.names)}"
            )
    label = None if static else _interrupt.label(body, kind="fori_loop")
    with jax.enable_x64(True):
        datas = [b if isinstance(b, int) else b.data for b in bounds]
        final = jax.lax.fori_loop(*datas, step, state) if label is None else _checked_fori(*datas, step, state, label)
    if recorder is not None:
        params = {name: b for name, b in zip(("start", "stop"), bounds) if isinstance(b, int)}
        inputs = (*[b for b in bounds if not isinstance(b, int)], *_leaves(state)[0])
        recorder.record_many("fori_loop", inputs, params, _leaves(final)[0], subgraphs=tuple(graphs[-1:]))
    return final


def _checked_fori(start, stop, step, state, label: str):
    """`jax.lax.fori_loop(start, stop, step, state)` with tensor bounds, as a checked
    while_loop over `(i, state)` (see `_checked`)."""
    dtypes = [b.dtype for b in (start, stop) if not isinstance(b, int)]  # a Python int takes the other's type
    dtype = jax.numpy.promote_types(dtypes[0], dtypes[-1])
    start, stop = jax.numpy.asarray(start, dtype), jax.numpy.asarray(stop, dtype)

    def test(carry):
        return carry[0] < stop

    def once(carry):
        i, state = carry
        return i + 1, step(i, state)

    return _checked(test, once, (start, state), label)[1]
