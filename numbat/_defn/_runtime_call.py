"""`runtime_call` (Nx's): a Python function computing a value from inside compiled code.

Inside a defn the call becomes a `jax.pure_callback`: when the compiled code runs, the
function receives the values as NumPy-backed tensors and its result, checked against
the output template, flows on into the computation. Outside a defn it is called right
away. The function must be pure (JAX may skip, repeat or batch the call); for side
effects use `nbt.hook` (Nx's `io_call`).
"""

from __future__ import annotations

import jax
import numpy as np

from .._core._errors import ArgumentError, HookError
from .._core._format import header
from .._ops import _dispatch, _vectorized
from .._tensor import _check, _expr
from .._tensor._tensor import Template, Tensor, VectorizedData, is_tensor, is_traced
from ..backends.numpy_backend import NumPyBackend
from . import _effects


def runtime_call(output, tensors, fun, **options):
    """`fun(tensors, **options)`, run when the code runs (inside a defn, as a callback
    from the compiled code), whose result must match `output`: a template
    (`nbt.template`) or a tuple, list or dict of them. `tensors` is a tensor or a
    container of tensors; `fun` gets them as NumPy-backed tensors inside a defn.

    >>> def clipped_cumsum(t, limit):
    ...     return nbt.tensor(np.minimum(np.cumsum(t.to_numpy()), limit), type=t.type)
    >>> out = nbt.template((4,), "s32")
    >>> nbt.jit(lambda t: nbt.runtime_call(out, t, clipped_cumsum, limit=5) * 10)(nbt.tensor([1, 2, 3, 4]))
    numbat.Tensor<
      s32[4]
      [10, 30, 50, 50]
    >
    """
    fun = _check.function("runtime_call", "fun", fun)
    _check.nesting("runtime_call's output templates", output)
    _check.nesting("runtime_call's tensors", tensors)
    templates, out_treedef = _templates(output)
    leaves, treedef = jax.tree_util.tree_flatten(tensors, is_leaf=is_tensor)
    leaves = [_dispatch.to_tensor(leaf) for leaf in leaves]
    axes = _vectorized.canonical(leaves)
    if not axes and not any(is_traced(leaf) for leaf in leaves):
        result = _called(fun, jax.tree_util.tree_unflatten(treedef, leaves), options)
        return _conform(result, templates, out_treedef)
    backend = _dispatch.backend_of(*leaves)

    def callback(*arrays):
        value = [Tensor(np.asarray(a), t.type, t.names, NumPyBackend()) for a, t in zip(arrays, leaves)]
        try:
            result = fun(jax.tree_util.tree_unflatten(treedef, value), **options)
            conformed = jax.tree_util.tree_leaves(_conform(result, templates, out_treedef), is_leaf=is_tensor)
            return [np.asarray(t.to_numpy(), dtype=t.type.dtype) for t in conformed]
        except BaseException as error:  # noqa: BLE001 -- kept and raised when the call returns (an interrupt too)
            _effects.keep_error(f"runtime_call {_name(fun)!r}", error)
            return [np.zeros(t.shape, t.type.dtype) for t in templates]

    _effects.note_traced_callback()

    shapes = [jax.ShapeDtypeStruct(t.shape, t.type.dtype) for t in templates]

    def one(*datas):  # one entry of the vectorized axes, or the whole call
        return jax.pure_callback(callback, shapes, *datas, vmap_method="sequential")

    arrays, has = zip(*(_vectorized.aligned(leaf, axes) for leaf in leaves))
    datas = _vectorized.mapped(one, arrays, has, len(axes))
    if isinstance(backend, NumPyBackend) and not isinstance(datas[0], jax.core.Tracer):
        datas = [np.asarray(d) for d in datas]  # an eager call on NumPy tensors gives NumPy tensors
    if axes:
        datas = [VectorizedData(d, axes) for d in datas]
    results = [Tensor(d, t.type, t.names, backend) for d, t in zip(datas, templates)]
    recorder = _expr.current()
    if recorder is not None:
        recorder.record_many("runtime_call", tuple(leaves), {"fun": _name(fun), **options}, results)
    return jax.tree_util.tree_unflatten(out_treedef, results)


def _templates(output) -> tuple[list[Template], object]:
    leaves, treedef = jax.tree_util.tree_flatten(output, is_leaf=lambda v: isinstance(v, Template))
    if not leaves or not all(isinstance(t, Template) for t in leaves):
        raise ArgumentError(
            f"runtime_call: the output must be a template (nbt.template(shape, type)) or a container of them, "
            f"got {output!r}"
        )
    return leaves, treedef


def _called(fun, value, options: dict):
    try:
        return fun(value, **options)
    except Exception as error:
        raise HookError(f"runtime_call {_name(fun)!r} raised {type(error).__name__}: {error}") from error


def _name(fun) -> str:
    return getattr(fun, "__name__", type(fun).__name__)


def _conform(result, templates: list, treedef) -> object:
    """`result` checked against the output templates: the same structure, shapes and types."""
    leaves, got = jax.tree_util.tree_flatten(result, is_leaf=is_tensor)
    if got != treedef:
        raise ArgumentError(f"runtime_call: the function returned {got}, the output template is {treedef}")
    conformed = []
    for position, (leaf, template) in enumerate(zip(leaves, templates)):
        tensor = _dispatch.to_tensor(leaf)
        if tensor.shape != template.shape or tensor.type != template.type:
            raise ArgumentError(
                f"runtime_call: result {position} is {header(tensor.type, tensor.shape, tensor.names)}, "
                f"the output template says {header(template.type, template.shape, template.names)}"
            )
        conformed.append(Tensor(tensor.data, tensor.type, template.names, tensor.backend))
    return jax.tree_util.tree_unflatten(treedef, conformed)
