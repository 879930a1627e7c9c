"""The box every numbat widget lives in: an ipywidgets VBox whose mimebundle also
carries a static `text/plain` and `text/html` view, which front-ends without a
widget manager (nbconvert, GitHub, VS Code without widgets) show instead."""

from __future__ import annotations

import functools


def ipywidgets():
    """ipywidgets, imported on first use, with a clear error when it is missing."""
    try:
        import ipywidgets
    except ImportError:
        raise ImportError("numbat's widgets need ipywidgets: pip install ipywidgets") from None
    return ipywidgets


@functools.cache
def box_class():
    """The VBox subclass (made once ipywidgets is imported)."""
    widgets = ipywidgets()

    class NumbatWidget(widgets.VBox):
        """A VBox whose mimebundle adds the static view `static()` returns."""

        def __init__(self, children, static, **kwargs):
            super().__init__(children, **kwargs)
            self._static = static  # () -> {"text/plain": ..., "text/html": ...}
            self._keep: list = []  # objects that live as long as the widget (its listeners)

        def _repr_mimebundle_(self, **kwargs):
            bundle = super()._repr_mimebundle_(**kwargs) or {}
            return {**bundle, **self._static()}

    return NumbatWidget
