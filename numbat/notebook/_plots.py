"""Plots on matplotlib (imported when first used): each returns its figure, which a
notebook displays as an image and a script can save.

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> figure = heatmap(nbt.iota((3, 4), names=["row", "col"]))
>>> figure.axes[0].get_xlabel(), figure.axes[0].get_ylabel()
('col', 'row')
"""

from __future__ import annotations

import numpy as np

from .. import telemetry
from .._core._errors import ArgumentError
from .._ops import _dispatch


def load_pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("numbat's plots need matplotlib: pip install matplotlib") from None
    return plt


def heatmap(tensor, title: str | None = None):
    """A heatmap of a 2-D tensor (the first 2-D slice of a larger one), axes labelled by name."""
    if title is not None and not isinstance(title, str):
        raise ArgumentError(f"heatmap: title must be a str, got {type(title).__name__}")
    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank < 2:
        raise ArgumentError(f"heatmap needs a tensor of rank 2 or more, got shape {tensor.shape}")
    if tensor.type.is_complex:
        raise ArgumentError("heatmap draws real tensors; take nbt.abs or nbt.real of a complex one first")
    if tensor.size == 0:
        raise ArgumentError(f"heatmap has nothing to draw: the tensor is empty (shape {tensor.shape})")
    values = np.asarray(tensor[(0,) * (tensor.rank - 2)].to_numpy(), dtype=np.float64) if tensor.rank > 2 else None
    values = np.asarray(tensor.to_numpy(), dtype=np.float64) if values is None else values
    plt = load_pyplot()
    figure, axes = plt.subplots(figsize=(4, 3.2), layout="constrained")
    image = axes.imshow(values, cmap="viridis", aspect="auto")
    figure.colorbar(image, ax=axes)
    axes.set_xlabel(tensor.names[-1] or f"axis {tensor.rank - 1}")
    axes.set_ylabel(tensor.names[-2] or f"axis {tensor.rank - 2}")
    axes.set_title(title or f"{tensor.type}{list(tensor.shape)}")
    plt.close(figure)  # returned, not shown twice
    return figure


def histogram(tensor, bins: int = 30, title: str | None = None):
    """A histogram of a tensor's (finite, real) values.

    >>> histogram(nbt.tensor([1.0, 2.0, 2.0, 3.0]), bins=3).axes[0].get_ylabel()
    'count'
    """
    tensor = _dispatch.to_tensor(tensor)
    if title is not None and not isinstance(title, str):
        raise ArgumentError(f"histogram: title must be a str, got {type(title).__name__}")
    if isinstance(bins, bool) or not isinstance(bins, int) or not 1 <= bins <= 100_000:
        raise ArgumentError(f"histogram: bins must be an int from 1 to 100000, got {bins!r}")
    if tensor.type.is_complex:
        raise ArgumentError(f"histogram: the values must be real, got {tensor.type}; plot nbt.abs(t) or nbt.real(t)")
    values = np.asarray(tensor.to_numpy(), dtype=np.float64).reshape(-1)
    values = values[np.isfinite(values)]
    plt = load_pyplot()
    figure, axes = plt.subplots(figsize=(4, 3), layout="constrained")
    axes.hist(values, bins=bins, color="#3b528b")
    axes.set_xlabel("value")
    axes.set_ylabel("count")
    axes.set_title(title or f"{tensor.type}{list(tensor.shape)}: {values.size} finite values")
    plt.close(figure)
    return figure


def telemetry_chart():
    """Compile time per function (trace and XLA compile, stacked) from the telemetry log.

    >>> telemetry_chart().axes[0].get_xlabel()
    'milliseconds'
    """
    records = telemetry.log(event=telemetry.COMPILATION)
    totals: dict[str, list[float]] = {}
    for record in records:
        name = str(record.metadata.get("function", "?"))[:40]
        trace, compile_ = totals.setdefault(name, [0.0, 0.0])
        totals[name] = [
            trace + record.measurements.get("eval_time", 0) / 1000,
            compile_ + record.measurements.get("compile_time", 0) / 1000,
        ]
    plt = load_pyplot()
    figure, axes = plt.subplots(figsize=(6, 0.3 * max(len(totals), 2) + 1.2), layout="constrained")
    names = list(totals)
    trace = [totals[n][0] for n in names]
    compile_ = [totals[n][1] for n in names]
    axes.barh(names, trace, color="#21918c", label="trace")
    axes.barh(names, compile_, left=trace, color="#fde725", label="XLA compile")
    axes.set_xlabel("milliseconds")
    count = len(records)
    axes.set_title(f"compile time per function ({count} compilation{'' if count == 1 else 's'})")
    if names:
        axes.legend(loc="lower right")
    else:  # empty axes would say nothing: say what fills them
        axes.set_axis_off()
        axes.text(0.5, 0.5, "no compilations yet: call a defn", ha="center", va="center", transform=axes.transAxes)
    plt.close(figure)
    return figure
