"""A live chart of named scalars by step, fed while a loop runs (docs/design.md, decision 19):
from compiled code through hooks (`hooks=chart.hooks()`, `nbt.hook(loss, "loss")`),
or from a plain Python loop (`chart.log(loss=...)`).

The chart is a matplotlib picture shown with a display id and replaced in place
(`update_display_data`) at most every `every` seconds, and once more when the `with`
block ends, so a saved notebook keeps the final picture in every front-end (nbconvert
and nbval included, where widgets do not run: the output is a PNG, not widget state).
Its Stop button asks Jupyter to interrupt the kernel, as "Interrupt kernel" does: an
interruptible compiled loop stops with `numbat.Interrupted`, a Python loop with
KeyboardInterrupt. (A widget button's click is a message that the kernel reads only
after the running cell ends, so a button that must stop a running cell goes through
the server's interrupt instead.) `chart.stop()` asks the same from Python.

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
import threading
import time
import typing

import numpy as np

from .._core._errors import ArgumentError
from .._defn import _interrupt
from ._plots import _pyplot

# The Stop button: the kernel of the notebook in view (or the one busy kernel) is
# interrupted through the Jupyter server's REST API, with the page's token and XSRF cookie.
_STOP_SCRIPT = """(async function (button) {
  const config = JSON.parse(document.getElementById('jupyter-config-data')?.textContent || '{}');
  const base = (config.baseUrl || '/').replace(/\\/?$/, '/');
  const xsrf = (document.cookie.match(/_xsrf=([^;]+)/) || [])[1];
  const headers = {'Content-Type': 'application/json'};
  if (config.token) headers['Authorization'] = 'token ' + config.token;
  if (xsrf) headers['X-XSRFToken'] = decodeURIComponent(xsrf);
  const sessions = await (await fetch(base + 'api/sessions', {headers})).json();
  const path = decodeURIComponent(location.pathname).split('/tree/')[1] || '';
  let chosen = sessions.filter(s => s.path === path || s.notebook?.path === path);
  if (chosen.length !== 1) chosen = sessions.filter(s => s.kernel.execution_state === 'busy');
  for (const s of chosen) await fetch(base + 'api/kernels/' + s.kernel.id + '/interrupt', {method: 'POST', headers});
  button.textContent = 'Stopping…';
})(this)"""
STOP_BUTTON = (
    '<button class="numbat-live-stop" title="Interrupt the kernel: the running loop stops" '
    f'onclick="{_STOP_SCRIPT.replace(chr(34), "&quot;")}">■ Stop</button>'
)


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

    def stop(self) -> None:
        """Stops the running interruptible loop at its next check, as the Stop button does."""
        _interrupt.request_stop()

    def figure(self):
        """The chart as a matplotlib figure (one line per name, by step)."""
        plt = _pyplot()
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
        from IPython.display import HTML, display

        if self.stop_button:
            display(HTML(STOP_BUTTON))
        self._handle = display(self._bundle(), raw=True, display_id=True)

    def __enter__(self) -> typing.Self:
        self.show()
        return self

    def __exit__(self, *exc) -> None:
        self.draw()  # the last values, throttled or not
        self._handle = None


def _scalar(value, name: str) -> float:
    array = np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value)
    if array.size != 1:
        raise ArgumentError(f"live chart: {name} must be a scalar, got shape {array.shape}")
    return float(array.reshape(()))


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
    if not isinstance(every, (int, float)) or every < 0:
        raise ArgumentError(f"live: every must be a number of seconds >= 0, got {every!r}")
    return LiveChart(tuple(names), title, float(every), bool(stop_button))
