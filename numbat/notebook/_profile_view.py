"""A profile (`nbt.xla.profile`) in a notebook: its table as HTML, the expression graph
shaded by where the time goes (each box by its kernel's share, the kernel's time in the
box), and the roofline (matplotlib, imported when first drawn): one point per kernel under
the machine's two ceilings. Importing this module installs `Profile`'s rich display
(docs/design.md, decision 8: the profile itself lives below the notebook layer).

>>> import matplotlib
>>> matplotlib.use("Agg")
>>> peaks = nbt.xla.Peaks(bandwidth=20e9, flops=100e9)
>>> p = nbt.xla.profile(lambda x: nbt.exp(x) * 2, [nbt.iota((100,), type="f32")], runs=2, peaks=peaks)
>>> sorted(p._repr_mimebundle_())
['text/html', 'text/plain']
>>> roofline(p).axes[0].get_xlabel()
'arithmetic intensity (FLOPs per byte)'
"""

from __future__ import annotations

import base64
import io

from .._core._errors import ArgumentError
from ..xla import _profile
from . import _svg
from ._html import escape
from ._plots import load_pyplot

_TH = "padding:1px 8px;text-align:left;background:rgba(128,128,128,0.12);font-weight:600;"
_TD = "padding:1px 8px;text-align:left;border-top:1px solid rgba(128,128,128,0.2);"
_NOWRAP = "white-space:nowrap;"
_BOX = "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;line-height:1.4;"


def table_html(profile: _profile.Profile) -> str:
    """The profile's table as HTML: a bar shows each kernel's share of the call."""
    header = ("kernel", "numbat ops", "time", "share", "read", "written", "FLOPs", "GB/s", "GFLOP/s", "bound")
    rows = []
    outside = profile.outside()
    for kernel, row in zip((*profile.ordered(), *[None] * len(outside)), profile.rows()):
        name, ops, read, written, flops, bound, _ = row
        seconds = kernel.seconds if kernel else dict(outside)[name]
        share = seconds / profile.wall if profile.wall > 0 else 0.0
        bar = (
            f"<span style='display:inline-block;width:{max(0.0, min(share, 1.0)) * 80:.0f}px;height:8px;"
            f"background:#e6550d;opacity:0.7;margin-right:4px'></span>{100 * share:.1f}%"
        )
        rates = ("", "") if kernel is None else (f"{kernel.bandwidth / 1e9:.2f}", f"{kernel.flop_rate / 1e9:.2f}")
        cells = [escape(name), escape(ops), _profile.duration(seconds), bar]
        cells += [escape(read), escape(written), escape(flops), *rates, escape(bound)]
        styles = [_TD if column == 1 else _TD + _NOWRAP for column in range(len(cells))]  # the ops may wrap
        rows.append(
            "<tr>" + "".join(f"<td style='{style}'>{cell}</td>" for style, cell in zip(styles, cells)) + "</tr>"
        )
    head = "".join(f"<th style='{_TH}'>{escape(cell)}</th>" for cell in header)
    title = (
        f"{escape(profile.function)} on {escape(profile.device)}: {_profile.duration(profile.wall)} per call "
        f"(middle {profile.kept} of {profile.runs} runs)"
    )
    peaks = f"peaks: {profile.peaks}; ridge at {profile.peaks.ridge:.1f} FLOPs/byte"
    legend = "<br>".join(escape(line) for line in (*_profile.LEGEND, peaks, *profile.notes))
    return (
        f"<div style='font-weight:600'>{title}</div>"
        "<div style='overflow-x:auto'><table style='border-collapse:collapse;margin:2px 0 4px 0'>"
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        f"<div style='opacity:0.7;margin-bottom:8px'>{legend}</div>"
    )


def graph_svg(profile: _profile.Profile) -> str:
    """The expression graph, each box shaded by its kernels' share of the call and naming
    its longest kernel (`+N` more) with their time; "" where the profile has no graph (a
    sharded call)."""
    if profile.expr is None:
        return ""
    shares = profile.node_shares()
    labels = {}
    for node, (kernels, share) in shares.items():
        more = f" +{len(kernels) - 1}" if len(kernels) > 1 else ""  # the longest kernel names the node
        labels[node] = (
            f"{kernels[0].name}{more} {_profile.duration(sum(k.seconds for k in kernels))} {100 * share:.0f}%"
        )
    return _svg.expr_svg(profile.expr, kernels=labels, heat={node: share for node, (_, share) in shares.items()})


