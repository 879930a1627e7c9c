"""`Tensor`: data (a NumPy array or a `jax.Array`), an Nx type and axis names.

A Tensor is a JAX pytree: its data is the leaf, its type, names and backend
are static aux data, so `jax.jit`, `grad`, `vmap` and `lax.scan` see through it
(docs/guides/jax_libraries.md). A transformation that maps over the leading axis
(`vmap`, `scan`) hands back data of another rank; the names follow the axes.

>>> t = nbt.tensor([[1, 2], [3, 4]], names=["x", "y"])
>>> t.shape, t.names, str(t.type), t.rank, t.size
((2, 2), ('x', 'y'), 's32', 2, 4)

A vectorized tensor (Nx's `vectorized_axes`) keeps its vectorized axes out of its
shape: its data is a `VectorizedData`, the whole array with the vectorized axes leading.

This module is the bottom of the tensor layer: it imports no op. Tensor's operators
(`a + b`, `a @ b`, `a[i]`, `a == b`, ...), `.T`, `.reshape` and `.astype` are numbat ops,
installed on the class by `numbat._ops.composite.tensor_methods` when the ops load (as JAX installs
`jax.Array`'s methods from `jax.numpy`).
"""

from __future__ import annotations

import contextvars
import typing

import jax
import numpy as np

from .._core import _format, _jax_private
from .._core._errors import ArgumentError
from .._core._types import Type, is_number


class Template(typing.NamedTuple):
    """What an op will return: shape, type and names, with no data.

    >>> str(nbt.template((2, 3), "f32", names=["x", None]))
    'f32[x: 2][3]'
    """

    shape: tuple
    type: Type
    names: tuple

    def __str__(self) -> str:
        return _format.header(self.type, self.shape, self.names)


