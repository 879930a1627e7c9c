"""The tensor explorer: a slider per leading axis (labelled by its name) over the view
of one 2-D slice. In a front-end with ipywidgets it is live; elsewhere (nbconvert,
GitHub, a widget-less VS Code) its static HTML shows the first slice."""

from __future__ import annotations

import typing

from .._core._errors import ArgumentError
from .._ops import _dispatch
from . import _html


@typing.final
class Explorer:
    """See `explorer`."""

    def __init__(self, tensor):
        self.tensor = tensor
        self.leading = tensor.shape[:-2]
        self._widget = None

    def slice_view(self, index: tuple) -> str:
        """The HTML view of the 2-D slice at `index` (one position per leading axis)."""
        part = self.tensor[tuple(index)] if index else self.tensor
        label = ", ".join(
            f"{name or f'axis {i}'}={position}" for i, (name, position) in enumerate(zip(self.tensor.names, index))
        )
        caption = f"<div style='opacity:0.7'>{_html.escape(label)}</div>" if label else ""
        return caption + _html.tensor_html(part)

    def widget(self):
        """The live ipywidgets form (built on first use)."""
        if self._widget is None:
            try:
                import ipywidgets
            except ImportError:
                raise ImportError("the tensor explorer needs ipywidgets: pip install ipywidgets") from None
            sliders = [
                ipywidgets.IntSlider(value=0, min=0, max=size - 1, description=str(name or f"axis {i}"))
                for i, (name, size) in enumerate(zip(self.tensor.names, self.leading))
            ]
            view = ipywidgets.HTML(self.slice_view((0,) * len(self.leading)))

            def update(_change=None):
                view.value = self.slice_view(tuple(s.value for s in sliders))

            for slider in sliders:
                slider.observe(update, names="value")
            self._widget = ipywidgets.VBox(
                [*sliders, view], layout=ipywidgets.Layout(border="1px solid rgba(128,128,128,0.35)", padding="4px")
            )
            self._widget.add_class("numbat-explorer")
        return self._widget

    def _repr_mimebundle_(self, include=None, exclude=None):
        static = self.slice_view((0,) * len(self.leading))
        bundle = {"text/plain": repr(self.tensor), "text/html": f"<div class='numbat-explorer'>{static}</div>"}
        try:
            widget_bundle = self.widget()._repr_mimebundle_()
        except ImportError:
            return bundle
        if widget_bundle:
            bundle.update({k: v for k, v in widget_bundle.items() if k != "text/plain"})
        return bundle


def explorer(tensor) -> Explorer:
    """An explorer over `tensor` (rank 2 or more): sliders for the leading axes, the
    selected 2-D slice as a table or heatmap.

    >>> explorer(nbt.iota((3, 2, 2), names=["step", "row", "col"])).leading
    (3,)
    """
    tensor = _dispatch.to_tensor(tensor)
    if tensor.rank < 2:
        raise ArgumentError(f"explorer needs a tensor of rank 2 or more, got shape {tensor.shape}")
    return Explorer(tensor)
