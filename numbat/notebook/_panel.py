"""The client and memory panel: the XLA client's state, clients, settings (with where
each came from) and memory per device, with a Refresh button. Reading it never
starts the client."""

from __future__ import annotations

from . import _settings
from ._tables import bundle
from ._widget_box import box_class, ipywidgets


def panel_sections() -> list:
    """What `%numbat client` and `%numbat memory` show, together."""
    return [*_settings.client([]), *_settings.memory([])]


def panel():
    """A client and memory panel (an ipywidgets box) with a Refresh button.

    >>> "memory settings" in panel()._repr_mimebundle_()["text/plain"]
    True
    """
    widgets = ipywidgets()
    view = widgets.HTML(value=bundle(panel_sections())["text/html"])
    refresh = widgets.Button(description="Refresh", icon="refresh")

    def redraw(_button=None):
        view.value = bundle(panel_sections())["text/html"]

    refresh.on_click(redraw)
    box = box_class()([refresh, view], lambda: bundle(panel_sections()))
    box.add_class("numbat-panel-widget")
    box.view, box.refresh = view, refresh
    return box
