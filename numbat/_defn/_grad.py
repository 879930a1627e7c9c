"""The grad family through JAX's autodiff: `grad`, `value_and_grad`, `jacobian` and
`custom_grad` (`stop_grad` is a primitive op, in `numbat._ops.primitive.math`).

Inside a defn, a gradient is recorded as one `grad` node whose sub-graph is the
differentiated function; a defn called inside the function is inlined there.

Gradients are reverse mode, except through a `while_loop` (or a `fori_loop` with
traced bounds), which JAX can only differentiate forward: there the gradient is
computed in forward mode, at a cost that grows with the size of the input.
"""

from __future__ import annotations

import contextlib

import jax
import numpy as np
from jax.extend import core as jax_core

from .._core import _format, _types
from .._core._errors import ArgumentError, IndexTypeError
from .._core._scoped import scoped
from .._ops import _dispatch
from .._ops._convert import to_tensor
from .._ops.composite.vectorization import broadcast_vectors
from .._ops.primitive import reduction
from .._ops.primitive.creation import as_type
from .._tensor import _check, _expr
from .._tensor._tensor import Tensor, VectorizedData, is_tensor
from ..backends import _default
from ..backends.xla_backend import XLABackend
from . import _containers, _effects, _signature


def _positions(argnums, count: int, name: str) -> tuple[int, ...]:
    positions = (argnums,) if isinstance(argnums, int) and not isinstance(argnums, bool) else argnums
    if not isinstance(positions, tuple) or not all(isinstance(p, int) and not isinstance(p, bool) for p in positions):
        raise ArgumentError(f"{name}: argnums must be an int or a tuple of ints, got {argnums!r}")
    for position in positions:
        if not 0 <= position < count:
            raise ArgumentError(f"{name}: argnums {argnums!r} is out of range for {count} argument(s)")
    return positions


def _check_callable(fun, name: str) -> None:
    if not callable(fun):
        raise ArgumentError(f"{name} needs a function, got {type(fun).__name__} {fun!r}")


def _describe(value) -> str:
    if isinstance(value, Tensor):
        return _format.header(value.type, value.shape, value.names)
    return f"{type(value).__name__} {value!r}"


def value_and_grad(fun, argnums: int | tuple[int, ...] = 0, transform=None):
    """A function returning `(fun(*args), gradient)`, as Nx's `value_and_grad`: the
    value is `fun`'s output itself. The gradient has the structure of the differentiated
    argument (a tensor, or any container of tensors); a non-scalar output is summed first,
    as in Nx. Integer inputs are differentiated as floats, and the value keeps the
    function's own type, as Nx's (the function runs on the integers for it):

    >>> nbt.value_and_grad(lambda x: x**3 + x)(nbt.tensor([1, 2]))
    (numbat.Tensor<
      s32[2]
      [2, 10]
    >, numbat.Tensor<
      f32[2]
      [4.0, 13.0]
    >)

    The arguments are what a defn takes (a list of numbers is one tensor), by position.

    >>> value, g = nbt.value_and_grad(lambda t: t * t)(nbt.tensor([1.0, 3.0], names=["x"]))
    >>> value
    numbat.Tensor<
      f32[x: 2]
      [1.0, 9.0]
    >
    >>> g
    numbat.Tensor<
      f32[x: 2]
      [2.0, 6.0]
    >

    `transform` is Nx's third argument, `value_and_grad(x, fun, transform)`: it receives
    `fun`'s output (any container) and returns the tensor to differentiate, while the
    value is still the whole output, so `fun` may return a loss with its auxiliary data.

    >>> (loss, count), g = nbt.value_and_grad(
    ...     lambda t: (nbt.sum(t * t), nbt.size(t)), transform=lambda out: out[0]
    ... )(nbt.tensor([1.0, 2.0]))
    >>> loss
    numbat.Tensor<
      f32
      5.0
    >
    >>> g
    numbat.Tensor<
      f32[2]
      [2.0, 4.0]
    >
    """
    _check_callable(fun, "value_and_grad")
    if transform is not None:
        _check_callable(transform, "value_and_grad's transform")
    return _Differentiated(fun, argnums, "value_and_grad", with_value=True, transform=transform)


