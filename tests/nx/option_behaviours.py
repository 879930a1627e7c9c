"""The sample of Nx options whose meaning test_nx_options.py checks (`test_honours`): each
check calls the op with the option and asserts the effect Nx documents, so that an option
accepted and ignored fails. Checks are cheap eager calls; the test runs them on the NumPy
backend. `BEHAVIOURS` maps "Nx.function:option" to its check.
"""

from __future__ import annotations

import numpy as np
import pytest

import numbat as nbt

BEHAVIOURS = {}


def behaviour(function: str, option: str):
    def register(check):
        BEHAVIOURS[f"{function}:{option}"] = check
        return check

    return register


def as_lists(tensor):
    """The tensor's values as nested lists (a number for a scalar)."""
    return np.asarray(tensor).tolist()


def _summary(tensor):
    return str(tensor.type), tensor.shape, tensor.names, as_lists(tensor)


@behaviour("Nx.argmax", "type")
def _():
    assert str(nbt.argmax(nbt.tensor([1, 3, 2]), type="s64").type) == "s64"


@behaviour("Nx.argmax", "tie_break")
def _():
    t = nbt.tensor([3, 1, 3])
    assert as_lists(nbt.argmax(t)) == 0
    assert as_lists(nbt.argmax(t, tie_break="high")) == 2


@behaviour("Nx.argmin", "keep_axis")
def _():
    assert nbt.argmin(nbt.tensor([[1, 0], [0, 1]]), axis=1, keep_axis=True).shape == (2, 1)


@behaviour("Nx.argsort", "direction")
def _():
    assert as_lists(nbt.argsort(nbt.tensor([2, 3, 1]), direction="desc")) == [1, 0, 2]


@behaviour("Nx.argsort", "stable")
def _():
    assert as_lists(nbt.argsort(nbt.tensor([1, 0, 1, 0]), stable=True)) == [1, 3, 0, 2]
    assert as_lists(nbt.argsort(nbt.tensor([1, 0, 1, 0]), direction="desc", stable=True)) == [0, 2, 1, 3]


@behaviour("Nx.argsort", "type")
def _():
    assert str(nbt.argsort(nbt.tensor([2, 1]), type="u8").type) == "u8"


@behaviour("Nx.sort", "direction")
def _():
    assert as_lists(nbt.sort(nbt.tensor([0, 127, -128, 5], type="s8"), direction="desc")) == [127, 5, 0, -128]


@behaviour("Nx.cumulative_sum", "reverse")
def _():
    assert as_lists(nbt.cumulative_sum(nbt.tensor([1, 2, 3]), reverse=True)) == [6, 5, 3]


@behaviour("Nx.diff", "order")
def _():
    assert as_lists(nbt.diff(nbt.tensor([1, 3, 6, 10]), order=2)) == [1, 1]


@behaviour("Nx.fill", "type")
def _():
    assert str(nbt.fill(nbt.tensor([1, 2]), 5, type="f64").type) == "f64"


@behaviour("Nx.iota", "type")
def _():
    assert _summary(nbt.iota((3,), type="u8")) == ("u8", (3,), (None,), [0, 1, 2])


@behaviour("Nx.iota", "axis")
def _():
    assert as_lists(nbt.iota((2, 2), axis=1)) == [[0, 1], [0, 1]]


@behaviour("Nx.iota", "names")
def _():
    assert nbt.iota((2,), names=["x"]).names == ("x",)


@behaviour("Nx.iota", "backend")
def _():
    assert isinstance(nbt.iota((2,), backend=nbt.NumPyBackend()).backend, nbt.NumPyBackend)


@behaviour("Nx.iota", "vectorized_axes")
def _():
    t = nbt.iota((2,), vectorized_axes=[("v", 3)])
    assert t.shape == (2,)
    assert nbt.devectorize(t).shape == (3, 2)


@behaviour("Nx.eye", "type")
def _():
    assert _summary(nbt.eye(2, type="f32")) == ("f32", (2, 2), (None, None), [[1.0, 0.0], [0.0, 1.0]])


@behaviour("Nx.linspace", "type")
def _():
    assert str(nbt.linspace(0, 1, n=3, type="f64").type) == "f64"


@behaviour("Nx.linspace", "endpoint")
def _():
    assert as_lists(nbt.linspace(0, 1, n=4, endpoint=False)) == [0.0, 0.25, 0.5, 0.75]


