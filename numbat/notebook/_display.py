"""The rich display of `Tensor`, `Expr` and `Heatmap`, installed on the classes when the
notebook layer loads (docs/design.md, decision 8), as `numbat._ops.composite.tensor_methods` installs
Tensor's operators: the objects live low and import nothing of this layer, their rich
forms (HTML, SVG, pictures) live here. `import numbat` loads this layer, so a tensor
shows as HTML in any notebook, without `%load_ext numbat`.

>>> sorted(nbt.tensor([1, 2])._repr_mimebundle_())
['text/html', 'text/plain']
"""

from __future__ import annotations

import html

import numpy as np

from .._library._heatmap import Heatmap
from .._ops.composite.vectorization import devectorize
from .._tensor._expr import Expr
from .._tensor._tensor import Tensor, is_traced
from . import _heatmap_png, _html, _svg


def tensor_bundle(tensor: Tensor, include=None, exclude=None) -> dict:
    """`Tensor._repr_mimebundle_`: the text form, and the HTML view unless the tensor is
    traced (its values exist only when the defn runs)."""
    bundle = {"text/plain": repr(tensor)}
    if not is_traced(tensor):
        bundle["text/html"] = _html.tensor_html(tensor)
    return bundle


def expr_bundle(expr: Expr, include=None, exclude=None) -> dict:
    """`Expr._repr_mimebundle_`: the graph in Nx's letter format and drawn as SVG."""
    return _svg.expr_bundle(expr)


def heatmap_html(heatmap: Heatmap) -> str:
    """`Heatmap._repr_html_`: pictures of the slices, with the axis names on their edges,
    above the heatmap's text (digits, not ANSI colours)."""
    text = html.escape(repr(Heatmap(heatmap.tensor, False, heatmap.ansi_whitespace)))
    tensor = heatmap.tensor
    if tensor.vectorized_axes:  # the pictures show every entry's slices, vectorized axes first
        tensor = devectorize(tensor)
    if tensor.rank >= 2:  # the slices as pictures, with the axis names on their edges
        picture = _heatmap_png.figure(tensor)
    else:
        row = np.atleast_2d(tensor.to_numpy().astype(np.float64))
        picture = f"<img src='{_heatmap_png.data_uri(row)}' style='image-rendering:pixelated;min-width:120px'>"
    return f"<div class='numbat-heatmap'>{picture}<pre>{text}</pre></div>"


Tensor._repr_mimebundle_ = tensor_bundle
Expr._repr_mimebundle_ = expr_bundle
Heatmap._repr_html_ = heatmap_html
