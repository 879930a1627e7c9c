"""Nx's answers for indexing, shape, structure, creation and sorting (issue 16), each on
the four paths: eager NumPy, eager XLA, a defn on XLA and the evaluator on NumPy."""

import inspect

import numpy as np
import pytest

import numbat as nbt

PATHS = ["numpy", "xla", "defn", "evaluator"]


def run(path, fun, *make):
    """`fun(*inputs)` on `path`; each input is built by a `make` callable on that path's backend."""
    backend = nbt.XLABackend() if path in ("xla", "defn") else nbt.NumPyBackend()
    with nbt.default_backend(backend):
        inputs = [m() for m in make]
        if path == "defn":
            return nbt.defn(fun)(*inputs)
        if path == "evaluator":
            return nbt.defn(fun, compiler="evaluator")(*inputs)
        return fun(*inputs)


def check(result, type_, values, names=None):
    assert str(result.type) == type_
    if names is not None:
        assert result.names == names
    actual, expected = result.to_numpy(), np.asarray(values, dtype=result.type.dtype)
    if not result.type.is_integer:  # bf16/f8 NaNs compare equal only as NumPy floats
        wide = np.complex128 if result.type.is_complex else np.float64
        actual, expected = actual.astype(wide), expected.astype(wide)
    np.testing.assert_array_equal(actual, expected)


@pytest.fixture(params=PATHS)
def path(request):
    return request.param


def test_negative_steps_follow_python_slicing(path):
    check(run(path, lambda t: t[::-1], lambda: nbt.iota((5,))), "s32", [4, 3, 2, 1, 0])
    check(run(path, lambda t: t[3:0:-2], lambda: nbt.iota((5,))), "s32", [3, 1])
    check(run(path, lambda t: t[:, ::-2], lambda: nbt.iota((2, 3))), "s32", [[2, 0], [5, 3]])


@pytest.mark.parametrize(("index", "message"), [(np.s_[::0], "step cannot be zero"), (np.s_[:, None], "nbt.new_axis")])
def test_bad_slices_are_numbat_errors(path, index, message):
    with pytest.raises(nbt.ArgumentError, match=message):
        run(path, lambda t: t[index], lambda: nbt.iota((5,)))


def test_scalar_tensor_indices_clamp_as_nx(path):
    check(run(path, lambda t, i: t[i], lambda: nbt.iota((5,)), lambda: nbt.tensor(7)), "s32", 4)
    check(run(path, lambda t, i: t[i][i], lambda: nbt.tensor([[1, 2], [3, 4]]), lambda: nbt.tensor(-1)), "s32", 1)
    check(run(path, lambda t, i: t[1, i], lambda: nbt.iota((2, 5)), lambda: nbt.tensor(2)), "s32", 7)


def test_out_of_range_gathers_clamp_and_scatters_drop(path):
    indices = lambda: nbt.tensor([0, 7, -1, 4])
    check(run(path, lambda t, i: nbt.take(t, i), lambda: nbt.iota((5,)), indices), "s32", [0, 4, 0, 4])
    check(run(path, lambda t, i: nbt.take_along_axis(t, i), lambda: nbt.iota((5,)), indices), "s32", [0, 4, 0, 4])
    column = lambda: nbt.tensor([[0], [7], [-1], [4]])
    check(run(path, lambda t, i: nbt.gather(t, i), lambda: nbt.iota((5,)), column), "s32", [0, 4, 0, 4])
    ones = lambda: nbt.tensor([1, 1, 1, 1])
    check(run(path, nbt.indexed_add, lambda: nbt.iota((5,)), column, ones), "s32", [1, 1, 2, 3, 5])
    check(run(path, nbt.indexed_put, lambda: nbt.iota((5,)), column, ones), "s32", [1, 1, 2, 3, 1])
    start = lambda: nbt.tensor(9)
    check(run(path, lambda t, s: nbt.slice(t, [s], [2]), lambda: nbt.iota((5,)), start), "s32", [3, 4])
    check(
        run(path, lambda t, s: nbt.put_slice(t, [s], nbt.tensor([8, 9])), lambda: nbt.iota((4,)), start),
        "s32",
        [0, 1, 8, 9],
    )


