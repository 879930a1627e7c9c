"""`Tensor`: data (a NumPy array or a `jax.Array`), an Nx type and axis names.

A Tensor is a JAX pytree: its data is the leaf, its type, names and backend
are static aux data, so `jax.jit`, `grad` and `vmap` see through it.

>>> t = nbt.tensor([[1, 2], [3, 4]], names=["x", "y"])
>>> t.shape, t.names, str(t.type), t.rank, t.size
((2, 2), ('x', 'y'), 's32', 2, 4)
"""

from __future__ import annotations

import inspect
import typing

import jax
import numpy as np

from . import _format
from ._errors import ArgumentError
from ._types import Type


@typing.final
class Tensor:
    """An n-dimensional array with an Nx type, named axes and a backend.

    Build tensors with `nbt.tensor`, `nbt.iota` and friends rather than this
    constructor, which checks nothing.
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
        return _vectorized.axes_of(self)

    # NumPy and JAX spellings: the structural ones work as conveniences; an op's name
    # as a method (`t.sum()`) or `t.dtype` is an AttributeError naming numbat's spelling.
    @property
    def T(self) -> Tensor:
        """The axes reversed, as `nbt.transpose(t)` (NumPy's and JAX's `.T`).

        >>> nbt.tensor([[1, 2, 3]], names=["x", "y"]).T.names
        ('y', 'x')
        """
        return _shape_ops.transpose(self)

    def reshape(self, *shape, names=None) -> Tensor:
        """`nbt.reshape(t, shape, names=names)`; the shape as one tuple or as sizes (`t.reshape(2, 3)`).

        >>> nbt.iota((6,)).reshape(2, 3).shape, nbt.iota((6,)).reshape((3, "auto")).shape, nbt.iota((2, 3)).reshape(6).shape
        ((2, 3), (3, 2), (6,))
        """
        if len(shape) == 1 and not isinstance(shape[0], (int, str)):
            shape = shape[0]  # one tuple, a tensor or a template
        return _shape_ops.reshape(self, shape, names=names)

    def astype(self, type) -> Tensor:
        """`nbt.as_type(t, type)`: `type` is an Nx type ("f32", `nbt.Type("f", 32)`) or a NumPy dtype.

        >>> nbt.tensor([1.5, -2.5]).astype("s32")
        numbat.Tensor<
          s32[2]
          [1, -2]
        >
        """
        return _creation.as_type(self, type)

    def __getattr__(self, name: str):
        # Only reached when normal lookup fails, so attribute access costs nothing more.
        raise AttributeError(_spelling(self, name)) from None

    def to_numpy(self) -> np.ndarray:
        """The values as a NumPy array of the tensor's dtype (bool-free: u8 stays u8).

        >>> nbt.tensor([1, 2]).to_numpy()
        array([1, 2], dtype=int32)
        """
        _check_concrete(self, "read the values of")
        data = self.data
        if data.__class__ is _vectorized.VectorizedData:  # the values of every entry, vectorized axes first
            return self.backend.to_numpy(Tensor(data.array, self.type, (None,) * data.array.ndim, self.backend))
        return self.backend.to_numpy(self)

    def __array__(self, dtype=None, copy=None):
        array = self.to_numpy()
        return array if dtype is None else array.astype(dtype)

    def __jax_array__(self):
        return self.data if isinstance(self.data, jax.Array) else jax.numpy.asarray(self.to_numpy())

    def __len__(self) -> int:
        if not self.names:
            raise TypeError("len() of a scalar tensor")  # TypeError: what Python's protocols expect
        return self.shape[0]

    def __bool__(self) -> bool:
        _check_concrete(self, "branch on")
        if self.size != 1 or self.vectorized_axes:
            raise ArgumentError(
                f"the truth value of a tensor {_format.describe(self)} is ambiguous; "
                "reduce it first, e.g. nbt.reduce_max(t) or nbt.to_number(nbt.all(t))"
            )
        return bool(self.to_numpy().item())

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        if _is_traced(self):
            body = f"<traced {type(self.data).__name__}: values exist only when the defn runs>"
        elif _is_deallocated(self):
            body = "<deallocated by nbt.backend_deallocate>"
        else:
            body = _format.values(self.to_numpy(), self.type)
        return _format.text(self.type, self.shape, self.names, body, vectorized=self.vectorized_axes)

    def _repr_mimebundle_(self, include=None, exclude=None):
        from .notebook import _html

        bundle = {"text/plain": repr(self)}
        if not _is_traced(self):
            bundle["text/html"] = _html.tensor_html(self)
        return bundle

    # Operators follow Nx: `+` is nbt.add, `==` is nbt.equal (a u8 tensor).
    def __add__(self, other):
        return _elementwise.add(self, other)

    def __radd__(self, other):
        return _elementwise.add(other, self)

    def __sub__(self, other):
        return _elementwise.subtract(self, other)

    def __rsub__(self, other):
        return _elementwise.subtract(other, self)

    def __mul__(self, other):
        return _elementwise.multiply(self, other)

    def __rmul__(self, other):
        return _elementwise.multiply(other, self)

    def __truediv__(self, other):
        return _elementwise.divide(self, other)

    def __rtruediv__(self, other):
        return _elementwise.divide(other, self)

    def __pow__(self, other):
        return _elementwise.pow(self, other)

    def __rpow__(self, other):
        return _elementwise.pow(other, self)

    def __floordiv__(self, other):
        return _elementwise.floor_divide(self, other)

    def __rfloordiv__(self, other):
        return _elementwise.floor_divide(other, self)

    def __mod__(self, other):
        return _elementwise.mod(self, other)

    def __rmod__(self, other):
        return _elementwise.mod(other, self)

    def __and__(self, other):
        return _bitwise.bitwise_and(self, other)

    def __rand__(self, other):
        return _bitwise.bitwise_and(other, self)

    def __or__(self, other):
        return _bitwise.bitwise_or(self, other)

    def __ror__(self, other):
        return _bitwise.bitwise_or(other, self)

    def __xor__(self, other):
        return _bitwise.bitwise_xor(self, other)

    def __rxor__(self, other):
        return _bitwise.bitwise_xor(other, self)

    def __lshift__(self, other):
        return _bitwise.left_shift(self, other)

    def __rlshift__(self, other):
        return _bitwise.left_shift(other, self)

    def __rshift__(self, other):
        return _bitwise.right_shift(self, other)

    def __rrshift__(self, other):
        return _bitwise.right_shift(other, self)

    def __invert__(self):
        return _bitwise.bitwise_not(self)

    def __pos__(self):
        return self

    def __matmul__(self, other):
        return _linalg.dot(self, other)

    def __rmatmul__(self, other):
        return _linalg.dot(other, self)

    def _scalar(self, convert):
        _check_concrete(self, "convert")
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
        return self._scalar(int)

    def __neg__(self):
        return _elementwise.negate(self)

    def __abs__(self):
        return _elementwise.abs(self)

    def __eq__(self, other):
        if not _is_tensor_like(other):
            return NotImplemented  # `t == None` is False, as for any unrelated object
        return _elementwise.equal(self, other)

    def __ne__(self, other):
        if not _is_tensor_like(other):
            return NotImplemented
        return _elementwise.not_equal(self, other)

    def __lt__(self, other):
        return _elementwise.less(self, other)

    def __le__(self, other):
        return _elementwise.less_equal(self, other)

    def __gt__(self, other):
        return _elementwise.greater(self, other)

    def __ge__(self, other):
        return _elementwise.greater_equal(self, other)

    __hash__ = None  # `==` is element-wise, so tensors are not hashable

    def __getitem__(self, index):
        return _indexing.getitem(self, index)


def _spelling(tensor: Tensor, name: str) -> str:
    """The message for an attribute a Tensor does not have: numbat's spelling of a NumPy
    or JAX one where there is one.

    >>> nbt.tensor([1, 2]).sum()
    Traceback (most recent call last):
    ...
    AttributeError: 'Tensor' object has no attribute 'sum': numbat's ops are functions, as in Nx: nbt.sum(t, axes=None, keep_axes=False)
    >>> nbt.tensor([1, 2]).dtype
    Traceback (most recent call last):
    ...
    AttributeError: 'Tensor' object has no attribute 'dtype': a tensor has an Nx type, t.type (here s32); t.type.dtype is the NumPy dtype that stores it
    """
    message = f"'Tensor' object has no attribute {name!r}"
    if name.startswith("_"):
        return message
    if name == "dtype":
        return (
            f"{message}: a tensor has an Nx type, t.type (here {tensor.type}); "
            "t.type.dtype is the NumPy dtype that stores it"
        )
    if name in ("ndim", "nbytes", "itemsize"):
        spelling = {"ndim": "t.rank", "nbytes": "nbt.byte_size(t)", "itemsize": "t.type.size // 8"}[name]
        return f"{message}: numbat spells it {spelling}"
    import numbat

    op = getattr(numbat, name, None) if name in numbat.__all__ else None
    if callable(op) and not isinstance(op, type):
        parameters = list(inspect.signature(op).parameters.values())[1:]
        return f"{message}: numbat's ops are functions, as in Nx: nbt.{name}(t{''.join(', ' + str(p) for p in parameters)})"
    return message


def _is_tensor_like(value) -> bool:
    from ._types import is_number

    return isinstance(value, (Tensor, np.ndarray, jax.Array, list, tuple)) or is_number(value)


def is_tensor(value) -> bool:
    """Whether `value` is a Tensor: the `is_leaf` that keeps tensors whole in JAX tree utilities."""
    return isinstance(value, Tensor)


def _is_traced(tensor: Tensor) -> bool:
    return isinstance(_vectorized.array_of(tensor), jax.core.Tracer)


def _check_concrete(tensor: Tensor, action: str) -> None:
    if _is_traced(tensor):
        raise ArgumentError(
            f"cannot {action} a traced tensor ({_format.header(tensor.type, tensor.shape, tensor.names)}) "
            "inside a defn: its values exist only when the compiled code runs. "
            "Compute with numbat ops instead; for a Python `if` on a tensor use nbt.cond (or nbt.select element-wise)"
        )
    if _is_deallocated(tensor):
        raise ArgumentError(
            f"cannot {action} a tensor whose memory was freed by nbt.backend_deallocate "
            f"({_format.header(tensor.type, tensor.shape, tensor.names)})"
        )


def _is_deallocated(tensor: Tensor) -> bool:
    is_deleted = getattr(_vectorized.array_of(tensor), "is_deleted", None)
    return is_deleted is not None and is_deleted()


def _flatten(tensor: Tensor):
    data = tensor.data
    if data.__class__ is _vectorized.VectorizedData:  # the array is the leaf; the vectorized axes are static
        return (data.array,), (tensor.type, tensor.names, tensor.backend, data.axes)
    return (data,), (tensor.type, tensor.names, tensor.backend)


def _unflatten(aux, children) -> Tensor:
    (data,) = children
    if len(aux) == 4:
        return Tensor(_vectorized.VectorizedData(data, aux[3]), *aux[:3])
    return Tensor(data, *aux)


jax.tree_util.register_pytree_node(Tensor, _flatten, _unflatten)

from ._ops import _vectorized
from ._ops import bitwise as _bitwise
from ._ops import creation as _creation
from ._ops import elementwise as _elementwise
from ._ops import indexing as _indexing
from ._ops import linalg as _linalg
from ._ops import shape as _shape_ops
