"""Functions of one tensor, element-wise: negate, abs, sign, rounding, the exponential and
logarithms, the trigonometric and hyperbolic functions, roots, the error function,
is_nan, is_infinity, and stop_grad. Integers become f32 (f64 stays f64) for the
transcendental functions; rounding keeps the type.

The family's rule: an op takes one tensor and computes each element from that element
alone (the bitwise functions of one tensor are `bitwise`, the complex parts `complex`);
`stop_grad`, the identity for values, is one too.

The family's ops of the op table (`_core/_op_table.py`) are generated from their entries, each
with its doctest (`_generate.define`, at the end of this module); `stop_grad` is written here.
"""

from __future__ import annotations

from ..._tensor._tensor import Template
from .. import _dispatch
from ._generate import define


def stop_grad(tensor):
    """The identity, except that gradients do not flow through it. A tuple or dict of
    tensors (Nx's containers) comes back as the same container, each tensor stopped.

    >>> nbt.grad(lambda x: nbt.sum(x * nbt.stop_grad(x)))(nbt.tensor([1.0, 2.0]))
    numbat.Tensor<
      f32[2]
      [1.0, 2.0]
    >
    >>> nbt.grad(lambda x: nbt.sum(nbt.stop_grad((x, x))[0] * x))(nbt.tensor([1.0, 2.0]))
    numbat.Tensor<
      f32[2]
      [1.0, 2.0]
    >
    """
    if type(tensor) is tuple:
        return tuple(stop_grad(item) for item in tensor)
    if type(tensor) is dict:
        return {key: stop_grad(item) for key, item in tensor.items()}
    tensor = _dispatch.to_tensor(tensor)
    return _dispatch.run("stop_grad", Template(tensor.shape, tensor.type, tensor.names), (tensor,))


# The family's ops of the op table (`_core/_op_table.py`), generated from their entries.
define(globals(), "math")