def grad(fun, argnums: int | tuple[int, ...] = 0):
    """A function returning the gradient of `fun` with respect to argument `argnums`
    (a non-scalar output is summed first). It takes what a defn takes: a list of numbers
    is one tensor.

    >>> nbt.grad(lambda t: nbt.sum(nbt.sin(t)))(nbt.tensor([0.0, 0.0]))
    numbat.Tensor<
      f32[2]
      [1.0, 1.0]
    >
    >>> nbt.grad(lambda t: t * t)([1.0, 3.0])
    numbat.Tensor<
      f32[2]
      [2.0, 6.0]
    >

    A complex function's gradient is Nx's: f'(z) where it is holomorphic.

    >>> nbt.grad(lambda z: nbt.sum(z * z))(nbt.tensor([1j, 2.0]))
    numbat.Tensor<
      c64[2]
      [0.0+2.0i, 4.0+0.0i]
    >
    """
    _check_callable(fun, "grad")
    return _Differentiated(fun, argnums, "grad", with_value=False)


# What calling the function with the wrong arguments raises while it traces (as in a defn).
_MISUSE = (TypeError, ValueError, KeyError, IndexError, AttributeError)


def _function_name(fun) -> str:
    return getattr(fun, "__qualname__", None) or getattr(fun, "__name__", None) or repr(fun)