@behaviour("Nx.linspace", "name")
def _():
    assert nbt.linspace(0, 1, n=2, name="x").names == ("x",)


@behaviour("Nx.logsumexp", "exp_scaling_factor")
def _():
    got = as_lists(nbt.logsumexp(nbt.tensor([0.0, 0.0]), exp_scaling_factor=nbt.tensor([1.0, 3.0])))
    assert got == pytest.approx(np.log(4.0), rel=1e-6)


@behaviour("Nx.all_close", "equal_nan")
def _():
    nan = nbt.tensor([float("nan")])
    assert as_lists(nbt.all_close(nan, nan)) == 0
    assert as_lists(nbt.all_close(nan, nan, equal_nan=True)) == 1


@behaviour("Nx.all_close", "atol")
def _():
    assert as_lists(nbt.all_close(nbt.tensor([1.0]), nbt.tensor([1.1]), atol=0.2)) == 1


@behaviour("Nx.all_close", "rtol")
def _():
    assert as_lists(nbt.all_close(nbt.tensor([100.0]), nbt.tensor([110.0]), rtol=0.2)) == 1


@behaviour("Nx.covariance", "ddof")
def _():
    t = nbt.tensor([[1.0], [3.0]])
    assert as_lists(nbt.covariance(t)) == [[1.0]]
    assert as_lists(nbt.covariance(t, ddof=1)) == [[2.0]]


@behaviour("Nx.standard_deviation", "ddof")
def _():
    assert as_lists(nbt.standard_deviation(nbt.tensor([1.0, 3.0]), ddof=1)) == pytest.approx(np.sqrt(2.0), rel=1e-6)


@behaviour("Nx.variance", "ddof")
def _():
    assert as_lists(nbt.variance(nbt.tensor([1.0, 3.0]), ddof=1)) == 2.0


@behaviour("Nx.mean", "keep_axes")
def _():
    assert nbt.mean(nbt.tensor([[1.0, 2.0]]), axes=[1], keep_axes=True).shape == (1, 1)


@behaviour("Nx.sum", "axes")
def _():
    assert as_lists(nbt.sum(nbt.tensor([[1, 2], [3, 4]]), axes=[0])) == [4, 6]


@behaviour("Nx.median", "keep_axis")
def _():
    assert nbt.median(nbt.tensor([[1, 2, 3]]), axis=1, keep_axis=True).shape == (1, 1)


@behaviour("Nx.mode", "keep_axis")
def _():
    assert nbt.mode(nbt.tensor([[1, 2, 2]]), axis=1, keep_axis=True).shape == (1, 1)


@behaviour("Nx.reduce", "type")
def _():
    assert str(nbt.reduce(nbt.tensor([1, 2]), 0, nbt.add, type="f32").type) == "f32"


@behaviour("Nx.reshape", "names")
def _():
    assert nbt.reshape(nbt.tensor([1, 2]), (1, 2), names=["a", "b"]).names == ("a", "b")


@behaviour("Nx.broadcast", "axes")
def _():
    assert as_lists(nbt.broadcast(nbt.tensor([1, 2]), (2, 2), axes=[0])) == [[1, 1], [2, 2]]


@behaviour("Nx.tensor", "type")
def _():
    assert _summary(nbt.tensor([1, 2], type="f16")) == ("f16", (2,), (None,), [1.0, 2.0])


@behaviour("Nx.tensor", "backend")
def _():
    assert isinstance(nbt.tensor([1], backend=nbt.NumPyBackend()).backend, nbt.NumPyBackend)


@behaviour("Nx.to_flat_list", "limit")
def _():
    assert nbt.to_flat_list(nbt.tensor([1, 2, 3]), limit=2) == [1, 2]


@behaviour("Nx.to_binary", "limit")
def _():
    assert len(nbt.to_binary(nbt.tensor([1, 2, 3]), limit=2)) == 8


@behaviour("Nx.to_batched", "leftover")
def _():
    assert len(list(nbt.to_batched(nbt.iota((5,)), 2, leftover="discard"))) == 2


@behaviour("Nx.top_k", "k")
def _():
    values, _ = nbt.top_k(nbt.tensor([1, 3, 2]), k=2)
    assert as_lists(values) == [3, 2]


@behaviour("Nx.triu", "k")
def _():
    assert as_lists(nbt.triu(nbt.tensor([[1, 2], [3, 4]]), k=1)) == [[0, 2], [0, 0]]


