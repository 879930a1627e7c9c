"""Laws every program keeps (docs/design.md, decision 20), as property tests over generated
tensors, types, names, vectorized axes and small programs that combine ops with `grad`,
`value_and_grad`, `vectorize`, `cond`, `while_loop`, nested defns with static arguments
and containers:

- `value_and_grad(f)(x)[0] == f(x)`, and its gradient is `grad(f)(x)`;
- `grad` agrees with central differences in f64;
- every path (eager NumPy, eager XLA, `nbt.jit`, the evaluator on NumPy) gives the same
  type, shape, names and values;
- `vectorize(f)` over a stacked input equals stacking `f` of each entry;
- `revectorize`/`devectorize` and `serialize`/`deserialize`, `to_binary`/`from_binary`
  round trips are identities;
- the result type of every binary op is Nx's merge rule (written out here from
  `Nx.Type.merge`, not numbat's) and names are kept as Nx keeps them.

Budget: derandomized (a fixed seed), 8 examples per law in CI, about 30 s on 2 cores (the
programs compile once per shape, and the shapes are drawn from a short list);
`NUMBAT_PROPERTIES=long` draws 300 per law. The defects the laws found have regression
tests in tests/test_nx_programs.py (value_and_grad's value, the evaluator's nested defns,
revectorize with no axes, division by a number on NumPy) and below (`test_law_*_regression`).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numbat as nbt

LONG = os.environ.get("NUMBAT_PROPERTIES") == "long"
LAWS = settings(
    max_examples=300 if LONG else 8,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
SHAPES = [(3,), (2, 3)]
PATHS = ["numpy", "xla", "jit", "evaluator"]

# --- the programs: each a function of one f64 tensor, combining what real programs combine ---


@nbt.defn
def _inner(x, n=1):  # a nested defn with a static option (a keyword, as Nx's opts)
    return nbt.sum(nbt.broadcast(x, (n, *x.shape)), axes=[0])


def _poly(t):
    return t * t + 3 * t


def _trig(t):
    return nbt.sin(t) * nbt.cos(t) + nbt.tanh(t)


def _softplus(t):
    return nbt.log(1 + nbt.exp(t))


def _branchy(t):
    return nbt.cond(nbt.sum(t) > 0, lambda v: v * v, lambda v: -v * 2, t)


def _looped(t):
    _, out = nbt.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, nbt.sin(s[1]) + s[1]), (nbt.tensor(0), t))
    return out


def _nested(t):
    return _inner(t, n=3) * t


def _contained(t):
    pair = {"a": t, "b": (t * 2, 1.5)}
    return pair["a"] * pair["b"][0] + pair["b"][1]


PROGRAMS = {f.__name__[1:]: f for f in (_poly, _trig, _softplus, _branchy, _looped, _nested, _contained)}


def _values(shape):
    return st.lists(
        st.floats(-2.0, 2.0, allow_nan=False, allow_subnormal=False),
        min_size=int(np.prod(shape)),
        max_size=int(np.prod(shape)),
    ).map(lambda xs: np.asarray(xs, dtype=np.float64).reshape(shape))


@st.composite
def _program_and_input(draw):
    name = draw(st.sampled_from(sorted(PROGRAMS)))
    shape = draw(st.sampled_from(SHAPES))
    return name, draw(_values(shape))


_COMPILED: dict = {}  # (law, program) -> its defn, reused by every example


def _compiled(kind: str, name: str, fun):
    key = (kind, name)
    if key not in _COMPILED:
        _COMPILED[key] = nbt.defn(fun, compiler="evaluator") if kind == "evaluator" else nbt.jit(fun)
    return _COMPILED[key]


def _run(path: str, name: str, fun, array):
    if path in ("numpy", "evaluator"):
        backend = nbt.NumPyBackend()
    else:
        backend = nbt.XLABackend()
    with nbt.default_backend(backend):
        x = nbt.tensor(array, type="f64", names=["x"] + [None] * (array.ndim - 1))
        if path in ("jit", "evaluator"):
            return _compiled(path, name, fun)(x)
        return fun(x)


def _leaves(result):
    return result if isinstance(result, tuple) else (result,)


# --- the laws ---


@LAWS
@given(_program_and_input())
def test_value_and_grad_returns_the_value_and_the_gradient(case):
    name, array = case
    fun = PROGRAMS[name]
    x = nbt.tensor(array, type="f64")
    value, gradient = nbt.value_and_grad(fun)(x)
    expected = fun(x)
    assert value.shape == expected.shape and value.type == expected.type
    np.testing.assert_allclose(value.to_numpy(), expected.to_numpy(), rtol=1e-12)
    np.testing.assert_allclose(gradient.to_numpy(), nbt.grad(fun)(x).to_numpy(), rtol=1e-12)


@LAWS
@given(_program_and_input())
def test_grad_agrees_with_central_differences_in_f64(case):
    name, array = case
    fun = PROGRAMS[name]
    gradient = nbt.grad(fun)(nbt.tensor(array, type="f64")).to_numpy()
    step = 1e-6
    numeric = np.zeros_like(array)
    for index in np.ndindex(array.shape):
        up, down = array.copy(), array.copy()
        up[index] += step
        down[index] -= step
        total = [nbt.to_number(nbt.sum(fun(nbt.tensor(a, type="f64")))) for a in (up, down)]
        numeric[index] = (total[0] - total[1]) / (2 * step)
    if name == "branchy" and abs(array.sum()) < 1e-4:
        return  # the branch changes within the step: no derivative there
    np.testing.assert_allclose(gradient, numeric, rtol=1e-5, atol=1e-6)


@LAWS
@given(_program_and_input())
def test_every_path_gives_the_same_answer(case):
    name, array = case
    fun = PROGRAMS[name]
    results = {path: _run(path, name, fun, array) for path in PATHS}
    reference = results["numpy"]
    for path, result in results.items():
        assert (result.type, result.shape, result.names) == (reference.type, reference.shape, reference.names), path
        np.testing.assert_allclose(result.to_numpy(), reference.to_numpy(), rtol=1e-13, atol=1e-15, err_msg=path)


def _nested_positional(t):  # inside a defn, a Python number passed on positionally stays static
    return _inner(t, 3) * t


@LAWS
@given(st.sampled_from(SHAPES), st.sampled_from(["numpy", "xla"]))
def test_every_compiler_gives_the_same_answer_for_defn_only_programs(shape, backend_name):
    # Programs Nx runs only inside a defn (a top-level call makes 3 a tensor, in Nx too).
    array = np.linspace(-1.0, 1.0, int(np.prod(shape))).reshape(shape)
    backend = nbt.NumPyBackend() if backend_name == "numpy" else nbt.XLABackend()
    with nbt.default_backend(backend):
        x = nbt.tensor(array, type="f64")
        results = [_compiled(kind, "nested_positional", _nested_positional)(x) for kind in ("jit", "evaluator")]
    assert results[0].shape == results[1].shape == shape
    np.testing.assert_allclose(results[0].to_numpy(), results[1].to_numpy(), rtol=1e-13)


@LAWS
@given(_program_and_input())
def test_every_path_differentiates_alike(case):
    name, array = case
    fun = PROGRAMS[name]
    results = {path: _run(path, f"grad-{name}", nbt.grad(fun), array) for path in PATHS}
    for path, result in results.items():
        np.testing.assert_allclose(result.to_numpy(), results["numpy"].to_numpy(), rtol=1e-12, err_msg=path)


@LAWS
@given(st.sampled_from(sorted(set(PROGRAMS) - {"branchy", "looped"})), st.integers(1, 3), st.sampled_from(SHAPES))
def test_vectorize_equals_stacking_each_entry(name, count, shape):
    fun = PROGRAMS[name]
    stacked = np.linspace(-1.5, 1.5, count * int(np.prod(shape))).reshape((count, *shape))
    vectorized = fun(nbt.vectorize(nbt.tensor(stacked, type="f64"), "rows"))
    assert vectorized.vectorized_axes == (("rows", count),)
    entries = np.stack([fun(nbt.tensor(entry, type="f64")).to_numpy() for entry in stacked])
    np.testing.assert_allclose(nbt.devectorize(vectorized).to_numpy(), entries, rtol=1e-13)


@LAWS
@given(st.sampled_from([(2, 3, 4), (6, 2), (1, 4, 2)]), st.integers(0, 2), st.booleans())
def test_revectorize_and_devectorize_round_trip(shape, vectorized, keep_names):
    t = nbt.iota(shape, names=[f"a{i}" for i in range(len(shape))])
    v = nbt.vectorize(t, [f"a{i}" for i in range(vectorized)]) if vectorized else t
    back = nbt.devectorize(v, keep_names=keep_names)
    assert back.shape == shape and back.to_numpy().tolist() == t.to_numpy().tolist()
    if keep_names:
        assert back.names == t.names
    flat = nbt.revectorize(v, v.vectorized_axes, target_shape=v.shape, target_names=v.names)
    assert flat.vectorized_axes == v.vectorized_axes and flat.names == v.names
    assert nbt.devectorize(flat).to_numpy().tolist() == t.to_numpy().tolist()
    plain = nbt.revectorize(v, [], target_shape=(int(np.prod(shape)),))  # Nx's [] devectorizes and reshapes
    assert plain.vectorized_axes == () and plain.to_numpy().tolist() == list(range(int(np.prod(shape))))


TYPES = ["u2", "u4", "u8", "u16", "u32", "u64", "s2", "s4", "s8", "s16", "s32", "s64"]
TYPES += ["f8", "f8_e4m3fn", "f16", "bf16", "f32", "f64", "c64", "c128"]


@LAWS
@given(st.sampled_from(TYPES), st.sampled_from([(), (3,), (2, 2)]), st.booleans(), st.booleans())
def test_serialize_and_binary_round_trips(type_name, shape, named, vectorized):
    names = [f"n{i}" for i in range(len(shape))] if named else None
    t = nbt.as_type(nbt.iota(shape, names=names), type_name) if shape else nbt.tensor(1, type=type_name)
    if vectorized and shape:
        t = nbt.vectorize(t, "v")
    back = nbt.deserialize(nbt.serialize({"t": t, "pair": (t, 2)}))
    for restored in (back["t"], back["pair"][0]):
        assert (restored.type, restored.shape, restored.names) == (t.type, t.shape, t.names)
        assert restored.vectorized_axes == t.vectorized_axes
        assert restored.to_numpy().tobytes() == t.to_numpy().tobytes()
    plain = nbt.devectorize(t)
    flat = nbt.from_binary(nbt.to_binary(plain), type_name)
    # Sub-byte values pack into whole bytes, as Nx's bitstrings: the padding reads back as zeros.
    count = plain.size
    assert flat.to_numpy()[:count].tobytes() == plain.to_numpy().reshape(-1).tobytes()
    assert not flat.to_numpy()[count:].any()


def _nx_merge(left: tuple, right: tuple) -> tuple:
    """Nx.Type.merge, written out from Nx 0.13.1's source: the same kind takes the larger
    size; otherwise the kinds sort c > f > bf > s > u (f8_e4m3fn as f), u with s widens
    the signed type, a float with a complex widens the complex type to hold it."""
    if left[0] == right[0]:
        return left if left[1] >= right[1] else right
    order = {"u": 0, "s": 1, "bf": 2, "f": 3, "f8_e4m3fn": 3, "c": 4}
    low, high = (left, right) if order[left[0]] < order[right[0]] else (right, left)
    if low[0] == "u" and high[0] == "s":
        return ("s", max(min(low[1] * 2, 64), high[1]))
    if low[0] == "f" and high[0] == "c":
        return ("c", max(low[1] * 2, high[1]))
    return high


BINARY_OPS = ["add", "subtract", "multiply", "min", "max"]


@LAWS
@given(st.sampled_from(TYPES), st.sampled_from(TYPES), st.sampled_from(BINARY_OPS), st.sampled_from(["numpy", "xla"]))
def test_binary_op_result_type_is_nx_merge(left_name, right_name, op, backend_name):
    real = not (left_name.startswith("c") or right_name.startswith("c"))
    if op in ("min", "max") and not real:
        return  # Nx has no order on complex numbers
    backend = nbt.NumPyBackend() if backend_name == "numpy" else nbt.XLABackend()
    left = nbt.tensor([1, 0], type=left_name, names=["x"], backend=backend)
    right = nbt.tensor([0, 1], type=right_name, backend=backend)
    out = getattr(nbt, op)(left, right)
    assert tuple(out.type) == _nx_merge(tuple(left.type), tuple(right.type))
    assert out.names == ("x",)  # a name meets no name: kept, as Nx merges names


UNARY_KEEPING_NAMES = ["negate", "abs", "exp", "sin", "sqrt", "floor", "sigmoid", "cumulative_sum"]


@LAWS
@given(st.sampled_from(UNARY_KEEPING_NAMES), st.sampled_from([["x", None], [None, "y"], ["x", "y"]]))
def test_names_are_kept(op, names):
    t = nbt.tensor([[1.0, 2.0], [3.0, 4.0]], names=names)
    assert getattr(nbt, op)(t).names == tuple(names)
    assert nbt.grad(lambda u: nbt.sum(getattr(nbt, op)(u)))(t).names == tuple(names)
    assert nbt.value_and_grad(lambda u: getattr(nbt, op)(u))(t)[0].names == tuple(names)


# --- the regressions for what the laws found (each failed on the code before issue 40) ---


def test_law_value_and_grad_value_regression():
    value, _ = nbt.value_and_grad(_poly)(nbt.tensor([1.0, 2.0], type="f64"))
    assert value.to_numpy().tolist() == [4.0, 10.0]  # was the sum, 14.0


def test_law_every_path_nested_defn_regression():
    out = _run("evaluator", "nested-regression", _nested_positional, np.array([1.0, 2.0]))
    assert out.to_numpy().tolist() == [3.0, 12.0]  # the evaluator turned 3 into a tensor and raised


def test_law_revectorize_round_trip_regression():
    assert nbt.revectorize(nbt.iota((2, 3)), [], target_shape=(6,)).shape == (6,)  # raised


@pytest.mark.parametrize("path", ["numpy", "xla", "jit", "evaluator"])
def test_law_every_path_division_regression(path):
    out = _run(path, "divide-regression", lambda t: nbt.as_type(t, "f32") / 6, np.array([14.0, 14.0]))
    exla = np.float32(14) * (np.float32(1) / np.float32(6))  # XLA's a * (1 / b); NumPy gave 2.3333333
    assert out.to_numpy().tolist() == [exla] * 2
