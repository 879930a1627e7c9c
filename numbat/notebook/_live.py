"""A live chart of named scalars by step, fed while a loop runs (docs/design.md, decision 19):
from compiled code through hooks (`hooks=chart.hooks()`, `nbt.hook(loss, "loss")`),
or from a plain Python loop (`chart.log(loss=...)`).

The chart is a matplotlib picture shown with a display id and replaced in place
(`update_display_data`) at most every `every` seconds, and once more when the `with`
block ends, so a saved notebook keeps the final picture in every front-end (nbconvert
and nbval included, where widgets do not run: the output is a PNG, not widget state).
Its Stop button asks Jupyter to interrupt the kernel that showed it (by the id in its
connection file; no other kernel), as "Interrupt kernel" does: an interruptible compiled
loop stops with `numbat.Interrupted`, a Python loop with KeyboardInterrupt. (A widget button's click is a message that the kernel reads only
after the running cell ends, so a button that must stop a running cell goes through
the server's interrupt instead.) `chart.stop()` asks the chart's loop to stop from Python.

>>> chart = live("loss", every=0)
>>> for step in range(3):
...     chart.log(loss=1.0 / (step + 1))
>>> chart.values["loss"]
[(0, 1.0), (1, 0.5), (2, 0.3333333333333333)]
>>> chart.draws
3
"""

from __future__ import annotations

import io
import os
import re
import threading
import time
import typing

import numpy as np

from .._core._errors import ArgumentError
from .._defn import _interrupt
from ._plots import load_pyplot

# The Stop button: the kernel it was shown by (its id, from the kernel's connection file)
# is interrupted through the Jupyter server's REST API, with the page's token and XSRF
# cookie; never another kernel (a notebook's path in the page's address names no kernel
# for sure, and interrupting every busy one stops other notebooks' work).
_STOP_SCRIPT = """(async function (button, kernel) {
  const config = JSON.parse(document.getElementById('jupyter-config-data')?.textContent || '{}');
  const base = (config.baseUrl || '/').replace(/\\/?$/, '/');
  const xsrf = (document.cookie.match(/_xsrf=([^;]+)/) || [])[1];
  const headers = {'Content-Type': 'application/json'};
  if (config.token) headers['Authorization'] = 'token ' + config.token;
  if (xsrf) headers['X-XSRFToken'] = decodeURIComponent(xsrf);
  const reply = await fetch(base + 'api/kernels/' + kernel + '/interrupt', {method: 'POST', headers});
  button.textContent = reply.ok ? 'Stopping…' : 'Stop failed (' + reply.status + ')';
})(this, 'KERNEL')"""
STOP_TEXT = "<numbat live chart's Stop button: interrupts the kernel that showed it>"


def kernel_id() -> str | None:
    """The id of the Jupyter kernel this runs in (its connection file is `kernel-<id>.json`
    when a Jupyter server started it), or None outside such a kernel."""
    try:
        from ipykernel.connect import get_connection_file
        from ipykernel.kernelapp import IPKernelApp
    except ImportError:
        return None
    if not IPKernelApp.initialized():
        return None
    match = re.fullmatch(r"kernel-([0-9A-Za-z-]+)\.json", os.path.basename(get_connection_file()))
    return match.group(1) if match else None


def stop_button(kernel: str) -> dict:
    """The Stop button's display bundle: an HTML button that interrupts `kernel` (an id),
    and a plain text that says what it is.

    >>> "api/kernels/' + kernel + '/interrupt" in stop_button("1a2b")["text/html"]
    True
    >>> stop_button("1a2b")["text/plain"]
    "<numbat live chart's Stop button: interrupts the kernel that showed it>"
    """
    if not re.fullmatch(r"[0-9A-Za-z-]+", kernel):
        raise ArgumentError(f"live chart: a kernel id is letters, digits and dashes, got {kernel!r}")
    script = _STOP_SCRIPT.replace("'KERNEL'", f"'{kernel}'").replace(chr(34), "&quot;")
    html = (
        '<button class="numbat-live-stop" title="Interrupt this kernel: the running loop stops" '
        f'onclick="{script}">■ Stop</button>'
    )
    return {"text/html": html, "text/plain": STOP_TEXT}


