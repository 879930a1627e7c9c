"""Element-wise ops against NumPy (float64 reference), on both backends and inside defn."""

import math

import jax
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import numbat as nbt

# name: (NumPy reference, domain of the inputs)
UNARY = {
    "exp": (np.exp, (-5, 5)),
    "expm1": (np.expm1, (-5, 5)),
    "log": (np.log, (0.1, 100)),
    "log1p": (np.log1p, (-0.5, 100)),
    "log2": (np.log2, (0.1, 100)),
    "log10": (np.log10, (0.1, 100)),
    "sigmoid": (lambda x: 1 / (1 + np.exp(-x)), (-10, 10)),
    "sqrt": (np.sqrt, (0, 100)),
    "rsqrt": (lambda x: 1 / np.sqrt(x), (0.1, 100)),
    "cbrt": (np.cbrt, (-100, 100)),
    "sin": (np.sin, (-5, 5)),
    "cos": (np.cos, (-5, 5)),
    "tan": (np.tan, (-1.5, 1.5)),
    "asin": (np.arcsin, (-1, 1)),
    "acos": (np.arccos, (-1, 1)),
    "atan": (np.arctan, (-10, 10)),
    "sinh": (np.sinh, (-5, 5)),
    "cosh": (np.cosh, (-5, 5)),
    "tanh": (np.tanh, (-5, 5)),
    "asinh": (np.arcsinh, (-10, 10)),
    "acosh": (np.arccosh, (1, 10)),
    "atanh": (np.arctanh, (-0.9, 0.9)),
    "erf": (np.vectorize(math.erf), (-3, 3)),
    "erfc": (np.vectorize(math.erfc), (-3, 3)),
    "negate": (np.negative, (-10, 10)),
    "abs": (np.abs, (-10, 10)),
    "sign": (np.sign, (-10, 10)),
    "floor": (np.floor, (-10, 10)),
    "ceil": (np.ceil, (-10, 10)),
    "round": (lambda x: np.trunc(x) + np.where(np.abs(x - np.trunc(x)) >= 0.5, np.sign(x), 0), (-10, 10)),
}

BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "atan2": np.arctan2,
    "min": np.minimum,
    "max": np.maximum,
    "remainder": np.fmod,
}


def _arrays(low, high):
    return hnp.arrays(
        np.float32,
        hnp.array_shapes(max_dims=3, max_side=4),
        elements=st.floats(
            float(np.float32(low)),
            float(np.float32(high)),
            width=32,
            allow_nan=False,
            allow_infinity=False,
            allow_subnormal=False,
        ),
    )


@pytest.mark.parametrize("name", sorted(UNARY))
@given(data=st.data())
@settings(max_examples=10, deadline=None)
def test_unary_matches_numpy_float64(name, data):
    reference, (low, high) = UNARY[name]
    x = data.draw(_arrays(low, high))
    expected = reference(x.astype(np.float64))
    for backend in (nbt.NumPyBackend(), nbt.XLABackend()):
        with nbt.default_backend(backend):
            out = getattr(nbt, name)(nbt.tensor(x))
            assert str(out.type) == "f32" and out.shape == x.shape
            np.testing.assert_allclose(out.to_numpy(), expected, rtol=2e-5, atol=2e-6)
    jitted = nbt.jit(getattr(nbt, name))(nbt.tensor(x))
    np.testing.assert_allclose(jitted.to_numpy(), expected, rtol=2e-5, atol=2e-6)


