"""NumPy's floating-point error state, set cheaply for numbat's eager ops.

Nx semantics: floating-point errors give Inf and NaN, never a NumPy warning.
`np.errstate(all="ignore")` costs about 1 µs per use, twice `np.add` on a small
array. NumPy 2 keeps that state in a context variable, so `silence()` sets the
"ignore" state directly (a C call, about 0.1 µs) and `restore(token)` puts the
caller's state back. With a NumPy that keeps it elsewhere, both fall back to
`np.errstate`.
"""

from __future__ import annotations

import functools

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar as _state
except ImportError:  # pragma: no cover - NumPy 1.x: no context variable

    def silence():
        """Silences floating-point warnings; returns the token `restore` takes."""
        manager = np.errstate(all="ignore")
        manager.__enter__()
        return manager

    def restore(token) -> None:
        """Puts back the error state `silence` replaced."""
        token.__exit__(None, None, None)

else:
    with np.errstate(all="ignore"):
        _IGNORE = _state.get()
    silence = functools.partial(_state.set, _IGNORE)
    restore = _state.reset
