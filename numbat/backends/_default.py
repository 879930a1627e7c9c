"""The default backend (XLA on the default client), set process-wide with
`global_default_backend` or for a block with `with default_backend(b):`."""

from __future__ import annotations

import contextvars

import numpy as np

from .._core import _types
from .._core._errors import ArgumentError
from .._core._scoped import scoped
from .._runtime import _client
from .._tensor._tensor import Template, Tensor, VectorizedData, array_of
from ._contract import AbstractBackend
from .xla_backend import XLABackend

_global: AbstractBackend = XLABackend()
_scoped: contextvars.ContextVar[AbstractBackend | None] = contextvars.ContextVar("numbat_backend", default=None)


def current() -> AbstractBackend:
    """The backend new tensors go to."""
    return _scoped.get() or _global


def default_backend(backend: AbstractBackend | None = None):
    """With no argument, the current default backend; with one, a context
    manager that makes it the default inside a `with` block.

    >>> with nbt.default_backend(nbt.NumPyBackend()):
    ...     nbt.tensor([1, 2]).backend
    NumPyBackend()
    """
    if backend is None:
        return current()
    return scoped(_scoped, _check(backend))


def global_default_backend(backend: AbstractBackend | None = None) -> AbstractBackend:
    """Sets the process-wide default backend and returns the previous one
    (with no argument, just returns it). An XLA backend's client and device are
    checked when it is set (its device once the client has started), and a bad
    one changes nothing.

    >>> nbt.global_default_backend(nbt.XLABackend(client="nope"))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: unknown XLA client 'nope'; clients are cuda, rocm, tpu, host
    """
    global _global
    previous = _global
    if backend is not None:
        backend = _check(backend)
        if isinstance(backend, XLABackend) and (_client.started() or backend.client not in (None, *_client.PLATFORMS)):
            _client.device(backend.client, backend.device_id)  # refused now, not at every later op
        _global = backend
    return previous


def with_default_backend(backend: AbstractBackend, fun):
    """Calls `fun()` with `backend` as the default backend, and returns its result.

    >>> nbt.with_default_backend(nbt.NumPyBackend(), lambda: nbt.tensor([1]).backend)
    NumPyBackend()
    """
    if not callable(fun):
        raise ArgumentError(f"with_default_backend: fun must be a function of no arguments, got {fun!r}")
    with default_backend(backend):
        return fun()


def resolve(backend) -> AbstractBackend:
    """`backend`, checked, or the current default backend when it is None."""
    return current() if backend is None else _check(backend)


def _check(backend) -> AbstractBackend:
    if not isinstance(backend, AbstractBackend):
        raise ArgumentError(f"expected a backend such as nbt.NumPyBackend() or nbt.XLABackend(), got {backend!r}")
    return backend


def _containers(fun, value, backend, op: str):
    """`fun` over the tensors of a tuple, list or dict (numbers become tensors on `backend`), as
    Nx's backend functions take any container."""
    if type(value) in (tuple, list):  # not a NamedTuple such as a Template
        return type(value)(_containers(fun, item, backend, op) for item in value)
    if isinstance(value, dict):
        return {key: _containers(fun, item, backend, op) for key, item in value.items()}
    if _types.is_number(value):
        type_ = _types.infer(value)
        value = backend.from_numpy(Template((), type_, ()), np.asarray(value, dtype=type_.dtype))
    if not isinstance(value, Tensor):
        raise ArgumentError(f"{op} expects a tensor or a container of tensors, got {type(value).__name__}")
    return fun(value, backend)


def backend_transfer(tensor: Tensor, backend: AbstractBackend | None = None) -> Tensor:
    """Moves `tensor` to `backend` (default: the current default backend); a tuple, list or
    dict of tensors (and numbers) moves whole. As in Nx, the tensor moved away from an XLA
    device is deallocated there: use the result (`backend_copy` keeps both).

    >>> t = nbt.backend_transfer(nbt.tensor([1, 2]), nbt.NumPyBackend())
    >>> t.backend, t.to_numpy()
    (NumPyBackend(), array([1, 2], dtype=int32))
    >>> nbt.backend_transfer((nbt.tensor(1), 2))[1]
    numbat.Tensor<
      s32
      2
    >
    >>> device = nbt.tensor([1, 2], backend=nbt.XLABackend())
    >>> host = nbt.backend_transfer(device, nbt.NumPyBackend())
    >>> device.to_numpy()
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: cannot read the values (t.to_numpy()) of a tensor whose memory was freed by nbt.backend_deallocate or moved away by nbt.backend_transfer (s32[2])
    """
    backend = _check(current() if backend is None else backend)
    if not isinstance(tensor, Tensor):
        return _containers(backend_transfer, tensor, backend, "backend_transfer")
    moved = transfer(tensor, backend)
    if moved is not tensor:
        backend_deallocate(tensor)
    return moved


def transfer(tensor: Tensor, backend: AbstractBackend) -> Tensor:
    """`tensor` on `backend`, itself when it is there already, the source left in place:
    how numbat moves a user's tensor where an op needs it."""
    if tensor.backend == backend:
        return tensor
    return backend_copy(tensor, backend)


def backend_copy(tensor: Tensor, backend: AbstractBackend | None = None) -> Tensor:
    """A copy of `tensor` on `backend`, leaving the original in place."""
    backend = _check(current() if backend is None else backend)
    if not isinstance(tensor, Tensor):
        return _containers(backend_copy, tensor, backend, "backend_copy")
    array = tensor.to_numpy()  # a vectorized tensor's: every entry, vectorized axes first
    if tensor.vectorized_axes:  # every entry moves, and the copy is vectorized the same way
        whole = backend.from_numpy(Template(array.shape, tensor.type, (None,) * array.ndim), array)
        return Tensor(VectorizedData(whole.data, tensor.data.axes), tensor.type, tensor.names, backend)
    return backend.from_numpy(Template(tensor.shape, tensor.type, tensor.names), array)


def backend_deallocate(tensor: Tensor) -> str:
    """Frees the device memory of `tensor` now, instead of when Python collects it.
    Returns "ok", or "already_deallocated" (as Nx); the tensor must not be used after.
    NumPy tensors hold host memory that Python frees, so they are left as they are.

    >>> t = nbt.tensor([1, 2], backend=nbt.XLABackend())
    >>> nbt.backend_deallocate(t), nbt.backend_deallocate(t)
    ('ok', 'already_deallocated')
    """
    if not isinstance(tensor, Tensor):  # a container: each tensor is freed, "ok" as in Nx
        _containers(lambda t, _backend: backend_deallocate(t), tensor, current(), "backend_deallocate")
        return "ok"
    data = array_of(tensor)
    delete = getattr(data, "delete", None)
    if delete is None:
        return "ok"
    if data.is_deleted():
        return "already_deallocated"
    delete()
    return "ok"
