"""Axon's `Axon.Activations` (lib/axon/activations.ex, elixir-nx/axon at dfec027d) in defn
style as its authors wrote it: each `defn` a `@nbt.defn`, `opts \\\\ []` with
`keyword!(opts, alpha: 1.0)` keyword arguments with defaults (a defn's keyword arguments
are static options, as Nx's keyword list), `deftransformp` a Python function run while
tracing. What has no Python form is in tests/axon/test_axon.py's UNTRANSLATABLE."""

from __future__ import annotations

import numbat as nbt


def _reciprocal(x):  # Axon.Shared.reciprocal
    return 1 / x


def _wrap(axis):  # deftransformp wrap(axis), do: List.wrap(axis)
    return list(axis) if isinstance(axis, (list, tuple)) else [axis]


def _validate_celu_alpha(alpha):  # deftransformp validate_celu_alpha!
    if alpha == 0:
        raise nbt.ArgumentError(":alpha must be non-zero in CELU activation")


@nbt.defn
def celu(x, alpha=1.0):
    _validate_celu_alpha(alpha)
    return nbt.select(nbt.greater(x, 0), x, alpha * nbt.expm1(x / alpha))


@nbt.defn
def elu(x, alpha=1.0):
    x_hat = nbt.select(nbt.greater(x, 0), 0, x)
    return nbt.select(nbt.greater(x, 0), x, alpha * nbt.expm1(x_hat))


@nbt.defn
def exp(x):
    return nbt.exp(x)


@nbt.defn
def gelu(x):
    sqrt2 = nbt.sqrt(nbt.tensor(2, type=x.type))
    return nbt.divide(nbt.multiply(nbt.add(nbt.erf(nbt.divide(x, sqrt2)), 1), x), 2)


@nbt.defn
def hard_sigmoid(x, alpha=0.2, beta=0.2):
    return nbt.min(nbt.max(nbt.add(nbt.multiply(x, alpha), beta), 0), 1)


@nbt.defn
def hard_silu(x, **opts):
    return nbt.multiply(hard_sigmoid(x, **opts), x)


@nbt.defn
def hard_tanh(x):
    return nbt.select(nbt.greater(x, 1), 1, nbt.select(nbt.less(x, -1), -1, x))


@nbt.defn
def leaky_relu(x, alpha=1.0e-2):
    return nbt.select(nbt.greater(x, 0), x, x * alpha)


@nbt.defn
def linear(x):
    return x


@nbt.defn
def log_sumexp(x, axis=-1):
    axes = _wrap(axis)
    max_val = nbt.reduce_max(x, axes=axes, keep_axes=True)
    max_val = nbt.stop_grad(nbt.select(nbt.is_infinity(max_val), 0, max_val))
    stable_exp = nbt.exp(nbt.subtract(x, max_val))
    return nbt.add(nbt.log(nbt.sum(stable_exp, axes=axes, keep_axes=True)), max_val)


@nbt.defn
def log_sigmoid(x):
    return -softplus(-x)


@nbt.defn
def log_softmax(x, axis=-1):
    shifted = x - nbt.stop_grad(nbt.reduce_max(x, axes=[axis], keep_axes=True))
    return nbt.add(nbt.negate(nbt.log(nbt.sum(nbt.exp(shifted), axes=[axis], keep_axes=True))), shifted)


@nbt.defn
def mish(x):
    return x * tanh(softplus(x))


@nbt.defn
def relu(x):
    return nbt.custom_grad(nbt.max(x, 0), [x], lambda g: [nbt.select(nbt.greater(x, 0), g, nbt.broadcast(0, g.shape))])


@nbt.defn
def relu6(x):
    return nbt.min(nbt.max(x, 0), 6)


@nbt.defn
def sigmoid(x):
    return nbt.sigmoid(x)  # cache_logits(x, ...): no Python form (UNTRANSLATABLE)


@nbt.defn
def silu(x):
    return nbt.multiply(nbt.sigmoid(x), x)


@nbt.defn
def selu(x, alpha=1.6732632423543772848170429916717, gamma=1.0507009873554804934193349852946):
    return gamma * elu(x, alpha=alpha)


@nbt.defn
def softmax(x, axis=-1):
    axes = _wrap(axis)
    max_val = nbt.stop_grad(nbt.reduce_max(x, axes=axes, keep_axes=True))
    stable_exp = nbt.exp(nbt.subtract(x, max_val))
    return nbt.multiply(_reciprocal(nbt.sum(stable_exp, axes=axes, keep_axes=True)), stable_exp)


@nbt.defn
def softplus(x):
    stable = nbt.max(0.0, x)
    return nbt.add(nbt.log1p(nbt.exp(nbt.negate(nbt.abs(x)))), stable)


@nbt.defn
def softsign(x):
    return nbt.multiply(_reciprocal(nbt.add(nbt.abs(x), 1)), x)


@nbt.defn
def tanh(x):
    return nbt.tanh(x)
