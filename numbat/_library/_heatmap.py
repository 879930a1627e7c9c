"""`nbt.to_heatmap` (Nx's): a tensor shown as a heatmap, in a terminal or a notebook.

Each 2-D slice (the last two axes; a rank-1 tensor is one row) is scaled from its
minimum to its maximum. Without ANSI colours each element prints as a digit 0..9, with
`+`, `-` and `x` for Inf, -Inf and NaN, as Nx prints it; with them, as a grey block.
In a notebook the heatmap is also a picture of the slices, with the axis names
(`numbat.notebook._display` installs it).
"""

from __future__ import annotations

import sys
import typing

import numpy as np

from .._core import _format
from .._core._errors import ArgumentError
from .._ops import _dispatch
from .._tensor import _check

_GREYS = range(232, 256)  # the ANSI 256-colour grey ramp, dark to light


def to_heatmap(tensor, ansi_enabled=None, ansi_whitespace="\u3000") -> Heatmap:
    """`tensor` as a heatmap: printed with ANSI colours where `ansi_enabled` (default:
    when standard output is a terminal), else as digits 0 (its slice's minimum) to 9.

    >>> nbt.to_heatmap(nbt.tensor([[1, 2, 3], [4, 5, 6]]), ansi_enabled=False)
    numbat.Heatmap<
      s32[2][3]
      024
      579
    >
    >>> nbt.to_heatmap(nbt.tensor([0.0, float("nan"), float("inf"), 1.0]), ansi_enabled=False)
    numbat.Heatmap<
      f32[4]
      0x+9
    >
    """
    tensor = _dispatch.to_tensor(tensor)
    if ansi_enabled is None:
        ansi_enabled = sys.stdout.isatty()
    ansi_enabled = _check.boolean("to_heatmap", "ansi_enabled", ansi_enabled)
    if not isinstance(ansi_whitespace, str) or not ansi_whitespace:
        raise ArgumentError(f"to_heatmap: ansi_whitespace must be a non-empty string, got {ansi_whitespace!r}")
    if tensor.type.is_complex:
        raise ArgumentError(f"to_heatmap: a heatmap needs real values, got {tensor.type}; take nbt.abs first")
    return Heatmap(tensor, ansi_enabled, ansi_whitespace)


@typing.final
class Heatmap:
    """A tensor to show as a heatmap (`nbt.to_heatmap`); `tensor` is the tensor itself."""

    def __init__(self, tensor, ansi_enabled: bool, ansi_whitespace: str):
        self.tensor = tensor
        self.ansi_enabled = ansi_enabled
        self.ansi_whitespace = ansi_whitespace

    def __repr__(self) -> str:
        tensor = self.tensor
        values = tensor.to_numpy().astype(np.float64)  # a vectorized tensor's values are every entry's
        lines = ["numbat.Heatmap<"]
        if tensor.vectorized_axes:
            lines.append("  " + _format.vectorized_header(tensor.vectorized_axes))
        lines.append("  " + _format.header(tensor.type, tensor.shape, tensor.names))
        lines.extend("  " + line for line in self._block(values).split("\n"))
        lines.append(">")
        return "\n".join(lines)

    def _block(self, values: np.ndarray) -> str:
        if values.ndim == 0:
            return _format.number(values[()], self.tensor.type)
        if values.ndim <= 2:
            return "\n".join(self._row(row, *_range(values)) for row in np.atleast_2d(values))
        inner = [self._block(part) for part in values]
        return "[\n" + ",\n".join("  " + block.replace("\n", "\n  ") for block in inner) + "\n]"

    def _row(self, row: np.ndarray, low: float, span: float) -> str:
        cells = []
        for value in row:
            if np.isnan(value):
                cells.append("\x1b[41m" + self.ansi_whitespace if self.ansi_enabled else "x")
            elif np.isinf(value):
                if self.ansi_enabled:
                    cells.append(f"\x1b[48;5;{_GREYS[-1] if value > 0 else _GREYS[0]}m∞")
                else:
                    cells.append("+" if value > 0 else "-")
            elif self.ansi_enabled:
                grey = _GREYS[_rounded((value - low) / span * (len(_GREYS) - 1))]
                cells.append(f"\x1b[48;5;{grey}m{self.ansi_whitespace}")
            else:
                cells.append(str(_rounded((value - low) / span * 9)))
        return "".join(cells) + ("\x1b[0m" if self.ansi_enabled else "")


def finite_range(values: np.ndarray) -> tuple[float, float]:
    """The smallest and largest finite value of `values` ((0, 1) when none is finite)."""
    finite = values[np.isfinite(values)]
    return (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)


def _range(values: np.ndarray) -> tuple[float, float]:
    """The finite minimum of a 2-D slice and its span (1 where all are equal)."""
    low, high = finite_range(values)
    return low, (high - low) or 1.0


def _rounded(value: float) -> int:
    """Rounded half away from zero, as Elixir's `round` (Python's rounds half to even)."""
    return int(np.floor(value + 0.5))
