"""pad_outer/reflect, Nx 0.13's tensor(tensor) rules, f8_e4m3fn saturation, templates,
metadata readers, serialize/deserialize, load_numpy, to_batched and backend helpers."""

import io
import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import numbat as nbt

BINARY_OPERATORS = ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and_", "or_", "xor", "lshift", "rshift")
BINARY_OPERATORS += ("eq", "ne", "lt", "le", "gt", "ge")

MODES = {"cyclic": "wrap", "mirror": "symmetric", "reflect": "reflect", "replicate": "edge"}
ALL_TYPES = [
    "u8",
    "u16",
    "u32",
    "u64",
    "s8",
    "s16",
    "s32",
    "s64",
    "f16",
    "bf16",
    "f32",
    "f64",
    "c64",
    "c128",
    "f8_e4m3fn",
]


@settings(max_examples=40, deadline=None)
@given(
    array=hnp.arrays(
        np.int32, hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4), elements=st.integers(-9, 9)
    ),
    mode=st.sampled_from(sorted(MODES)),
    data=st.data(),
)
def test_pad_outer_matches_numpy_pad(array, mode, data):
    config = [tuple(data.draw(st.tuples(st.integers(0, 5), st.integers(0, 5)))) for _ in range(array.ndim)]
    for backend in (nbt.NumPyBackend(), nbt.XLABackend()):
        result = nbt.pad_outer(nbt.tensor(array, backend=backend), mode, config)
        np.testing.assert_array_equal(result.to_numpy(), np.pad(array, config, mode=MODES[mode]))


def test_pad_outer_in_defn_keeps_names_and_reflect_is_its_alias(backend):
    t = nbt.tensor([[0, 1, 2], [3, 4, 5]], names=["x", "y"])
    result = nbt.jit(lambda t: nbt.pad_outer(t, "mirror", [(1, 1), (2, 2)]))(t)
    assert result.names == ("x", "y")
    np.testing.assert_array_equal(result.to_numpy(), np.pad(t.to_numpy(), [(1, 1), (2, 2)], mode="symmetric"))
    np.testing.assert_array_equal(
        nbt.reflect(t, padding_config=[(2, 0), (2, 1)]).to_numpy(),
        [[2, 1, 0, 1, 2, 1], [5, 4, 3, 4, 5, 4], [2, 1, 0, 1, 2, 1], [5, 4, 3, 4, 5, 4]],
    )


def test_tensor_of_a_tensor_follows_nx_0_13():
    named = nbt.tensor([1, 2], names=["x"])
    assert nbt.tensor(named).names == (None,)
    assert nbt.tensor(named, names=["x"]).names == ("x",)
    assert nbt.tensor(nbt.tensor([1, 2]), names=["y"]).names == ("y",)
    with pytest.raises(nbt.ArgumentError, match="conflicts"):
        nbt.tensor(named, names=["y"])
    with pytest.raises(nbt.ArgumentError, match="type f32.*type s32"):
        nbt.tensor(named, type="f32")


def test_f8_e4m3fn_saturates_instead_of_holding_infinity():
    values = nbt.tensor([float("inf"), -float("inf"), 1e6, 3.0, float("nan")], type="f8_e4m3fn").to_numpy()
    np.testing.assert_array_equal(values[:4].astype(np.float32), [448.0, -448.0, 448.0, 3.0])
    assert np.isnan(values[4].astype(np.float32))


def test_ops_on_a_template_raise():
    with pytest.raises(nbt.ArgumentError, match="template .* has no data"):
        nbt.add(nbt.template((2,), "f32"), 1)


def test_metadata_readers():
    t = nbt.iota((2, 3), type="u16", names=["x", None])
    assert nbt.axes(t) == [0, 1] and nbt.flat_size(t) == 6 and nbt.bit_size(t) == 96
    assert nbt.to_template(t) == nbt.template((2, 3), "u16", names=["x", None])
    assert nbt.compatible(t, nbt.to_template(t)) and nbt.compatible(t, nbt.iota((2, 3), type="u16"))  # None names any
    assert not nbt.compatible(t, nbt.iota((2, 3), type="u16", names=["y", None]))


