"""The backend contract: every method a backend implements, one line each on what it must
do, as Nx's `Nx.Backend` lists its callbacks. `AbstractBackend` is this contract;
`ArrayBackend` (`_array.py`) implements it over `numpy` or `jax.numpy`, one op family per
module of `_families/`, and `NumPyBackend` and `XLABackend` add placement and `execute`.

Every op method takes the output template `out` first: shapes, types and names are
inferred once, in the front-end, and the backend only fills in data. The element-wise
ops of `elementwise`, `math`, `bitwise` and `complex` come from their family's tables
(`_families/_tables.fill`, from the op table, `_core/_op_table.py`); each is still declared
here, so go-to-definition on `backend.exp` lands on this line. An op of the op table not
written out here (a new one) is declared by `declare_table_ops`, from its table entry. `tests/test_backend_contract.py` checks that both
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

    # --- creation (`_families/creation.py`)
    @abc.abstractmethod
    def iota(self, out: Template, axis: int | None) -> Tensor:
        """0, 1, 2, ... along `axis` (None: counting through every element in order)."""

    @abc.abstractmethod
    def eye(self, out: Template) -> Tensor:
        """Ones on the diagonal of the last two axes, zeros elsewhere."""

    @abc.abstractmethod
    def as_type(self, out: Template, tensor: Tensor) -> Tensor:
        """Each element converted to `out`'s type (Nx's conversion rules)."""

    @abc.abstractmethod
    def broadcast(self, out: Template, tensor: Tensor, axes: tuple) -> Tensor:
        """`tensor` broadcast to `out`'s shape, its axes landing on `axes`."""

    @abc.abstractmethod
    def bitcast(self, out: Template, tensor: Tensor) -> Tensor:
        """The same bits read as `out`'s type (of the same bit width)."""

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

    # --- reduction (`_families/reduction.py`)
    @abc.abstractmethod
    def sum(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor:
        """The sum over `axes` (kept as size 1 with `keep_axes`)."""

    @abc.abstractmethod
    def reduce_max(
        self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool, for_shift: bool = False
    ) -> Tensor:
        """The max over `axes`; with `for_shift` (`shift_max`), a group holding a NaN may get any value."""

    @abc.abstractmethod
    def reduce_min(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor:
        """The min over `axes`."""

    @abc.abstractmethod
    def argmax(self, out: Template, tensor: Tensor, axis: int | None, keep_axis: bool, tie_break: str) -> Tensor:
        """The index of the max along `axis` (None: of the flattened tensor); `tie_break` high or low."""

    @abc.abstractmethod
    def argmin(self, out: Template, tensor: Tensor, axis: int | None, keep_axis: bool, tie_break: str) -> Tensor:
        """The index of the min along `axis`, as `argmax`."""

    @abc.abstractmethod
    def product(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor:
        """The product over `axes`."""

    @abc.abstractmethod
    def all(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor:
        """1 where every element over `axes` is non-zero, else 0 (u8)."""

    @abc.abstractmethod
    def any(self, out: Template, tensor: Tensor, axes: tuple, keep_axes: bool) -> Tensor:
        """1 where some element over `axes` is non-zero, else 0 (u8)."""

    @abc.abstractmethod
    def reduce(self, out: Template, tensor: Tensor, acc: Tensor, fun, axes: tuple, keep_axes: bool) -> Tensor:
        """Reduces `axes` with `fun(a, b)` (numbat tensors in, a tensor out), from the scalar `acc`."""

    # --- cumulative (`_families/cumulative.py`)
    @abc.abstractmethod
    def cumulative(self, out: Template, tensor: Tensor, kind: str, axis: int, reverse: bool) -> Tensor:
        """A running sum, product, min or max (`kind`) along `axis`."""

    # --- window (`_families/window.py`)
    @abc.abstractmethod
    def window(
        self, out: Template, tensor: Tensor, kind: str, window: tuple, strides: tuple, padding: tuple, dilations: tuple
    ) -> Tensor:
        """Reduces each window (sum, product, max or min): `padding` is a (low, high) pair per axis."""

    @abc.abstractmethod
    def window_reduce(
        self,
        out: Template,
        tensor: Tensor,
        acc: Tensor,
        fun,
        window: tuple,
        strides: tuple,
        padding: tuple,
        dilations: tuple,
    ) -> Tensor:
        """Reduces each window with `fun(a, b)` (numbat tensors in, a tensor out), from the scalar `acc`."""

    @abc.abstractmethod
    def window_scatter(
        self,
        out: Template,
        tensor: Tensor,
        source: Tensor,
        init: Tensor,
        kind: str,
        window: tuple,
        strides: tuple,
        padding: tuple,
    ) -> Tensor:
        """Adds each `source` value at its window's max (`kind` max) or min onto a tensor of `init`."""

    # --- shape (`_families/shape.py`)
    @abc.abstractmethod
    def reshape(self, out: Template, tensor: Tensor) -> Tensor:
        """The same elements in `out`'s shape."""

    @abc.abstractmethod
    def transpose(self, out: Template, tensor: Tensor, axes: tuple) -> Tensor:
        """The axes in the order `axes`."""

    @abc.abstractmethod
    def pad(self, out: Template, tensor: Tensor, value: Tensor, config: tuple) -> Tensor:
        """Pads with `value`: `config` holds (low, high, interior) per axis; negative trims."""

    @abc.abstractmethod
    def concatenate(self, out: Template, *tensors: Tensor, axis: int) -> Tensor:
        """The tensors joined along `axis`."""

    @abc.abstractmethod
    def reverse(self, out: Template, tensor: Tensor, axes: tuple) -> Tensor:
        """The elements in reverse order along `axes`."""

    # --- indexing (`_families/indexing.py`)
    @abc.abstractmethod
    def getitem(self, out: Template, tensor: Tensor, index: tuple) -> Tensor:
        """`tensor`'s data indexed by the static `index`, as NumPy indexes."""

    @abc.abstractmethod
    def slice(self, out: Template, tensor: Tensor, *starts: Tensor, lengths: tuple, strides: tuple) -> Tensor:
        """`lengths` elements from `starts` (scalar tensors, clamped so the slice fits) with `strides`."""

    @abc.abstractmethod
    def put_slice(self, out: Template, tensor: Tensor, update: Tensor, *starts: Tensor) -> Tensor:
        """`tensor` with `update` written from `starts` (clamped so it fits)."""

    @abc.abstractmethod
    def take(self, out: Template, tensor: Tensor, indices: Tensor, axis: int) -> Tensor:
        """The slices at `indices` along `axis` (indices clamped into range, as XLA's gather)."""

    @abc.abstractmethod
    def take_along_axis(self, out: Template, tensor: Tensor, indices: Tensor, axis: int) -> Tensor:
        """The elements at `indices` (of `tensor`'s rank) along `axis`, indices clamped into range."""

    @abc.abstractmethod
    def gather(self, out: Template, tensor: Tensor, indices: Tensor, axes: tuple) -> Tensor:
        """The slices at the index tuples of `indices`' last axis, one index per axis of `axes`, clamped."""

    @abc.abstractmethod
    def indexed(
        self, out: Template, tensor: Tensor, indices: Tensor, updates: Tensor, axes: tuple, mode: str
    ) -> Tensor:
        """Adds (`mode="add"`) or writes (`"put"`) `updates` at `indices` along `axes`."""

    # --- sort (`_families/sort.py`)
    @abc.abstractmethod
    def sort(self, out: Template, tensor: Tensor, axis: int, descending: bool) -> Tensor:
        """Sorts along `axis`, stably (equal elements keep their order in either direction)."""

    @abc.abstractmethod
    def argsort(self, out: Template, tensor: Tensor, axis: int, descending: bool) -> Tensor:
        """The indices that sort along `axis`, stably (as `sort`)."""

    @abc.abstractmethod
    def top_k(self, out: Template, tensor: Tensor, k: int, part: int) -> Tensor:
        """The `k` largest along the last axis, as `argsort` descending: values (`part` 0) or indices (1)."""

    # --- products (`_families/products.py`)
    @abc.abstractmethod
    def dot(self, out: Template, left: Tensor, right: Tensor) -> Tensor:
        """NumPy's `dot`: sums of products over `left`'s last axis and `right`'s second-to-last (or only)."""

    @abc.abstractmethod
    def dot_general(self, out: Template, left: Tensor, right: Tensor, contract: tuple, batch: tuple) -> Tensor:
        """Contracts `contract` = (left axes, right axes) with batch axes `batch` = (left, right)."""

    @abc.abstractmethod
    def conv(
        self,
        out: Template,
        tensor: Tensor,
        kernel: Tensor,
        strides: tuple,
        padding: tuple,
        input_dilation: tuple,
        kernel_dilation: tuple,
        feature_groups: int,
        batch_groups: int,
    ) -> Tensor:
        """Nx.conv: a convolution of `tensor` with `kernel`, channels first."""

    # --- linalg (`_families/linalg.py`)
    @abc.abstractmethod
    def decompose(self, out: Template, tensor: Tensor, kind: str, part: int, options: tuple) -> Tensor:
        """Result `part` of `kind` (cholesky, qr, svd, eigh, lu, invert, determinant, ...); `options`: (name, value) pairs."""

    @abc.abstractmethod
    def solve(self, out: Template, a: Tensor, b: Tensor, kind: str, options: tuple) -> Tensor:
        """Solves `a x = b` (`kind`: solve or triangular_solve)."""

    # --- fft (`_families/fft.py`)
    @abc.abstractmethod
    def fft(self, out: Template, tensor: Tensor, kind: str, lengths: tuple, axes: tuple, eps: float) -> Tensor:
        """Transform `kind` (fft, ifft, rfft, irfft) over `axes`, `lengths` points each; parts with |x| <= `eps` become 0."""


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


TABLE_DECLARED = declare_table_ops(AbstractBackend)  # [] while every op is written out above
