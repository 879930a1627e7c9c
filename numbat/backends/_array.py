"""The op implementations NumPy and JAX share: both speak the array API of
`xp` (`numpy` or `jax.numpy`); the final backends supply placement."""

from __future__ import annotations

from ._abstract import AbstractBackend
from ._families import creation, elementwise, fft, indexing, linalg, nd, reduction, shape, window


class ArrayBackend(
    creation.Array,
    elementwise.Array,
    reduction.Array,
    window.Array,
    shape.Array,
    indexing.Array,
    nd.Array,
    linalg.Array,
    fft.Array,
    AbstractBackend,
):
    """Implements every op family with `self.xp`; subclasses implement placement only."""