@behaviour("Nx.take_diagonal", "offset")
def _():
    assert as_lists(nbt.take_diagonal(nbt.tensor([[1, 2], [3, 4]]), offset=1)) == [2]


@behaviour("Nx.make_diagonal", "offset")
def _():
    assert nbt.make_diagonal(nbt.tensor([1, 2]), offset=1).shape == (3, 3)


@behaviour("Nx.slice", "strides")
def _():
    assert as_lists(nbt.slice(nbt.iota((5,)), [0], [5], strides=2)) == [0, 2, 4]


@behaviour("Nx.stack", "name")
def _():
    assert nbt.stack([nbt.tensor([1]), nbt.tensor([2])], name="s").names == ("s", None)


@behaviour("Nx.fft", "length")
def _():
    assert nbt.fft(nbt.tensor([1.0, 2.0]), length=4).shape == (4,)


@behaviour("Nx.fft", "eps")
def _():
    # Nx's binary backend: parts with |x| <= eps become 0, so fft([1, 0.999]) = [1.999, 0.001] -> [1.999, 0].
    got = as_lists(nbt.fft(nbt.tensor([1.0, 0.999]), eps=0.01))
    assert got[1] == 0


@behaviour("Nx.window_sum", "strides")
def _():
    assert as_lists(nbt.window_sum(nbt.iota((4,)), (2,), strides=2)) == [1, 5]


@behaviour("Nx.window_sum", "padding")
def _():
    assert as_lists(nbt.window_sum(nbt.iota((3,)), (2,), padding="same")) == [1, 3, 2]


@behaviour("Nx.window_sum", "window_dilations")
def _():
    assert as_lists(nbt.window_sum(nbt.iota((4,)), (2,), window_dilations=2)) == [2, 4]


@behaviour("Nx.conv", "padding")
def _():
    assert nbt.conv(nbt.iota((1, 1, 4), type="f32"), nbt.tensor([[[1.0, 1.0]]]), padding="same").shape == (1, 1, 4)


@behaviour("Nx.conv", "strides")
def _():
    assert nbt.conv(nbt.iota((1, 1, 4), type="f32"), nbt.tensor([[[1.0, 1.0]]]), strides=2).shape == (1, 1, 2)


@behaviour("Nx.devectorize", "keep_names")
def _():
    t = nbt.vectorize(nbt.tensor([[1, 2]]), "v")
    assert nbt.devectorize(t).names == ("v", None)
    assert nbt.devectorize(t, keep_names=False).names == (None, None)


@behaviour("Nx.take", "axis")
def _():
    assert as_lists(nbt.take(nbt.tensor([[1, 2], [3, 4]]), nbt.tensor([1]), axis=1)) == [[2], [4]]


@behaviour("Nx.LinAlg.norm", "ord")
def _():
    assert as_lists(nbt.linalg.norm(nbt.tensor([3.0, -4.0]), ord=1)) == 7.0


@behaviour("Nx.LinAlg.norm", "keep_axes")
def _():
    assert nbt.linalg.norm(nbt.tensor([[3.0, 4.0]]), axes=[1], keep_axes=True).shape == (1, 1)


@behaviour("Nx.LinAlg.pinv", "eps")
def _():
    # Singular values <= eps count as zero: pinv(diag(1, 0.001)) is diag(1, 1000), or diag(1, 0) with eps=0.01.
    t = nbt.tensor([[1.0, 0.0], [0.0, 0.001]])
    assert as_lists(nbt.linalg.pinv(t))[1][1] == pytest.approx(1000.0)
    assert as_lists(nbt.linalg.pinv(t, eps=0.01)) == [[1.0, 0.0], [0.0, 0.0]]


@behaviour("Nx.LinAlg.matrix_rank", "eps")
def _():
    t = nbt.tensor([[1.0, 0.0], [0.0, 0.001]])
    assert as_lists(nbt.linalg.matrix_rank(t)) == 2
    assert as_lists(nbt.linalg.matrix_rank(t, eps=0.01)) == 1


@behaviour("Nx.LinAlg.qr", "mode")
def _():
    q, r = nbt.linalg.qr(nbt.iota((3, 2), type="f32"), mode="complete")
    assert (q.shape, r.shape) == ((3, 3), (3, 2))


@behaviour("Nx.LinAlg.qr", "eps")
def _():
    # Nx's qr sets entries with |x| <= eps to 0: r's 0.001 above the diagonal goes with eps=0.01.
    _, r = nbt.linalg.qr(nbt.tensor([[1.0, 0.001], [0.0, 1.0]]), eps=0.01)
    assert as_lists(r)[0][1] == 0