@pytest.mark.parametrize(
    ("type_", "values"),
    [
        ("s8", [-128, 127, 2]),
        ("u8", [255, 2, 0]),
        ("s16", [-32768, 32767, 1]),
        ("u16", [65535, 3, 1]),
        ("s32", [-(2**31), 2**31 - 1, 2]),
        ("u32", [2**32 - 1, 2**31, 1]),
        ("s64", [2**32 + 1, -(2**40), 2**31]),
        ("u64", [2**64 - 1, 2**32 + 1, 2]),
    ],
)
def test_gather_clamps_extreme_indices_of_every_integer_type(path, type_, values):
    """XLA's gather clamps in the indices' own type: no wrap of 64-bit or unsigned extremes."""
    expected = np.clip(np.asarray(values, dtype=object), 0, 4).astype(np.int64) * 3
    make = lambda: nbt.tensor([[v] for v in values], type=type_)
    result = run(path, lambda t, i: nbt.gather(t, i), lambda: nbt.iota((5, 3)), make)
    check(result, "s32", np.stack([expected, expected + 1, expected + 2], axis=1))


@pytest.mark.parametrize(
    ("type_", "value", "start"),
    [
        ("s64", 2**32 + 1, 7),
        ("s64", -(2**40), 0),
        ("u64", 2**64 - 1, 7),
        ("u32", 2**32 - 1, 7),
        ("s8", -5, 0),
        ("u8", 200, 7),
    ],
)
def test_slice_starts_clamp_in_their_own_type(path, type_, value, start):
    """A start tensor of any integer type clamps so the slice fits (no 32-bit wrap)."""
    make = lambda: nbt.tensor(value, type=type_)
    check(
        run(path, lambda t, s: nbt.slice(t, [s], [3]), lambda: nbt.iota((10,)), make),
        "s32",
        [start, start + 1, start + 2],
    )
    put = run(path, lambda t, s: nbt.put_slice(t, [s], nbt.tensor([70, 80, 90])), lambda: nbt.iota((10,)), make)
    expected = np.arange(10)
    expected[start : start + 3] = [70, 80, 90]
    check(put, "s32", expected)


def test_slice_starts_of_several_types_clamp_each(path):
    starts = lambda: nbt.tensor(2**64 - 1, type="u64"), lambda: nbt.tensor(-3, type="s8")
    window = run(path, lambda t, a, b: nbt.slice(t, [a, b], [2, 2]), lambda: nbt.iota((4, 5)), *starts)
    check(window, "s32", [[10, 11], [15, 16]])


def test_gather_with_no_index_per_position_repeats_the_tensor(path):
    result = run(
        path, lambda t, i: nbt.gather(t, i, axes=[]), lambda: nbt.iota((2,), names=["x"]), lambda: nbt.iota((3, 0))
    )
    check(result, "s32", [[0, 1]] * 3, names=(None, "x"))


def test_u64_and_huge_ints():
    check(nbt.tensor([0, 5, 2**64 - 1], type="u64"), "u64", np.array([0, 5, 2**64 - 1], dtype=np.uint64))
    assert str(nbt.tensor([0, 2**64 - 1]).type) == "u64"
    with pytest.raises(nbt.ArgumentError, match=r"u64 0\.\.18446744073709551615"):
        nbt.tensor(2**64)
    assert nbt.to_number(nbt.tensor(2**64, type="f64")) == float(2**64)
    assert nbt.to_number(nbt.tensor(1e-128, type="f64")) == 1e-128


NAN, INF = float("nan"), float("inf")


@pytest.mark.parametrize(
    ("values", "type_", "direction", "expected"),
    [
        ([0, 127, -128, 5], "s8", "desc", [127, 5, 0, -128]),
        ([0, 2**64 - 1, 5], "u64", "desc", [2**64 - 1, 5, 0]),
        ([0, 2**32 - 1, 5], "u32", "desc", [2**32 - 1, 5, 0]),
        ([NAN, -INF, 0.0, INF], "f32", "asc", [-INF, 0.0, INF, NAN]),
        ([NAN, -INF, 0.0, INF], "f32", "desc", [NAN, INF, 0.0, -INF]),
        ([NAN, -INF, 1.0, INF], "bf16", "asc", [-INF, 1.0, INF, NAN]),
        ([NAN, -1.0, 1.0, 0.5], "f8_e4m3fn", "desc", [NAN, 1.0, 0.5, -1.0]),
    ],
)
def test_sorts_in_nx_order(path, values, type_, direction, expected):
    make = lambda: nbt.tensor(values, type=type_)
    check(run(path, lambda t: nbt.sort(t, direction=direction), make), type_, expected)
    order = run(path, lambda t: nbt.argsort(t, direction=direction, stable=True), make)
    np.testing.assert_array_equal(
        np.asarray(values, dtype=make().type.dtype)[order.to_numpy()].astype(float), np.asarray(expected, dtype=float)
    )


