"""`cond` and `while_loop` with a vectorized predicate, as Nx runs them.

Each entry of a vectorized predicate may take its own branch, or stop looping at its
own iteration. `cond` runs a branch only when some entry takes it (the others give
zeros of its result's template) and picks per entry with `select`; the result is
vectorized over the predicates' axes. `while_loop` broadcasts the state over the
predicate's vectorized axes and runs while any entry's predicate holds, an entry whose
predicate fails keeping its state.
"""

from __future__ import annotations

import jax

from .._core import _format
from .._core._errors import ArgumentError
from .._ops._convert import to_tensor
from .._ops.composite.vectorization import broadcast_vectors, devectorize, vectorize
from .._ops.primitive.bitwise import logical_and, logical_not
from .._ops.primitive.creation import as_type, broadcast
from .._ops.primitive.elementwise import not_equal, select
from .._ops.primitive.reduction import any as any_of
from .._tensor._tensor import Tensor, is_tensor


def is_vectorized(tensor) -> bool:
    return isinstance(tensor, Tensor) and bool(tensor.vectorized_axes)


def _scalar(pred: Tensor, where: str) -> None:
    """Each entry of a vectorized predicate must be a scalar, as in Nx."""
    if pred.shape != ():
        raise ArgumentError(
            f"{where}: condition must be a scalar tensor, got shape {pred.shape} in each entry of "
            f"{_format.vectorized_header(pred.vectorized_axes)}; consider nbt.all or nbt.any to obtain a scalar predicate"
        )


def _anywhere(taken: Tensor) -> Tensor:
    return any_of(devectorize(taken, keep_names=False))


def _leaves(tree):
    return jax.tree_util.tree_flatten(tree, is_leaf=is_tensor)


def cond(preds: list, funs: list, operands: tuple, backend, run_cond, abstract_outputs):
    """The per-entry `cond` of `preds` (some vectorized) over branches `funs` (the
    last the default); `run_cond(pred, on_true, on_false)` is the scalar `cond`, and
    `abstract_outputs(fun, operands, backend)` its templates of a branch's result."""
    preds = [to_tensor(p, backend) for p in preds]
    for pred in preds:
        _scalar(pred, "cond")
    preds = broadcast_vectors([not_equal(p, 0) for p in preds])
    taken, none_before = [], None
    for pred in preds:
        taken.append(pred if none_before is None else logical_and(none_before, pred))
        none_before = logical_not(pred) if none_before is None else logical_and(none_before, logical_not(pred))
    taken.append(none_before)
    results = [_branch(fun, operands, took, backend, run_cond, abstract_outputs) for fun, took in zip(funs, taken)]
    treedef = results[-1][1]
    chosen = results[-1][0]
    for (leaves, _), took in zip(reversed(results[:-1]), reversed(taken[:-1])):
        chosen = [select(took, leaf, acc) for leaf, acc in zip(leaves, chosen)]
    chosen = [broadcast_vectors([taken[0], leaf])[1] for leaf in chosen]
    return jax.tree_util.tree_unflatten(treedef, chosen)


def _branch(fun, operands, took, backend, run_cond, abstract_outputs):
    """`fun(*operands)` when some entry takes it, else zeros of its result: its leaves
    (vectorized as `fun` returns them) and the result's structure."""
    found = {}

    def taken():
        leaves, found["treedef"] = _leaves(fun(*operands))
        leaves = [to_tensor(leaf, backend) for leaf in leaves]
        found["axes"] = [leaf.vectorized_axes for leaf in leaves]
        return [devectorize(leaf, keep_names=False) for leaf in leaves]

    def not_taken():
        return [broadcast(as_type(to_tensor(0, backend), t.type), t.shape, names=t.names) for t in found["templates"]]

    found["templates"] = abstract_outputs(taken, (), backend)[1]
    leaves = run_cond(_anywhere(took), taken, not_taken)
    leaves = [vectorize(leaf, list(axes)) if axes else leaf for leaf, axes in zip(leaves, found["axes"])]
    return leaves, found["treedef"]


def while_loop(condition, body, state, first: Tensor, run_while, unroll: int):
    """The per-entry `while_loop`: `first` is the (vectorized) predicate of `state`."""
    _scalar(first, "while_loop condition")
    leaves, treedef = _leaves(state)
    leaves = [broadcast_vectors([first, leaf])[1] for leaf in leaves]
    state = jax.tree_util.tree_unflatten(treedef, leaves)

    def still_running(state):
        return _anywhere(not_equal(condition(state), 0))

    def step(state):
        running = not_equal(condition(state), 0)
        new = _leaves(body(state))[0]
        old = _leaves(state)[0]
        kept = [broadcast_vectors([o, select(running, n, o)])[1] for n, o in zip(new, old)]
        return jax.tree_util.tree_unflatten(treedef, kept)

    step.__name__ = getattr(body, "__name__", "<lambda>")  # how an interrupted loop is named
    return run_while(still_running, step, state, unroll)