def roofline(profile: _profile.Profile):
    """The roofline of `profile`: log-log, FLOPs per byte against GFLOP/s reached, the
    memory ceiling's slope meeting the compute ceiling at the ridge, one point per kernel
    (of those that take a percent or more of the kernels' time), its size its share."""
    if not isinstance(profile, _profile.Profile):
        raise ArgumentError(f"roofline draws an nbt.xla.profile(...) result, got {type(profile).__name__}")
    plt = load_pyplot()
    peaks = profile.peaks
    busy = sum(k.seconds for k in profile.top())
    # Kernels of a percent or more of the kernels' time: a scalar's kernel at 0.001 GFLOP/s
    # would only stretch the axes.
    points = [k for k in profile.kernels if k.flops and k.bytes and k.seconds > 0 and k.seconds >= 0.01 * busy]
    lows = [k.intensity for k in points] + [peaks.ridge / 10]
    highs = [k.intensity for k in points] + [peaks.ridge * 10]
    low, high = min(lows) / 2, max(highs) * 2
    figure, axes = plt.subplots(figsize=(5.5, 3.6), layout="constrained")
    xs = [low, peaks.ridge, high]
    axes.plot(xs, [min(peaks.flops, peaks.bandwidth * x) / 1e9 for x in xs], color="#444444", linewidth=1.5)
    axes.annotate(
        f"memory {peaks.bandwidth / 1e9:.1f} GB/s",
        (peaks.ridge / 12, peaks.bandwidth * peaks.ridge / 12 / 1e9),
        fontsize=8,
        rotation=30,
        xytext=(-30, 8),
        textcoords="offset points",
    )
    axes.annotate(f"compute {peaks.flops / 1e9:.1f} GFLOP/s", (peaks.ridge, peaks.flops / 1e9 * 1.15), fontsize=8)
    # Kernels of one kind sit at one intensity: their labels step down, one line each, from the point.
    for order, kernel in enumerate(sorted(points, key=lambda k: (k.intensity, -k.flop_rate))):
        color = "#e6550d" if profile.bound(kernel) == "compute" else "#3182bd"
        size = 20 + 200 * profile.share(kernel)
        axes.scatter([kernel.intensity], [kernel.flop_rate / 1e9], s=size, color=color, alpha=0.8, zorder=3)
        step = sum(1 for other in sorted(points, key=lambda k: (k.intensity, -k.flop_rate))[:order]
                   if abs(other.intensity / kernel.intensity - 1) < 0.3)  # fmt: skip
        axes.annotate(kernel.name, (kernel.intensity, kernel.flop_rate / 1e9), fontsize=7,
                      xytext=(6, 2 - 9 * step), textcoords="offset points")  # fmt: skip
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("arithmetic intensity (FLOPs per byte)")
    axes.set_ylabel("GFLOP/s")
    axes.set_title(f"roofline of {profile.function}", fontsize=10)
    plt.close(figure)  # returned, not shown twice
    return figure


def roofline_png(profile: _profile.Profile) -> str:
    """The roofline as an inline `<img>` (a PNG in a data URI: self-contained)."""
    buffer = io.BytesIO()
    roofline(profile).savefig(buffer, format="png", dpi=90)
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f"<img class='numbat-roofline' alt='roofline of {escape(profile.function)}' src='data:image/png;base64,{data}'/>"


def profile_bundle(profile: _profile.Profile) -> dict:
    """The profile's mimebundle: its text, and as HTML its table, its graph shaded by time
    and its roofline."""
    html = table_html(profile) + graph_svg(profile)
    try:
        html += roofline_png(profile)
    except ImportError:  # no matplotlib: the table and the graph still show
        pass
    return {"text/plain": str(profile), "text/html": f"<div class='numbat-profile' style='{_BOX}'>{html}</div>"}


def _repr_mimebundle_(self, include=None, exclude=None):
    return profile_bundle(self)


_profile.Profile._repr_mimebundle_ = _repr_mimebundle_
