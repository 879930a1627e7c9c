"""Issue 40: what Nx users' programs met on numbat (value_and_grad's value, nested defns
under the Evaluator, global defaults, revectorize with no axes, errors that point the
right way, paths that agree). Each test failed before its fix."""

import dataclasses
import typing
import warnings

import numpy as np
import pytest

import numbat as nbt


def test_value_and_grad_returns_the_output_itself_as_nx():
    value, gradient = nbt.value_and_grad(lambda t: t * t)(nbt.tensor([1.0, 3.0]))
    assert value.shape == (2,) and value.to_numpy().tolist() == [1.0, 9.0]
    assert gradient.to_numpy().tolist() == [2.0, 6.0]


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_value_and_grad_inside_a_defn_returns_the_output(compiler):
    run = nbt.defn(lambda x: nbt.value_and_grad(lambda t: t * t)(x), compiler=compiler)
    value, gradient = run(nbt.tensor([1.0, 3.0]))
    assert value.to_numpy().tolist() == [1.0, 9.0] and gradient.to_numpy().tolist() == [2.0, 6.0]


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_value_and_grad_transform_is_nx_three_argument_form(compiler):
    def fun(t):
        return nbt.sum(t * t), t + 1  # a loss and its auxiliary output

    run = nbt.defn(lambda x: nbt.value_and_grad(fun, transform=lambda out: out[0])(x), compiler=compiler)
    (loss, aux), gradient = run(nbt.tensor([1.0, 2.0]))
    assert nbt.to_number(loss) == 5.0
    assert aux.to_numpy().tolist() == [2.0, 3.0]
    assert gradient.to_numpy().tolist() == [2.0, 4.0]


def test_value_and_grad_transform_must_be_a_function():
    with pytest.raises(nbt.ArgumentError, match="transform"):
        nbt.value_and_grad(lambda t: t, transform=3)


def test_a_tuple_output_without_transform_is_still_refused():
    with pytest.raises(nbt.ArgumentError, match="expected a tensor or a number"):
        nbt.value_and_grad(lambda t: (t, t))(nbt.tensor(1.0))


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_a_nested_defn_keeps_the_callers_python_numbers(compiler):
    inner = nbt.defn(lambda x, n: nbt.broadcast(x, (n,)), compiler=compiler)
    outer = nbt.defn(lambda x: inner(x, 3), compiler=compiler)
    assert outer(nbt.tensor(1.0)).shape == (3,)


def test_a_nested_defn_under_the_evaluator_on_the_numpy_backend():
    inner = nbt.defn(lambda x, n: nbt.broadcast(x, (n,)) * n, compiler="evaluator")
    outer = nbt.defn(lambda x: inner(x, 2), compiler="evaluator")
    with nbt.default_backend(nbt.NumPyBackend()):
        out = outer(nbt.tensor(1.5))
    assert out.to_numpy().tolist() == [3.0, 3.0]


def test_global_default_options_reach_an_existing_defn():
    double = nbt.defn(lambda t: t * 2)
    pinned = nbt.defn(lambda t: t * 2, compiler="xla")
    assert double(nbt.tensor(1.0)).to_numpy() == 2.0  # compiled under the old defaults
    previous = nbt.global_default_defn_options(compiler="evaluator")
    try:
        assert double.compiler == "evaluator"
        assert pinned.compiler == "xla"  # an option given to defn wins
        assert double(nbt.tensor(2.0)).to_numpy() == 4.0
    finally:
        nbt.global_default_defn_options(previous)
    assert double.compiler == "xla"


@pytest.mark.parametrize("axes", [[], ()])
def test_revectorize_with_no_axes_reshapes(axes):
    out = nbt.revectorize(nbt.iota((2, 3)), axes, target_shape=(6,))
    assert out.shape == (6,) and out.vectorized_axes == ()
    assert out.to_numpy().tolist() == list(range(6))


def test_revectorize_with_a_plain_tensors_own_axes():
    t = nbt.vectorize(nbt.iota((2, 3)), "x")
    out = nbt.revectorize(t, nbt.iota((1,)).vectorized_axes, target_shape=(3, 2))
    assert out.shape == (3, 2) and out.vectorized_axes == ()


def _error(fun, *args, **kwargs) -> str:
    with pytest.raises(nbt.ArgumentError) as info:
        fun(*args, **kwargs)
    return str(info.value)


