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
here is declared by `declare_table_ops` (the reductions written out above are not); the
other families' methods (creation, cumulative, window, shape, indexing, sort, products,
linalg, fft, and reduction's argmax, argmin and reduce) by `declare_entries`, each from its
entry's signature (`_op_table.STRUCTURED`).
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

    # --- creation (`_families/creation.py`): iota, eye, as_type, broadcast, bitcast, declared from the op table

    # The element-wise ops of the op table (`_core/_op_table.py`: the families elementwise, math,
    # bitwise and complex) are not written here: `declare_table_ops` declares each entry, one
    # method each, `name(self, out, tensor)` or `name(self, out, left, right)`, its docstring the
    # entry's `doc`; `declare_entries` declares the families' other methods (select, clip,
    # stop_grad) from their entries' signatures.

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