class _Differentiated:
    """`fun` differentiated with respect to `argnums`; called like `fun`."""

    def __init__(self, fun, argnums, name: str, with_value: bool, transform=None):
        _positions(argnums, 1 << 30, name)  # checks the form now, the range at call time
        self.fun, self.argnums, self.name, self.with_value = fun, argnums, name, with_value
        self.transform = transform

    def __call__(self, *args, **kwargs):
        if kwargs:
            raise ArgumentError(
                f"{self.name} passes its function's arguments by position, as Nx's does; got keyword argument(s) "
                f"{', '.join(kwargs)}: pass them in order, {self.name}(f)(x, y), or fix them with a lambda, "
                f"{self.name}(lambda x: f(x, {next(iter(kwargs))}=...))"
            )
        for position, arg in enumerate(args):  # before any walk over them, as a defn checks
            _check.nesting(f"argument {position} of {self.name}", arg)
        args = _signature.lists_as_tensors(args)  # a list of numbers is one tensor, as a defn reads it
        for position, arg in enumerate(args):
            for leaf in jax.tree_util.tree_leaves(arg, is_leaf=is_tensor):
                _check.not_freed(self.name, f"argument {position}", leaf)
        positions = _positions(self.argnums, len(args), self.name)
        _containers.register_found(args)
        outer = _expr.current()
        backend = _default.current() if outer is not None else XLABackend()
        leaves = jax.tree_util.tree_leaves([args[p] for p in positions], is_leaf=is_tensor)
        has_integers = any(not _is_inexact(leaf) for leaf in leaves)
        # Nx computes the value from the arguments as they are: of an s32 `x`, `x ** 3 + x` is
        # s32, while the gradient, taken here on floats, is a float. The function runs on the
        # integers for the value (its hooks and print_value fire there, once).
        own = self._own_value(args, positions, outer, backend) if self.with_value and has_integers else None
        with scoped(_effects.abstract, own is not None or _effects.abstract.get()):
            try:
                value, gradient, expr = self._differentiate(args, positions, outer, backend, integers_as_floats=True)
            except IndexTypeError:
                if not has_integers:
                    raise
                # An integer argument used as an index: Nx differentiates nothing there (its
                # gradient is zero). Pass the integer arguments as they are.
                value, gradient, expr = self._differentiate(args, positions, outer, backend, integers_as_floats=False)
        value, value_expr = own if own is not None else (value, expr)
        if outer is not None:
            wrt = tuple(jax.tree_util.tree_leaves([args[p] for p in positions], is_leaf=is_tensor))
            for leaf in jax.tree_util.tree_leaves(gradient, is_leaf=is_tensor):
                outer.record("grad", wrt, {}, leaf, subgraphs=(("of", expr),))
            if self.with_value:  # the value is a node of the graph too (a later op may read it)
                for leaf in jax.tree_util.tree_leaves(value, is_leaf=is_tensor):
                    outer.record("value", wrt, {}, leaf, subgraphs=(("of", value_expr),))
        return (value, gradient) if self.with_value else gradient

    def _own_value(self, args, positions, outer, backend):
        """The function's output on the arguments as they are, integers included, and the
        graph that computes it (inside a defn); None where the function cannot take the
        integers (then the value is the one computed on floats)."""
        args = list(args)
        for position in positions:
            args[position] = _differentiable(args[position], backend, integers_as_floats=False)
        recorder = _expr.Recorder(parent=outer) if outer is not None else None
        if recorder is not None:
            for index, leaf in enumerate(_leaves([args[p] for p in positions])):
                recorder.parameter(leaf, index)
        recording = _expr.recording(recorder) if recorder is not None else contextlib.nullcontext()
        with jax.enable_x64(True), recording, _default.default_backend(backend):
            try:
                value = _values(self.fun(*args), backend)
            except (ArgumentError, *_MISUSE):
                return None
        return value, recorder.expr(_leaves(value)) if recorder is not None else None

    def _differentiate(self, args, positions, outer, backend, integers_as_floats: bool):
        args = list(args)
        for position in positions:
            args[position] = _differentiable(args[position], backend, integers_as_floats)
        _broadcast_vectorized(args, positions)
        result = {}

        def scalar_fun(*inner):
            sub = _expr.Recorder(parent=outer)
            leaves = jax.tree_util.tree_leaves([inner[p] for p in positions], is_leaf=is_tensor)
            for index, leaf in enumerate(leaves):
                sub.parameter(leaf, index)
            with _expr.recording(sub):
                full = self.fun(*inner)
                picked = full if self.transform is None else self.transform(full)
                out = _output(picked, self.name, backend, integers_as_floats)
                value = out if picked is full else _values(full, backend)
                if out.shape:
                    out = reduction.sum(out)
            result["expr"] = sub.expr([out])
            if out.vectorized_axes:  # one entry per instance: each gets its own gradient
                return out.data.array, (out, value)
            return jax.numpy.asarray(out.data), (out, value)

        def of_positions(*differentiated):
            inner = list(args)
            for position, arg in zip(positions, differentiated):
                inner[position] = arg
            return scalar_fun(*inner)

        primals = [args[p] for p in positions]
        with jax.enable_x64(True), _default.default_backend(backend):
            try:
                try:
                    gradients, value = _reverse(of_positions, primals)
                except ValueError as error:
                    if not _needs_forward_mode(error):
                        raise
                    gradients, value = _forward(of_positions, primals)
            except ArgumentError:
                raise
            except _MISUSE as error:  # the function called with arguments it cannot take, as a defn says it
                if "Linearization failed" in str(error):  # JAX has no reverse-mode rule for an op (window_product)
                    raise ArgumentError(
                        f"{self.name} cannot compute the gradient of {_function_name(self.fun)}: it uses an op "
                        "with no gradient rule (window_product, as in Nx)"
                    ) from error
                message = str(error).split("\n-----")[0]
                raise ArgumentError(
                    f"{self.name} of {_function_name(self.fun)} failed while tracing {len(args)} argument(s): "
                    f"{type(error).__name__}: {message}"
                ) from error
        gradient = gradients[0] if isinstance(self.argnums, int) else tuple(gradients)
        return value[1], gradient, result["expr"]


def _leaves(tree) -> list:
    return jax.tree_util.tree_leaves(tree, is_leaf=is_tensor)


def _forward(of_positions, primals: list) -> tuple:
    """The gradients and value of `of_positions` at `primals` in forward mode, for code
    with no reverse mode (JAX's while_loop): one input direction at a time (the gradient of
    a scalar is its Jacobian), one per instance of a vectorized output."""
    gradients, value = jax.jacfwd(of_positions, tuple(range(len(primals))), has_aux=True)(*primals)
    if value[0].vectorized_axes:
        jacobians = [
            leaf.data.array if leaf.data.__class__ is VectorizedData else leaf.data
            for leaf in jax.tree_util.tree_leaves(gradients, is_leaf=is_tensor)
        ]
        out_shape = tuple(size for _, size in value[0].vectorized_axes)
        gradients = _instances(jacobians, out_shape, value[0].vectorized_axes, primals)
    return gradients, value


def _is_inexact(leaf) -> bool:
    return not isinstance(leaf, Tensor) or leaf.type.is_float or leaf.type.is_complex


