"""Aggregates, cumulative, window, shape, indexing and sorting ops against NumPy, on both
backends and inside defn (one table: each case builds the same call for numbat and NumPy)."""

import numpy as np
import pytest

import numbat as nbt

RNG = np.random.default_rng(0)
X = RNG.normal(size=(3, 4)).astype(np.float32)
I = RNG.integers(-5, 5, size=(3, 4)).astype(np.int32)


def _median(x, axis):
    return np.median(x, axis=axis)


# name: (numbat function of the tensor, NumPy function of the array, input)
CASES = {
    "product": (lambda t: nbt.product(t, axes=[1]), lambda a: np.prod(a, axis=1), I),
    "all": (lambda t: nbt.all(t, axes=[0]), lambda a: np.all(a != 0, axis=0).astype(np.uint8), I),
    "any": (lambda t: nbt.any(t), lambda a: np.uint8(np.any(a != 0)), I),
    "variance": (
        lambda t: nbt.variance(t, axes=[1], ddof=1),
        lambda a: np.var(a.astype(np.float64), axis=1, ddof=1),
        X,
    ),
    "standard_deviation": (lambda t: nbt.standard_deviation(t), lambda a: np.std(a.astype(np.float64)), X),
    "logsumexp": (
        lambda t: nbt.logsumexp(t, axes=[0]),
        lambda a: np.log(np.exp(a.astype(np.float64)).sum(axis=0)),
        X,
    ),
    "median_odd": (lambda t: nbt.median(t, axis=0), lambda a: np.median(a, axis=0), X),
    "median_even": (lambda t: nbt.median(t, axis=1), lambda a: np.median(a, axis=1), X),
    "cumulative_sum": (lambda t: nbt.cumulative_sum(t, axis=1), lambda a: np.cumsum(a, axis=1), I),
    "cumulative_product_reverse": (
        lambda t: nbt.cumulative_product(t, axis=0, reverse=True),
        lambda a: np.flip(np.cumprod(np.flip(a, 0), axis=0), 0),
        I,
    ),
    "cumulative_max": (lambda t: nbt.cumulative_max(t, axis=1), lambda a: np.maximum.accumulate(a, axis=1), X),
    "cumulative_min": (lambda t: nbt.cumulative_min(t, axis=0), lambda a: np.minimum.accumulate(a, axis=0), X),
    "window_sum": (
        lambda t: nbt.window_sum(t, (2, 2)),
        lambda a: a[:-1, :-1] + a[1:, :-1] + a[:-1, 1:] + a[1:, 1:],
        I,
    ),
    "window_max_strided": (
        lambda t: nbt.window_max(t, (1, 2), strides=(1, 2)),
        lambda a: np.maximum(a[:, 0::2], a[:, 1::2]),
        X,
    ),
    "window_mean_same": (
        lambda t: nbt.window_mean(t, (1, 3), padding="same"),
        lambda a: np.stack([np.convolve(row, np.ones(3) / 3, mode="same") for row in a.astype(np.float64)]),
        X,
    ),
    "squeeze": (lambda t: nbt.squeeze(nbt.new_axis(t, 0)), lambda a: a, X),
    "flatten": (lambda t: nbt.flatten(t), lambda a: a.reshape(-1), X),
    "pad": (
        lambda t: nbt.pad(t, 0, [(1, -1, 1), (0, 2, 0)]),
        lambda a: np.pad(np.insert(a, [1, 2], 0, axis=0), [(1, 0), (0, 2)])[:-1],
        I,
    ),
    "tile": (lambda t: nbt.tile(t, [2, 1, 3]), lambda a: np.tile(a, (2, 1, 3)), I),
    "concatenate": (lambda t: nbt.concatenate([t, t * 2], axis=1), lambda a: np.concatenate([a, a * 2], axis=1), I),
    "stack": (lambda t: nbt.stack([t, t + 1], axis=1), lambda a: np.stack([a, a + 1], axis=1), I),
    "reverse": (lambda t: nbt.reverse(t, axes=[0, 1]), lambda a: a[::-1, ::-1], X),
    "slice": (lambda t: nbt.slice(t, [1, 3], [2, 2]), lambda a: a[1:3, 2:4], X),
    "slice_strided": (lambda t: nbt.slice(t, [0, 0], [3, 4], strides=[2, 3]), lambda a: a[::2, ::3], X),
    "put_slice": (
        lambda t: nbt.put_slice(t, [2, 1], nbt.tensor(np.ones((2, 2), np.int32))),
        lambda a: np.concatenate([a[:1], np.concatenate([a[1:, :1], np.ones((2, 2), np.int32), a[1:, 3:]], 1)]),
        I,
    ),
    "take": (lambda t: nbt.take(t, nbt.tensor([3, 0, 3]), axis=1), lambda a: a[:, [3, 0, 3]], X),
    "gather": (lambda t: nbt.gather(t, nbt.tensor([[2, 1], [0, 3]])), lambda a: a[[2, 0], [1, 3]], X),
    "indexed_add": (
        lambda t: nbt.indexed_add(t, nbt.tensor([[0, 0], [0, 0], [2, 3]]), nbt.tensor([1, 1, 5])),
        lambda a: a + np.array([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 5]], np.int32),
        I,
    ),
    "sort": (lambda t: nbt.sort(t, axis=1), lambda a: np.sort(a, axis=1), X),
    "sort_desc": (lambda t: nbt.sort(t, axis=0, direction="desc"), lambda a: -np.sort(-a, axis=0), I),
    "argsort": (lambda t: nbt.argsort(t, axis=1), lambda a: np.argsort(a, axis=1, stable=True), I),
    "getitem": (lambda t: t[{"y": slice(1, 3)}][..., -1], lambda a: a[:, 1:3][..., -1], X),
    "tensor_index": (lambda t: t[nbt.tensor([2, 0])], lambda a: a[[2, 0]], X),
}


