"""The backend contract: every method a backend implements, one line each on what it must
do, as Nx's `Nx.Backend` lists its callbacks. `AbstractBackend` is this contract;
`ArrayBackend` (`_array.py`) implements it over `numpy` or `jax.numpy`, one op family per
module of `_families/`, and `NumPyBackend` and `XLABackend` add placement and `execute`.

Every op method takes the output template `out` first: shapes, types and names are
inferred once, in the front-end, and the backend only fills in data. The element-wise
ops of `elementwise`, `math`, `bitwise` and `complex` are the op table's entries
(`_core/_op_table.py`): the families' tables make their methods (`_families/_tables.fill`),
and `declare_table_ops` declares them here, one generated declaration per entry (as
`Nx.Backend` lists one callback a line): `name(self, out, tensor)` or
`name(self, out, left, right)`, with the entry's `doc` as its docstring. They have no line
of their own in this file; go-to-definition on `backend.exp` lands on `declare_table_ops`,
and `help(AbstractBackend)` lists them with the rest. An op of the op table not written out
here is declared by `declare_table_ops` (the reductions written out above are not).
`tests/test_backend_contract.py` checks that both backends implement exactly these methods
with these signatures.

>>> sorted(AbstractBackend.__abstractmethods__)[:4]
['abs', 'acos', 'acosh', 'add']
>>> import inspect
>>> print(inspect.signature(AbstractBackend.add), AbstractBackend.add.__doc__)
(self, out: 'Template', left: 'Tensor', right: 'Tensor') -> 'Tensor' Adds element-wise, broadcasting and merging names.
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

    # The element-wise ops of the op table (`_core/_op_table.py`: the families elementwise, math,
    # bitwise and complex) are not written here: `declare_table_ops` declares each entry, one
    # method each, `name(self, out, tensor)` or `name(self, out, left, right)`, its docstring the
    # entry's `doc`. Written here are the families' other methods.

    # --- elementwise (`_families/elementwise.py`): two or more broadcast tensors
    @abc.abstractmethod
    def select(self, out: Template, pred: Tensor, on_true: Tensor, on_false: Tensor) -> Tensor:
        """`on_true` where `pred` is non-zero, else `on_false`."""

    @abc.abstractmethod
    def clip(self, out: Template, tensor: Tensor, low: Tensor, high: Tensor) -> Tensor:
        """Each element clamped to [`low`, `high`]."""

    # --- math (`_families/math.py`): functions of one tensor, element by element
    @abc.abstractmethod
    def stop_grad(self, out: Template, tensor: Tensor) -> Tensor:
        """The tensor itself; gradients do not flow through it."""

    # (bitwise, `_families/bitwise.py`, and complex, `_families/complex.py`: op table entries only)

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
    method.__doc__ = getattr(op, "doc", "") or f"The op table's {op.name!r} ({kind}): `_core/_op_table.py`."
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


TABLE_DECLARED = declare_table_ops(AbstractBackend)  # the element-wise entries, and any reduction not written out