@typing.final
class Tensor:
    """An n-dimensional array with an Nx type, named axes and a backend.

    Build tensors with `nbt.tensor`, `nbt.iota` and friends rather than this
    constructor, which checks nothing. The methods that are ops are installed by
    `numbat._ops.composite.tensor_methods`.
    """

    __slots__ = ("backend", "data", "names", "type")
    __array_priority__ = 1000  # NumPy defers `ndarray + Tensor` to Tensor.__radd__

    def __init__(self, data, type: Type, names: tuple, backend):
        self.data = data
        self.type = type
        self.names = names
        self.backend = backend

    @property
    def shape(self) -> tuple:
        return tuple(self.data.shape)

    @property
    def rank(self) -> int:
        return len(self.names)

    @property
    def size(self) -> int:
        """The number of elements, vectorized axes aside (Nx's `size`)."""
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def vectorized_axes(self) -> tuple:
        """The vectorized axes as `(name, size)` pairs, outermost first (see `nbt.vectorize`).

        >>> nbt.vectorize(nbt.iota((2, 3)), "x").vectorized_axes
        (('x', 2),)
        """
        return axes_of(self)

    def to_numpy(self) -> np.ndarray:
        """The values as a NumPy array of the tensor's dtype (bool-free: u8 stays u8).

        >>> nbt.tensor([1, 2]).to_numpy()
        array([1, 2], dtype=int32)
        """
        check_concrete(self, "read the values (t.to_numpy()) of")
        data = self.data
        if data.__class__ is VectorizedData:  # the values of every entry, vectorized axes first
            return self.backend.to_numpy(Tensor(data.array, self.type, (None,) * data.array.ndim, self.backend))
        return self.backend.to_numpy(self)

    def __array__(self, dtype=None, copy=None):
        check_concrete(self, "make a NumPy array (np.asarray, a NumPy function) of", "numpy")
        array = self.to_numpy()
        return array if dtype is None else array.astype(dtype)

    def __jax_array__(self):
        """The tensor's array for a `jax.numpy` function (`jnp.exp(t)`, `jnp.asarray(t)`): the
        names and the Nx type stay behind. JAX reads it only in `jax.numpy`; its transformations
        take a Tensor as a pytree."""
        data = self.data
        if isinstance(data, jax.Array):
            return data
        return jax.numpy.asarray(self.to_numpy())

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """The DLPack capsule of the tensor's array (`np.from_dlpack(t)`, `jax.dlpack.from_dlpack(t)`,
        `torch.from_dlpack(t)`); names travel only to `nbt.from_dlpack` of the tensor itself.

        >>> np.from_dlpack(nbt.tensor([1.0, 2.0], backend=nbt.NumPyBackend()))
        array([1., 2.], dtype=float32)
        """
        kwargs = {"stream": stream, "max_version": max_version, "dl_device": dl_device, "copy": copy}
        return self._dlpack_array().__dlpack__(**{key: value for key, value in kwargs.items() if value is not None})

    def __dlpack_device__(self) -> tuple:
        return self._dlpack_array().__dlpack_device__()

    def _dlpack_array(self):
        check_concrete(self, "export through DLPack")
        if self.data.__class__ is VectorizedData:
            raise ArgumentError(
                f"cannot export a vectorized tensor (vectorized axes {_format.vectorized_header(self.data.axes)}) "
                "through DLPack; call nbt.devectorize(t) first"
            )
        if self.type.bits < 8:
            raise ArgumentError(
                f"DLPack has no {self.type} type (numbat stores {self.type} one element a byte, in ml_dtypes' "
                f"{self.type.dtype}); cast with nbt.as_type(t, '{self.type.kind}8') first"
            )
        data = self.data if isinstance(self.data, (np.ndarray, jax.Array)) else np.asarray(self.data)
        if isinstance(data, np.ndarray) and data.dtype.kind == "V":  # bf16, f8, f8_e4m3fn: ml_dtypes' types
            raise ArgumentError(
                f"NumPy's DLPack export has no {self.type} (ml_dtypes' {self.type.dtype}); the XLA backend's arrays "
                "export it: nbt.backend_transfer(t, nbt.XLABackend()), or cast with nbt.as_type"
            )
        return data

    def __len__(self) -> int:
        if not self.names:
            raise TypeError("len() of a scalar tensor")  # TypeError: what Python's protocols expect
        return self.shape[0]

    def __bool__(self) -> bool:
        check_concrete(self, "branch on", "branch")
        if self.size != 1 or self.vectorized_axes:
            raise ArgumentError(
                f"the truth value of a tensor {_format.describe(self)} is ambiguous; "
                "reduce it first, e.g. nbt.reduce_max(t) or nbt.to_number(nbt.all(t))"
            )
        return bool(self.to_numpy().item())

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        if is_traced(self):
            body = f"<traced {type(self.data).__name__}: values exist only when the compiled code runs>"
        elif is_deallocated(self):
            body = "<deallocated by nbt.backend_deallocate>"
        else:
            body = _format.values(self.to_numpy(), self.type)
        return _format.text(self.type, self.shape, self.names, body, vectorized=self.vectorized_axes)

    def _scalar(self, convert, call: str = ""):
        check_concrete(self, call or f"take {convert.__name__}() of", "index" if call else "number")
        if self.size != 1 or self.vectorized_axes:
            raise ArgumentError(
                f"only a tensor with one element converts to a Python number, got {_format.describe(self)}"
            )
        value = self.to_numpy().reshape(()).item()
        if isinstance(value, complex) and convert is not complex:
            raise ArgumentError(
                f"cannot convert a complex tensor to {convert.__name__}; take nbt.real or nbt.abs first"
            )
        return convert(value)

    def __float__(self) -> float:
        return self._scalar(float)

    def __int__(self) -> int:
        return self._scalar(int)

    def __complex__(self) -> complex:
        return self._scalar(complex)

    def __index__(self) -> int:
        if not self.type.is_integer:
            raise TypeError(f"only an integer tensor can be used as an index, got {self.type}")
        return self._scalar(int, "take a Python int for range() or a list index from")

    __hash__ = None  # `==` is element-wise (see tensor_methods), so tensors are not hashable


def is_tensor_like(value) -> bool:
    """Whether `value` converts to a tensor in an op (so `t == value` compares element-wise)."""
    return isinstance(value, (Tensor, np.ndarray, jax.Array, list, tuple)) or is_number(value)


def is_tensor(value) -> bool:
    """Whether `value` is a Tensor: the `is_leaf` that keeps tensors whole in JAX tree utilities."""
    return isinstance(value, Tensor)


def is_traced(tensor: Tensor) -> bool:
    return isinstance(array_of(tensor), jax.core.Tracer)