def test_argsort_and_top_k_follow_nx_docs(path):
    make = lambda: nbt.tensor([NAN, -INF, INF, 0.0])
    check(run(path, nbt.argsort, make), "s32", [1, 3, 2, 0])
    check(run(path, lambda t: nbt.argsort(t, direction="desc"), make), "s32", [0, 2, 3, 1])
    check(run(path, lambda t: nbt.top_k(t, k=3)[1], make), "s32", [0, 2, 3])
    check(run(path, lambda t: nbt.argsort(t, type="u32"), lambda: nbt.tensor([3, 1, 2])), "u32", [1, 2, 0])


NEGATIVE_NAN = -np.float32("nan")  # its sign bit set: the smallest float in total order, the largest in Nx's


@pytest.mark.parametrize("type_", ["f32", "f16", "bf16", "f64"])
@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([[1.0, 3.0, NAN, 3.0, -0.0, 0.0]], [[2, 1, 3]]),  # a NaN: the canonical path
        ([[1.0, NEGATIVE_NAN, 5.0, 2.0, 4.0, 0.0]], [[1, 2, 4]]),  # a NaN whose sign bit is set
        ([[-1.0, -0.0, -2.0, 0.0, -3.0, -4.0]], [[1, 3, 0]]),  # -0.0 and 0.0 tie: the lower index first
        ([[1.0, 5.0, 2.0, 4.0, 3.0, 0.0], [NEGATIVE_NAN, 1.0, 2.0, 3.0, 4.0, 5.0]], [[1, 3, 4], [0, 5, 4]]),
        ([[1.0, 5.0, 2.0, 4.0, 3.0, -1.0]], [[1, 3, 4]]),  # nothing special: lax.top_k as it is
    ],
)
def test_top_k_picks_in_nx_order(path, type_, rows, expected):
    make = lambda: nbt.tensor(np.asarray(rows, np.float32), type=type_)
    values, indices = run(path, lambda t: nbt.top_k(t, k=3), make)
    check(indices, "s32", expected)
    picked = np.take_along_axis(np.asarray(rows, np.float32), np.asarray(expected), axis=-1)
    check(values, type_, picked)
    assert np.array_equal(np.signbit(values.to_numpy().astype(np.float32)), np.signbit(picked))


@pytest.mark.parametrize("type_", ["f32", "f64", "bf16"])
@pytest.mark.parametrize("position", [0, 2_500, 4_999])
def test_max_and_min_of_many_values_keep_a_nan(path, type_, position):
    """Nx's reduce_max/min and window_max/min give NaN for a group holding one, however large
    (XLA's CPU reductions of 5,000 values or more lose it); the other groups are exact."""
    values = np.linspace(-1.0, 1.0, 5_000)
    values[position] = -np.nan
    make = lambda: nbt.tensor(values, type=type_)
    expected_rows = values.astype(make().type.dtype).astype(np.float64).reshape(100, 50)
    for fun, reduce in ((nbt.reduce_max, np.max), (nbt.reduce_min, np.min)):
        check(run(path, fun, make), type_, np.nan)
        rows = run(path, lambda t, fun=fun: fun(nbt.reshape(t, (100, 50)), axes=[1]), make)
        check(rows, type_, reduce(expected_rows, axis=1))
        columns = run(path, lambda t, fun=fun: fun(nbt.reshape(t, (100, 50)), axes=[0]), make)
        check(columns, type_, reduce(expected_rows, axis=0))
    for fun, reduce in ((nbt.window_max, np.max), (nbt.window_min, np.min)):
        pooled = run(path, lambda t, fun=fun: fun(nbt.reshape(t, (100, 50)), (2, 5), strides=[2, 5]), make)
        blocks = expected_rows.reshape(50, 2, 10, 5)
        check(pooled, type_, reduce(blocks, axis=(1, 3)))