@behaviour("Nx.LinAlg.eigh", "eps")
def _():
    # Nx's Jacobi eigh sets eigenvalues with |x| <= eps to 0 (and orders them by decreasing
    # magnitude); with eps=1e-4 the 0.001 stays.
    m = nbt.tensor([[1.0, 0.0], [0.0, 0.001]])
    assert as_lists(nbt.linalg.eigh(m, eps=0.01)[0]) == [1.0, 0.0]
    assert as_lists(nbt.linalg.eigh(m, eps=0.0001)[0]) == pytest.approx([1.0, 0.001])


@behaviour("Nx.LinAlg.svd", "full_matrices")
def _():
    u, _, vt = nbt.linalg.svd(nbt.iota((3, 2), type="f32"), full_matrices=False)
    assert (u.shape, vt.shape) == ((3, 2), (2, 2))


@behaviour("Nx.LinAlg.triangular_solve", "lower")
def _():
    a = nbt.tensor([[1.0, 1.0], [0.0, 1.0]])
    assert as_lists(nbt.linalg.triangular_solve(a, nbt.tensor([2.0, 1.0]), lower=False)) == [1.0, 1.0]


@behaviour("Nx.LinAlg.triangular_solve", "transform_a")
def _():
    a = nbt.tensor([[1.0, 0.0], [1.0, 1.0]])
    assert as_lists(nbt.linalg.triangular_solve(a, nbt.tensor([2.0, 1.0]), transform_a="transpose")) == [1.0, 1.0]


@behaviour("Nx.Random.uniform", "type")
def _():
    sample, _ = nbt.random.uniform(nbt.random.key(1), shape=(2,), type="f64", names=["x"])
    assert (str(sample.type), sample.shape, sample.names) == ("f64", (2,), ("x",))


@behaviour("Nx.Random.randint", "type")
def _():
    sample, _ = nbt.random.randint(nbt.random.key(1), 0, 5, shape=(3,), type="u8")
    assert (str(sample.type), sample.shape) == ("u8", (3,))


@behaviour("Nx.Random.normal", "type")
def _():
    sample, _ = nbt.random.normal(nbt.random.key(1), type="f16")
    assert str(sample.type) == "f16"


@behaviour("Nx.Random.gumbel", "shape")
def _():
    sample, _ = nbt.random.gumbel(nbt.random.key(1), shape=(2, 3))
    assert sample.shape == (2, 3)


@behaviour("Nx.Random.split", "parts")
def _():
    assert nbt.random.split(nbt.random.key(1), parts=3).shape == (3, 2)


@behaviour("Nx.Random.shuffle", "independent")
def _():
    # Shuffling each column on its own: every column keeps its own values, and for some key
    # the columns come out in different orders (a whole-row shuffle keeps them aligned).
    t = nbt.tensor([[0, 10, 20], [1, 11, 21], [2, 12, 22], [3, 13, 23]])
    orders = set()
    for seed in range(4):
        shuffled, _ = nbt.random.shuffle(nbt.random.key(seed), t, independent=True)
        columns = np.asarray(shuffled).T.tolist()
        assert [sorted(c) for c in columns] == np.asarray(t).T.tolist()
        orders |= {tuple(v % 10 for v in c) for c in columns}
    assert len(orders) > 4


@behaviour("Nx.Random.choice", "samples")
def _():
    sample, _ = nbt.random.choice(nbt.random.key(1), nbt.iota((5,)), samples=3, replace=False)
    assert sample.shape == (3,)
    assert len(set(as_lists(sample))) == 3


@behaviour("Nx.Random.choice", "axis")
def _():
    sample, _ = nbt.random.choice(nbt.random.key(1), nbt.iota((2, 3)), samples=2, axis=1)
    assert sample.shape == (2, 2)


@behaviour("Nx.Random.multivariate_normal", "method")
def _():
    mean, cov = nbt.tensor([0.0, 0.0]), nbt.tensor([[2.0, 1.0], [1.0, 2.0]])
    key = nbt.random.key(3)
    draws = {m: as_lists(nbt.random.multivariate_normal(key, mean, cov, method=m)[0]) for m in ("cholesky", "svd")}
    assert draws["cholesky"] != draws["svd"]
    with pytest.raises(nbt.ArgumentError):
        nbt.random.multivariate_normal(key, mean, cov, method="qr")