# The recorder of the defn tracing now (`numbat._tensor._expr` records into it): a tracer seen while
# none records belongs to a JAX transformation of the caller's own.
recording: contextvars.ContextVar = contextvars.ContextVar("numbat_recorder", default=None)


_SEE = (
    "to see its value, use nbt.print_value(t) or nbt.hook(t, fun) inside, or return it from the defn "
    "and read the result"
)
# What to do instead, for each way of asking a traced tensor for its values.
_FIXES = {
    "branch": (
        "For Python's `and`, `or` and `not` on tensors use `&`, `|` and nbt.logical_not; "
        "for a Python `if` on a tensor use nbt.cond (or nbt.select element-wise)"
    ),
    "number": (
        "Keep it a tensor: numbat ops take tensors where Python takes numbers (nbt.as_type changes the type), "
        "and a loop whose count is a tensor is nbt.fori_loop or nbt.while_loop; " + _SEE
    ),
    "index": (
        "For a loop whose count is a tensor use nbt.fori_loop or nbt.while_loop (range() needs a Python int); "
        "to index a tensor with it, keep it a tensor (t[i], nbt.take); " + _SEE
    ),
    "values": "Keep it a tensor and compute with numbat ops; " + _SEE,
    "numpy": (
        "Compute with numbat ops instead: a NumPy function such as np.exp(t) is nbt.exp(t) inside a defn, "
        "and a list of tensors becomes one tensor with nbt.stack (or nbt.concatenate)"
    ),
}


def check_concrete(tensor: Tensor, action: str, fix: str = "values") -> None:
    """Raises a numbat error if `tensor` has no values to `action` (a tracer, or freed memory);
    `fix` names the advice, from `_FIXES`, that fits the call."""
    if is_traced(tensor):
        where = (
            "inside a defn" if recording.get() is not None else "under a JAX transformation (jax.jit, jax.grad, ...)"
        )
        raise ArgumentError(
            f"cannot {action} a traced tensor ({_format.header(tensor.type, tensor.shape, tensor.names)}) {where}: "
            "its values exist only when the compiled code runs. " + _FIXES[fix]
        )
    if is_deallocated(tensor):
        raise ArgumentError(
            f"cannot {action} a tensor whose memory was freed by nbt.backend_deallocate or moved away by "
            "nbt.backend_transfer "
            f"({_format.header(tensor.type, tensor.shape, tensor.names)})"
        )


def is_deallocated(tensor: Tensor) -> bool:
    is_deleted = getattr(array_of(tensor), "is_deleted", None)
    return is_deleted is not None and is_deleted()


def _flatten(tensor: Tensor):
    data = tensor.data
    if data.__class__ is VectorizedData:  # the array is the leaf; the vectorized axes are static
        return (data.array,), (tensor.type, tensor.names, tensor.backend, data.axes)
    names = tensor.names
    if names.__class__ is _Refitted and names.leaf == id(data):
        names = names.given  # the very tensor JAX built: JAX gets its own structure back
    return (data,), (tensor.type, names, tensor.backend)


def _unflatten(aux, children) -> Tensor:
    (data,) = children
    if len(aux) == 4:
        return Tensor(VectorizedData(data, aux[3]), *aux[:3])
    type_, names, backend = aux
    if data.__class__ is Tensor:  # jax.jacfwd/jacrev: the input's tree inside the output's
        return _jacobian(names, data)
    # JAX unflattens whatever it holds: arrays, tracers, and placeholders (None, object()).
    rank = getattr(data, "ndim", None)
    if rank is not None and rank != len(names):
        names = _Refitted.of(names, data, rank)
    if device_backend is not None and not isinstance(backend, device_backend) and isinstance(data, jax.Array):
        backend = device_backend()  # a tracer (or jit's device array) of a NumPy tensor: numbat's ops run it on XLA
    return Tensor(data, type_, names, backend)


def _jacobian(names: tuple, inner: Tensor) -> Tensor:
    """The Jacobian of a tensor-to-tensor function, which JAX builds as a tensor (the output's
    structure) of tensors (the input's, over arrays of the output's axes then the input's):
    one tensor, named by the output's axes then the input's, as `nbt.jacobian` gives it."""
    inner_names = inner.names
    if len(names) <= len(inner_names):
        inner_names = names + tuple(inner_names[len(names) :])
    return Tensor(inner.data, inner.type, inner_names, inner.backend)


