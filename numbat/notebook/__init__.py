"""The IPython extension: `%load_ext numbat` registers the `%numbat` magics and
the cell hooks that show the telemetry strip; `%unload_ext numbat` removes
them. Tensors and expressions render through their own `_repr_mimebundle_`
(HTML from `_html`, SVG from `_svg`), so no formatter is registered.
"""

from __future__ import annotations

from ._dashboard import dashboard as dashboard
from ._explorer import explorer as explorer
from ._extension import load_ipython_extension as load_ipython_extension
from ._extension import unload_ipython_extension as unload_ipython_extension
from ._panel import panel as panel
from ._plots import heatmap as heatmap
from ._plots import histogram as histogram
from ._plots import telemetry_chart as telemetry_chart
from ._shards import shards as shards

# The public API: what `help()`, `import *`, tab completion and the API pages list.
__all__ = [
    "dashboard",
    "explorer",
    "heatmap",
    "histogram",
    "load_ipython_extension",
    "panel",
    "shards",
    "telemetry_chart",
    "unload_ipython_extension",
]