@pytest.mark.parametrize("mode", ["numpy", "xla", "defn"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_numpy(case, mode):
    fun, reference, array = CASES[case]
    expected = reference(array.copy())
    if mode == "defn":
        out = nbt.jit(fun)(nbt.tensor(array, names=["x", "y"]))
    else:
        with nbt.default_backend(nbt.NumPyBackend() if mode == "numpy" else nbt.XLABackend()):
            out = fun(nbt.tensor(array, names=["x", "y"]))
    np.testing.assert_allclose(out.to_numpy(), expected, rtol=1e-5, atol=1e-6)


def test_names_travel_through_shape_ops():
    t = nbt.iota((2, 3), names=["x", "y"])
    assert nbt.new_axis(t, 1, "z").names == ("x", "z", "y")
    assert nbt.concatenate([t, t], axis="y").names == ("x", "y")
    assert nbt.sum(nbt.stack([t, t], name="pair"), axes=["pair"]).names == ("x", "y")
    assert nbt.take(t, nbt.tensor([0, 0]), axis="y").names == ("x", "y")  # Nx keeps the taken axis' name
    assert t[{"x": 0}].names == ("y",)


def test_sort_puts_nan_last_ascending_and_first_descending(backend):
    t = nbt.tensor([2.0, float("nan"), 1.0])
    assert np.isnan(nbt.sort(t).to_numpy()[-1]) and np.isnan(nbt.sort(t, direction="desc").to_numpy()[0])


def test_slice_clamps_tensor_starts_at_run_time():
    fun = nbt.jit(lambda t, start: nbt.slice(t, [start], [2]))
    assert fun(nbt.iota((5,)), nbt.tensor(4)).to_numpy().tolist() == [3, 4]
    assert fun(nbt.iota((5,)), nbt.tensor(1)).to_numpy().tolist() == [1, 2]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: nbt.squeeze(nbt.iota((2, 3)), axes=[0]), "axis 0 has size 2, not 1"),
        (lambda: nbt.concatenate([nbt.iota((2, 3)), nbt.iota((3, 3))], axis=1), "does not match"),
        (lambda: nbt.sum(nbt.iota((2,), names=["x"]), axes=["z"]), "unknown axis name 'z'"),
        (lambda: nbt.slice(nbt.iota((3,)), [0], [4]), "does not fit axis 0 of size 3"),
        (lambda: nbt.sort(nbt.iota((3,)), direction="up"), 'direction must be "asc" or "desc"'),
        (lambda: nbt.take(nbt.iota((3,)), nbt.tensor([0.5])), "indices must be integers"),
        (lambda: nbt.window_sum(nbt.iota((3,)), (4,)), "does not fit"),
        (lambda: nbt.pad(nbt.iota((3,)), 0, [(1, 1)]), "config must be 1"),
        (lambda: nbt.iota((2, 3), names=["x", "y"])[{"z": 0}], "unknown axis name 'z'"),
        (lambda: nbt.top_k(nbt.iota((3,)), k=5), "top_k: k must be between 1"),
        (lambda: nbt.split(nbt.iota((5,)), 5), "between 1 and 4"),
    ],
)
def test_bad_input_names_the_problem(call, message):
    with pytest.raises(nbt.ArgumentError, match=message):
        call()


@pytest.mark.parametrize("path", ["eager", "jit"])
def test_a_comparison_mask_as_an_index_raises_instead_of_taking_positions(path):
    # Nx's t[tensor] is take: x[x > 0] would silently take positions 0 and 1 ([-2, 1, -2]); numbat has no
    # boolean masks, so a u8 index of the tensor's own shape raises and points at select
    x = nbt.tensor([1, -2, 3])
    fun = (lambda x: x[x > 0]) if path == "eager" else nbt.jit(lambda x: x[x > 0])
    with pytest.raises(nbt.ArgumentError, match=r"boolean masks are not supported.*nbt\.select"):
        fun(x)
    assert nbt.to_list(nbt.select(x > 0, x, 0)) == [1, 0, 3]
    assert nbt.to_list(x[nbt.tensor([0, 1], type="u8")]) == [1, -2]  # a u8 index of another shape still takes