@pytest.mark.parametrize("position", [0, 2_500, 4_999])
def test_logsumexp_of_many_values_keeps_a_nan_without_the_check(path, position):
    """logsumexp's max (`shift_max`) skips the NaN check: a row holding a NaN is NaN through
    `exp`, whatever that max says, and the other rows are exact."""
    values = np.linspace(-1.0, 1.0, 5_000)
    values[position] = -np.nan
    rows = values.reshape(100, 50)
    with np.errstate(invalid="ignore"):
        expected = np.log(np.sum(np.exp(rows - np.max(rows, axis=1, keepdims=True)), axis=1)) + np.max(rows, axis=1)
    make = lambda: nbt.tensor(values, type="f64")
    check(run(path, nbt.logsumexp, make), "f64", np.nan)
    result = run(path, lambda t: nbt.logsumexp(nbt.reshape(t, (100, 50)), axes=[1]), make).to_numpy()
    np.testing.assert_allclose(result, expected, rtol=1e-12)
    if path == "defn":  # the check is a `case` in the program: reduce_max's, not logsumexp's
        tensor = nbt.tensor(values, backend=nbt.XLABackend())
        assert "stablehlo.case" in nbt.xla.to_mlir_module(nbt.reduce_max, [tensor])
        assert "stablehlo.case" not in nbt.xla.to_mlir_module(nbt.logsumexp, [tensor])


@pytest.mark.parametrize("position", [0, 70_000, 2**17 - 1])
def test_top_k_finds_one_nan_in_many_values(path, position):
    """Large inputs check for a NaN over rows of the data: one anywhere is found."""
    values = np.linspace(-1.0, 1.0, 2**17, dtype=np.float32)
    values[position] = NEGATIVE_NAN
    check(
        run(path, lambda t: nbt.top_k(t, k=2)[1], lambda: nbt.tensor(values)),
        "s32",
        [position, 2**17 - 1 - (position == 2**17 - 1)],
    )


@pytest.mark.parametrize("tie_break", ["low", "high"])
@pytest.mark.parametrize("type_", [None, "u8", "s64"])
def test_argmax_and_argmin_pick_nan_and_break_ties_on_every_path(path, tie_break, type_):
    rows = [[1.0, 3.0, 3.0, -1.0, -1.0], [2.0, NAN, 0.0, NAN, 5.0]]
    pick = (lambda order: order[0]) if tie_break == "low" else (lambda order: order[-1])
    options = {"axis": 1, "tie_break": tie_break} | ({"type": type_} if type_ else {})
    top = run(path, lambda t: nbt.argmax(t, **options), lambda: nbt.tensor(rows))
    bottom = run(path, lambda t: nbt.argmin(t, keep_axis=True, **options), lambda: nbt.tensor(rows))
    check(top, type_ or "s32", [pick([1, 2]), pick([1, 3])])  # NaN is the largest, and the smallest
    check(bottom, type_ or "s32", [[pick([3, 4])], [pick([1, 3])]])


def test_cumulative_max_of_bf16_keeps_nan(path):
    result = run(path, nbt.cumulative_max, lambda: nbt.tensor([1.0, NAN, 3.0], type="bf16"))
    check(result, "bf16", [1.0, NAN, NAN])


