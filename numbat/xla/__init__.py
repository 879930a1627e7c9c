"""The EXLA analog: XLA clients and devices."""

from ._client import clients as clients
from ._client import devices as devices
from ._client import settings as settings
from ._client import started as started

__all__ = ["clients", "devices", "settings", "started"]
