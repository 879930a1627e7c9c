"""Nx's answers for element-wise math, casts, reductions, windows, FFTs and linalg, the same
on the four paths: eager NumPy, eager XLA, `nbt.defn` on XLA, the evaluator on NumPy."""

import math
import warnings

import numpy as np
import pytest

import numbat as nbt

PATHS = ["numpy", "xla", "defn", "evaluator"]
INF, NAN = float("inf"), float("nan")


def run(path, fun, *values, types=None):
    backend = nbt.NumPyBackend() if path in ("numpy", "evaluator") else nbt.XLABackend()
    types = types or [None] * len(values)
    tensors = [nbt.tensor(v, type=t, backend=backend) for v, t in zip(values, types)]
    with nbt.default_backend(backend), warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning, no DeprecationWarning
        if path == "defn":
            return nbt.defn(fun)(*tensors)
        if path == "evaluator":
            return nbt.defn(fun, compiler="evaluator")(*tensors)
        return fun(*tensors)


def values(tensor):
    return tensor.to_numpy().tolist()


@pytest.fixture(params=PATHS)
def path(request):
    return request.param


def test_norm_of_a_complex_vector_keeps_the_imaginary_parts(path):
    out = run(path, nbt.linalg.norm, [1 + 2j, 3 - 4j])
    assert str(out.type) == "f32" and math.isclose(nbt.to_number(out), math.sqrt(30), rel_tol=1e-6)


def test_all_close_of_infinities_and_of_the_smallest_s8(path):
    assert nbt.to_number(run(path, lambda a: nbt.all_close(a, a), [INF, -INF, 1.0])) == 1
    assert nbt.to_number(run(path, lambda a, b: nbt.all_close(a, b), [INF], [-INF])) == 0
    assert nbt.to_number(run(path, lambda a: nbt.all_close(a, a), [-128, 127], types=["s8"])) == 1


def test_as_type_of_a_python_float_keeps_its_value(path):
    out = run(path, lambda: nbt.as_type(1.0e-128, "f64"))
    assert str(out.type) == "f64" and nbt.to_number(out) == 1.0e-128
    assert nbt.to_number(run(path, lambda: nbt.as_type(1.0e-128, "f32"))) == 0.0


@pytest.mark.parametrize(
    "target, expected",
    [
        ("u8", [255, 0, 0, 255, 0, 2]),
        ("s32", [2**31 - 1, 0, -(2**31), 2**31 - 1, -5, 2]),
        ("s8", [127, 0, -128, 127, -5, 2]),
    ],
)
def test_as_type_of_non_finite_and_out_of_range_floats_saturates_as_nx(path, target, expected):
    out = run(path, lambda t: nbt.as_type(t, target), [INF, NAN, -INF, 3e10, -5.5, 2.9], types=["f64"])
    assert values(out) == expected


def test_complex_to_real_as_type_keeps_the_real_part_without_warnings(path):
    assert values(run(path, lambda t: nbt.as_type(t, "f64"), [1 + 2j, 0 + 3j])) == [1.0, 0.0]
    assert values(run(path, lambda t: nbt.as_type(t, "s64"), [-1 + 2j, 3 - 4j])) == [-1, 3]


@pytest.mark.parametrize("type_", ["f64", "c128"])
def test_conv_of_64_bit_types(path, type_):
    out = run(path, nbt.conv, [[[1.0, 2.0, 3.0]]], [[[1.0, 1.0]]], types=[type_, type_])
    assert str(out.type) == type_ and values(out) == [[[3.0, 5.0]]]
    exact = run(path, nbt.conv, [[[1.0, 1.0e-20]]], [[[1.0]]], types=[type_, type_])
    assert values(exact)[0][0][1] == 1.0e-20  # not rounded through 32 bits


def test_max_and_min_of_f8_e4m3fn(path):
    t = [1.0, -2.0, 0.5]
    assert values(run(path, nbt.reduce_max, t, types=["f8_e4m3fn"])) == 1.0
    assert values(run(path, nbt.reduce_min, t, types=["f8_e4m3fn"])) == -2.0
    assert values(run(path, lambda x: nbt.window_max(x, (2,)), t, types=["f8_e4m3fn"])) == [1.0, 0.5]
    assert values(run(path, lambda x: nbt.window_min(x, (2,), padding="same"), t, types=["f8_e4m3fn"])) == [
        -2.0,
        -2.0,
        0.5,
    ]


def test_rfft_of_f16(path):
    out = run(path, nbt.rfft, [1.0, 2.0, 3.0, 4.0], types=["f16"])
    assert str(out.type) == "c64" and values(out) == [10 + 0j, -2 + 2j, -2 + 0j]


