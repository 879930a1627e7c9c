"""The IPython extension: `%load_ext numbat` registers the `%numbat` magics and
the cell hooks that show the telemetry strip; `%unload_ext numbat` removes
them. Loading this package (as `import numbat` does) installs the rich display of
tensors, expressions and heatmaps on their classes (`_display`: HTML from `_html`,
SVG from `_svg`), so no formatter is registered and no `%load_ext` is needed for it.
"""

from __future__ import annotations

import sys

from . import _display as _display  # installs the rich display of Tensor, Expr and Heatmap
from ._dashboard import dashboard as dashboard
from ._explorer import explorer as explorer
from ._live import live as live
from ._panel import panel as panel
from ._plots import heatmap as heatmap
from ._plots import histogram as histogram
from ._plots import telemetry_chart as telemetry_chart
from ._profile_view import roofline as roofline
from ._shards import shards as shards

# The public API: what `help()`, `import *`, tab completion and the API pages list.
__all__ = [
    "dashboard",
    "explorer",
    "heatmap",
    "histogram",
    "live",
    "load_ipython_extension",
    "panel",
    "roofline",
    "shards",
    "telemetry_chart",
    "unload_ipython_extension",
]


def load_ipython_extension(ip) -> None:
    """`%load_ext numbat`: registers the `%numbat` magics and the `pre_run_cell`/`post_run_cell` hooks on `ip`."""
    from . import _extension  # IPython loads with the extension, not with `import numbat`

    _extension.load(ip)


def unload_ipython_extension(ip) -> None:
    """`%unload_ext numbat`: removes what `load_ipython_extension` registered on `ip`."""
    extension = sys.modules.get(f"{__name__}._extension")
    if extension is not None:  # never loaded: nothing registered
        extension.unload(ip)


def __dir__() -> list[str]:
    """Tab completion lists the public API (`__all__`), not the names this module imports."""
    return sorted(__all__)
