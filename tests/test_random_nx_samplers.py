"""Nx.Random beyond its doctests: 64-bit seeds, the same bits on every path and type, options, errors, gradients."""

import time

import jax
import numpy as np
import pytest
from _paths import PATHS, run_on

import numbat as nbt
from numbat._core._types import parse
from numbat.random import _threefry

R = nbt.random


@pytest.mark.parametrize("path", PATHS)
def test_a_key_from_the_clock_keeps_its_high_bits(path):
    seed = time.time_ns()  # the moduledoc's Nx.Random.key(System.os_time())
    key = run_on(path, R.key, lambda: (nbt.tensor(seed, type="s64"),))
    assert key.to_numpy().tolist() == [seed >> 32, seed & 0xFFFFFFFF]
    assert R.key(seed).to_numpy().tolist() == [seed >> 32, seed & 0xFFFFFFFF]


@pytest.mark.parametrize(
    "seed, words",
    [(999999999999, [232, 3567587327]), (2**64 - 1, [2**32 - 1] * 2), (-1, [2**32 - 1] * 2), (-(2**63), [2**31, 0])],
)
def test_key_keeps_the_high_bits_of_any_64_bit_seed(seed, words):
    assert R.key(seed).to_numpy().tolist() == words
    tensor_seed = nbt.tensor(seed, type="u64" if seed >= 2**63 else "s64")
    assert nbt.jit(R.key)(tensor_seed).to_numpy().tolist() == words


def test_key_refuses_seeds_beyond_64_bits_and_non_integers():
    with pytest.raises(nbt.ArgumentError, match="does not fit in 64 bits"):
        R.key(2**64)
    with pytest.raises(nbt.ArgumentError, match="integer seed"):
        R.key(1.5)
    with pytest.raises(nbt.ArgumentError, match="integer seed"):
        R.key(nbt.tensor(1.0))


def _draw_everything(key):
    return (
        R.uniform(key, shape=(3,), type="bf16")[0],
        R.normal(key, shape=(3,), type="f64")[0],
        R.randint(key, -5, 5, shape=(4,), type="s64")[0],
        R.shuffle(key, nbt.iota((5,)))[0],
        R.choice(key, nbt.iota((5,)), nbt.tensor([0.1, 0.2, 0.3, 0.2, 0.2]), samples=2)[0],
        R.key(nbt.tensor(2**40, type="s64")),
    )


def test_jax_settings_are_unchanged_after_drawing():
    before = dict(jax.config.values)
    _draw_everything(R.key(3))
    nbt.jit(_draw_everything)(R.key(3))
    assert dict(jax.config.values) == before
    assert jax.config.jax_threefry_partitionable == before["jax_threefry_partitionable"]


# Calls over the types each sampler takes (those the Nx doctests in test_random_nx.py leave out): the
# NumPy backend, the XLA backend and jit must give the same bits. (The evaluator runs the
# NumPy backend's code; test_random_nx.py's doctests check it.)
AGREEMENT = [
    *[lambda k, t=t: R.uniform(k, -2, 3, shape=(2, 3), type=t) for t in ("f8", "f8_e4m3fn", "bf16", "f32")],
    *[lambda k, t=t: R.uniform(k, shape=(5,), type=t) for t in ("f64", "c128")],
    *[lambda k, t=t: R.normal(k, 1, 2, shape=(7,), type=t) for t in ("bf16", "f32", "f64", "c128")],
    *[lambda k, t=t: R.randint(k, -3, 100, shape=(9,), type=t) for t in ("s8", "s16", "s64")],
    *[lambda k, t=t: R.randint(k, 3, 100, shape=(9,), type=t) for t in ("u8", "u16", "u64")],
    lambda k: R.randint(k, nbt.tensor([0, 10], type="s64"), nbt.tensor(2**40, type="s64"), shape=(3, 2)),
    lambda k: R.uniform(k, nbt.tensor([0.0, 10.0], type="f64"), 11.0, shape=(3, 2)),
    lambda k: R.gumbel(k, shape=(4,), type="f64"),
    lambda k: R.shuffle(k, nbt.iota((3, 5), names=["x", "y"]), axis="y", independent=True),
    lambda k: R.fold_in(k, nbt.tensor([-1, 2**40], type="s64")),
    lambda k: R.multivariate_normal(k, nbt.tensor([1.0, 2.0]), nbt.tensor([[2.0, 1.0], [1.0, 2.0]]), method="svd"),
    lambda k: R.multivariate_normal(k, nbt.tensor([1.0, 2.0]), nbt.tensor([[2.0, 1.0], [1.0, 2.0]]), method="eigh"),
]


