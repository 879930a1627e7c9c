"""A defn called with vectorized tensors, or returning them: compiled on plain arrays.

JAX compiles plain arrays, so the call passes each vectorized argument devectorized
and, inside the trace, vectorizes it again (its axes are part of the cache key); the
function's ops then run vectorized (`numbat._ops._vectorized`). A vectorized output
leaves the trace devectorized, wrapped in a `_Revectorize` node whose static aux data
are its axes, so the compiled entry's output structure remembers them on every hit.
A defn called with plain tensors may return vectorized ones too (it vectorizes inside):
its outputs take the same route (`devectorized_outputs`, `unflatten_outputs`).
"""

from __future__ import annotations

import dataclasses
import functools
import typing

import jax

from .._core import _format
from .._ops import _vectorized
from .._ops.composite.vectorization import devectorize, vectorize
from .._tensor._tensor import is_tensor


def is_vectorized_call(args: tuple) -> bool:
    """Whether any tensor in `args` has vectorized axes."""
    leaves = jax.tree_util.tree_leaves(args, is_leaf=is_tensor)
    return any(_vectorized.axes_of(leaf) for leaf in leaves)


@typing.final
@dataclasses.dataclass(frozen=True)
class Layout:
    """The static first argument of the devectorized call: the arguments' structure and
    each leaf's vectorized axes. Hashable and not a pytree, so it stays one static leaf."""

    treedef: object
    axes: tuple

    def __repr__(self) -> str:  # how the call's signature reads in messages and telemetry
        shown = [f"argument {i} {_format.vectorized_header(axes)}" for i, axes in enumerate(self.axes) if axes]
        return "vectorized: " + ", ".join(shown)


@typing.final
class _Revectorize:
    """An output to vectorize again over `axes` once the compiled call returns."""

    def __init__(self, tensor, axes: tuple):
        self.tensor = tensor
        self.axes = axes


jax.tree_util.register_pytree_node(
    _Revectorize, lambda node: ((node.tensor,), node.axes), lambda axes, children: _Revectorize(children[0], axes)
)


def split(args: tuple) -> tuple[Layout, list]:
    """The layout of `args` and their leaves, vectorized ones devectorized."""
    leaves, treedef = jax.tree_util.tree_flatten(args, is_leaf=is_tensor)
    axes = tuple(_vectorized.axes_of(leaf) for leaf in leaves)
    plain = [devectorize(leaf, keep_names=False) if spec else leaf for leaf, spec in zip(leaves, axes)]
    return Layout(treedef, axes), plain


def devectorized(fun):
    """`fun` over (layout, *devectorized leaves), returning vectorized outputs as `_Revectorize` nodes."""

    def body(layout: Layout, *plain, **options):
        leaves = [vectorize(t, [name for name, _ in spec]) if spec else t for t, spec in zip(plain, layout.axes)]
        return fun(*jax.tree_util.tree_unflatten(layout.treedef, leaves), **options)

    body.__name__ = getattr(fun, "__name__", "defn")
    return body


def devectorized_outputs(result):
    """A traced function's `result` with every vectorized tensor devectorized inside a
    `_Revectorize` node (JAX returns plain arrays only)."""

    def wrap(tensor):
        axes = _vectorized.axes_of(tensor)
        return _Revectorize(devectorize(tensor, keep_names=False), axes) if axes else tensor

    return jax.tree_util.tree_map(wrap, result, is_leaf=is_tensor)


@functools.lru_cache(maxsize=256)
def has_revectorize(treedef) -> bool:
    """Whether outputs of structure `treedef` hold a vectorized tensor to put back together."""
    probe = jax.tree_util.tree_unflatten(treedef, [None] * treedef.num_leaves)
    is_node = lambda node: isinstance(node, _Revectorize)
    return any(is_node(node) for node in jax.tree_util.tree_leaves(probe, is_leaf=is_node))


def unflatten_outputs(treedef, tensors: list):
    """The outputs in their structure `treedef`, each `_Revectorize` node vectorized again."""
    result = jax.tree_util.tree_unflatten(treedef, tensors)
    return revectorized(result) if has_revectorize(treedef) else result


def revectorized(result):
    """The call's result with every `_Revectorize` node vectorized again."""

    def unwrap(node):
        if isinstance(node, _Revectorize):
            return vectorize(node.tensor, [name for name, _ in node.axes])
        return node

    return jax.tree_util.tree_map(unwrap, result, is_leaf=lambda node: isinstance(node, _Revectorize))
