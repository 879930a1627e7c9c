"""Ops on the bits of integers and on truth values: bitwise and/or/xor/not, the shifts,
population_count, count_leading_zeros, and the logical ops. `Array` implements the family's
methods of the backend contract (`backends/_contract.py`) over `self.xp`.

The family's rule, by value domain: an op reads its operands as bits or as truth values
(non-zero is true), whatever their number of operands. All are the op table's
(`_core/_op_table.py`), computed by their entries' `compute` or, where an entry has none, `CODE`, and filled in by `_tables.build` and
`_tables.fill`.
"""

from __future__ import annotations

import typing

import jax
import numpy as np

from . import _tables
from ._base import ArrayBase


def _unsigned(xp, x):
    """The same bits as an unsigned integer array."""
    if x.dtype.kind == "u":
        return x
    return (
        x.view(np.dtype(f"u{x.dtype.itemsize}"))
        if xp is np
        else jax.lax.bitcast_convert_type(x, f"uint{x.dtype.itemsize * 8}")
    )


def _count_leading_zeros(xp, x):
    bits = x.dtype.itemsize * 8
    unsigned = _unsigned(xp, x)
    length = xp.zeros(x.shape, dtype=unsigned.dtype)
    for shift in (32, 16, 8, 4, 2, 1):
        if shift < bits:
            high = unsigned >> shift
            nonzero = high != 0
            length = length + xp.where(nonzero, shift, 0).astype(unsigned.dtype)
            unsigned = xp.where(nonzero, high, unsigned)
    length = length + (unsigned != 0).astype(unsigned.dtype)
    return (bits - length).astype(x.dtype)


def _population_count(xp, x):
    return xp.bitwise_count(_unsigned(xp, x)).astype(x.dtype)  # NumPy counts |x| for signed types


# The ops' code (the op table, `_core/_op_table.py`, lists them and their kinds).
CODE: dict[str, typing.Callable] = {
    "population_count": _population_count,
    "count_leading_zeros": _count_leading_zeros,
}


class Array(ArrayBase):
    pass


_tables.fill(Array, **_tables.build("bitwise", CODE))
