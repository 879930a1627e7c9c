"""What a defn says about each compilation: the `("numbat", "compilation")` telemetry
event (with `eval_time`, the trace and lowering, `compile_time`, XLA's, and `total_time`
in µs, the entry's `key` and the reason for the miss), the `debug` log line, and the
`RecompilationWarning` of a defn that keeps compiling for the same input shapes."""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import warnings

from .. import telemetry
from . import _signature

_logger = logging.getLogger("numbat.defn")
RECOMPILATION_WARNING = 5  # compiles for the same shapes before warning, as EXLA's check_recompilation
_HERE = os.path.dirname(os.path.abspath(__file__)) + os.sep


class RecompilationWarning(UserWarning):
    """A defn keeps recompiling for the same input shapes (EXLA's `check_recompilation`):
    its types, names or static arguments change from call to call."""

    __module__ = "numbat"


def key(name: str, signature: _signature.Signature) -> str:
    """The telemetry key of a defn's compiled signature (12 hex digits), in its
    compilation and cache-hit events."""
    return hashlib.sha1(repr((name, signature)).encode()).hexdigest()[:12]


def compiled(defn, signature: _signature.Signature, eval_us: int, compile_us: int, from_disk: bool, saved_us: int):
    """Records a compilation of `signature` by `defn` and emits its telemetry event."""
    if defn.debug:
        _logger.info(
            "defn %s: compiled %s (trace %d µs, compile %d µs%s)",
            defn.name,
            signature.describe(),
            eval_us,
            compile_us,
            ", loaded from the disk cache" if from_disk else "",
        )
    reason = "first call" if defn._last is None else signature.difference(defn._last)
    if defn.cache is False and defn._last == signature:
        reason = "cache=False"
    defn._last = signature
    _count(defn, tuple(t.shape for t in signature.templates), reason)
    telemetry.execute(
        telemetry.COMPILATION,
        {"eval_time": eval_us, "compile_time": compile_us, "total_time": eval_us + compile_us},
        {
            "key": key(defn.name, signature),
            "function": defn.name,
            "signature": signature.describe(),
            "client": defn.backend.client or "default",
            "device": str(defn.backend.device),
            "cached_on_disk": from_disk,
            "disk_saved_time": saved_us,
            "reason": reason,
        },
    )


def _count(defn, shapes: tuple, reason: str) -> None:
    """Counts a compilation for the input `shapes`, and warns at the count that means
    the defn keeps recompiling."""
    defn._compiles_per_shapes[shapes] = defn._compiles_per_shapes.get(shapes, 0) + 1
    if defn._compiles_per_shapes[shapes] == RECOMPILATION_WARNING and defn.cache is not False:
        warnings.warn(
            f"defn {defn.name} compiled {RECOMPILATION_WARNING} times for the input shapes {list(shapes)} "
            f"(last: {reason}); types, names or static arguments keep changing. Pass values as tensors "
            "of a fixed type, or keep static arguments fixed",
            RecompilationWarning,
            stacklevel=_outside_defn(),
        )


def _outside_defn() -> int:
    """The `stacklevel` of the caller's first frame outside `numbat/_defn` (the user's call,
    whichever route the call took to compile)."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_code.co_filename.startswith(_HERE):
        frame, level = frame.f_back, level + 1
    return level
