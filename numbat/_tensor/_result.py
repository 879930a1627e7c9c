"""The one place a result tensor is built: `result(data, type_, names, backend)`.

An op's result needs no check (its template was inferred before the backend ran), and the
hot paths (an eager op on NumPy, a cached defn call) are a few microseconds each, of which
`Tensor(...)` spends a fraction going through `type.__call__` to `__init__`. `result` fills
the four slots of a new `Tensor` in one Python frame instead. The backends' results (the
NumPy and XLA backends' `_wrap` and `_place`, the NumPy backend's binary fast path) and a
compiled defn call's are built here, and no other module builds a Tensor past its
`__init__` (`tests/test_style.py::test_result_tensors_are_built_in_one_place`).

>>> import numpy as np
>>> from numbat._core import _types
>>> t = result(np.zeros(2, np.float32), _types.F32, (None,), nbt.NumPyBackend())
>>> t
numbat.Tensor<
  f32[2]
  [0.0, 0.0]
>
"""

from __future__ import annotations

from ._tensor import Tensor

_new = object.__new__


def result(data, type_, names: tuple, backend) -> Tensor:
    """A tensor of `data` with `type_`, `names` and `backend`, as `Tensor(...)` builds it."""
    tensor = _new(Tensor)
    tensor.data = data
    tensor.type = type_
    tensor.names = names
    tensor.backend = backend
    return tensor