@pytest.mark.parametrize("call", AGREEMENT, ids=[str(i) for i in range(len(AGREEMENT))])
def test_every_path_draws_the_same_bits(call):
    def drawn(path):
        result = run_on(path, call, lambda: (R.key(7),))
        result = result if isinstance(result, tuple) else (result,)
        return [(str(t.type), t.shape, t.names, t.to_numpy().tobytes()) for t in result]

    reference = drawn("numpy")
    for path in ("xla", "jit"):
        assert drawn(path) == reference, path


def test_samplers_draw_in_range_and_the_split_variants_use_the_key_as_it_is():
    sample, next_key = R.randint(R.key(0), 250, 256, shape=(1000,), type="u8")
    assert set(sample.to_numpy().tolist()) == set(range(250, 256))
    assert next_key.to_numpy().tolist() == R.split(R.key(0)).to_numpy()[0].tolist()
    keys = R.split(R.key(0))
    assert (
        R.randint_split(keys[1], 250, 256, shape=(1000,), type="u8").to_numpy().tobytes() == sample.to_numpy().tobytes()
    )
    wide, _ = R.randint(R.key(0), -(2**62), 2**62, shape=(1000,), type="s64")
    assert wide.to_numpy().min() < -(2**60) and wide.to_numpy().max() > 2**60
    uniform, _ = R.uniform(R.key(0), 2.0, 3.0, shape=(1000,), type="f64")
    assert 2.0 <= uniform.to_numpy().min() and uniform.to_numpy().max() < 3.0
    assert len(set(uniform.to_numpy().tolist())) == 1000  # 52 random mantissa bits


def test_bf16_normal_follows_nx_in_using_f16s_value_just_above_minus_1():
    # Nx takes the float just above -1 in the 16-bit IEEE format, which rounds to -1.0 in bf16.
    low = nbt.random.uniform(R.key(0), -0.99951171875, 1, shape=(3,), type="bf16")[0]
    assert low.to_numpy().tolist() == R.uniform(R.key(0), -1, 1, shape=(3,), type="bf16")[0].to_numpy().tolist()


def test_choice_and_shuffle_options():
    t = nbt.iota((2, 3), names=["rows", "cols"])
    chosen, _ = R.choice(R.key(5), t, samples=2, axis="cols", replace=False)
    assert chosen.shape == (2, 2)
    assert all(sorted(set(row)) == sorted(row) for row in chosen.to_numpy().tolist())
    one, key = R.shuffle(R.key(5), nbt.tensor([7]))
    assert one.to_numpy().tolist() == [7] and key.to_numpy().tolist() == [0, 5]  # one element: no rounds, as Nx


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: R.uniform(R.key(0), shapes=(2,)),
            r"random.uniform: unknown option 'shapes'; it takes min, max, shape",
        ),
        (lambda: R.shuffle(R.key(0), nbt.iota((3,)), independant=True), "random.shuffle: unknown option 'independant'"),
        (
            lambda: R.choice(R.key(0), nbt.iota((3,)), axes=0),
            r"random.choice: unknown option 'axes'; it takes tensor, p",
        ),
        (lambda: R.multivariate_normal(R.key(0), [0.0], [[1.0]], method="qr"), "method must be one of"),
        (lambda: R.multivariate_normal(R.key(0), [0.0], [[1.0]], type="c64"), "complex types are not supported"),
        (lambda: R.uniform(R.key(0), type="s32"), "expected a float or complex type, got s32"),
        (lambda: R.randint(R.key(0), 0, 5, type="f32"), "expected an integer type, got f32"),
        (lambda: R.randint(R.key(0), 5, 5), r"needs min < max"),
        (lambda: R.gumbel(R.key(0), type="c64"), "expected a float type, got c64"),
        (lambda: R.split(nbt.tensor([1, 2, 3], type="u32")), r"a key is a u32\[2\] tensor"),
        (lambda: R.choice(R.key(0), nbt.iota((3,)), samples=4, replace=False), "cannot take 4 samples from 3"),
        (lambda: R.choice(R.key(0), nbt.iota((3,)), nbt.tensor([0.5, 0.5])), r"p must have shape \(3,\)"),
        (lambda: R.uniform(R.key(0), nbt.tensor([0.0, 1.0]), shape=(3,)), "does not broadcast to shape"),
    ],
)
def test_errors_name_the_function_and_the_problem(call, message):
    with pytest.raises(nbt.ArgumentError, match=message):
        call()


