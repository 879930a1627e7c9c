"""The EXLA analog: XLA clients and devices."""

from ._client import clients as clients, devices as devices, settings as settings, started as started

__all__ = ["clients", "devices", "settings", "started"]
