"""Complex numbers: `complex`, `real`, `imag`, `conjugate`, `phase`.

Real parts and phases are of the matching real type (f32 for c64, f64 for c128);
integers count as f32, as in Nx.

The family's rule, by value domain: an op builds a complex number or takes one apart.

All five are generated from their op table entries (`_core/_op_table.py`), each with its
doctest (`_generate.define`).
"""

from __future__ import annotations

from ._generate import define

# `complex`, `real`, `imag`, `conjugate` and `phase`: generated from their op table entries.
define(globals(), "complex")