@pytest.mark.parametrize("type_", ALL_TYPES)
@pytest.mark.parametrize("compressed", [0, 6])
def test_serialize_round_trips_every_type(backend, type_, compressed):
    t = nbt.as_type(nbt.iota((2, 3), names=["rows", None]), type_)
    blob = nbt.serialize({"t": t, "pair": (t, [nbt.tensor(1.5)])}, compressed=compressed)
    restored = nbt.deserialize(blob)
    assert restored["t"].type == t.type and restored["t"].names == t.names and restored["t"].backend == backend
    np.testing.assert_array_equal(restored["t"].to_numpy(), t.to_numpy())
    assert isinstance(restored["pair"], tuple) and isinstance(restored["pair"][1], list)
    assert nbt.to_number(restored["pair"][1][0]) == 1.5


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: nbt.deserialize(b"not numbat"), "not written by nbt.serialize"),
        (lambda: nbt.deserialize(nbt.serialize(nbt.iota((100,)))[:-10]), "damaged or truncated"),
        (lambda: nbt.deserialize("text"), "expects bytes"),
        (lambda: nbt.serialize({1: nbt.iota((2,))}), "keys must be strings"),
        (lambda: nbt.serialize({"a": object()}), r"data\['a'\] is object"),
        (lambda: nbt.serialize(nbt.iota((2,)), compressed=11), "zlib level"),
    ],
)
def test_serialize_errors_name_the_problem(call, message):
    with pytest.raises(nbt.ArgumentError, match=message):
        call()