def test_python_and_on_tensors_suggests_bitwise_operators():
    @nbt.defn
    def both(x, y):
        return (x > 0) and (y < 2)

    message = _error(both, nbt.tensor([1.0, 2.0]), nbt.tensor([1.0, 2.0]))
    assert "`&`, `|` and nbt.logical_not" in message


def test_numpy_function_inside_a_defn_suggests_the_numbat_op():
    @nbt.defn
    def exp(x):
        return np.exp(x)

    assert "np.exp(t) is nbt.exp(t)" in _error(exp, nbt.tensor([1.0, 2.0]))


def test_a_ragged_list_of_arrays_says_it_is_a_container():
    @nbt.defn
    def add(x, y):
        return x + y

    assert "nbt.stack" in _error(add, nbt.tensor(1.0), [np.zeros(2), np.zeros(3)])


def test_a_tensor_passed_as_keyword_says_options_are_static():
    @nbt.defn
    def add(x, y):
        return x + y

    message = _error(add, nbt.tensor(1.0), y=nbt.tensor(2.0))
    assert "keyword arguments are static options" in message and "positionally" in message


NX_TYPES = ["u2", "u4", "u8", "u16", "u32", "u64", "s2", "s4", "s8", "s16", "s32", "s64"]
NX_TYPES += ["f8", "f16", "f32", "f64", "bf16", "c64", "c128"]


def test_nx_has_nineteen_shorthand_constructors_and_so_does_numbat():
    assert len(NX_TYPES) == 19
    for name in NX_TYPES:
        t = getattr(nbt, name)([0, 1], names=["x"])
        assert str(t.type) == name and t.names == ("x",) and t.to_numpy().tolist() == [0, 1]
        assert name in nbt.__all__


def test_shorthand_constructors_take_a_backend():
    t = nbt.u8(3, backend=nbt.NumPyBackend())
    assert isinstance(t.backend, nbt.NumPyBackend) and str(t.type) == "u8"


@pytest.mark.parametrize(
    ("left", "right", "merged"),
    [("u8", "s8", "s16"), ("s64", "f32", "f32"), ("f16", "bf16", "f16"), ("f64", "c64", "c128"), ("u32", "u8", "u32")],
)
def test_type_merge_is_nx_type_merge(left, right, merged):
    assert str(nbt.Type(*_parse(left)).merge(right)) == merged


def _parse(name):
    t = getattr(nbt, name)(0)
    return tuple(t.type)


def test_type_helpers_are_nx_type_helpers():
    s8, f64, c64, bf16 = (getattr(nbt, n)(0).type for n in ("s8", "f64", "c64", "bf16"))
    assert str(s8.to_floating()) == "f32" and str(bf16.to_floating()) == "bf16"
    assert str(f64.to_complex()) == "c128" and str(s8.to_complex()) == "c64"
    assert str(c64.to_real()) == "f32" and str(s8.to_real()) == "s8"
    assert s8.is_integer and not s8.is_float and bf16.is_float and not c64.is_float


def test_f8_is_nx_8_bit_float_and_numpys_codes_are_refused():
    # DELIBERATE (docs/nx_to_numbat.md): "f8" is Nx's type name, used by Nx's doctests; NumPy's
    # "f4" and "i4" name no Nx type and are refused with the Nx spelling.
    assert nbt.tensor(1.5, type="f8").type.bits == 8
    with pytest.raises(nbt.ArgumentError, match="'f32'"):
        nbt.tensor(1.0, type="f4")


def test_conv_with_permutations_keeps_the_names_as_exla():
    image = nbt.iota((8, 12, 12, 3), type="f32", names=["batch", "height", "width", "channels"])
    kernel = nbt.iota((6, 3, 2, 2), type="f32")
    nchw = ["batch", "channels", "height", "width"]
    out = nbt.conv(image, kernel, input_permutation=nchw, output_permutation=nchw)
    assert out.names == ("batch", "height", "width", "channels") and out.shape == (8, 11, 11, 6)
    default = nbt.conv(image, kernel, input_permutation=nchw)  # EXLA's conv_writes_default_output
    assert default.names == ("batch", "channels", "height", "width")


