"""`XLABackend`: `jax.Array`s on one device of an XLA client; inside `defn`
the same code runs on JAX tracers."""

from __future__ import annotations

import dataclasses
import typing

import jax
import jax.numpy as jnp
import numpy as np

from .._runtime import _client
from .._tensor import _tensor
from .._tensor._result import result
from .._tensor._tensor import Template, Tensor
from . import _eager_jit
from ._array import ArrayBackend

_NO_PARAMS: dict = {}  # never written to
_INTERNED: dict = {}  # (client, device_id, their types) -> the one XLABackend for them


@typing.final
@dataclasses.dataclass(frozen=True, eq=False)
class XLABackend(ArrayBackend):
    """Data on device `device_id` of XLA client `client` (None: the default client;
    a `device_id` of None: the client's configured `default_device_id`).

    >>> nbt.XLABackend(client="host").device.platform
    'cpu'

    One instance per `(client, device_id)`: equal backends are the same object, so
    equality and hashing are identity's (C-level: `jax.jit` hashes the backend of
    every eager op as a static argument) and an op tells "same backend" with `is`.

    >>> nbt.XLABackend(client="host") is nbt.XLABackend("host", None)
    True
    """

    client: str | None = None
    device_id: int | None = None
    xp: typing.ClassVar = jnp

    def __new__(cls, client: str | None = None, device_id: int | None = None):
        key = (client, type(client), device_id, type(device_id))  # True is not 1 here
        backend = _INTERNED.get(key)
        if backend is None:
            backend = _INTERNED.setdefault(key, object.__new__(cls))  # __init__ fills it in
        return backend

    def __reduce__(self):  # copies and pickles come back as the one instance
        return (XLABackend, (self.client, self.device_id))

    @property
    def device(self) -> jax.Device:
        return _client.device(self.client, self.device_id)

    def _wrap(self, out: Template, data) -> Tensor:
        # An array or a tracer already (the common case) skips jnp.asarray: about 10 µs on a
        # concrete array while a defn traces, 1 µs eagerly.
        if not isinstance(data, jax.core.Tracer) and not isinstance(data, jax.Array):
            data = jnp.asarray(data)
        if data.dtype != out.type.dtype:
            data = data.astype(out.type.dtype)
        return result(data, out.type, out.names, self)

    def _place(self, out: Template, data) -> Tensor:
        if not isinstance(data, jax.core.Tracer):
            with jax.enable_x64(True):  # keep s64/u64/f64/c128 64-bit
                data = jax.device_put(data, self.device)
        return result(data, out.type, out.names, self)

    def execute(self, op: str, out: Template, inputs: tuple, params: dict) -> Tensor:
        return _eager_jit.execute(self, op, out, inputs, params)

    def execute_binary(self, op: str, out: Template, left: Tensor, right: Tensor) -> Tensor:
        return _eager_jit.execute(self, op, out, (left, right), _NO_PARAMS)

    def from_numpy(self, out: Template, array: np.ndarray) -> Tensor:
        return self._place(out, np.asarray(array, dtype=out.type.dtype))

    def to_numpy(self, tensor: Tensor) -> np.ndarray:
        return np.asarray(tensor.data)

    def describe(self) -> str:
        device = self.device
        return f"XLA {self.client or _client.default_client()}:{device.id} ({device.device_kind})"


_tensor.device_backend = XLABackend  # the backend of data JAX hands back (see `_tensor._unflatten`)

__all__ = ["XLABackend"]