class _Refitted(tuple):
    """The names of a tensor whose data JAX handed back with another rank: a plain tuple of
    names to numbat. `jax.vmap`'s tracer says which axis it maps (its `batch_dim`);
    otherwise, as `lax.scan` and vmap's default axes do, leading axes were taken away.
    Added axes (vmap's and scan's outputs, `jax.jacfwd`'s basis) lead and are unnamed, and
    flattening that very tensor again gives JAX the names it gave (`given`; `leaf` is the
    id of its data): JAX compares the trees it builds with the trees it was given
    (`jacfwd`), and a user's `tree_map` over parameters and vmap's per-example gradients
    does the same."""

    @classmethod
    def of(cls, names: tuple, data, rank: int) -> _Refitted:
        if rank < len(names):  # the tensor a function of vmap or scan gets: a structure of its own
            mapped = getattr(data, "batch_dim", None)
            if rank == len(names) - 1 and type(mapped) is int and 0 <= mapped < len(names):
                return cls(names[:mapped] + names[mapped + 1 :])
            return cls(names[len(names) - rank :])
        fitted = cls((None,) * (rank - len(names)) + names)
        fitted.given, fitted.leaf = names, id(data)
        return fitted

    given: tuple = ()
    leaf: int = -1


def _not_a_jax_value(tensor: Tensor):
    """JAX's type of a Tensor where JAX reads an array's type itself (not a pytree's leaves):
    the output of `jax.grad`'s function, above all. An error that names numbat's way (`lax`
    functions check their operands' dtype first and give JAX's own message)."""
    raise ArgumentError(
        f"JAX needs an array here and got a numbat Tensor ({_format.header(tensor.type, tensor.shape, tensor.names)}): "
        "jax.grad and jax.value_and_grad need the function to return a JAX scalar, so return jnp.asarray(loss) "
        "(the tensor's array) or differentiate with nbt.grad / nbt.value_and_grad, which return tensors; "
        "lax functions take jnp.asarray(t). jax.jit, jax.vmap and lax.scan take and return tensors as they are"
    )


# The XLA backend class, installed by numbat.backends (this layer imports none): the backend
# of a tensor whose data is a JAX array or tracer that JAX handed back.
device_backend = None

jax.tree_util.register_pytree_node(Tensor, _flatten, _unflatten)
# JAX 0.10 reads `__jax_array__` only in jax.numpy; where it needs an array's type (jax.grad's
# output) it would say only that `__jax_array__` is no longer supported there.
_jax_private.register_not_a_jax_value(Tensor, _not_a_jax_value)


@typing.final
class VectorizedShape(tuple):
    """The inner shape of a vectorized tensor's data. It never equals (and hashes
    apart from) the same plain shape, so code that keys compiled work by
    `data.shape` (the defn fast paths) cannot take a vectorized tensor for a plain one."""

    __slots__ = ()

    def __eq__(self, other):
        return type(other) is VectorizedShape and tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(("vectorized", *self))


@typing.final
class VectorizedData:
    """The data of a vectorized tensor: `array` holds the vectorized axes first,
    `axes` names them as `(name, size)` pairs; `shape` is the inner shape."""

    __slots__ = ("array", "axes")

    def __init__(self, array, axes: tuple):
        self.array = array
        self.axes = axes

    @property
    def shape(self) -> VectorizedShape:
        return VectorizedShape(self.array.shape[len(self.axes) :])

    @property
    def dtype(self):
        return self.array.dtype

    def __array__(self, dtype=None, copy=None):
        raise ArgumentError(
            "this operation does not take vectorized tensors (vectorized axes "
            f"{_format.vectorized_header(self.axes)}); call nbt.devectorize(t) first"
        )


def axes_of(tensor) -> tuple:
    """The vectorized axes of `tensor` (`()` for a plain tensor or anything else)."""
    data = getattr(tensor, "data", None)
    return data.axes if type(data) is VectorizedData else ()


def array_of(tensor):
    """The array behind `tensor`'s data (for a vectorized tensor, with its vectorized axes)."""
    data = tensor.data
    return data.array if type(data) is VectorizedData else data
