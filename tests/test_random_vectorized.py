"""Vectorized keys (and other vectorized operands) in `nbt.random`, as in Nx: a function
given a key vectorized with `nbt.vectorize` runs once per key and its results are
vectorized over the key's axes, each entry the numbers of the call with that entry's key.
The next key a sampler returns is vectorized as its key is. On every path: eager on the
NumPy and XLA backends, inside `nbt.jit`, and in the evaluator compiler.
"""

import functools

import numpy as np
import pytest

import numbat as nbt

R = nbt.random
PATHS = ["numpy", "xla", "jit", "evaluator"]

MEAN, COVARIANCE = [1.0, -1.0], [[2.0, 0.5], [0.5, 1.0]]

# (id, function of a key): every function of Nx.Random that takes a key.
CALLS = [
    ("split", lambda k: R.split(k)),
    ("split_parts", lambda k: R.split(k, parts=3)),
    ("fold_in", lambda k: R.fold_in(k, 99)),
    ("fold_in_tensor", lambda k: R.fold_in(k, nbt.tensor([[1, 99], [1234, 13]]))),
    ("uniform", lambda k: R.uniform(k, shape=(2, 3))),
    ("uniform_f64_bounds", lambda k: R.uniform(k, -1, 2, shape=(3,), type="f64")),
    ("uniform_c64", lambda k: R.uniform(k, shape=(2,), type="c64")),
    ("uniform_split", lambda k: R.uniform_split(k, shape=(3,), type="bf16")),
    ("normal", lambda k: R.normal(k, shape=(4,))),
    ("normal_f16", lambda k: R.normal(k, 10, 5, shape=(2, 2), type="f16")),
    ("normal_c64", lambda k: R.normal(k, shape=(2,), type="c64")),
    ("normal_split", lambda k: R.normal_split(k, shape=(3,), type="f64")),
    ("randint", lambda k: R.randint(k, 1, 100, shape=(5,))),
    ("randint_s64", lambda k: R.randint(k, -5, 5, shape=(3,), type="s64")),
    ("randint_split", lambda k: R.randint_split(k, 0, 7, shape=(2,), type="u8")),
    ("gumbel", lambda k: R.gumbel(k, shape=(3,))),
    ("gumbel_split", lambda k: R.gumbel_split(k, shape=(2,), type="f64")),
    ("multivariate_normal", lambda k: R.multivariate_normal(k, nbt.tensor(MEAN), nbt.tensor(COVARIANCE), shape=(3,))),
    (
        "multivariate_normal_svd",
        lambda k: R.multivariate_normal(k, nbt.tensor(MEAN), nbt.tensor(COVARIANCE), method="svd"),
    ),
    (
        "multivariate_normal_split",
        lambda k: R.multivariate_normal_split(k, nbt.tensor(MEAN), nbt.tensor(COVARIANCE), method="eigh"),
    ),
    ("shuffle", lambda k: R.shuffle(k, nbt.iota((4, 3)))),
    ("shuffle_independent", lambda k: R.shuffle(k, nbt.iota((3, 5)), axis=1, independent=True)),
    ("choice", lambda k: R.choice(k, nbt.iota((4, 3)), samples=3, axis=0)),
    ("choice_no_replace", lambda k: R.choice(k, nbt.iota((3, 2)), samples=6, replace=False)),
    ("choice_p", lambda k: R.choice(k, nbt.iota((4, 3)), nbt.tensor([0.1, 0.7, 0.2]), samples=3, axis=1)),
    (
        "choice_p_no_replace",
        lambda k: R.choice(k, nbt.iota((6,)), nbt.tensor([0.01, 0.1, 0.19, 0.6, 0.05, 0.05]), samples=4, replace=False),
    ),
]

# The keys' vectorized axes: one axis, and two.
LAYOUTS = {"x": [("x", 3)], "xy": [("x", 2), ("y", 3)]}


def _keys(layout):
    """u32 keys of the layout's sizes (plain NumPy), and the vectorized key tensor."""
    sizes = tuple(size for _, size in LAYOUTS[layout])
    keys = R.split(R.key(1701), parts=int(np.prod(sizes))).to_numpy().reshape(sizes + (2,))
    return keys, [name for name, _ in LAYOUTS[layout]]


def _as_list(result):
    return list(result) if isinstance(result, tuple) else [result]


def _run(path, fun, keys, names):
    backend = nbt.XLABackend() if path in ("xla", "jit") else nbt.NumPyBackend()
    with nbt.default_backend(backend):
        key = nbt.vectorize(nbt.tensor(keys, type="u32"), names)
        if path == "jit":
            return _as_list(nbt.jit(fun)(key))
        if path == "evaluator":
            return _as_list(nbt.defn(fun, compiler="evaluator")(key))
        return _as_list(fun(key))


