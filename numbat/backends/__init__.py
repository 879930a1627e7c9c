"""Backends: where tensor data lives and ops run."""

from .._tensor._tensor import Template as Template
from ._contract import AbstractBackend as AbstractBackend
from ._default import (
    backend_copy as backend_copy,
)
from ._default import backend_deallocate as backend_deallocate
from ._default import (
    backend_transfer as backend_transfer,
)
from ._default import (
    default_backend as default_backend,
)
from ._default import (
    global_default_backend as global_default_backend,
)
from ._default import with_default_backend as with_default_backend
from .numpy_backend import NumPyBackend as NumPyBackend
from .xla_backend import XLABackend as XLABackend

__all__ = [
    "AbstractBackend",
    "NumPyBackend",
    "Template",
    "XLABackend",
    "backend_copy",
    "backend_deallocate",
    "backend_transfer",
    "default_backend",
    "global_default_backend",
    "with_default_backend",
]