def test_load_numpy_and_archives_refuse_pickles(tmp_path):
    buffer = io.BytesIO()
    np.save(buffer, np.array([[True, False]]))
    loaded = nbt.load_numpy(buffer.getvalue())
    assert str(loaded.type) == "u8"
    np.testing.assert_array_equal(loaded.to_numpy(), [[1, 0]])
    np.savez(tmp_path / "weights.npz", w=np.ones((2, 2), np.float64), b=np.arange(3, dtype=np.int8))
    archive = nbt.load_numpy_archive(tmp_path / "weights.npz")
    assert sorted(archive) == ["b", "w"] and str(archive["w"].type) == "f64" and str(archive["b"].type) == "s8"
    pickled = io.BytesIO()
    np.save(pickled, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(nbt.ArgumentError, match="cannot read"):
        nbt.load_numpy(pickled.getvalue())
    with pytest.raises(nbt.ArgumentError, match="load_numpy_archive"):
        nbt.load_numpy(tmp_path / "weights.npz")


def test_to_batched_repeats_or_discards_the_leftover(backend):
    t = nbt.iota((5, 2), names=["batch", "feature"])
    batches = list(nbt.to_batched(t, 2))
    assert [b.shape for b in batches] == [(2, 2)] * 3 and batches[0].names == ("batch", "feature")
    np.testing.assert_array_equal(batches[2].to_numpy(), [[8, 9], [0, 1]])
    assert len(list(nbt.to_batched(t, 2, leftover="discard"))) == 2
    with pytest.raises(nbt.ArgumentError, match="cannot batch beyond the original tensor"):  # as Nx
        nbt.to_batched(nbt.iota((2,)), 5)
    with pytest.raises(nbt.ArgumentError, match="batch_size"):
        nbt.to_batched(t, 0)


def test_backend_helpers():
    assert nbt.with_default_backend(nbt.NumPyBackend(), lambda: nbt.tensor([1]).backend) == nbt.NumPyBackend()
    t = nbt.tensor([1, 2], backend=nbt.XLABackend())
    assert nbt.backend_deallocate(t) == "ok" and nbt.backend_deallocate(t) == "already_deallocated"
    assert nbt.backend_deallocate(nbt.tensor([1], backend=nbt.NumPyBackend())) == "ok"
    with pytest.raises(nbt.ArgumentError, match="vectorize a function over a tensor whose memory was freed"):
        nbt.vectorize(lambda row: nbt.sum(row))(t)  # JAX's vmap would say only "Array has been deleted"
    with pytest.raises(nbt.ArgumentError, match="function of no arguments"):
        nbt.with_default_backend(nbt.NumPyBackend(), 3)


@pytest.mark.parametrize("op", BINARY_OPERATORS)
def test_every_binary_operator_names_a_freed_operand(op):
    # The shifts read the amount's values first (a negative one raises, as in Nx), and JAX's
    # "Array has been deleted" came out of a freed amount instead of numbat's error.
    freed = nbt.iota((2, 3), names=["x", "y"], backend=nbt.XLABackend())
    nbt.backend_deallocate(freed)
    with pytest.raises(nbt.ArgumentError, match="memory was freed by nbt.backend_deallocate"):
        getattr(operator, op)(nbt.tensor([1, 2, 3], type="u8"), freed)


def test_ops_that_read_values_first_name_a_freed_operand():
    # atan2 of complex tensors and triangular_solve read their operands' values before the op
    # runs (Nx's errors for a non-zero imaginary part, a zero on the diagonal), as pow and the shifts do.
    calls = {
        "atan2": lambda freed: nbt.atan2(nbt.tensor([1 + 0j]), freed),
        "triangular_solve": lambda freed: nbt.linalg.triangular_solve(freed, nbt.tensor([1.0, 2.0])),
    }
    for name, call in calls.items():
        freed = nbt.tensor([[1.0, 0.0], [1.0, 1.0]], type="c64" if name == "atan2" else "f32", backend=nbt.XLABackend())
        nbt.backend_deallocate(freed)
        with pytest.raises(nbt.ArgumentError, match="memory was freed by nbt.backend_deallocate"):
            call(freed)


def test_reshape_auto_and_tensor_shapes_and_split_fractions(backend):
    t = nbt.iota((12,))
    assert nbt.reshape(t, ("auto", 3)).shape == (4, 3)
    assert nbt.reshape(t, nbt.iota((2, 6), names=["a", "b"])).names == ("a", "b")
    assert nbt.reshape(t, nbt.template((3, 4), "f32"), names=["r", "c"]).names == ("r", "c")
    assert [p.shape for p in nbt.split(nbt.iota((10, 2)), 0.25)] == [(3, 2), (7, 2)]  # Nx rounds up
    for bad in [("auto", "auto"), (2.0, 6), "auto"]:
        with pytest.raises(nbt.ArgumentError, match="reshape"):
            nbt.reshape(t, bad)
    with pytest.raises(nbt.ArgumentError, match="float split"):
        nbt.split(t, 1.0)


def test_conv_permutations_match_transposing_by_hand(backend):
    rng = np.random.default_rng(3)
    image = nbt.tensor(rng.normal(size=(2, 5, 5, 3)).astype(np.float32), names=["batch", "h", "w", "channels"])
    kernel_hwio = nbt.tensor(rng.normal(size=(2, 2, 3, 4)).astype(np.float32))
    canonical = nbt.conv(nbt.transpose(image, [0, 3, 1, 2]), nbt.transpose(kernel_hwio, [3, 2, 0, 1]))
    permuted = nbt.conv(
        image,
        kernel_hwio,
        input_permutation=["batch", "channels", "h", "w"],
        kernel_permutation=[3, 2, 0, 1],
        output_permutation=["batch", "channels", "h", "w"],
    )
    assert permuted.shape == (2, 4, 4, 4)
    np.testing.assert_allclose(permuted.to_numpy(), np.transpose(canonical.to_numpy(), [0, 2, 3, 1]), rtol=1e-5)
    with pytest.raises(nbt.ArgumentError, match="input_permutation must list each"):
        nbt.conv(image, kernel_hwio, input_permutation=[0, 0, 1, 2])


def test_to_heatmap_prints_digits_as_nx_and_shades_with_ansi():
    plain = repr(
        nbt.to_heatmap(nbt.tensor([[0.0, 0.5, 1.0], [float("nan"), float("-inf"), float("inf")]]), ansi_enabled=False)
    )
    assert plain == "numbat.Heatmap<\n  f32[2][3]\n  059\n  x-+\n>"  # 0.5 * 9 = 4.5 rounds away from zero, as in Elixir
    cube = repr(nbt.to_heatmap(nbt.iota((2, 1, 2), names=["a", None, "c"]), ansi_enabled=False))
    assert cube == "numbat.Heatmap<\n  s32[a: 2][1][c: 2]\n  [\n    09,\n    09\n  ]\n>"
    shaded = repr(nbt.to_heatmap(nbt.tensor([1, 2]), ansi_enabled=True, ansi_whitespace="#"))
    assert "\x1b[48;5;232m#\x1b[48;5;255m#\x1b[0m" in shaded
    vectorized = repr(nbt.to_heatmap(nbt.vectorize(nbt.iota((2, 2)), "x"), ansi_enabled=False))
    assert vectorized.split("\n")[1:3] == ["  vectorized[x: 2]", "  s32[2]"]
    markup = nbt.to_heatmap(nbt.tensor([[1, 2]], names=["<b>", None]))._repr_html_()
    assert "data:image/png;base64," in markup and "&lt;b&gt;" in markup and "<b>" not in markup
    with pytest.raises(nbt.ArgumentError, match="needs real values"):
        nbt.to_heatmap(nbt.tensor([1j]))
    with pytest.raises(nbt.ArgumentError, match="ansi_enabled must be True or False"):
        nbt.to_heatmap(nbt.tensor([1]), ansi_enabled="yes")