@functools.cache
def _per_key(name, layout):
    """Each result of the call `name`, per key entry of the layout (plain keys, NumPy
    backend), stacked: computed once for the four paths."""
    fun = dict(CALLS)[name]
    keys, _ = _keys(layout)
    with nbt.default_backend(nbt.NumPyBackend()):
        sizes = keys.shape[:-1]
        entries = [_as_list(fun(nbt.tensor(keys[index], type="u32"))) for index in np.ndindex(*sizes)]
    stacked = []
    for position, first in enumerate(entries[0]):
        values = np.stack([entry[position].to_numpy() for entry in entries]).reshape(sizes + first.shape)
        stacked.append((str(first.type), first.shape, first.names, values))
    return stacked


# Two vectorized axes on every path; one axis (the simpler layout) on the NumPy backend.
LAYOUT_PATHS = [("xy", path) for path in PATHS] + [("x", "numpy")]


@pytest.mark.parametrize("layout, path", LAYOUT_PATHS, ids=[f"{layout}-{path}" for layout, path in LAYOUT_PATHS])
@pytest.mark.parametrize("name, fun", CALLS, ids=[name for name, _ in CALLS])
def test_a_vectorized_key_draws_once_per_key(name, fun, layout, path):
    keys, names = _keys(layout)
    results = _run(path, fun, keys, names)
    expected = _per_key(name, layout)
    assert len(results) == len(expected)
    for result, (type_, shape, inner_names, values) in zip(results, expected):
        assert result.vectorized_axes == tuple(LAYOUTS[layout])  # samples and next keys alike
        assert (str(result.type), result.shape, result.names) == (type_, shape, inner_names)
        drawn = nbt.devectorize(result).to_numpy()
        assert drawn.dtype == values.dtype and drawn.tobytes() == values.tobytes(), name


def test_every_function_that_takes_a_key_is_covered():
    assert set(R.__all__) - {"key"} <= {name for name, _ in CALLS}


def test_the_sample_of_a_vectorized_key_is_nxs_for_each_entry():
    # Nx's doctests, one per key entry: uniform with key(1701) and with key(12), normal with key(42).
    keys = nbt.vectorize(nbt.stack([R.key(1701), R.key(12)]), "k")
    sample, next_key = R.uniform(keys)
    assert str(sample) == "numbat.Tensor<\n  vectorized[k: 2]\n  f32\n  [0.9728644, 0.7691127]\n>"
    assert nbt.devectorize(next_key).to_numpy().tolist() == [
        R.split(R.key(1701)).to_numpy()[0].tolist(),
        R.split(R.key(12)).to_numpy()[0].tolist(),
    ]
    normal, _ = R.normal(nbt.vectorize(nbt.stack([R.key(42), R.key(42)]), "k"))
    assert str(normal) == "numbat.Tensor<\n  vectorized[k: 2]\n  f32\n  [1.3694695, 1.3694695]\n>"


@pytest.mark.parametrize("path", PATHS)
def test_a_vectorized_seed_gives_vectorized_keys(path):
    seeds = np.asarray([12, 999999999999, -1], np.int64)

    def fun(seed):
        return R.key(seed)

    backend = nbt.XLABackend() if path in ("xla", "jit") else nbt.NumPyBackend()
    with nbt.default_backend(backend):
        seed = nbt.vectorize(nbt.tensor(seeds, type="s64"), "s")
        key = {"jit": nbt.jit(fun), "evaluator": nbt.defn(fun, compiler="evaluator")}.get(path, fun)(seed)
    assert key.vectorized_axes == (("s", 3),) and key.shape == (2,)
    assert nbt.devectorize(key).to_numpy().tolist() == [[0, 12], [232, 3567587327], [2**32 - 1, 2**32 - 1]]