def test_nx_structure_semantics(path):
    check(run(path, lambda t: nbt.split(t, 2)[1], lambda: nbt.iota((3, 2))), "s32", [[4, 5]])
    check(run(path, lambda t: nbt.split(t, 0.75, axis=1)[0], lambda: nbt.iota((1, 4))), "s32", [[0, 1, 2]])
    check(
        run(path, lambda t: nbt.tile(t, [2]), lambda: nbt.tensor([[1, 2], [3, 4]])), "s32", [[1, 2, 1, 2], [3, 4, 3, 4]]
    )
    nested = lambda a, b: nbt.concatenate((a, (b, a)))
    check(run(path, nested, lambda: nbt.tensor([1]), lambda: nbt.tensor([2])), "s32", [1, 2, 1])
    check(
        run(path, lambda a, b: nbt.stack({"b": b, "a": (a,)}), lambda: nbt.tensor([1]), lambda: nbt.tensor([2])),
        "s32",
        [[1], [2]],
    )
    named = lambda name: lambda: nbt.tensor([1, 0], names=[name])
    check(run(path, nbt.select, named("p"), named("x"), named("y")), "s32", [1, 0], ("p",))
    check(
        run(path, lambda t: nbt.broadcast(t, (2, 2)), lambda: nbt.iota((2, 2), names=["x", "y"])),
        "s32",
        [[0, 1], [2, 3]],
        (None, None),
    )
    check(run(path, nbt.outer, named("a"), named("b")), "s32", [[1, 0], [0, 0]], ("a", "b"))
    check(run(path, lambda a, b: nbt.outer(a, b), lambda: nbt.tensor([1j]), lambda: nbt.tensor([1j])), "c64", [[1]])
    take = run(path, lambda t: nbt.take(t, nbt.tensor([1, 0]), axis="x"), lambda: nbt.iota((2, 2), names=["x", "y"]))
    check(take, "s32", [[2, 3], [0, 1]], ("x", "y"))


def test_linspace_fill_diff_and_limits(path):
    check(run(path, lambda: nbt.linspace(0, 24, 8, type="s32", endpoint=False)), "s32", [0, 3, 6, 9, 12, 15, 18, 21])
    bounds = run(
        path,
        lambda a, b: nbt.linspace(a, b, 3, type="f64"),
        lambda: nbt.tensor([0.0, 1.0]),
        lambda: nbt.tensor([1.0, 3.0]),
    )
    check(bounds, "f64", [[0.0, 0.5, 1.0], [1.0, 2.0, 3.0]])
    check(run(path, lambda t: nbt.fill(t, 0.5), lambda: nbt.iota((2,))), "f32", [0.5, 0.5])
    check(run(path, lambda t: nbt.fill(t, 1, type="u8"), lambda: nbt.iota((2,))), "u8", [1, 1])
    check(run(path, lambda t: nbt.diff(t, order=2), lambda: nbt.tensor([1, 2, 4, 7, 0])), "s32", [1, 1, -10])
    check(run(path, lambda t: nbt.argmax(t, type="u8"), lambda: nbt.tensor([1, 3, 2])), "u8", 1)
    check(run(path, lambda t: nbt.argmin(t, type="s64"), lambda: nbt.tensor([1, 3, 0])), "s64", 2)
    assert nbt.to_flat_list(nbt.tensor([1.0, 2.0, 3.0]), limit=2) == [1.0, 2.0]
    assert nbt.to_binary(nbt.tensor([1, 2, 3], type="u8"), limit=1) == b"\x01"


def test_unknown_options_are_numbat_errors(path):
    with pytest.raises(
        nbt.ArgumentError, match=r"sort: unknown option 'dirction'; sort takes tensor, axis, direction, stable"
    ):
        run(path, lambda t: nbt.sort(t, dirction="desc"), lambda: nbt.iota((3,)))
    with pytest.raises(nbt.ArgumentError, match=r"linalg.qr: unknown option 'foo'"):
        run(path, lambda t: nbt.linalg.qr(t, foo=1), lambda: nbt.eye(2, type="f32"))


def test_every_public_op_is_guarded_and_keeps_its_signature():
    unguarded = []
    for name in dir(nbt):
        value = getattr(nbt, name)
        if not inspect.isfunction(value) or not value.__module__.startswith("numbat._ops."):
            continue
        takes_any = any(p.kind is p.VAR_KEYWORD for p in inspect.signature(value).parameters.values())
        if not getattr(value, "__numbat_guarded__", False) and not takes_any:
            unguarded.append(name)
    assert unguarded == []
    assert str(inspect.signature(nbt.sort)) == "(tensor, axis=0, direction='asc', stable=False)"
    assert nbt.sort.__doc__.startswith("The elements sorted")
    with pytest.raises(TypeError):  # a TypeError that is not about an unknown keyword stays one
        nbt.sort(nbt.iota((2,)), 0, "asc", False, "extra")