def test_cbrt_of_a_subnormal_is_never_negative(path):
    out = values(run(path, nbt.cbrt, [1e-40, -1e-40, 8.0]))
    assert out[0] == 0.0 and out[1] == 0.0 and out[2] == 2.0  # XLA reads subnormals as zero


@pytest.mark.parametrize("type_", ["u32", "u64"])
def test_reduce_min_of_wide_unsigned_types(path, type_):
    assert values(run(path, nbt.reduce_min, [5, 2, 2**32 - 1], types=[type_])) == 2


def test_integer_pow_wraps_in_its_type(path):
    assert values(run(path, nbt.pow, [2, 3], [128, 5], types=["u8", "u8"])) == [0, 243 % 256]
    assert values(run(path, nbt.pow, [2, -3], [7, 3], types=["s8", "s8"])) == [-128, -27]


@pytest.mark.parametrize("path_", ["numpy", "xla", "evaluator"])
def test_integer_to_a_negative_integer_power_raises_as_in_nx(path_):
    with pytest.raises(nbt.ArgumentError, match="negative integer power"):
        run(path_, nbt.pow, [2], [-128], types=["s8", "s8"])
    with pytest.raises(nbt.ArgumentError, match="negative integer power"):
        run(path_, lambda t: nbt.pow(t, -1), [2])


def test_a_negative_constant_exponent_raises_inside_a_defn_on_xla_too():
    with pytest.raises(nbt.ArgumentError, match="negative integer power"):
        run("defn", lambda t: nbt.pow(t, -1), [2])


def test_phase_of_integers_is_computed_in_f32(path):
    out = run(path, nbt.phase, [-1, 1], types=["s8"])
    assert str(out.type) == "f32" and values(out) == [float(np.float32(math.pi)), 0.0]


def test_erfc_and_sigmoid_of_f8_e4m3fn(path):
    erfc = run(path, nbt.erfc, [0.5, -448.0], types=["f8_e4m3fn"])
    assert values(erfc) == [0.46875, 2.0]
    sigmoid = run(path, nbt.sigmoid, [-448.0, 0.0, 448.0], types=["f8_e4m3fn"])
    assert values(sigmoid) == [0.0, 0.5, 1.0]


def test_mean_of_complex_infinities(path):
    out = values(run(path, nbt.mean, [complex(INF, 1.0), complex(1.0, 1.0)]))
    assert out.real == INF and out.imag == 1.0


@pytest.mark.parametrize(
    "fun, expected_shape",
    [
        (lambda t: nbt.fft(t, length="power_of_two"), (8,)),
        (lambda t: nbt.ifft(t, length="power_of_two"), (8,)),
        (lambda t: nbt.rfft(t, length="power_of_two"), (5,)),
        (lambda t: nbt.fft2(nbt.reshape(t, (1, 5)), lengths="power_of_two"), (1, 8)),
        (lambda t: nbt.ifft2(nbt.reshape(t, (1, 5)), lengths=["power_of_two", 6]), (1, 6)),
        (lambda t: nbt.fft(t, eps=1e-3), (5,)),
    ],
)
def test_power_of_two_lengths_and_eps_for_every_fft(path, fun, expected_shape):
    assert run(path, fun, [1.0, 2.0, 3.0, 4.0, 5.0]).shape == expected_shape


def test_fft_types_follow_nx(path):
    assert str(run(path, nbt.fft, [1.0, 2.0], types=["f64"]).type) == "c128"
    assert str(run(path, nbt.rfft, [1, 2], types=["s32"]).type) == "c64"
    assert str(run(path, nbt.irfft, [1 + 0j, 2 + 0j], types=["c128"]).type) == "f64"
    assert str(run(path, nbt.irfft, [1.0, 2.0], types=["f16"]).type) == "f16"
    with pytest.raises(nbt.ArgumentError, match="lengths must be 1 positive ints"):
        run(path, lambda t: nbt.irfft(t, length="power_of_two"), [1.0, 2.0])


def test_linalg_types_and_nx_cases(path):
    p, _l, _u = run(path, nbt.linalg.lu, [[1, 2], [3, 4]])
    assert str(p.type) == "s32" and values(p) == [[0, 1], [1, 0]]
    assert str(run(path, nbt.linalg.lu, [[1.0, 2.0], [3.0, 4.0]])[0].type) == "f32"
    rank = run(path, nbt.linalg.matrix_rank, [[1, 1, 1], [2, 2, 2], [8, 9, 10], [-2, 1, 5]])
    assert str(rank.type) == "u32" and values(rank) == 3
    assert values(run(path, nbt.linalg.pinv, 2)) == 0.5
    assert values(run(path, nbt.linalg.pinv, 0)) == 0.0
    np.testing.assert_allclose(values(run(path, nbt.linalg.pinv, [0, 1, 2])), [0.0, 0.2, 0.4], rtol=1e-6)
    inverse = values(run(path, nbt.linalg.invert, [[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 1, 1]]))
    assert np.isnan(inverse).all()  # Nx: a singular matrix "silently fails" with NaNs