def _output(out, name: str, backend, integers_as_floats: bool) -> Tensor:
    """The function's result as a float or complex tensor. A number is a constant: its
    gradient is zero, as in Nx. An integer tensor is refused (JAX carries no gradient
    through integers, where Nx's as_type would pass one), except where integer arguments
    went in as integers (indices): then it is computed from integers, a constant."""
    if isinstance(out, (int, float, complex)) and not isinstance(out, bool):
        out = to_tensor(out, backend)
    elif not isinstance(out, Tensor):
        raise ArgumentError(f"{name} expected a tensor or a number from the function, got {_describe(out)}")
    elif not (out.type.is_float or out.type.is_complex) and integers_as_floats:
        raise ArgumentError(f"{name} needs a function returning a float tensor, got {_describe(out)}")
    if not (out.type.is_float or out.type.is_complex):
        out = as_type(out, _types.to_floating(out.type))
    return out


def _values(full, backend):
    """`fun`'s whole output (the value of `value_and_grad` with a transform): its numbers as tensors."""

    def convert(leaf):
        return to_tensor(leaf, backend) if isinstance(leaf, (int, float, complex)) else leaf

    return jax.tree_util.tree_map(convert, full, is_leaf=is_tensor)


def _reverse(fun, primals):
    """`fun`'s gradient with respect to `primals` as Nx computes it: the cotangent 1 (real
    even where the output is complex) pulled back through JAX's vjp. For a holomorphic
    function that is f'(z); for a real function of a complex input, JAX's and Nx's
    conjugate convention (abs(z) gives conj(z)/|z|). A gradient with respect to a complex
    input that no complex value ever multiplies (through pad, slice, a cast to a real type)
    stays real in Nx: it comes back with the input's real type."""
    out, pullback, value = jax.vjp(fun, *primals, has_aux=True)
    if value[0].vectorized_axes:
        return _per_instance(pullback, out, value[0].vectorized_axes, primals), value
    seed = jax.numpy.ones_like(out)
    gradients = pullback(seed)
    real = _real_pullbacks(pullback, seed)
    flat, tree = jax.tree_util.tree_flatten(gradients, is_leaf=is_tensor)
    flat = [_settled(g, keep_real) for g, keep_real in zip(flat, real)]
    return jax.tree_util.tree_unflatten(tree, flat), value


def _broadcast_vectorized(args: list, positions) -> None:
    """As Nx: the differentiated tensors, when some are vectorized, are first broadcast to
    the union of their vectorized axes."""
    leaves, tree = jax.tree_util.tree_flatten([args[p] for p in positions], is_leaf=is_tensor)
    if not any(isinstance(leaf, Tensor) and leaf.vectorized_axes for leaf in leaves):
        return
    broadcast = iter(broadcast_vectors(leaves))
    for position, value in zip(positions, jax.tree_util.tree_unflatten(tree, [next(broadcast) for _ in leaves])):
        args[position] = value


def _per_instance(pullback, out, out_axes: tuple, primals):
    """Nx's gradient of a vectorized result: the instances are independent computations,
    so each gets its own gradient. A plain input's gradient is vectorized over the result's
    axes; a vectorized input's over its own (an axis of both pairs instance i of the result
    with instance i of the input; a result axis the input lacks is summed over)."""
    count = out.size
    basis = jax.numpy.eye(count, dtype=out.dtype).reshape((count, *out.shape))
    rows = [row.reshape((*out.shape, *row.shape[1:])) for row in jax.tree_util.tree_leaves(jax.vmap(pullback)(basis))]
    return _instances(rows, out.shape, out_axes, primals)