@pytest.mark.parametrize("path", PATHS)
def test_no_gradient_flows_through_a_draw_as_nxs_stop_grad(path):
    # Nx ends every sampler with stop_grad: the gradient with respect to the bounds, the
    # mean or the deviation is 0; a shuffled or chosen tensor still passes its gradient on.
    draws = [
        lambda x: R.uniform(R.key(1), x, 2.0 + x, shape=(3,))[0],
        lambda x: R.normal(R.key(1), x, 1.0 + x, shape=(3,), type="c64")[0],
        lambda x: R.normal_split(R.key(1), x, 2.0, shape=(3,)),
        lambda x: R.multivariate_normal(R.key(1), nbt.stack([x, x]), nbt.tensor([[1.0, 0.0], [0.0, 1.0]]))[0],
        lambda x: R.uniform(nbt.vectorize(R.split(R.key(1)), "k"), x, 2.0, shape=(2,))[0],
    ]
    backend = nbt.XLABackend() if path in ("xla", "jit") else nbt.NumPyBackend()
    with nbt.default_backend(backend):
        for draw in draws:

            def loss(x, draw=draw):
                return nbt.sum(nbt.abs(draw(x)))

            grad = {"jit": nbt.jit, "evaluator": lambda f: nbt.defn(f, compiler="evaluator")}.get(path, lambda f: f)(
                nbt.grad(loss)
            )
            # A vectorized draw (the last) gives a vectorized result: as in Nx, each of its
            # instances gets its own gradient, so the gradient is vectorized too.
            assert not nbt.devectorize(grad(nbt.tensor(0.5))).to_numpy().any()
        shuffled = nbt.grad(lambda x: nbt.sum(R.shuffle(R.key(1), x * nbt.tensor([1.0, 2.0, 3.0]))[0]))
        assert nbt.to_number(shuffled(nbt.tensor(0.5))) == 6.0


@pytest.mark.parametrize("type_", ["f32", "f16", "bf16", "f8", "f8_e4m3fn"])
def test_normal_draws_libms_numbers_for_every_uniform_of_32_bits_or_fewer(type_):
    # normal's erf_inv takes its log with fdlibm's algorithm in lax ops for these types (a
    # vectorized log, where XLA's CPU log of f64 is libm's, one element at a time). Over
    # every uniform such a draw can make (all 2**23 for f32), the normals are libm's.
    real = parse(type_)
    mantissa = _threefry._MANTISSA[(real.kind, real.bits)]
    with jax.enable_x64(True):
        drawn = jax.numpy.arange(2**mantissa, dtype=jax.numpy.uint32)
        unsigned = {8: jax.numpy.uint8, 16: jax.numpy.uint16, 32: jax.numpy.uint32}[real.bits]

        def normals(log):
            def draw(bits):
                one = jax.numpy.asarray(1, real.dtype)
                raw = bits.astype(unsigned) | jax.lax.bitcast_convert_type(one, unsigned)
                unit = jax.lax.bitcast_convert_type(raw, real.dtype) - one
                low = jax.numpy.asarray(_threefry._next_after_minus_1(real), real.dtype)
                u = jax.numpy.maximum(unit * (one - low) + low, low)
                return _threefry._in_f64(lambda z: _threefry._erf_inv(z, log=log), u)

            return np.asarray(jax.jit(draw)(drawn)).view(f"u{real.bits // 8}")

        fast, libm = normals(_threefry._log), normals(jax.numpy.log)
    assert fast.size == 2**mantissa and (fast == libm).all()


def test_the_vectorized_log_is_within_an_ulp_of_libms():
    values = np.concatenate([np.geomspace(1e-300, 1e300, 100_001), np.linspace(0.5, 2.0, 100_001), [0.0, 1.0]])
    with jax.enable_x64(True):
        ours = np.asarray(jax.jit(_threefry._log)(jax.numpy.asarray(values)))
    libm = np.log(values[:-2])
    assert ours[-2] == -np.inf and ours[-1] == 0.0
    assert (np.abs(ours[:-2] - libm) <= np.spacing(np.abs(libm))).all()