@pytest.mark.parametrize("name", sorted(BINARY))
@given(data=st.data())
@settings(max_examples=10, deadline=None)
def test_binary_matches_numpy_float64(name, data):
    left = data.draw(_arrays(-10, 10))
    right_shape = left.shape[data.draw(st.integers(0, left.ndim)) :]  # broadcasts against left
    right = data.draw(
        hnp.arrays(
            np.float32, right_shape, elements=st.floats(0.5, 10, width=32) | st.floats(-10, -0.5, width=32)
        )  # XLA flushes subnormals
    )
    expected = BINARY[name](left.astype(np.float64), np.asarray(right, np.float64))
    for backend in (nbt.NumPyBackend(), nbt.XLABackend()):
        with nbt.default_backend(backend):
            out = getattr(nbt, name)(nbt.tensor(left), nbt.tensor(right))
            np.testing.assert_allclose(out.to_numpy(), expected, rtol=2e-5, atol=2e-6)
    jitted = nbt.jit(getattr(nbt, name))(nbt.tensor(left), nbt.tensor(right))
    np.testing.assert_allclose(jitted.to_numpy(), expected, rtol=2e-5, atol=2e-6)


INTEGER = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32]


@pytest.mark.parametrize("dtype", INTEGER)
def test_integer_ops_follow_nx(dtype, backend):
    info = np.iinfo(dtype)
    values = np.array([info.min, -7 if info.min < 0 else 0, 0, 1, 7, info.max], dtype=dtype)
    t = nbt.tensor(values)
    three = nbt.tensor(np.array(3, dtype))
    np.testing.assert_array_equal(nbt.bitwise_and(t, three).to_numpy(), values & dtype(3))
    np.testing.assert_array_equal(nbt.bitwise_not(t).to_numpy(), ~values)
    np.testing.assert_array_equal(
        nbt.population_count(t).to_numpy(), [(int(v) & ((1 << info.bits) - 1)).bit_count() for v in values]
    )
    clz = [info.bits - (int(v) & ((1 << info.bits) - 1)).bit_length() for v in values]
    np.testing.assert_array_equal(nbt.count_leading_zeros(t).to_numpy(), clz)
    np.testing.assert_array_equal(
        nbt.quotient(t, three).to_numpy(),
        [int(v / 3) if abs(int(v)) < 2**52 else int(v) // 3 if v > 0 else -(-int(v) // 3) for v in values],
    )
    np.testing.assert_array_equal(nbt.remainder(t, three).to_numpy(), np.fmod(values, dtype(3)))
    np.testing.assert_array_equal((t // three).to_numpy(), values // dtype(3))
    np.testing.assert_array_equal((t % three).to_numpy(), values % dtype(3))


def test_python_operators(backend):
    t = nbt.tensor([6, -7])
    assert (t & 3).to_numpy().tolist() == [2, 1]
    assert (t | 1).to_numpy().tolist() == [7, -7]
    assert (t ^ 1).to_numpy().tolist() == [7, -8]
    assert (t << 1).to_numpy().tolist() == [12, -14]
    assert (t >> 1).to_numpy().tolist() == [3, -4]
    assert (~t).to_numpy().tolist() == [-7, 6]
    assert (10 // t).to_numpy().tolist() == [1, -2]
    assert (10 % t).to_numpy().tolist() == [4, -4]
    assert float(nbt.tensor([2.5])) == 2.5 and int(nbt.tensor(3)) == 3 and complex(nbt.tensor(1j)) == 1j
    assert bool(nbt.tensor(1)) and not bool(nbt.tensor(0))
    assert [nbt.to_number(row) for row in nbt.tensor([4, 5])] == [4, 5] and len(t) == 2
    assert (t == None) is False and (t != "text") is True
    assert (nbt.tensor([1.0]) @ nbt.tensor([2.0])).to_numpy() == 2.0
    with pytest.raises(nbt.ArgumentError, match="one element"):
        float(t)


def test_integer_only_ops_reject_floats():
    for op in (nbt.bitwise_and, nbt.left_shift, nbt.quotient):
        with pytest.raises(nbt.ArgumentError, match="expects integer tensors, got f32"):
            op(nbt.tensor([1.0]), 1)


def test_integer_power_with_a_negative_exponent_raises_as_in_nx(backend):
    with pytest.raises(nbt.ArgumentError, match="negative integer power"):
        nbt.pow(nbt.tensor([1, -1, -1, 2]), nbt.tensor([-1, -1, -2, -1]))
    assert nbt.pow(nbt.tensor([2, 3]), nbt.tensor([0, 2])).to_numpy().tolist() == [1, 9]


def test_select_clip_and_predicates(backend):
    assert nbt.select(nbt.tensor([[1, 1], [0, 0]]), nbt.tensor([1, 2]), 9).to_numpy().tolist() == [[1, 2], [9, 9]]
    with pytest.raises(nbt.ArgumentError, match="broadcast to the predicate"):  # Nx: the predicate's shape
        nbt.select(nbt.tensor([[1], [0]]), nbt.tensor([1, 2]), 9)
    assert nbt.clip(nbt.tensor([-1.5, 0.5, 9.0]), 0, 1).to_numpy().tolist() == [0.0, 0.5, 1.0]
    nan = nbt.tensor([float("nan"), float("inf"), 1.0])
    assert nbt.is_nan(nan).to_numpy().tolist() == [1, 0, 0]
    assert nbt.is_infinity(nan).to_numpy().tolist() == [0, 1, 0]
    assert nbt.is_nan(nbt.tensor([1, 2])).to_numpy().tolist() == [0, 0]
    z = nbt.complex(nbt.tensor([3.0]), nbt.tensor([4.0]))
    assert str(z.type) == "c64" and nbt.abs(z).to_numpy().tolist() == [5.0]
    assert nbt.real(nbt.conjugate(z)).to_numpy().tolist() == [3.0] and nbt.imag(
        nbt.conjugate(z)
    ).to_numpy().tolist() == [-4.0]


def test_element_wise_ops_trace_to_their_lax_primitives_without_a_jit_each():
    """On XLA, add/multiply/tanh/... bind the lax primitive itself (jax.numpy's function would
    trace a jit of its own per op): the traced program is one equation per op."""
    fun = nbt.defn(lambda t: nbt.tanh(t * 2.0 + 1.0) - nbt.exp(-t))
    signature, _ = nbt._defn._signature.flatten((nbt.iota((3,), type="f32"),), {}, fun._convert)
    flat, _ = fun.trace(signature)
    with jax.enable_x64(True):
        jaxpr = jax.make_jaxpr(flat)(np.zeros(3, np.float32))
    assert [eqn.primitive.name for eqn in jaxpr.eqns] == ["mul", "add", "tanh", "neg", "exp", "sub"]
    broadcast = nbt.defn(lambda a, b: a + b)(nbt.iota((2, 1), type="f32"), nbt.iota((3,), type="f32"))
    assert broadcast.to_numpy().tolist() == [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]]  # jax.numpy broadcasts the rest


@pytest.mark.parametrize("backend_class", [nbt.NumPyBackend, nbt.XLABackend])
@pytest.mark.parametrize("type_", ["f32", "f64", "s32", "u8", "s64", "bf16"])
def test_execute_binary_is_execute(backend_class, type_):
    """The eager binary fast path (`backend.execute_binary`, which the NumPy backend runs in one
    frame with the family's table function) gives exactly what `backend.execute` gives, for
    every binary op of the element-wise family and for operands of another type (handed back)."""
    from numbat._ops import _dispatch
    from numbat.backends._families import elementwise

    backend = backend_class()
    left = nbt.tensor([[0, 1, 3], [7, 100, 2]], type=type_, names=["x", None], backend=backend)
    right = nbt.tensor([[1, 2, 0], [3, 250, 2]], type=type_, names=["x", None], backend=backend)
    out = _dispatch.template(left.shape, left.type, left.names)
    assert elementwise.TABLES["binary"].keys() >= {"add", "subtract", "multiply", "divide", "min", "max", "pow"}
    for op in elementwise.TABLES["binary"]:
        fast, slow = backend.execute_binary(op, out, left, right), backend.execute(op, out, (left, right), {})
        assert (
            (fast.type, fast.names, fast.backend)
            == (slow.type, slow.names, slow.backend)
            == (out.type, out.names, backend)
        )
        fast_values, slow_values = fast.to_numpy(), slow.to_numpy()
        if fast.type.is_float:  # NumPy's equality sees NaN equal to NaN in f64, not in bf16
            fast_values, slow_values = fast_values.astype(np.float64), slow_values.astype(np.float64)
        np.testing.assert_array_equal(fast_values, slow_values)
        assert type(fast.data) is type(slow.data)
    wide = _dispatch.template(left.shape, nbt.Type("f", 64), left.names)  # operands of another type
    mixed = backend.execute_binary("add", wide, left, right)
    assert mixed.type == wide.type and mixed.to_numpy().dtype == np.float64


def test_the_eager_binary_path_is_one_dispatch(monkeypatch):
    """An element-wise binary op's front-end calls `_dispatch.run_binary` itself (`_apply.binary`
    is that function): the commonest eager case goes from there to the backend's
    `execute_binary`, and every other case (broadcasting, a defn tracing, vectorized axes) to
    `_dispatch.run`, which records a traced op."""
    from numbat._ops import _dispatch
    from numbat._ops.primitive import _apply

    assert _apply.binary is _dispatch.run_binary
    fast, general = [], []
    real_execute_binary, real_run = nbt.NumPyBackend.execute_binary, _dispatch.run
    monkeypatch.setattr(nbt.NumPyBackend, "execute_binary", lambda *a: fast.append(a[1]) or real_execute_binary(*a))
    monkeypatch.setattr(_dispatch, "run", lambda *a, **k: general.append(a[0]) or real_run(*a, **k))
    monkeypatch.setattr(_dispatch, "_small_templates", {})  # as in a fresh process, whatever earlier tests ran
    host = nbt.NumPyBackend()
    a = nbt.tensor([1.0, 2.0], names=["x"], backend=host)
    nbt.subtract(a, a)  # a shape seen for the first time: `run`, which lets the allocation guard see it
    assert nbt.add(a, a).to_numpy().tolist() == [2.0, 4.0] and nbt.max(a, a).names == ("x",)
    assert fast == ["add", "max"] and general == ["subtract"]
    assert nbt.multiply(a, 3).names == ("x",) and general[-1] == "multiply"  # a number: broadcast
    assert nbt.add(a, nbt.tensor([[1.0], [2.0]], backend=host)).shape == (2, 2) and general[-1] == "add"
    assert "divide" in str(nbt.debug_expr(lambda t: t / t)(a)) and general[-1] == "divide"  # traced
    rows = nbt.vectorize(nbt.tensor([[1.0, 2.0], [3.0, 4.0]], backend=host), "rows")
    assert nbt.add(rows, rows).vectorized_axes == (("rows", 2),) and len(general) == 5 and fast == ["add", "max"]


def test_numpy_fast_path_keeps_nx_float_semantics():
    """Overflow gives Inf with no NumPy warning (warnings are errors here), and the result is a
    new tensor on the one NumPy backend."""
    host = nbt.NumPyBackend()
    big = nbt.tensor([3e38, -3e38], type="f32", backend=host)
    result = nbt.add(big, big)
    assert result.to_numpy().tolist() == [math.inf, -math.inf] and result.backend is host
    assert nbt.multiply(big, big).to_numpy().tolist() == [math.inf, math.inf]


@pytest.mark.parametrize("name", ["log", "log1p", "log2", "log10", "sqrt", "cbrt", "sin", "cos", "tan", "atan", "tanh"])
def test_numpy_backend_f32_functions_are_correctly_rounded(name):
    # NumPy's f32 loops on AVX-512 (SVML) miss by an ulp (log10(100) was 2.0000002); the NumPy
    # backend computes these in f64 and rounds, so its f32 answer is the nearest f32 on any CPU.
    x = np.concatenate([np.arange(1, 1001), np.random.default_rng(0).uniform(0.01, 10, 4000)]).astype(np.float32)
    with nbt.default_backend(nbt.NumPyBackend()):
        got = getattr(nbt, name)(nbt.tensor(x)).to_numpy()
    reference = getattr(np, {"atan": "arctan"}.get(name, name))(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(got, reference)
