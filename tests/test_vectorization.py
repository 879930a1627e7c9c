"""Vectorized tensors (Nx's vectorize, devectorize, revectorize, broadcast_vectors,
reshape_vectors): Nx's documented results, and every op family on a vectorized tensor
agreeing with the same op run entry by entry, on both backends, eagerly and in a defn."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import numbat as nbt

BACKENDS = {"numpy": nbt.NumPyBackend, "xla": nbt.XLABackend}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request):
    with nbt.default_backend(BACKENDS[request.param]()):
        yield request.param


def _entries(tensor):
    """The entries of a vectorized tensor, outermost axis first, as plain NumPy arrays."""
    array = nbt.devectorize(tensor).to_numpy()
    count = len(tensor.vectorized_axes)
    return array.reshape(-1, *array.shape[count:])


# Ops over one vectorized f32[2, 3, 4] tensor (inner shape [3][4]), by family.
UNARY = {
    "exp": nbt.exp,
    "negate": nbt.negate,
    "sum axis 1": lambda t: nbt.sum(t, axes=[1]),
    "sum all": nbt.sum,
    "argmax": lambda t: nbt.argmax(t, axis=0),
    "mean keep": lambda t: nbt.mean(t, axes=[0], keep_axes=True),
    "cumulative_sum": lambda t: nbt.cumulative_sum(t, axis=1),
    "sort": lambda t: nbt.sort(t, axis=1),
    "transpose": nbt.transpose,
    "reshape": lambda t: nbt.reshape(t, (2, 6)),
    "slice": lambda t: nbt.slice(t, [1, 1], [2, 2]),
    "getitem": lambda t: t[1],
    "take": lambda t: nbt.take(t, nbt.tensor([2, 0]), axis=1),
    "pad": lambda t: nbt.pad(t, 0.0, [(1, 0, 0), (0, 1, 1)]),
    "window_sum": lambda t: nbt.window_sum(t, (2, 2)),
    "concatenate": lambda t: nbt.concatenate([t, t * 2], axis=1),
    "dot plain": lambda t: nbt.dot(t, nbt.iota((4, 2), type="f32")),
    "outer": lambda t: nbt.outer(t[0], t[1]),
    "as_type": lambda t: nbt.as_type(t, "s32"),
    "softmax": lambda t: nbt.exp(t) / nbt.sum(nbt.exp(t), axes=[1], keep_axes=True),
    "norm": nbt.linalg.norm,
    "top_k": lambda t: nbt.top_k(t, k=2)[0],
}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "defn"])
def test_an_op_on_a_vectorized_tensor_runs_once_per_entry(name, compiled, backend):
    op = UNARY[name]
    values = np.random.default_rng(3).normal(size=(2, 3, 4)).astype(np.float32)
    vectorized = nbt.vectorize(nbt.tensor(values), "x")
    result = nbt.jit(op)(vectorized) if compiled else op(vectorized)
    assert result.vectorized_axes == (("x", 2),)
    for entry, got in zip(values, _entries(result)):
        expected = op(nbt.tensor(entry)).to_numpy()
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_vectorize_matches_nx():
    t = nbt.iota((2, 3))
    vectorized = nbt.vectorize(t, "first")
    assert vectorized.shape == (3,) and vectorized.vectorized_axes == (("first", 2),)
    twice = nbt.vectorize(vectorized, "second")
    assert repr(twice) == (
        "numbat.Tensor<\n  vectorized[first: 2][second: 3]\n  s32\n  [\n    [0, 1, 2],\n    [3, 4, 5]\n  ]\n>"
    )
    assert nbt.vectorize(t, ["first", ("second", 3)]).vectorized_axes == twice.vectorized_axes
    assert nbt.vectorize(t, {"first": 2}).vectorized_axes == (("first", 2),)
    # Nx's example: shape [4] against [2] needs no reshaping once the first is vectorized.
    added = nbt.add(nbt.vectorize(nbt.tensor([4, 3, 2, 1]), "x"), nbt.tensor([0, 1]))
    assert added.to_numpy().tolist() == [[4, 5], [3, 4], [2, 3], [1, 2]] and added.shape == (2,)
    first, second = nbt.vectorize((nbt.tensor([1]), {"a": nbt.tensor([2])}), [("x", 1)])
    assert first.vectorized_axes == second["a"].vectorized_axes == (("x", 1),)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: nbt.vectorize(nbt.tensor(1), "x"), "rank 0"),
        (lambda: nbt.vectorize(nbt.tensor([1]), ["x", "y"]), "more than the rank"),
        (lambda: nbt.vectorize(nbt.tensor([1]), [("x", 2)]), "to have size 2, got 1"),
        (lambda: nbt.vectorize(nbt.tensor([[1]]), ["x", 3]), "got 3"),
        (lambda: nbt.vectorize(nbt.tensor([[1]], names=["x", "y"]), ["y"]), "an axis of the shape has that name"),
        (lambda: nbt.vectorize(nbt.vectorize(nbt.tensor([[1]]), "x"), "x"), "already one"),
        (lambda: nbt.vectorize(nbt.tensor([1])), "give the vectorized axes"),
        (lambda: nbt.vectorize(nbt.tensor([1]), "x", axis=0), "unknown option"),
        (lambda: nbt.devectorize(nbt.tensor([1]), keep_names="yes"), "keep_names"),
        (lambda: nbt.revectorize(nbt.tensor([1]), [("x", "auto")], target_shape=("auto",)), "at most one 'auto'"),
        (lambda: nbt.revectorize(nbt.tensor([1]), [("x", 0)]), "(name, size) pair"),
        (
            lambda: nbt.vectorize(nbt.tensor([1, 2]), "x") + nbt.vectorize(nbt.tensor([1, 2, 3]), "x"),
            "to have the same size in both tensors or one of them to have size 1, got 3 and 2",
        ),
        (lambda: float(nbt.vectorize(nbt.tensor([1.0]), "x")), "vectorized[x: 1]"),
        (lambda: np.asarray(nbt.vectorize(nbt.tensor([1]), "x").data), "nbt.devectorize"),
        (lambda: nbt.debug_expr(nbt.exp)(nbt.vectorize(nbt.tensor([1.0]), "x")), "vectorized tensor"),
    ],
)
def test_misuse_is_a_numbat_error(call, message):
    with pytest.raises(nbt.ArgumentError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        call()


def test_devectorize_matches_nx():
    t = nbt.vectorize(nbt.vectorize(nbt.iota((1, 2, 3)), "x"), "y")
    assert repr(t).startswith("numbat.Tensor<\n  vectorized[x: 1][y: 2]\n  s32[3]\n")
    plain = nbt.devectorize(t)
    assert plain.shape == (1, 2, 3) and plain.names == ("x", "y", None) and not plain.vectorized_axes
    assert nbt.devectorize(t, keep_names=False).names == (None, None, None)
    number, container = nbt.devectorize((1, {"a": nbt.vectorize(nbt.iota((1, 3)), "x")}))
    assert nbt.to_number(number) == 1 and container["a"].names == ("x", None)


def test_reshape_vectors_matches_nx():
    x = nbt.vectorize(nbt.tensor([1, 2, 3]), "x")
    xy = nbt.vectorize(nbt.vectorize(nbt.tensor([[[5]], [[6]]]), "y"), "x")
    rx, rxy = nbt.reshape_vectors([x, xy])
    assert rx.vectorized_axes == (("x", 3), ("y", 1)) and rxy.vectorized_axes == (("x", 1), ("y", 2))
    y = nbt.vectorize(nbt.tensor([4]), "y")
    yv, xv = nbt.reshape_vectors([y, x])
    assert xv.vectorized_axes == (("y", 1), ("x", 3)) and yv.vectorized_axes == (("y", 1), ("x", 1))
    ys = nbt.vectorize(nbt.tensor([[[1], [1]], [[2], [2]], [[3], [3]]]), "y")
    one, _ = nbt.reshape_vectors([1, ys])
    assert one.vectorized_axes == (("y", 1),) and one.shape == ()
    one, _ = nbt.reshape_vectors([1, ys], align_ranks=True)
    assert one.shape == (1, 1) and one.to_numpy().tolist() == [[[1]]]


def test_broadcast_vectors_matches_nx_and_reorders_axes():
    x = nbt.vectorize(nbt.tensor([1, 2]), "x")
    xy = nbt.vectorize(nbt.vectorize(nbt.tensor([[[5]], [[6]]]), "y"), "x")
    bx, bxy = nbt.broadcast_vectors([x, xy], align_ranks=True)
    assert bx.to_numpy().tolist() == [[[1], [1]], [[2], [2]]] and bx.shape == (1,)
    assert bxy.to_numpy().tolist() == [[[5], [6]], [[5], [6]]]
    bxy, bx = nbt.broadcast_vectors([xy, x])
    assert bx.vectorized_axes == (("y", 2), ("x", 2)) and bx.to_numpy().tolist() == [[1, 2], [1, 2]]
    assert bxy.to_numpy().tolist() == [[[5], [5]], [[6], [6]]]
    # Two vectorized axes of size > 1 in the other order are transposed, not reshaped.
    a = nbt.vectorize(nbt.iota((2, 3)), ["p", "q"])
    b = nbt.vectorize(nbt.iota((3, 2)) * 10, ["q", "p"])
    _, b_aligned = nbt.broadcast_vectors([a, b])
    assert b_aligned.vectorized_axes == (("p", 2), ("q", 3))
    np.testing.assert_array_equal(b_aligned.to_numpy(), (np.arange(6).reshape(3, 2) * 10).T)
    np.testing.assert_array_equal((a + b).to_numpy(), np.arange(6).reshape(2, 3) + (np.arange(6).reshape(3, 2) * 10).T)


def test_revectorize_matches_nx():
    t = nbt.vectorize(nbt.iota((2, 3, 4, 1)), ["x", "y", "z"])
    assert nbt.revectorize(t, [("x", 12), ("y", "auto")]).vectorized_axes == (("x", 12), ("y", 2))
    assert nbt.revectorize(t, {"a": "auto"}).vectorized_axes == (("a", 24),)
    t = nbt.vectorize(nbt.iota((2, 2, 2)), ["x", "y"])
    revec = nbt.revectorize(t, {"temp": "auto", "x": 2}, target_shape=())
    assert revec.vectorized_axes == (("temp", 4), ("x", 2)) and revec.shape == ()
    again = nbt.revectorize(revec, [("new_vec", 2)], target_shape=(1, 4), target_names=["x", "last"])
    assert again.vectorized_axes == (("new_vec", 2),) and again.names == ("x", "last")
    assert again.to_numpy().tolist() == [[[0, 1, 2, 3]], [[4, 5, 6, 7]]]


def test_vectorized_axes_broadcast_by_name(backend):
    x = nbt.vectorize(nbt.tensor([1, 2, 3]), "x")
    y = nbt.vectorize(nbt.tensor([10, 20]), "y")
    both = x + y
    assert both.vectorized_axes == (("x", 3), ("y", 2))
    np.testing.assert_array_equal(both.to_numpy(), np.add.outer([1, 2, 3], [10, 20]))
    one = nbt.vectorize(nbt.tensor([[100]]), "x")  # size 1 broadcasts against 3
    assert (x + one).to_numpy().tolist() == [[101], [102], [103]]
    assert (y + x).vectorized_axes == (("y", 2), ("x", 3))


def test_size_flat_size_and_byte_size_follow_nx():
    v = nbt.vectorize(nbt.iota((4, 3, 2)), "x")
    assert (nbt.size(v), nbt.flat_size(v), nbt.byte_size(v)) == (6, 24, 96)
    assert nbt.flat_size(nbt.vectorize(v, "y")) == 24
    assert nbt.to_flat_list(v) == list(range(24)) and len(nbt.to_binary(v)) == 96


def test_a_defn_compiles_once_per_vectorized_layout(backend):
    calls = []

    @nbt.defn
    def scaled_sum(a, b):
        calls.append(1)
        return nbt.sum(a * b) + 1, b

    x = nbt.vectorize(nbt.iota((2, 3), type="f32"), "x")
    w = nbt.iota((3,), type="f32")
    for _ in range(3):
        total, same = scaled_sum(x, w)
    assert len(calls) == 1 and scaled_sum._devectorized.cache_info() == {"compiled": 1, "hits": 2}
    assert total.vectorized_axes == (("x", 2),) and total.to_numpy().tolist() == [6.0, 15.0]
    assert not same.vectorized_axes and same.to_numpy().tolist() == [0.0, 1.0, 2.0]
    plain_total, _ = scaled_sum(nbt.iota((3,), type="f32"), w)  # a plain call is its own entry
    assert nbt.to_number(plain_total) == 6.0 and len(calls) == 2
    y = nbt.vectorize(nbt.iota((2, 3), type="f32"), "y")
    assert scaled_sum(y, w)[0].vectorized_axes == (("y", 2),) and len(calls) == 3


def test_grad_of_a_vectorized_tensor_is_per_entry(backend):
    x = nbt.vectorize(nbt.tensor([[1.0, 2.0], [3.0, 4.0]]), "x")
    fun = lambda t: nbt.sum(t * t * t)
    for gradient in (nbt.grad(fun)(x), nbt.jit(nbt.grad(fun))(x)):
        assert gradient.vectorized_axes == (("x", 2),)
        np.testing.assert_allclose(gradient.to_numpy(), 3 * np.array([[1.0, 2.0], [3.0, 4.0]]) ** 2)


def test_the_expression_graph_records_vectorize_and_devectorize():
    fun = lambda t: nbt.devectorize(nbt.sum(nbt.vectorize(t, "rows")))
    text = str(nbt.debug_expr(fun)(nbt.iota((2, 3))))
    assert "b = vectorize [ a, axes: ['rows'] ]" in text and "devectorize" in text
    assert nbt.jit(fun)(nbt.iota((2, 3))).to_numpy().tolist() == [3, 12]


def test_vectorized_tensors_move_serialize_and_display(backend):
    v = nbt.vectorize(nbt.tensor([[1.5, 2.0], [3.0, 4.0]], names=[None, "y"]), "x")
    source = nbt.backend_copy(v, v.backend)  # backend_transfer frees a device tensor, as in Nx
    moved = nbt.backend_transfer(source, nbt.NumPyBackend() if backend == "xla" else nbt.XLABackend())
    assert moved.vectorized_axes == v.vectorized_axes and moved.to_numpy().tolist() == v.to_numpy().tolist()
    restored = nbt.deserialize(nbt.serialize({"v": v}))["v"]
    assert restored.vectorized_axes == (("x", 2),) and restored.names == ("y",)
    assert restored.to_numpy().tolist() == [[1.5, 2.0], [3.0, 4.0]]
    html = v._repr_mimebundle_()["text/html"]
    assert "vectorized[x: 2]" in html and "f32[y: 2]" in html


def test_the_function_transform_is_still_nbt_vectorize():
    rows = nbt.vectorize(lambda row: nbt.sum(row * row))(nbt.tensor([[1, 2], [3, 4]]))
    assert rows.to_numpy().tolist() == [5, 25] and not rows.vectorized_axes


@settings(max_examples=25, deadline=None)
@given(
    outer=st.integers(0, 3),
    inner=st.lists(st.integers(1, 3), min_size=0, max_size=2),
    other=st.lists(st.integers(1, 3), min_size=0, max_size=2),
    seed=st.integers(0, 2**16),
)
def test_binary_ops_on_vectorized_tensors_equal_a_loop(outer, inner, other, seed):
    """Inner shapes that broadcast per entry (the trailing axes of the shorter one)."""
    other = other[: len(inner)] if len(other) > len(inner) else other
    other = [inner[len(inner) - len(other) + i] if size != 1 else 1 for i, size in enumerate(other)]
    rng = np.random.default_rng(seed)
    left = rng.normal(size=(outer, *inner)).astype(np.float32)
    right = rng.normal(size=(outer, *other)).astype(np.float32)
    for backend in (nbt.NumPyBackend(), nbt.XLABackend()):
        with nbt.default_backend(backend):
            result = nbt.vectorize(nbt.tensor(left), "x") * nbt.vectorize(nbt.tensor(right), "x") - 1
            expected = np.stack([a * b - 1 for a, b in zip(left, right)]) if outer else np.empty((0, *inner))
            assert result.shape == tuple(inner) and result.to_numpy().shape == expected.shape
            np.testing.assert_allclose(result.to_numpy(), expected, rtol=1e-6)


def test_the_evaluator_takes_vectorized_tensors_too():
    fun = nbt.defn(lambda a: nbt.sum(a) * 2, compiler="evaluator")
    result = fun(nbt.vectorize(nbt.iota((2, 3)), "x"))
    assert result.vectorized_axes == (("x", 2),) and result.to_numpy().tolist() == [6, 24]


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_a_defn_on_plain_tensors_may_return_vectorized_ones(compiler, backend):
    """Vectorizing inside the defn: the outputs keep their vectorized axes, on a cache hit too."""
    fun = nbt.defn(lambda t: (nbt.cumulative_sum(nbt.vectorize(t, "x")), {"t": t + 1}), compiler=compiler)
    for _ in range(2):
        total, rest = fun(nbt.tensor([[1, 2], [3, 4]]))
        assert total.vectorized_axes == (("x", 2),) and total.shape == (2,)
        assert total.to_numpy().tolist() == [[1, 3], [3, 7]]
        assert not rest["t"].vectorized_axes and rest["t"].to_numpy().tolist() == [[2, 3], [4, 5]]


# Vectorized results of structure ops (Nx's doctests check NumPy, XLA and nbt.jit; this
# adds the evaluator): (function of no arguments, vectorized axes, entries).
VECTORIZED_RESULTS = {
    "iota": (lambda: nbt.iota((2,), vectorized_axes={"x": 2}), (("x", 2),), [[0, 1], [0, 1]]),
    "eye rank 1": (lambda: nbt.eye((2,), vectorized_axes=[("x", 1)]), (("x", 1),), [[1, 0]]),
    "fill": (lambda: nbt.fill(nbt.vectorize(nbt.iota((2, 1)), "x"), 5), (("x", 2),), [[5], [5]]),
    "linspace": (
        lambda: nbt.linspace(nbt.vectorize(nbt.tensor([0, 1]), "x"), nbt.vectorize(nbt.tensor([2]), "y"), n=2),
        (("x", 2), ("y", 1)),
        [[[0.0, 2.0]], [[1.0, 2.0]]],
    ),
}


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
@pytest.mark.parametrize("name", sorted(VECTORIZED_RESULTS))
def test_structure_ops_return_vectorized_tensors_in_a_defn(name, compiler):
    fun, axes, entries = VECTORIZED_RESULTS[name]
    result = nbt.defn(fun, compiler=compiler)()
    assert result.vectorized_axes == axes and result.to_numpy().tolist() == entries


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_batched_take_diagonal_and_dot_refusal_in_a_defn(compiler):
    diagonal = nbt.defn(nbt.take_diagonal, compiler=compiler)(nbt.iota((2, 2, 2)))
    assert diagonal.shape == (2, 2) and diagonal.to_numpy().tolist() == [[0, 3], [4, 7]]
    both = nbt.defn(lambda a: nbt.dot(a, a, contract_axes=([0], [0]), batch_axes=([0], [0])), compiler=compiler)
    with pytest.raises(nbt.ArgumentError, match="both batch axes and contract axes"):
        both(nbt.iota((2, 2)))
