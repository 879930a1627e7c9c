"""The backend contract: every method a backend implements, one line each on what it must
do, as Nx's `Nx.Backend` lists its callbacks. `AbstractBackend` is this contract;
`ArrayBackend` (`_array.py`) implements it over `numpy` or `jax.numpy`, one op family per
module of `_families/`, and `NumPyBackend` and `XLABackend` add placement and `execute`.

Every op method takes the output template `out` first: shapes, types and names are
inferred once, in the front-end, and the backend only fills in data. The element-wise
ops of `elementwise`, `math`, `bitwise` and `complex` come from their family's tables
(`_families/_tables.fill`, from the op table, `_core/_op_table.py`); each is still declared
here, so go-to-definition on `backend.exp` lands on this line. An op of the op table not
written out here (a new one) is declared by `declare_table_ops`, from its table entry; the
other families' methods (creation, cumulative, window, shape, indexing, sort, products,
linalg, fft, and reduction's argmax, argmin and reduce) by `declare_entries`, each from its
entry's signature (`_op_table.STRUCTURED`). `tests/test_backend_contract.py` checks that both
backends implement exactly these methods with these signatures.

>>> sorted(AbstractBackend.__abstractmethods__)[:4]
['abs', 'acos', 'acosh', 'add']
"""

from __future__ import annotations

import abc

import numpy as np

from .._core import _op_table
from .._tensor._tensor import Template, Tensor


