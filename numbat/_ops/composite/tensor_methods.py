"""Tensor's operators and op methods, installed on the class when the ops load.

`numbat._tensor._tensor` holds the data and imports no op; this module gives `Tensor` what
makes it feel like an array: Python's operators as Nx's ops (`+` is `nbt.add`, `==` is
`nbt.equal`, a u8 tensor; `t[i]` is numbat's indexing; `@` is `nbt.dot`), NumPy's
structural conveniences `.T`, `.reshape` and `.astype`, and an AttributeError that
names numbat's spelling of a NumPy or JAX method. JAX installs `jax.Array`'s methods
from `jax.numpy` the same way.

>>> a = nbt.tensor([1, 2])
>>> (a + 1).to_numpy(), (a == 2).to_numpy(), (a @ a).to_numpy()
(array([2, 3], dtype=int32), array([0, 1], dtype=uint8), array(5, dtype=int32))
"""

from __future__ import annotations

import inspect

from ..._tensor._tensor import Tensor, is_tensor_like
from .. import composite, primitive
from ..primitive import bitwise, creation, elementwise, indexing, math, products, shape

# The ops an AttributeError can point to (`t.sum()` -> `nbt.sum(t, ...)`).
_OPS = {
    name: function
    for package in (primitive, composite)
    for module in vars(package).values()
    if inspect.ismodule(module)
    for name, function in vars(module).items()
    if inspect.isfunction(function) and not name.startswith("_") and function.__module__ == module.__name__
}


def T(self) -> Tensor:
    """The axes reversed, as `nbt.transpose(t)` (NumPy's and JAX's `.T`).

    >>> nbt.tensor([[1, 2, 3]], names=["x", "y"]).T.names
    ('y', 'x')
    """
    return shape.transpose(self)


def reshape(self, *new_shape, names=None) -> Tensor:
    """`nbt.reshape(t, shape, names=names)`; the shape as one tuple or as sizes (`t.reshape(2, 3)`).

    >>> nbt.iota((6,)).reshape(2, 3).shape, nbt.iota((6,)).reshape((3, "auto")).shape, nbt.iota((2, 3)).reshape(6).shape
    ((2, 3), (3, 2), (6,))
    """
    if len(new_shape) == 1 and not isinstance(new_shape[0], (int, str)):
        new_shape = new_shape[0]  # one tuple, a tensor or a template
    return shape.reshape(self, new_shape, names=names)


def astype(self, type) -> Tensor:
    """`nbt.as_type(t, type)`: `type` is an Nx type ("f32", `nbt.Type("f", 32)`) or a NumPy dtype.

    >>> nbt.tensor([1.5, -2.5]).astype("s32")
    numbat.Tensor<
      s32[2]
      [1, -2]
    >
    """
    return creation.as_type(self, type)


def _equal(self, other):
    if not is_tensor_like(other):
        return NotImplemented  # `t == None` is False, as for any unrelated object
    return elementwise.equal(self, other)


def _not_equal(self, other):
    if not is_tensor_like(other):
        return NotImplemented
    return elementwise.not_equal(self, other)


def _positive(self):
    return self


def _reflected(op):
    """`op` with its operands swapped, for `__radd__` and friends."""

    def method(self, other):
        return op(other, self)

    method.__name__ = f"reflected_{op.__name__}"
    return method


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
    spelling = _METHOD_SPELLINGS.get(name)
    if spelling is not None:
        return f"{message}: numbat spells it {spelling}"
    op = _OPS.get(name)
    if op is not None:
        parameters = list(inspect.signature(op).parameters.values())[1:]
        return f"{message}: numbat's ops are functions, as in Nx: nbt.{name}(t{''.join(', ' + str(p) for p in parameters)})"
    return message


# NumPy's and JAX's array attributes that numbat spells otherwise (a method here is an op there).
_METHOD_SPELLINGS = {
    "ndim": "t.rank",
    "nbytes": "nbt.byte_size(t)",
    "itemsize": "t.type.bits // 8",
    "tolist": "nbt.to_list(t)",
    "item": "nbt.to_number(t)",
    "numpy": "t.to_numpy() (or np.asarray(t))",
    "max": "nbt.reduce_max(t, axes=None, keep_axes=False) (nbt.max(a, b) is element-wise)",
    "min": "nbt.reduce_min(t, axes=None, keep_axes=False) (nbt.min(a, b) is element-wise)",
    "prod": "nbt.product(t, axes=None, keep_axes=False)",
    "std": "nbt.standard_deviation(t, axes=None, keep_axes=False, ddof=0)",
    "var": "nbt.variance(t, axes=None, keep_axes=False, ddof=0)",
    "cumsum": "nbt.cumulative_sum(t, axis=0)",
    "ravel": "nbt.flatten(t)",
    "transpose": "nbt.transpose(t, axes=None) (or t.T)",
    "swapaxes": "nbt.transpose(t, axes=[...])",
    "tobytes": "nbt.to_binary(t)",
    "copy": "nbt.backend_copy(t) (tensors are immutable: an op never changes its inputs)",
}


class _Spelled:
    """A NumPy or JAX attribute that a Tensor does not have (`t.sum`, `t.dtype`): reading it
    raises the AttributeError that names numbat's spelling, so `hasattr` and `getattr`
    defaults keep working. A descriptor per such name rather than `Tensor.__getattr__`:
    CPython reads attributes of a class with `__getattr__` through a slower lookup that it
    never specialises, so every `t.data` or `t.type` of every op would pay for the hint."""

    def __init__(self, name: str):
        self.name = name

    def __get__(self, tensor, owner=None):
        if tensor is None:
            raise AttributeError(f"type object 'Tensor' has no attribute {self.name!r}")
        raise AttributeError(_spelling(tensor, self.name)) from None


def _dir(self) -> list[str]:
    return [name for name in object.__dir__(self) if name not in _SPELLED]


_BINARY = {
    "add": elementwise.add,
    "sub": elementwise.subtract,
    "mul": elementwise.multiply,
    "truediv": elementwise.divide,
    "pow": elementwise.pow,
    "floordiv": elementwise.floor_divide,
    "mod": elementwise.mod,
    "and": bitwise.bitwise_and,
    "or": bitwise.bitwise_or,
    "xor": bitwise.bitwise_xor,
    "lshift": bitwise.left_shift,
    "rshift": bitwise.right_shift,
    "matmul": products.dot,
}

for _name, _op in _BINARY.items():
    setattr(Tensor, f"__{_name}__", _op)
    setattr(Tensor, f"__r{_name}__", _reflected(_op))
Tensor.__eq__ = _equal
Tensor.__ne__ = _not_equal
Tensor.__lt__ = elementwise.less
Tensor.__le__ = elementwise.less_equal
Tensor.__gt__ = elementwise.greater
Tensor.__ge__ = elementwise.greater_equal
Tensor.__neg__ = math.negate
Tensor.__abs__ = math.abs
Tensor.__invert__ = bitwise.bitwise_not
Tensor.__pos__ = _positive
Tensor.__getitem__ = indexing.getitem
Tensor.T = property(T)
Tensor.reshape = reshape
Tensor.astype = astype
# The names that get a hint (those the class has work); `dir(t)` leaves them out, so
# completion offers only what works.
_SPELLED = frozenset(name for name in ("dtype", *_METHOD_SPELLINGS, *_OPS) if name not in vars(Tensor))
for _name in _SPELLED:
    setattr(Tensor, _name, _Spelled(_name))
Tensor.__dir__ = _dir