@pytest.mark.parametrize("path", PATHS)
def test_other_vectorized_operands_draw_once_per_entry_with_a_plain_key(path):
    backend = nbt.XLABackend() if path in ("xla", "jit") else nbt.NumPyBackend()

    def fun(key, low, data, tensor):
        sample, next_key = R.uniform(key, low, 10.0, shape=(2,))
        return sample, next_key, R.fold_in(key, data), R.shuffle(key, tensor)[0]

    with nbt.default_backend(backend):
        args = (
            R.key(3),
            nbt.vectorize(nbt.tensor([0.0, 5.0, 9.0]), "m"),
            nbt.vectorize(nbt.tensor([1, 2], type="s64"), "d"),
            nbt.vectorize(nbt.iota((2, 3)), "t"),
        )
        run = {"jit": nbt.jit(fun), "evaluator": nbt.defn(fun, compiler="evaluator")}.get(path, fun)
        sample, next_key, folded, shuffled = run(*args)
    assert sample.vectorized_axes == (("m", 3),) and next_key.vectorized_axes == ()  # the key is plain
    assert next_key.to_numpy().tolist() == R.split(R.key(3)).to_numpy()[0].tolist()
    for i, low in enumerate([0.0, 5.0, 9.0]):
        expected = R.uniform(R.key(3), low, 10.0, shape=(2,))[0].to_numpy()
        assert nbt.devectorize(sample).to_numpy()[i].tobytes() == expected.tobytes()
    assert nbt.devectorize(folded).to_numpy().tolist() == [R.fold_in(R.key(3), d).to_numpy().tolist() for d in (1, 2)]
    order = R.shuffle(R.key(3), nbt.iota((3,)))[0].to_numpy()
    assert nbt.devectorize(shuffled).to_numpy().tolist() == [(np.arange(3) + 3 * row)[order].tolist() for row in (0, 1)]


def test_a_key_and_an_operand_vectorized_alike_draw_entry_by_entry():
    keys = nbt.vectorize(R.split(R.key(5), parts=2), "x")
    means = nbt.vectorize(nbt.tensor([[0.0, 100.0], [1.0, 2.0]]), "x")
    sample, next_key = R.normal(keys, means, 1.0, shape=(2,))
    assert sample.vectorized_axes == (("x", 2),) and next_key.vectorized_axes == (("x", 2),)
    for i in range(2):
        plain = R.normal(R.split(R.key(5), parts=2)[i], nbt.tensor([[0.0, 100.0], [1.0, 2.0]])[i], 1.0, shape=(2,))
        assert nbt.devectorize(sample).to_numpy()[i].tobytes() == plain[0].to_numpy().tobytes()


def test_a_key_keeps_its_own_size_1_axis():
    key = nbt.vectorize(nbt.reshape(R.key(5), (1, 2)), "x")
    low = nbt.vectorize(nbt.tensor([0.0, 1.0, 2.0]), "x")
    sample, next_key = R.uniform(key, low, 3.0)
    assert sample.vectorized_axes == (("x", 3),)
    assert next_key.vectorized_axes == (("x", 1),)
    assert nbt.devectorize(next_key).to_numpy().tolist() == [R.split(R.key(5)).to_numpy()[0].tolist()]


def test_vectorized_axes_without_one_order_are_refused():
    # Nx's order of a key's and an operand's different vectorized axes depends on the
    # order its arithmetic meets them in (for normal, the deviation's axes come first):
    # numbat refuses rather than guess; broadcast_vectors gives them one order.
    key = nbt.vectorize(R.split(R.key(5), parts=2), "x")
    deviation = nbt.vectorize(nbt.tensor([1.0, 2.0, 3.0]), "y")
    with pytest.raises(nbt.ArgumentError, match=r"random.normal: the vectorized axes .* have no one order"):
        R.normal(key, 0.0, deviation)
    key, deviation = nbt.broadcast_vectors([key, deviation])
    sample, next_key = R.normal(key, 0.0, deviation)
    assert sample.vectorized_axes == (("x", 2), ("y", 3)) == next_key.vectorized_axes


def test_a_vectorized_key_is_still_checked_to_be_a_key():
    with pytest.raises(nbt.ArgumentError, match=r"a key is a u32\[2\] tensor"):
        R.split(nbt.vectorize(nbt.tensor([[1, 2, 3]], type="u32"), "x"))


@pytest.mark.parametrize("type_", ["f8_e4m3fn", "f8", "bf16", "f16"])
def test_multivariate_normal_of_small_floats_factors_in_f32_on_every_path(type_):
    # The covariance's factor is computed in f32 and rounded to the type (JAX refuses to promote 8-bit floats).
    mean, cov = nbt.tensor([0.0, 1.0], type=type_), nbt.tensor([[1.0, 0.0], [0.0, 4.0]], type=type_)
    results = []
    for backend in (nbt.NumPyBackend(), nbt.XLABackend()):
        with nbt.default_backend(backend):
            results.append(nbt.random.multivariate_normal(nbt.random.key(7), mean, cov, shape=(3,))[0])
    results.append(
        nbt.jit(lambda m, c: nbt.random.multivariate_normal(nbt.random.key(7), m, c, shape=(3,))[0])(mean, cov)
    )
    for result in results:
        assert str(result.type) == type_ and result.shape == (3, 2)
        np.testing.assert_array_equal(result.to_numpy().astype(np.float32), results[0].to_numpy().astype(np.float32))
    assert np.isfinite(results[0].to_numpy().astype(np.float32)).all()