def test_backend_transfer_frees_the_device_tensor_as_nx():
    device = nbt.tensor([1, 2], backend=nbt.XLABackend())
    host = nbt.backend_transfer(device, nbt.NumPyBackend())
    assert host.to_numpy().tolist() == [1, 2]
    with pytest.raises(nbt.ArgumentError, match="moved away by nbt.backend_transfer"):
        nbt.backend_transfer(device, nbt.NumPyBackend())
    kept = nbt.tensor([1, 2], backend=nbt.XLABackend())
    nbt.backend_copy(kept, nbt.NumPyBackend())
    assert kept.to_numpy().tolist() == [1, 2]  # backend_copy leaves the original


def test_a_defn_does_not_free_its_arguments_when_it_moves_them():
    host = nbt.tensor([1.0, 2.0], backend=nbt.NumPyBackend())
    device = nbt.tensor([1.0, 2.0], backend=nbt.XLABackend())
    assert nbt.jit(lambda a, b: a + b)(device, host).to_numpy().tolist() == [2.0, 4.0]
    assert device.to_numpy().tolist() == [1.0, 2.0]


@pytest.mark.parametrize("path", ["numpy", "xla", "jit", "evaluator", "vectorized"])
def test_division_by_a_number_is_exlas_on_every_path(path):
    # XLA rewrites a / broadcast(b) as a * broadcast(1 / b): 14 / 6 is 2.3333335 there (EXLA's
    # answer), 2.3333333 in Nx's BinaryBackend. numbat's NumPy backend gave the BinaryBackend's.
    exla = np.float32(14) * (np.float32(1) / np.float32(6))
    assert exla == np.float32(2.3333335)
    fun = lambda t: nbt.divide(t, 6)
    backend = nbt.NumPyBackend() if path == "numpy" else nbt.XLABackend()
    t = nbt.tensor([14, 14], backend=backend)
    if path == "jit":
        out = nbt.jit(fun)(t)
    elif path == "evaluator":
        out = nbt.defn(fun, compiler="evaluator")(t)
    elif path == "vectorized":
        out = nbt.devectorize(fun(nbt.vectorize(nbt.tensor([[14, 14]], backend=nbt.NumPyBackend()), "x")))
    else:
        out = fun(t)
    assert out.to_numpy().reshape(-1).tolist() == [exla] * 2


@pytest.mark.parametrize("type_name", ["f64", "f32", "f16", "bf16", "f8", "f8_e4m3fn"])
def test_division_by_a_broadcast_divisor_agrees_between_backends(type_name):
    x = np.random.default_rng(0).uniform(-100, 100, (30, 100))
    results = []
    for backend in (nbt.NumPyBackend(), nbt.XLABackend()):
        left = nbt.tensor(x, type=type_name, backend=backend)
        results.append([nbt.divide(left, 7).to_numpy(), nbt.divide(left, left[0]).to_numpy(), (left / left).to_numpy()])
    for numpy_result, xla_result in zip(*results):  # NaN equal to NaN (e4m3fn has no infinities)
        np.testing.assert_array_equal(numpy_result.astype(np.float64), xla_result.astype(np.float64))


@pytest.mark.parametrize("backend", [nbt.NumPyBackend, nbt.XLABackend])
def test_a_number_beyond_f16_leaks_no_warning(backend):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = nbt.add(nbt.tensor([1.0], type="f16", backend=backend()), 2**70)
    assert out.to_numpy().tolist() == [float("inf")]


@pytest.mark.parametrize("op", [nbt.left_shift, nbt.right_shift])
@pytest.mark.parametrize("backend", [nbt.NumPyBackend, nbt.XLABackend])
def test_shifts_of_bf16_refuse_without_a_warning(op, backend):
    nan = nbt.tensor([float("nan")], type="bf16", backend=backend())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(nbt.ArgumentError, match="expects integer tensors"):
            op(nan, nan)


@dataclasses.dataclass
class _Model:
    w: object
    b: object
    activation: str = dataclasses.field(default="relu", metadata={"static": True})