class AbstractBackend(abc.ABC):
    """A place where tensor data lives and ops run; every op takes `out` first."""

    # --- Running ops and moving data
    @abc.abstractmethod
    def execute(self, op: str, out: Template, inputs: tuple, params: dict) -> Tensor:
        """Runs op `op` eagerly: `self.<op>(out, *inputs, **params)` plus what the backend needs around it."""

    @abc.abstractmethod
    def execute_binary(self, op: str, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """`execute(op, out, (left, right), {})` for an element-wise binary op, in few Python frames."""

    @abc.abstractmethod
    def from_numpy(self, out: Template, array: np.ndarray) -> Tensor:
        """A tensor of this backend holding `array` (of `out`'s dtype and shape)."""

    @abc.abstractmethod
    def to_numpy(self, tensor: Tensor) -> np.ndarray:
        """The tensor's data as a NumPy array on the host."""

    @abc.abstractmethod
    def describe(self) -> str:
        """One line naming where the data lives, e.g. `NumPy (host)` or `XLA host:0`."""

    # --- creation (`_families/creation.py`): iota, eye, as_type, broadcast, bitcast, declared from the op table

    # --- elementwise (`_families/elementwise.py`): two or more broadcast tensors; the binary ops are its tables
    @abc.abstractmethod
    def select(self, out: Template, pred: Tensor, on_true: Tensor, on_false: Tensor) -> Tensor:
        """`on_true` where `pred` is non-zero, else `on_false`."""

    @abc.abstractmethod
    def clip(self, out: Template, tensor: Tensor, low: Tensor, high: Tensor) -> Tensor:
        """Each element clamped to [`low`, `high`]."""

    @abc.abstractmethod
    def add(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left + right."""

    @abc.abstractmethod
    def subtract(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left - right."""

    @abc.abstractmethod
    def multiply(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left * right."""

    @abc.abstractmethod
    def divide(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left / right, in a float or complex output type."""

    @abc.abstractmethod
    def pow(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left raised to the power right."""

    @abc.abstractmethod
    def quotient(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """Integer division truncated toward zero."""

    @abc.abstractmethod
    def remainder(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """The remainder with the sign of `left` (C's fmod)."""

    @abc.abstractmethod
    def floor_divide(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """Division rounded toward minus infinity."""

    @abc.abstractmethod
    def mod(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """The remainder with the sign of `right` (Python's %)."""

    @abc.abstractmethod
    def atan2(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """The angle of the point (right, left), in radians."""

    @abc.abstractmethod
    def min(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """The smaller of each pair (NaN if either is)."""

    @abc.abstractmethod
    def max(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """The larger of each pair (NaN if either is)."""

    @abc.abstractmethod
    def equal(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """1 where left == right, else 0 (u8)."""

    @abc.abstractmethod
    def not_equal(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """1 where left != right, else 0 (u8)."""

    @abc.abstractmethod
    def less(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """1 where left < right, else 0 (u8)."""

    @abc.abstractmethod
    def less_equal(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """1 where left <= right, else 0 (u8)."""

    @abc.abstractmethod
    def greater(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """1 where left > right, else 0 (u8)."""

    @abc.abstractmethod
    def greater_equal(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """1 where left >= right, else 0 (u8)."""

    # --- math (`_families/math.py`): functions of one tensor, element by element; the tables but `stop_grad`
    @abc.abstractmethod
    def stop_grad(self, out: Template, tensor: Tensor) -> Tensor:
        """The tensor itself; gradients do not flow through it."""

    @abc.abstractmethod
    def negate(self, out: Template, tensor: Tensor) -> Tensor:
        """-x."""

    @abc.abstractmethod
    def sign(self, out: Template, tensor: Tensor) -> Tensor:
        """-1, 0 or 1 (of a complex number: x / |x|, or 0)."""

    @abc.abstractmethod
    def floor(self, out: Template, tensor: Tensor) -> Tensor:
        """The largest whole number not above x."""

    @abc.abstractmethod
    def ceil(self, out: Template, tensor: Tensor) -> Tensor:
        """The smallest whole number not below x."""

    @abc.abstractmethod
    def round(self, out: Template, tensor: Tensor) -> Tensor:
        """The nearest whole number, halves away from zero (Nx)."""

    @abc.abstractmethod
    def exp(self, out: Template, tensor: Tensor) -> Tensor:
        """e ** x."""

    @abc.abstractmethod
    def expm1(self, out: Template, tensor: Tensor) -> Tensor:
        """e ** x - 1, accurate near 0."""

    @abc.abstractmethod
    def log(self, out: Template, tensor: Tensor) -> Tensor:
        """The natural logarithm."""

    @abc.abstractmethod
    def log1p(self, out: Template, tensor: Tensor) -> Tensor:
        """log(1 + x), accurate near 0."""

    @abc.abstractmethod
    def log2(self, out: Template, tensor: Tensor) -> Tensor:
        """The base-2 logarithm."""

    @abc.abstractmethod
    def log10(self, out: Template, tensor: Tensor) -> Tensor:
        """The base-10 logarithm."""

    @abc.abstractmethod
    def sigmoid(self, out: Template, tensor: Tensor) -> Tensor:
        """1 / (1 + e ** -x)."""

    @abc.abstractmethod
    def sqrt(self, out: Template, tensor: Tensor) -> Tensor:
        """The square root."""

    @abc.abstractmethod
    def rsqrt(self, out: Template, tensor: Tensor) -> Tensor:
        """1 / sqrt(x)."""

    @abc.abstractmethod
    def cbrt(self, out: Template, tensor: Tensor) -> Tensor:
        """The cube root (subnormals read as zero; of a complex number the principal root)."""

    @abc.abstractmethod
    def sin(self, out: Template, tensor: Tensor) -> Tensor:
        """The sine."""

    @abc.abstractmethod
    def cos(self, out: Template, tensor: Tensor) -> Tensor:
        """The cosine."""

    @abc.abstractmethod
    def tan(self, out: Template, tensor: Tensor) -> Tensor:
        """The tangent."""

    @abc.abstractmethod
    def asin(self, out: Template, tensor: Tensor) -> Tensor:
        """The inverse sine."""

    @abc.abstractmethod
    def acos(self, out: Template, tensor: Tensor) -> Tensor:
        """The inverse cosine."""

    @abc.abstractmethod
    def atan(self, out: Template, tensor: Tensor) -> Tensor:
        """The inverse tangent."""

    @abc.abstractmethod
    def sinh(self, out: Template, tensor: Tensor) -> Tensor:
        """The hyperbolic sine."""

    @abc.abstractmethod
    def cosh(self, out: Template, tensor: Tensor) -> Tensor:
        """The hyperbolic cosine."""

    @abc.abstractmethod
    def tanh(self, out: Template, tensor: Tensor) -> Tensor:
        """The hyperbolic tangent."""

    @abc.abstractmethod
    def asinh(self, out: Template, tensor: Tensor) -> Tensor:
        """The inverse hyperbolic sine."""

    @abc.abstractmethod
    def acosh(self, out: Template, tensor: Tensor) -> Tensor:
        """The inverse hyperbolic cosine."""

    @abc.abstractmethod
    def atanh(self, out: Template, tensor: Tensor) -> Tensor:
        """The inverse hyperbolic tangent."""

    @abc.abstractmethod
    def erf(self, out: Template, tensor: Tensor) -> Tensor:
        """The error function."""

    @abc.abstractmethod
    def erfc(self, out: Template, tensor: Tensor) -> Tensor:
        """1 - erf(x), accurate for large x."""

    @abc.abstractmethod
    def erf_inv(self, out: Template, tensor: Tensor) -> Tensor:
        """The inverse of the error function."""

    @abc.abstractmethod
    def abs(self, out: Template, tensor: Tensor) -> Tensor:
        """|x|, computed in the input's type (of a complex number: its real modulus)."""

    @abc.abstractmethod
    def is_nan(self, out: Template, tensor: Tensor) -> Tensor:
        """1 where x is NaN, else 0 (u8), from the input's type."""

    @abc.abstractmethod
    def is_infinity(self, out: Template, tensor: Tensor) -> Tensor:
        """1 where x is infinite, else 0 (u8), from the input's type."""

    # --- bitwise (`_families/bitwise.py`): integers' bits and logical values; all from the tables
    @abc.abstractmethod
    def bitwise_not(self, out: Template, tensor: Tensor) -> Tensor:
        """Each bit flipped."""

    @abc.abstractmethod
    def population_count(self, out: Template, tensor: Tensor) -> Tensor:
        """The number of 1 bits."""

    @abc.abstractmethod
    def count_leading_zeros(self, out: Template, tensor: Tensor) -> Tensor:
        """The number of 0 bits above the highest 1 bit."""

    @abc.abstractmethod
    def logical_not(self, out: Template, tensor: Tensor) -> Tensor:
        """1 where x is zero, else 0 (u8)."""

    @abc.abstractmethod
    def bitwise_and(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left & right."""

    @abc.abstractmethod
    def bitwise_or(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left | right."""

    @abc.abstractmethod
    def bitwise_xor(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left ^ right."""

    @abc.abstractmethod
    def left_shift(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left << right."""

    @abc.abstractmethod
    def right_shift(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left >> right (arithmetic for signed types)."""

    @abc.abstractmethod
    def logical_and(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """1 where both are non-zero, else 0 (u8)."""

    @abc.abstractmethod
    def logical_or(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """1 where either is non-zero, else 0 (u8)."""

    @abc.abstractmethod
    def logical_xor(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """1 where exactly one is non-zero, else 0 (u8)."""

    # --- complex (`_families/complex.py`): complex numbers' parts; all from the tables
    @abc.abstractmethod
    def conjugate(self, out: Template, tensor: Tensor) -> Tensor:
        """The complex conjugate."""

    @abc.abstractmethod
    def real(self, out: Template, tensor: Tensor) -> Tensor:
        """The real part (a real type)."""

    @abc.abstractmethod
    def imag(self, out: Template, tensor: Tensor) -> Tensor:
        """The imaginary part (a real type)."""

    @abc.abstractmethod
    def phase(self, out: Template, tensor: Tensor) -> Tensor:
        """The angle of each number in radians (XLA's answers for Inf and NaN)."""

    @abc.abstractmethod
    def complex(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """left + right * i."""

    # --- reduction (`_families/reduction.py`): from the op table but `reduce_max`, whose `for_shift` its entry lacks
    @abc.abstractmethod
    def reduce_max(
        self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool, for_shift: bool = False
    ) -> Tensor:
        """The max over `axes`; with `for_shift` (`shift_max`), a group holding a NaN may get any value."""

    # The other families, each declared from the op table's entries (`declare_table_ops`):
    # --- cumulative (`_families/cumulative.py`)
    # --- window (`_families/window.py`)
    # --- shape (`_families/shape.py`)
    # --- indexing (`_families/indexing.py`)
    # --- sort (`_families/sort.py`)
    # --- products (`_families/products.py`)
    # --- linalg (`_families/linalg.py`)
    # --- fft (`_families/fft.py`)


def _table_method(op):
    """The declaration of an op table entry: `op(self, out, tensor)` or `op(self, out, left, right)`
    for an element-wise op, `op(self, out, tensor, axes, keep_axes)` for a reduction."""
    if isinstance(op, _op_table.Reduction):

        def method(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor: ...

        kind = "reduction"
    elif op.arity == 1:

        def method(self, out: Template, tensor: Tensor) -> Tensor: ...

        kind = f"{op.family}, {op.kind}"
    else:

        def method(self, out: Template, left: Tensor, right: Tensor) -> Tensor: ...

        kind = f"{op.family}, {op.kind}"
    method.__name__ = method.__qualname__ = op.name
    method.__doc__ = f"The op table's {op.name!r} ({kind}): `_core/_op_table.py`."
    return abc.abstractmethod(method)


def declare_table_ops(contract: type) -> list[str]:
    """Declares on `contract` each op of the op table (element-wise ops and reductions) it does
    not list by name (a new op needs no line here), and returns their names."""
    entries = {**_op_table.OPS, **_op_table.REDUCTIONS}
    added = [name for name in entries if name not in vars(contract)]
    for name in added:
        setattr(contract, name, _table_method(entries[name]))
    abc.update_abstractmethods(contract)
    return added


def declare_entries(contract: type) -> list[str]:
    """Declares on `contract` each entry of the op table's other families (`_op_table.STRUCTURED`)
    it does not write out, one abstract method each, of the entry's signature and with its `doc`;
    returns their names."""
    added = [name for name in _op_table.STRUCTURED if name not in vars(contract)]
    for name in added:
        entry = _op_table.STRUCTURED[name]
        method = entry.function("...", {})
        method.__qualname__ = f"{contract.__name__}.{name}"
        method.__doc__ = f"{entry.doc} (`_core/_op_table.py`, family {entry.family})"
        setattr(contract, name, abc.abstractmethod(method))
    abc.update_abstractmethods(contract)
    return added


TABLE_DECLARED = declare_table_ops(AbstractBackend) + declare_entries(AbstractBackend)