class LiveChart:
    """A live line chart of named scalars by step; see the module's docstring."""

    def __init__(self, names: tuple[str, ...], title: str | None, every: float, stop_button: bool):
        self.names = names
        self.title = title
        self.every = every
        self.stop_button = stop_button
        self.values: dict[str, list[tuple[int, float]]] = {name: [] for name in names}
        self.draws = 0  # how many pictures were drawn
        self._drawn_at = -float("inf")
        self._handle = None
        self._thread = None  # the thread that entered `with chart:`, whose loop its Stop stops
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        last = ", ".join(f"{n}={v[-1][1]:.4g} (step {v[-1][0]})" for n, v in self.values.items() if v)
        return f"<numbat live chart of {', '.join(self.names)}: {last or 'no values yet'}>"

    def log(self, step: int | None = None, **scalars) -> None:
        """Adds values (numbers, or scalar tensors) at `step` (default: the next step of each name)."""
        unknown = set(scalars) - set(self.values)
        if unknown:
            raise ArgumentError(f"live chart: unknown name(s) {sorted(unknown)}; the chart draws {list(self.names)}")
        with self._lock:
            for name, value in scalars.items():
                series = self.values[name]
                series.append((len(series) if step is None else int(step), _scalar(value, name)))
        if time.monotonic() - self._drawn_at >= self.every:
            self.draw()

    def hook(self, name: str):
        """A hook function that logs its tensor under `name` (for a defn's `hooks=` option)."""
        if name not in self.values:
            raise ArgumentError(f"live chart: unknown name {name!r}; the chart draws {list(self.names)}")

        def feed(tensor) -> None:
            self.log(**{name: tensor})

        feed.__name__ = f"live_{name}"
        return feed

    def hooks(self) -> dict:
        """`{name: hook}` for every name: `nbt.defn(fun, hooks=chart.hooks())`."""
        return {name: self.hook(name) for name in self.names}

    def stop(self):
        """Stops the chart's running interruptible loop at its next check, as the Stop button
        does: the call running on the thread that entered `with chart:`, else on this
        thread (a hook asking), else on the main thread. Returns the call it asked (None
        when none runs: nothing is kept for a later one)."""
        thread = self._thread
        if thread is not None and _interrupt.current_call(thread) is not None:
            return _interrupt.request_stop(thread)
        return _interrupt.request_stop()

    def figure(self):
        """The chart as a matplotlib figure (one line per name, by step)."""
        plt = load_pyplot()
        figure, axes = plt.subplots(figsize=(5, 2.8), layout="constrained")
        with self._lock:
            series = {name: list(points) for name, points in self.values.items()}
        for name, points in series.items():
            if points:
                steps, values = zip(*points)
                axes.plot(steps, values, label=f"{name} = {values[-1]:.4g}")
        axes.set_xlabel("step")
        axes.set_title(self.title or ", ".join(self.names))
        if any(series.values()):
            axes.legend(loc="best")
        plt.close(figure)
        return figure

    def png(self) -> bytes:
        """The chart as PNG bytes."""
        buffer = io.BytesIO()
        self.figure().savefig(buffer, format="png", dpi=80)
        return buffer.getvalue()

    def draw(self) -> None:
        """Draws the chart now, in place when it is shown."""
        self._drawn_at = time.monotonic()
        self.draws += 1
        if self._handle is not None:
            self._handle.update(self._bundle(), raw=True)

    def _bundle(self) -> dict:
        """What the shown chart holds: the picture, and a text that stays the same while it
        changes (nbval compares a cell's first display with the saved, final one)."""
        return {"image/png": self.png(), "text/plain": f"<numbat live chart of {', '.join(self.names)}>"}

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        return {"image/png": self.png(), "text/plain": repr(self)}

    def show(self) -> None:
        """Shows the chart (and its Stop button) in the cell; later draws replace it in place."""
        from IPython.display import display

        kernel = kernel_id() if self.stop_button else None
        if kernel is not None:  # in a kernel a Jupyter server started: its Stop button
            display(stop_button(kernel), raw=True)
        self._handle = display(self._bundle(), raw=True, display_id=True)

    def __enter__(self) -> typing.Self:
        self._thread = threading.current_thread()
        self.show()
        return self

    def __exit__(self, *exc) -> None:
        self.draw()  # the last values, throttled or not
        self._handle = self._thread = None


def _scalar(value, name: str) -> float:
    array = np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value)
    if array.size != 1:
        raise ArgumentError(f"live chart: {name} must be a scalar, got shape {array.shape}")
    return float(array.reshape(()))


RESERVED = ("step", "title", "every", "stop_button")  # parameters of live and chart.log


def live(*names: str, title: str | None = None, every: float = 0.25, stop_button: bool = True) -> LiveChart:
    """A live line chart of the scalars `names` by step. `with chart:` shows it (with a
    Stop button) and draws it once more at the end; `chart.log(name=value)` from a Python
    loop and `hooks=chart.hooks()` on a defn feed it; it redraws at most every `every`
    seconds. Shown again later, it shows the last values.

    >>> chart = live("loss", "accuracy")
    >>> chart.log(loss=nbt.tensor(0.5), accuracy=0.75)
    >>> chart
    <numbat live chart of loss, accuracy: loss=0.5 (step 0), accuracy=0.75 (step 0)>
    """
    if not names or not all(isinstance(name, str) and name for name in names):
        raise ArgumentError(f"live needs the names of the scalars to draw, got {names!r}")
    taken = [name for name in names if name in RESERVED]
    if taken:
        raise ArgumentError(
            f"live: a series cannot be named {taken[0]!r}, the name of a parameter of live or chart.log "
            f"({', '.join(RESERVED)}): chart.log({taken[0]}=...) would set it, not draw it; name it otherwise"
        )
    if not isinstance(every, (int, float)) or every < 0:
        raise ArgumentError(f"live: every must be a number of seconds >= 0, got {every!r}")
    return LiveChart(tuple(names), title, float(every), bool(stop_button))