def test_least_squares_takes_what_nx_takes(path):
    out = run(path, nbt.linalg.least_squares, [[1, 2, 3], [4, 5, 6]], [1, 2])
    np.testing.assert_allclose(values(out), [-0.055555582, 0.111111075, 0.27777776], atol=1e-6)
    with pytest.raises(nbt.ArgumentError, match="b must be a vector"):
        run(path, nbt.linalg.least_squares, [[1, 2], [2, 3]], [[1, 2], [3, 4]])
    with pytest.raises(nbt.ArgumentError, match="not implemented for complex"):
        run(path, nbt.linalg.least_squares, [[1, 2j], [3, -4j]], [1, 2])


def test_linalg_eps_and_max_iter_options(path):
    almost = [[1.0, 0.0], [0.0, 1e-5]]
    assert values(run(path, lambda t: nbt.linalg.matrix_rank(t, eps=1e-3), almost)) == 1
    assert values(run(path, lambda t: nbt.linalg.matrix_rank(t, eps=1e-7), almost)) == 2
    pinv = values(run(path, lambda t: nbt.linalg.pinv(t, eps=1e-3), almost))
    assert pinv == [[1.0, 0.0], [0.0, 0.0]]
    run(path, lambda t: nbt.linalg.svd(t, max_iter=10)[1], almost)
    run(path, lambda t: nbt.linalg.eigh(t, max_iter=10, eps=1e-6)[0], almost)
    run(path, lambda t: nbt.linalg.qr(t, eps=1e-6)[0], almost)
    with pytest.raises(nbt.ArgumentError, match="max_iter must be a positive int"):
        run(path, lambda t: nbt.linalg.svd(t, max_iter=0)[1], almost)


@pytest.mark.parametrize(
    "fun",
    [nbt.exp, nbt.cos, nbt.cosh, nbt.log10, nbt.expm1, nbt.acos, nbt.atanh, nbt.sqrt, nbt.abs, nbt.sigmoid],
    ids=lambda f: f.__name__,
)
def test_complex_special_values_are_xla_s_on_every_path(path, fun):
    # C99 (NumPy's own answer) differs from XLA's here, e.g. exp(inf+nanj) is inf+nanj in C99.
    z = [complex(INF, NAN), complex(INF, INF), complex(-INF, 1.0), complex(NAN, 0.0), complex(0.0, INF), 1 + 2j]
    want = run("xla", fun, z).to_numpy()
    got = run(path, fun, z).to_numpy()
    np.testing.assert_array_equal(got, want)
    if fun is nbt.exp:
        assert np.isnan(got[0].real) and np.isnan(got[0].imag)  # XLA's, not C99's inf+nanj


def test_complex_divide_and_pow_special_values_are_xla_s(path):
    a, b = [complex(INF, 1.0), 1 + 1j, complex(NAN, 0.0)], [complex(0.0, INF), complex(INF, INF), 2 + 0j]
    for fun in (nbt.divide, nbt.pow):
        np.testing.assert_array_equal(run(path, fun, a, b).to_numpy(), run("xla", fun, a, b).to_numpy())


def test_window_mean_of_complex_infinities_divides_part_by_part(path):
    out = run(path, lambda t: nbt.window_mean(t, (2,)), [complex(INF, 0.0), 1 + 0j, 2 + 0j])
    assert values(out) == [complex(INF, 0.0), 1.5 + 0j]


@pytest.mark.parametrize(
    "fun",
    [
        lambda t: nbt.window_max(t, (1,)),
        lambda t: nbt.window_min(t, (1,)),
        lambda t: nbt.window_scatter_max(t, t, 0, (1,)),
        lambda t: nbt.clip(t, 0, 1),
        lambda t: nbt.complex(t, t),
    ],
    ids=["window_max", "window_min", "window_scatter_max", "clip", "complex"],
)
def test_orderings_and_complex_of_complex_tensors_raise_as_in_nx(path, fun):
    with pytest.raises(nbt.ArgumentError, match="not defined for complex tensors"):
        run(path, fun, [1 + 2j])


@pytest.mark.parametrize("fun", [nbt.median, nbt.mode])
@pytest.mark.parametrize("keep_axis", [np.array([1, 2]), 10**9, "yes"])
def test_median_and_mode_refuse_a_keep_axis_that_is_not_a_bool(fun, keep_axis):
    with pytest.raises(nbt.ArgumentError, match="keep_axis must be True or False"):
        fun(nbt.tensor([1, 2, 3]), axis=0, keep_axis=keep_axis)
