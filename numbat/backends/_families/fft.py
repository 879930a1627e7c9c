"""Fast Fourier transforms. `Array` implements the family's methods of the backend contract
(`backends/_contract.py`): its one method, `fft`, is filled in from its op table entry's
`compute` (`_core/_op_table.STRUCTURED`, `_core/_op_code.fft`) by `_base.fill`.

The family's rule: an op is a discrete Fourier transform (or its inverse) over some axes.
"""

from __future__ import annotations

from . import _base
from ._base import ArrayBase


class Array(ArrayBase):
    pass


FILLED = _base.fill(Array, "fft")  # fft: its entry's compute
