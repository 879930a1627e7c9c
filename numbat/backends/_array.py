"""The op implementations NumPy and JAX share: both speak the array API of
`xp` (`numpy` or `jax.numpy`); the final backends supply placement."""

from __future__ import annotations

from ._contract import AbstractBackend
from ._families import (
    bitwise,
    complex,
    creation,
    cumulative,
    elementwise,
    fft,
    indexing,
    linalg,
    math,
    products,
    reduction,
    shape,
    sort,
    window,
)


class ArrayBackend(
    creation.Array,
    elementwise.Array,
    math.Array,
    bitwise.Array,
    complex.Array,
    reduction.Array,
    cumulative.Array,
    window.Array,
    shape.Array,
    indexing.Array,
    sort.Array,
    products.Array,
    linalg.Array,
    fft.Array,
    AbstractBackend,
):
    """Implements every op family with `self.xp`; subclasses implement placement only."""
