"""A compile that takes long shows that it is compiling (docs/design.md, decision 19): after
`THRESHOLD` seconds, a line in the cell names the defn and its signature and counts
the seconds, updated in place; when the compile ends the line is emptied, and the
telemetry strip after the cell tells the rest. Only in a front-end that a person
watches (`interactive_client`): under nbclient and nbval the outputs must not depend on
the machine's speed. The extension attaches it to
telemetry's `compilation_start` and `compilation_end` events; the line is drawn from a
timer thread while the main thread compiles.

>>> CompileProgress._line("train", "(f32[784, 10])", time.monotonic() - 2.26)["text/plain"]
'numbat: compiling train (f32[784, 10]) ... 2.3 s'
"""

from __future__ import annotations

import threading
import time

from .. import telemetry
from ._html import escape

THRESHOLD = 1.0  # seconds of compiling before the line appears
EVERY = 0.5  # seconds between its updates
HANDLER_ID = "numbat-compile-progress"


def interactive_client() -> bool:
    """Whether the running cell came from a front-end that a person watches: JupyterLab and
    Notebook 7 send `recordTiming` (and `deletedCells`) with each cell. nbclient, nbconvert
    and nbval do not, and they save or compare every output, which must not depend on how
    fast the machine compiles; there the line is never shown."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    kernel = getattr(get_ipython(), "kernel", None)
    if kernel is None:
        return False
    metadata = (kernel.get_parent("shell") or {}).get("metadata") or {}
    return "recordTiming" in metadata or "deletedCells" in metadata


def _display_line(bundle: dict):
    """Shows `bundle` in the running cell; returns the function that replaces it in place."""
    from IPython.display import display

    handle = display(bundle, raw=True, display_id=True)
    return lambda new: handle.update(new, raw=True)


class CompileProgress:
    """The "compiling ..." line: `started` and `ended` are telemetry handlers; `show(bundle)`
    displays the line and returns the function that replaces it."""

    def __init__(self, threshold: float = THRESHOLD, every: float = EVERY, show=None, watched=interactive_client):
        self.threshold, self.every = threshold, every
        self._show = show or _display_line
        self._watched = watched  # whether a person watches the cell (else nothing is shown)
        self._lock = threading.Lock()
        self._running = None  # (function, signature, start, stop event) of the compile under way

    def started(self, event, measurements: dict, metadata: dict) -> None:
        if not self._watched():
            return
        stop = threading.Event()
        with self._lock:
            self._running = (metadata.get("function", "?"), metadata.get("signature", ""), time.monotonic(), stop)
        threading.Thread(target=self._watch, args=(stop,), daemon=True, name="numbat-compile-progress").start()

    def ended(self, event, measurements: dict, metadata: dict) -> None:
        with self._lock:
            running, self._running = self._running, None
        if running is not None:
            running[3].set()

    def _watch(self, stop: threading.Event) -> None:
        if stop.wait(self.threshold):
            return
        update = None
        while True:
            with self._lock:
                running = self._running
                if running is None or running[3] is not stop:
                    break
                bundle = self._line(*running[:3])
            if update is None:
                update = self._show(bundle)
            else:
                update(bundle)
            if stop.wait(self.every):
                break
        if update is not None:
            update({"text/plain": ""})

    @staticmethod
    def _line(function: str, signature: str, start: float) -> dict:
        text = f"numbat: compiling {function} {signature} ... {time.monotonic() - start:.1f} s"
        return {"text/plain": text, "text/html": f'<div class="numbat-compiling"><code>{escape(text)}</code></div>'}

    def attach(self) -> None:
        telemetry.attach(HANDLER_ID + "-start", telemetry.COMPILATION_START, self.started)
        telemetry.attach(HANDLER_ID + "-end", telemetry.COMPILATION_END, self.ended)

    def detach(self) -> None:
        telemetry.detach(HANDLER_ID + "-start")
        telemetry.detach(HANDLER_ID + "-end")
