"""`grad` and `value_and_grad`, through JAX's autodiff."""

from __future__ import annotations

import jax

from .. import _expr, _format, _types
from .._errors import ArgumentError
from .._tensor import Tensor, is_tensor
from ..backends import _default
from ..backends.xla_backend import XLABackend


def value_and_grad(fun, argnums: int | tuple[int, ...] = 0):
    """A function returning `(fun(*args), gradient)`; `fun` must return a
    scalar float tensor. Integer arguments are differentiated as f32.

    >>> value, g = nbt.value_and_grad(lambda t: nbt.sum(t * t))(nbt.tensor([1.0, 2.0], names=["x"]))
    >>> value
    numbat.Tensor<
      f32
      5.0
    >
    >>> g
    numbat.Tensor<
      f32[x: 2]
      [2.0, 4.0]
    >
    """

    def wrapper(*args):
        recorder = _expr.current()
        positions = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        backend = _default.current() if recorder else XLABackend()
        args = list(args)
        for position in positions:
            if not 0 <= position < len(args):
                raise ArgumentError(f"argnums {argnums} is out of range for {len(args)} argument(s)")
            args[position] = _differentiable(args[position], backend)

        def scalar_fun(*inner):
            if recorder is not None:
                for position in positions:
                    _alias(recorder, inner[position], args[position])
            out = fun(*inner)
            if not isinstance(out, Tensor) or out.shape != () or not (out.type.is_float):
                described = _format.header(out.type, out.shape, out.names) if is_tensor(out) else type(out).__name__
                raise ArgumentError(f"grad needs a function returning a scalar float tensor, got {described}")
            return out.data, out

        with jax.enable_x64(True), _default.default_backend(backend):
            (_, value), gradient = jax.value_and_grad(scalar_fun, argnums, has_aux=True)(*args)
        if recorder is not None:
            wrt = tuple(jax.tree_util.tree_leaves([args[p] for p in positions], is_leaf=is_tensor))
            for leaf in jax.tree_util.tree_leaves(gradient, is_leaf=is_tensor):
                recorder.record("grad", wrt, {}, leaf)
        return value, gradient

    return wrapper


def grad(fun, argnums: int | tuple[int, ...] = 0):
    """A function returning the gradient of scalar `fun` with respect to argument `argnums`.

    >>> nbt.grad(lambda t: nbt.sum(nbt.sin(t)))(nbt.tensor([0.0, 0.0]))
    numbat.Tensor<
      f32[2]
      [1.0, 1.0]
    >
    """
    value_and_gradient = value_and_grad(fun, argnums)
    return lambda *args: value_and_gradient(*args)[1]


def _differentiable(value, backend):
    from .._ops._dispatch import to_tensor

    def convert(leaf):
        tensor = to_tensor(leaf, backend)
        if tensor.backend != backend and not isinstance(tensor.data, jax.core.Tracer):
            from ..backends import backend_transfer

            tensor = backend_transfer(tensor, backend)
        if not (tensor.type.is_float or tensor.type.is_complex):
            from .._ops.creation import as_type

            tensor = as_type(tensor, _types.to_floating(tensor.type))
        return tensor

    return jax.tree_util.tree_map(convert, value, is_leaf=is_tensor)


def _alias(recorder, inner, outer) -> None:
    for i, o in zip(
        jax.tree_util.tree_leaves(inner, is_leaf=is_tensor), jax.tree_util.tree_leaves(outer, is_leaf=is_tensor)
    ):
        recorder.alias(i, o)