@nbt.container(keep=["scale"])
@dataclasses.dataclass
class _Scaled:
    t: object
    scale: float = 2.0


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_a_dataclass_is_a_defn_container_with_static_fields(compiler):
    def step(model, x):
        y = x * model.w + model.b
        y = nbt.max(y, 0) if model.activation == "relu" else y  # a static field: a Python value
        return _Model(model.w * 2, model.b + 1, model.activation), y

    new, y = nbt.defn(step, compiler=compiler)(_Model(nbt.tensor(2.0), nbt.tensor(-1.0)), nbt.tensor([1.0, -1.0]))
    assert isinstance(new, _Model) and new.activation == "relu"
    assert nbt.to_number(new.w) == 4.0 and nbt.to_number(new.b) == 0.0 and y.to_numpy().tolist() == [1.0, 0.0]


def test_a_static_field_is_part_of_the_compiled_signature():
    run = nbt.defn(lambda m: m.w * 2 if m.activation == "double" else m.w)
    assert nbt.to_number(run(_Model(nbt.tensor(3.0), nbt.tensor(0.0), "double"))) == 6.0
    assert nbt.to_number(run(_Model(nbt.tensor(3.0), nbt.tensor(0.0), "none"))) == 3.0
    assert run.cache_info()["compiled"] == 2


def test_nbt_container_keeps_fields_and_grad_takes_dataclasses():
    g = nbt.grad(lambda s: nbt.sum(s.t * s.t) * s.scale)(_Scaled(nbt.tensor([1.0, 2.0]), 3.0))
    assert isinstance(g, _Scaled) and g.scale == 3.0 and g.t.to_numpy().tolist() == [6.0, 12.0]


def test_nbt_container_refuses_what_is_not_a_dataclass():
    with pytest.raises(nbt.ArgumentError, match="takes a dataclass"):
        nbt.container(int)
    with pytest.raises(nbt.ArgumentError, match="not fields"):
        nbt.container(keep=["missing"])(_Model)


def test_bf16_and_f8_creation_rounds_to_nearest_deliberately():
    # docs/nx_to_numbat.md: Nx truncates (0.19921875 and 1.25); numbat rounds to nearest even.
    assert float(nbt.tensor(0.2, type="bf16").to_numpy()) == 0.2001953125
    assert float(nbt.f8(1.4).to_numpy()) == 1.5


def test_tensor_logic_spellings_of_the_porting_guide():
    a, b = nbt.tensor([1, 0, 1], type="u8"), nbt.tensor([1, 1, 0], type="u8")
    assert (a & b).to_numpy().tolist() == [1, 0, 0] and (a | b).to_numpy().tolist() == [1, 1, 1]
    assert nbt.logical_not(a).to_numpy().tolist() == [0, 1, 0]
    assert (~nbt.tensor(1, type="u8")).to_numpy() == 254  # bitwise_not, not a logical not


class _Pair(typing.NamedTuple):
    a: nbt.Tensor
    b: nbt.Tensor


def test_a_namedtuple_is_a_container():
    Pair = _Pair
    out = nbt.defn(lambda p: Pair(p.b, p.a * 2))(Pair(nbt.tensor(1.0), nbt.tensor(2.0)))
    assert isinstance(out, Pair) and nbt.to_number(out.a) == 2.0 and nbt.to_number(out.b) == 2.0


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_dots_positional_forms_port_as_nx_writes_them(compiler):
    """`Nx.dot(t1, axes1, t2, axes2)` and `Nx.dot(t1, axes1, batch1, t2, axes2, batch2)`,
    checked against NumPy's einsum; a positional count Nx has not is a numbat error."""
    a, b = nbt.iota((3, 2), type="f32"), nbt.iota((3, 4), type="f32")
    x, y = nbt.iota((4, 2, 3), type="f32"), nbt.iota((4, 3, 5), type="f32")
    four = nbt.defn(lambda a, b: nbt.dot(a, [0], b, [0]), compiler=compiler)(a, b)
    six = nbt.defn(lambda x, y: nbt.dot(x, [2], [0], y, [1], [0]), compiler=compiler)(x, y)
    np.testing.assert_array_equal(four.to_numpy(), np.einsum("ki,kj->ij", a.to_numpy(), b.to_numpy()))
    np.testing.assert_array_equal(six.to_numpy(), np.einsum("bik,bkj->bij", x.to_numpy(), y.to_numpy()))
    with pytest.raises(nbt.ArgumentError, match=r"Nx's \(t1, axes1, t2, axes2\)"):
        nbt.dot(x, [2], [0], y, [1])