def _instances(jacobians: list, out_shape: tuple, out_axes: tuple, primals):
    """The per-instance gradients from the Jacobians (result axes first) of each input leaf."""
    flat_primals, tree = jax.tree_util.tree_flatten(primals, is_leaf=is_tensor)
    letters = iter("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    label = {name: next(letters) for name, _ in out_axes}
    gradients = []
    for primal, array in zip(flat_primals, jacobians):
        own = primal.vectorized_axes
        for name, _ in own:
            label.setdefault(name, next(letters))
        inner = "".join(next(letters) for _ in primal.shape)
        # A vectorized input keeps its own axes (result axes it lacks are summed over); a
        # plain one takes the result's.
        union = own or out_axes
        source = "".join(label[n] for n, _ in out_axes) + "".join(label[n] for n, _ in own) + inner
        target = "".join(label[n] for n, _ in union) + inner
        array = jax.numpy.einsum(f"{source}->{target}", array)
        type_ = primal.type if array.dtype != jax.dtypes.float0 else _types.to_floating(primal.type)
        if array.dtype == jax.dtypes.float0:
            array = jax.numpy.zeros(array.shape, type_.dtype)
        gradients.append(Tensor(VectorizedData(array, union), type_, primal.names, primal.backend))
    return jax.tree_util.tree_unflatten(tree, gradients)


def _settled(gradient: Tensor, keep_real: bool) -> Tensor:
    """A gradient leaf with its type: an integer argument passed as an integer gets zeros;
    a complex one that stayed real gets its real type."""
    data = gradient.data
    vectorized = data.__class__ is VectorizedData
    array = data.array if vectorized else data
    if array.dtype == jax.dtypes.float0:
        type_ = _types.to_floating(gradient.type)
        array = jax.numpy.zeros(array.shape, type_.dtype)
    elif keep_real and gradient.type.is_complex:
        type_ = _types.to_real(gradient.type)
        array = jax.numpy.real(array).astype(type_.dtype)
    else:
        return gradient
    return Tensor(VectorizedData(array, data.axes) if vectorized else array, type_, gradient.names, gradient.backend)


def _real_pullbacks(pullback, seed) -> list[bool]:
    """For each gradient leaf, whether the pullback reaches it without meeting a complex
    value: the seed is real, and a complex variable is complex only when computed from a
    complex constant or another complex variable."""
    closed = jax.make_jaxpr(pullback)(seed)
    complex_vars = {v for v, c in zip(closed.jaxpr.constvars, closed.consts) if _is_complex(v)}
    _mark_complex(closed.jaxpr, complex_vars)
    return [not _reaches_complex(v, complex_vars) for v in closed.jaxpr.outvars]


def _is_complex(var) -> bool:
    return jax.numpy.issubdtype(var.aval.dtype, jax.numpy.complexfloating)


def _reaches_complex(var, complex_vars) -> bool:
    if isinstance(var, jax_core.Literal):
        value = np.asarray(var.val)  # a literal is concrete: numpy, not a traced jax.numpy op
        return bool(np.iscomplexobj(value) and np.any(value.imag != 0))
    return var in complex_vars


def _mark_complex(jaxpr, complex_vars: set) -> None:
    for eqn in jaxpr.eqns:
        inner = eqn.params.get("jaxpr") or eqn.params.get("call_jaxpr")
        if isinstance(inner, jax_core.ClosedJaxpr) and len(inner.jaxpr.invars) == len(eqn.invars):
            inner_complex = {v for v, c in zip(inner.jaxpr.constvars, inner.consts) if _is_complex(v)}
            inner_complex |= {
                iv for iv, ov in zip(inner.jaxpr.invars, eqn.invars) if _reaches_complex(ov, complex_vars)
            }
            _mark_complex(inner.jaxpr, inner_complex)
            for iv, ov in zip(inner.jaxpr.outvars, eqn.outvars):
                if _is_complex(ov) and _reaches_complex(iv, inner_complex):
                    complex_vars.add(ov)
            continue
        if any(_reaches_complex(v, complex_vars) for v in eqn.invars):
            complex_vars.update(v for v in eqn.outvars if _is_complex(v))


def jacobian(fun, argnums: int = 0):
    """A function returning the Jacobian of `fun` with respect to argument `argnums`:
    shape `output.shape + input.shape`.

    >>> nbt.jacobian(lambda t: t * t)(nbt.tensor([1.0, 2.0]))
    numbat.Tensor<
      f32[2][2]
      [
        [2.0, 0.0],
        [0.0, 4.0]
      ]
    >
    """
    _check_callable(fun, "jacobian")

    def jacobian_of(*args):
        (position,) = _positions(argnums, len(args), "jacobian")
        backend = _default.current() if _expr.current() is not None else XLABackend()
        args = list(args)
        args[position] = _differentiable(args[position], backend)
        if not isinstance(args[position], Tensor):
            raise ArgumentError(f"jacobian differentiates with respect to one tensor, got {_describe(args[position])}")
        template = {}

        def data_fun(*datas):
            inner = list(args)
            inner[position] = Tensor(datas[0], args[position].type, args[position].names, backend)
            with _default.default_backend(backend):
                out = fun(*inner)
            if not isinstance(out, Tensor) or not out.type.is_float:
                raise ArgumentError(f"jacobian needs a function returning a float tensor, got {_describe(out)}")
            template["out"] = out
            return out.data

        with jax.enable_x64(True):
            try:
                data = jax.jacrev(data_fun)(args[position].data)
            except ValueError as error:
                if not _needs_forward_mode(error):
                    raise
                data = jax.jacfwd(data_fun)(args[position].data)
        out = template["out"]
        return Tensor(data, out.type, out.names + args[position].names, backend)

    return jacobian_of


def _needs_forward_mode(error: ValueError) -> bool:
    """Whether JAX refused reverse mode because of a while_loop (or a fori_loop with traced bounds)."""
    return "Reverse-mode differentiation does not work for lax.while_loop" in str(error)


def custom_grad(expr, inputs, fun):
    """`expr`, computed from the tensors `inputs`, with the gradient `fun` instead of
    the automatic one: `fun(g)` receives the gradient flowing into `expr` and returns
    one gradient per input (Nx's `custom_grad`).

    >>> def softplus(x):
    ...     return nbt.custom_grad(nbt.log(1 + nbt.exp(x)), [x], lambda g: [g * (1 - 1 / (1 + nbt.exp(x)))])
    >>> nbt.grad(lambda x: nbt.sum(softplus(x)))(nbt.tensor([0.0, 1000.0]))
    numbat.Tensor<
      f32[2]
      [0.5, 1.0]
    >
    """
    _check_callable(fun, "custom_grad")
    expr = _dispatch.to_tensor(expr)
    if not isinstance(inputs, (list, tuple)) or not all(isinstance(i, Tensor) for i in inputs):
        raise ArgumentError(f"custom_grad: inputs must be a list of tensors, got {inputs!r}")
    inputs = list(inputs)
    traced = isinstance(expr.data, jax.core.Tracer) or any(isinstance(i.data, jax.core.Tracer) for i in inputs)
    if not traced:  # no gradient is being taken: the value is all there is
        return expr

    def gradients(g):
        grads = fun(g)
        if not isinstance(grads, (list, tuple)) or len(grads) != len(inputs):
            raise ArgumentError(
                f"custom_grad: the gradient function must return a list of {len(inputs)} gradient(s), got {grads!r}"
            )
        return [_dispatch.to_tensor(gr, expr.backend) for gr in grads]

    with jax.enable_x64(True):
        converted, consts = jax.closure_convert(gradients, expr)

        @jax.custom_vjp
        def with_gradient(value, xs, cs):
            return value

        def forward(value, xs, cs):
            return value, (xs, cs)

        def backward(residuals, g):
            xs, cs = residuals
            grads = converted(g, *cs)
            for position, (gr, x) in enumerate(zip(grads, xs)):
                if gr.shape != x.shape:
                    raise ArgumentError(
                        f"custom_grad: gradient {position} has shape {gr.shape}, its input has shape {x.shape}"
                    )
            grads = [Tensor(gr.data.astype(x.type.dtype), x.type, x.names, x.backend) for gr, x in zip(grads, xs)]
            return g, grads, jax.tree_util.tree_map(jax.numpy.zeros_like, cs)

        with_gradient.defvjp(forward, backward)
        result = with_gradient(_stopped(expr), inputs, list(consts))
    recorder = _expr.current()
    if recorder is not None:
        recorder.record("custom_grad", (expr, *inputs), {}, result)
    return result


def _stopped(tensor: Tensor) -> Tensor:
    return Tensor(jax.lax.stop_gradient(tensor.data), tensor.type, tensor.names, tensor.backend)


def _differentiable(value, backend, integers_as_floats: bool = True):
    def convert(leaf):
        tensor = to_tensor(leaf, backend)
        if tensor.backend != backend and not isinstance(tensor.data, jax.core.Tracer):
            tensor = _default.transfer(tensor, backend)
        if integers_as_floats and not (tensor.type.is_float or tensor.type.is_complex):
            tensor = as_type(tensor, _types.to_floating(tensor.type))
        return tensor

    return jax.tree_util.tree_map(convert, value, is_leaf=is_tensor)
