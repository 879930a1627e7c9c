"""`numbat bench`: one softmax, timed as a numbat defn, with `jax.jit` and with NumPy.

All three compute the same expression, `exp(x) / sum(exp(x))`, over the same f32 values.
"""

import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np

import numbat as nbt

WARMUP = 3


@nbt.defn
def softmax(t):
    return nbt.exp(t) / nbt.sum(nbt.exp(t))


@jax.jit
def jax_softmax(x):
    return jnp.exp(x) / jnp.sum(jnp.exp(x))


def numpy_softmax(x):
    return np.exp(x) / np.sum(np.exp(x))


def _median_us(call, repeat: int) -> float:
    for _ in range(WARMUP):
        call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        call()
        times.append(time.perf_counter_ns() - start)
    return statistics.median(times) / 1e3


def run(size: int = 1_000_000, repeat: int = 50) -> dict:
    """Times the three softmaxes on `size` f32 values; medians over `repeat` calls, in µs.

    Raises `AssertionError` if the three results disagree.
    """
    x = np.random.default_rng(0).standard_normal(size, dtype=np.float32)
    t = nbt.tensor(x, type="f32", backend=nbt.XLABackend())
    x_jax = jax.device_put(x)

    expected = numpy_softmax(x)
    np.testing.assert_allclose(np.asarray(softmax(t)), expected, rtol=1e-4, atol=1e-12)
    np.testing.assert_allclose(np.asarray(jax_softmax(x_jax)), expected, rtol=1e-4, atol=1e-12)

    median_us = {
        "numbat": _median_us(lambda: jax.block_until_ready(softmax(t).data), repeat),
        "jax": _median_us(lambda: jax.block_until_ready(jax_softmax(x_jax)), repeat),
        "numpy": _median_us(lambda: numpy_softmax(x), repeat),
    }
    return {
        "size": size,
        "repeat": repeat,
        "median_us": median_us,
        "ratio": {
            "numbat/jax": median_us["numbat"] / median_us["jax"],
            "numbat/numpy": median_us["numbat"] / median_us["numpy"],
        },
    }


def print_table(results: dict) -> None:
    """Prints `run`'s results as a small table."""
    print(f"softmax over {results['size']:,} f32 values, median of {results['repeat']} calls")
    print(f"{'':<16}{'µs':>12}")
    labels = {"numbat": "numbat defn", "jax": "jax.jit", "numpy": "numpy"}
    for key, label in labels.items():
        print(f"{label:<16}{results['median_us'][key]:>12,.1f}")
    for key, ratio in results["ratio"].items():
        print(f"{key:<16}{ratio:>11.2f}x")
