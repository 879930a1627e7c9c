"""numbat at home in Python: numbat code under JAX's transformations (jit, grad,
value_and_grad, vmap, checkpoint, lax.scan), an optax optimizer over numbat tensors,
DLPack in and out, and the answers to NumPy's and JAX's habits.

Each transformation's result is checked against the same code on numbat's four paths
(eager NumPy, eager XLA, a defn, the evaluator) and against a NumPy reference in float64.
"""

import itertools
import re

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest
from jax import lax

import numbat as nbt
from tests._paths import PATHS, run_on_path

X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
NAMES = ["batch", "feature"]


def _tensor(array=X, names=NAMES, **options):
    return nbt.tensor(array, type="f32", names=names, **options)


def _close(actual, expected, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(np.asarray(actual, np.float64), expected, rtol=rtol, atol=atol)


def _loss(t):
    return nbt.sum(nbt.exp(t) * nbt.sin(t))


def _loss_reference(array):
    return np.sum(np.exp(array) * np.sin(array))


def _loss_gradient_reference(array):
    return np.exp(array) * (np.sin(array) + np.cos(array))


def _softmax(t):
    return nbt.exp(t) / nbt.sum(nbt.exp(t), axes=[-1], keep_axes=True)


def _softmax_reference(array):
    e = np.exp(array)
    return e / e.sum(axis=-1, keepdims=True)


# --- jit ---


@pytest.mark.parametrize("path", PATHS)
def test_jit_over_a_tensor_gives_every_path_s_values_type_and_names(path):
    out = jax.jit(_softmax)(_tensor())
    assert (str(out.type), out.names, out.shape) == ("f32", ("batch", "feature"), (2, 3))
    _close(out, run_on_path(path, _softmax, X, type="f32"))
    _close(out, _softmax_reference(X))


def test_jit_takes_raw_jax_arrays_as_unnamed_tensors_of_their_dtype():
    out = jax.jit(lambda a: nbt.exp(a))(jnp.ones(3))
    assert isinstance(out, nbt.Tensor)
    assert (str(out.type), out.names) == ("f32", (None,))
    _close(out, np.exp(np.ones(3)))
    halves = jax.jit(lambda a: nbt.divide(a, 2))(jnp.arange(3, dtype=jnp.int32))
    assert str(halves.type) == "f32"  # Nx's integer divide, not JAX's
    _close(halves, [0.0, 0.5, 1.0])
    flags = jax.jit(lambda a: nbt.tensor(a))(jnp.array([True, False]))
    assert str(flags.type) == "u8"  # bool is u8, as in nbt.tensor
    assert flags.to_numpy().tolist() == [1, 0]
    eager = nbt.add(jnp.array([True, False]), 0)
    traced = jax.jit(lambda a: nbt.add(a, 0))(jnp.array([True, False]))
    assert (traced.type, traced.names) == (eager.type, eager.names)


def test_jit_moves_a_numpy_backend_tensor_to_xla():
    out = jax.jit(lambda a: nbt.exp(a))(_tensor(backend=nbt.NumPyBackend()))
    assert isinstance(out.backend, nbt.XLABackend)
    assert out.names == ("batch", "feature")
    _close(out, np.exp(X))


def test_jit_keeps_64_bit_types_without_x64():
    doubled = jax.jit(lambda a: a * 2)(nbt.tensor([1.1, 2.0], type="f64"))
    assert (str(doubled.type), doubled.data.dtype) == ("f64", np.float64)
    assert doubled.to_numpy().tolist() == [2.2, 4.0]
    total = jax.jit(nbt.sum)(nbt.tensor([2**40, 2], type="s64"))
    assert nbt.to_number(total) == 2**40 + 2


def test_a_list_of_traced_values_points_to_stack():
    with pytest.raises(nbt.ArgumentError, match=r"traced values .* nbt.stack\(values\)"):
        jax.jit(lambda a: nbt.tensor([a[0], a[1]]))(jnp.ones(2))
    stacked = jax.jit(lambda a: nbt.stack([a[0], a[1] * 2]))(jnp.ones(2))
    _close(stacked, [1.0, 2.0])


def test_a_defn_and_control_flow_inside_jax_jit():
    softmax = nbt.defn(_softmax)
    out = jax.jit(softmax)(_tensor())
    assert out.names == ("batch", "feature")
    _close(out, _softmax_reference(X))
    doubled = jax.jit(lambda a: nbt.cond(nbt.sum(a) > 0, lambda v: v * 2, lambda v: v, a))(_tensor())
    _close(doubled, X * 2)
    grown = jax.jit(lambda a: nbt.while_loop(lambda s: nbt.reduce_max(s) < 10, lambda s: s * 2, a))(_tensor())
    _close(grown, X * 8)


@pytest.mark.parametrize("warm", [False, True])
def test_a_defn_under_jax_jit_traces_into_it_without_compiling_on_its_own(warm):
    """A defn called with the caller's tracers is part of the caller's computation: it
    compiles no executable (a compiled one cannot take tracers) and keeps its settings."""
    precise = nbt.defn(lambda a, b: nbt.dot(a, b), precision="highest")
    wide = nbt.defn(lambda a: nbt.as_type(a, "f64") * 2)
    square = _tensor(X[:, :2])
    if warm:  # the defn's cached executables are for concrete calls only
        precise(square, square)
        wide(square)
    events = []
    nbt.telemetry.attach("interop-compilations", ("numbat", "compilation"), lambda *event: events.append(event))
    try:
        product = jax.jit(precise)(square, square)
        doubled = jax.jit(wide)(square)
        gradient = jax.grad(lambda a: jnp.asarray(nbt.sum(wide(a))))(square)
    finally:
        nbt.telemetry.detach("interop-compilations")
    assert events == []
    assert precise.cache_info()["compiled"] == int(warm)
    _close(product, X[:, :2] @ X[:, :2])
    assert (str(doubled.type), doubled.data.dtype) == ("f64", np.float64)
    _close(doubled, X[:, :2] * 2)
    _close(gradient, np.full((2, 2), 2.0))
    assert "HIGHEST" in jax.jit(precise).lower(square, square).as_text()


def test_reading_values_under_jax_jit_says_why_it_cannot():
    with pytest.raises(nbt.ArgumentError, match=r"\(f32\) under a JAX transformation \(jax.jit"):
        jax.jit(lambda a: float(nbt.sum(a)))(_tensor())
    with pytest.raises(nbt.ArgumentError, match=r"f32\) inside a defn: its values exist"):
        nbt.defn(lambda a: float(nbt.sum(a)))(_tensor())
    shown = []
    jax.jit(lambda a: shown.append(repr(a)) or a)(_tensor())
    assert "values exist only when the compiled code runs" in shown[0]


# --- grad and value_and_grad ---


@pytest.mark.parametrize("path", PATHS)
def test_grad_of_numbat_code_equals_nbt_grad_on_every_path(path):
    gradient = jax.grad(lambda a: jnp.asarray(_loss(a)))(_tensor())
    assert isinstance(gradient, nbt.Tensor)
    assert (str(gradient.type), gradient.names) == ("f32", ("batch", "feature"))
    _close(gradient, run_on_path(path, nbt.grad(_loss), X, type="f32"))
    _close(gradient, _loss_gradient_reference(X))


def test_value_and_grad_and_grad_of_raw_arrays():
    value, gradient = jax.value_and_grad(lambda a: jnp.asarray(_loss(a)))(_tensor())
    _close(value, _loss_reference(X))
    _close(gradient, _loss_gradient_reference(X))
    raw = jax.grad(lambda a: jnp.asarray(nbt.sum(nbt.sin(a))))(jnp.asarray(X, jnp.float32))
    assert isinstance(raw, jax.Array)  # JAX in, JAX out
    _close(raw, np.cos(X))
    second = jax.grad(jax.grad(lambda a: jnp.asarray(nbt.sum(a**3))))(jnp.float32(2.0))
    _close(second, 12.0)


def test_grad_of_a_tensor_output_names_numbat_s_way():
    """jax.grad wants a JAX scalar out and a Tensor is a pytree: JAX cannot seed its
    cotangent; the error says what to return instead (JAX's own said `__jax_array__` was
    no longer supported)."""
    with pytest.raises(nbt.ArgumentError, match=r"return jnp.asarray\(loss\).*nbt.grad"):
        jax.grad(lambda a: nbt.sum(a * a))(nbt.tensor([1.0, 2.0, 3.0]))


def test_a_defn_inside_jax_grad_and_nbt_grad_inside_jax_jit():
    softmax = nbt.defn(_softmax)
    weights = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 4.0]])
    gradient = jax.grad(lambda a: jnp.asarray(nbt.sum(softmax(a) * _tensor(weights, names=None))))(_tensor())
    s = _softmax_reference(X)
    expected = s * (weights - np.sum(s * weights, axis=-1, keepdims=True))
    _close(gradient, expected)
    _close(jax.jit(nbt.grad(_loss))(_tensor()), _loss_gradient_reference(X))


def test_jacfwd_over_a_tensor():
    """jacfwd builds its basis as the input's tree with a leading axis and compares the two
    trees' structures: the refitted names must give JAX its own structure back."""
    t = nbt.tensor([0.5, -1.0, 2.0], names=["feature"])
    gradient = jax.jacfwd(lambda a: jnp.asarray(nbt.sum(nbt.sin(a) * 2)))(t)
    assert (gradient.names, gradient.shape) == (("feature",), (3,))
    _close(gradient, 2 * np.cos([0.5, -1.0, 2.0]))
    same = jax.vmap(lambda row: row)(_tensor())
    assert same.names == (None, "feature")


def test_control_flow_and_tree_map_under_vmap():
    """A row vmap hands a function is a tensor of its own (nbt.cond's branches compare
    their structures); vmap's outputs give JAX back the function's structure, so a
    tree_map over parameters and per-example gradients lines up."""
    doubled = jax.vmap(lambda row: nbt.cond(nbt.sum(row) > 1, lambda v: v * 2, lambda v: v, row))(_tensor())
    _close(doubled, np.where(X.sum(axis=1, keepdims=True) > 1, X * 2, X))
    params = nbt.tensor([1.0, 2.0, 3.0], names=["feature"])
    per_example = jax.vmap(nbt.grad(lambda p, row: nbt.sum(p * row)), in_axes=(None, 0))(params, _tensor())
    assert per_example.names == (None, "feature")
    stepped = jax.tree.map(lambda p, g: p - 0.1 * g.mean(axis=0), params, per_example)
    assert stepped.names == ("feature",)
    _close(stepped, np.array([1.0, 2.0, 3.0]) - 0.1 * X.mean(axis=0))


@pytest.mark.parametrize("jacobian", [jax.jacfwd, jax.jacrev])
def test_the_jacobian_of_a_tensor_function_is_one_tensor_as_nbt_jacobian_gives(jacobian):
    t = nbt.tensor([0.5, -1.0, 2.0], names=["feature"])
    out = jacobian(lambda a: nbt.sin(a[:2]) * 2)(t)
    ours = nbt.jacobian(lambda a: nbt.sin(a[:2]) * 2)(t)
    assert isinstance(out.data, jax.Array)  # not a tensor of tensors
    assert (out.shape, str(out.type)) == (ours.shape, str(ours.type)) == ((2, 3), "f32")
    assert out.names == ours.names == ("feature", "feature")  # the output's axis names, then the input's
    _close(out, ours.to_numpy())
    _close(out, np.diag(2 * np.cos([0.5, -1.0, 2.0]))[:2])


def test_checkpoint_gives_the_same_gradient():
    plain = jax.grad(lambda a: jnp.asarray(_loss(a)))(_tensor())
    remat = jax.grad(lambda a: jnp.asarray(jax.checkpoint(_loss)(a)))(_tensor())
    assert remat.names == plain.names
    np.testing.assert_array_equal(remat.to_numpy(), plain.to_numpy())


# --- vmap and scan ---


@pytest.mark.parametrize("path", PATHS)
def test_vmap_maps_rows_with_their_names(path):
    seen = []

    def row_softmax(row):
        seen.append(row.names)
        return _softmax(row)

    out = jax.vmap(row_softmax)(_tensor())
    assert seen == [("feature",)]  # a row is named as t[i] would be
    assert out.names == (None, "feature")  # vmap's new leading axis has no name
    _close(out, np.stack([run_on_path(path, _softmax, row, type="f32") for row in X]))
    _close(out, _softmax_reference(X))


def test_vmap_over_another_axis_names_the_remaining_one():
    seen = []

    def column_sum(column):
        seen.append(column.names)
        return nbt.sum(column, axes=["batch"])

    out = jax.vmap(column_sum, in_axes=1)(_tensor())
    assert seen == [("batch",)]
    _close(out, X.sum(axis=0))
    with pytest.raises(nbt.ArgumentError, match="batch"):
        jax.vmap(lambda column: nbt.sum(column, axes=["feature"]), in_axes=1)(_tensor())


def test_vmap_of_a_defn_and_of_raw_arrays():
    out = jax.vmap(nbt.defn(_softmax))(_tensor())
    _close(out, _softmax_reference(X))
    squares = jax.vmap(lambda a: nbt.sum(a * a))(jnp.asarray(X, jnp.float32))
    assert (str(squares.type), squares.names) == ("f32", (None,))
    _close(squares, (X * X).sum(axis=1))


@pytest.mark.parametrize("path", PATHS)
def test_scan_carries_and_stacks_tensors(path):
    def body(carry, row):
        total = carry + nbt.sum(row)
        return total, nbt.exp(row) * total

    total, ys = lax.scan(body, nbt.tensor(0.0), _tensor())
    assert (str(total.type), total.names) == ("f32", ())
    assert ys.names == (None, "feature")
    reference_totals = np.cumsum(X.sum(axis=1))
    _close(total, reference_totals[-1])
    _close(ys, np.exp(X) * reference_totals[:, None])

    def unrolled(t):
        first = nbt.sum(t[0])
        second = first + nbt.sum(t[1])
        return nbt.stack([nbt.exp(t[0]) * first, nbt.exp(t[1]) * second])

    _close(ys, run_on_path(path, unrolled, X, type="f32"))


# --- jax.numpy inside a defn ---


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_a_jax_numpy_function_inside_a_defn_gives_an_unnamed_tensor(compiler):
    mixed = nbt.defn(lambda a: nbt.sum(jnp.exp(a), axes=[0]), compiler=compiler)
    out = mixed(_tensor())
    assert (str(out.type), out.names) == ("f32", (None,))  # the JAX value lost the names
    _close(out, np.exp(X).sum(axis=0))
    returned = nbt.defn(lambda a: jnp.tanh(a), compiler=compiler)(_tensor())
    assert isinstance(returned, nbt.Tensor) and str(returned.type) == "f32"
    _close(returned, np.tanh(X))


def test_a_jax_function_s_result_wrapped_with_the_tensor_s_names():
    wrapped = nbt.defn(lambda t: nbt.tensor(jax.nn.softplus(t), names=t.names))(_tensor())
    assert (str(wrapped.type), wrapped.names) == ("f32", ("batch", "feature"))
    _close(wrapped, np.log1p(np.exp(X)))


def test_jax_transformations_inside_a_defn():
    mapped = nbt.defn(lambda t: jax.vmap(lambda row: nbt.sum(row * row))(t))(_tensor())
    _close(mapped, (X * X).sum(axis=1))
    total, ys = nbt.defn(lambda t: lax.scan(lambda c, r: (c + nbt.sum(r), r * c), nbt.tensor(0.0), t))(_tensor())
    _close(total, X.sum())
    _close(ys, X * np.array([[0.0], [X[0].sum()]]))
    gradient = nbt.defn(lambda t: jax.grad(lambda a: jnp.asarray(_loss(a)))(t))(_tensor())
    assert gradient.names == ("batch", "feature")
    _close(gradient, _loss_gradient_reference(X))


def test_the_graph_shows_a_jax_value_as_one_node():
    expr = nbt.debug_expr(lambda a: nbt.sum(jnp.exp(a)))(_tensor())
    ops = [node.op for node in expr.nodes]
    assert ops[0] == "parameter" and ops[-1] == "sum" and "exp" not in ops


# --- optax ---


def test_optax_trains_numbat_parameters_inside_jax_jit():
    rng = np.random.default_rng(0)
    inputs = rng.normal(size=(64, 3)).astype(np.float32)
    true_weights = np.array([1.5, -2.0, 0.5], np.float32)
    targets = inputs @ true_weights + 0.3
    x = nbt.tensor(inputs, names=["sample", "feature"])
    y = nbt.tensor(targets, names=["sample"])
    params = {"w": nbt.tensor(np.zeros(3, np.float32), names=["feature"]), "b": nbt.tensor(0.0)}

    def loss(p, x, y):
        return nbt.mean((nbt.dot(x, p["w"]) + p["b"] - y) ** 2)

    optimizer = optax.adam(0.1)
    state = optimizer.init(params)

    @jax.jit
    def step(params, state, x, y):
        value, grads = jax.value_and_grad(lambda p: jnp.asarray(loss(p, x, y)))(params)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    losses = []
    for _ in range(200):
        params, state, value = step(params, state, x, y)
        losses.append(float(value))
    assert losses[0] == pytest.approx(np.mean(targets**2), rel=1e-5)  # zero weights predict zero
    checkpoints = losses[::25]
    assert all(later < earlier for earlier, later in itertools.pairwise(checkpoints)), checkpoints
    assert losses[-1] < 1e-6
    assert isinstance(params["w"], nbt.Tensor) and params["w"].names == ("feature",)
    _close(params["w"], true_weights, atol=1e-3)
    _close(params["b"], 0.3, atol=1e-3)
    assert float(nbt.to_number(loss(params, x, y))) < 1e-6  # the trained tensors work eagerly


# --- DLPack ---


def test_dlpack_round_trips_with_numpy_sharing_memory():
    source = np.arange(6, dtype=np.int16).reshape(2, 3)
    t = nbt.from_dlpack(source, names=["x", "y"], backend=nbt.NumPyBackend())
    assert (str(t.type), t.names) == ("s16", ("x", "y"))
    assert np.shares_memory(t.data, source)
    back = np.from_dlpack(t)
    np.testing.assert_array_equal(back, source)
    assert np.shares_memory(back, source)


def test_dlpack_round_trips_with_jax():
    with jax.enable_x64(True):
        source = jnp.asarray([1.25, -2.5], jnp.float64)
    t = nbt.from_dlpack(source, backend=nbt.XLABackend())
    assert (str(t.type), t.names) == ("f64", (None,))
    with jax.enable_x64(True):  # JAX's import, like its arrays, is 32-bit without x64
        back = jax.dlpack.from_dlpack(t)
    assert back.dtype == np.float64
    assert np.asarray(back).tolist() == [1.25, -2.5]
    halves = nbt.from_dlpack(jnp.asarray([1.0, 2.0], jnp.bfloat16))
    assert str(halves.type) == "bf16"


class _OnADevice:
    """A DLPack exporter that says its array lives on a CUDA device (DLPack device type 2), as a
    JAX array on a GPU does; it hands the array over only when asked to copy it to the host
    (DLPack's dl_device and copy, as JAX's exporter and NumPy's importer speak them), else it
    raises what NumPy said of a GPU array on an H200 ("Unsupported device in DLTensor")."""

    def __init__(self, array, can_copy=True):
        self.array, self.can_copy = array, can_copy
        self.shape, self.dtype = array.shape, array.dtype

    def __dlpack_device__(self):
        return (2, 0)  # kDLCUDA

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if not (self.can_copy and copy and dl_device is not None and int(dl_device[0]) == 1):
            raise BufferError("Unsupported device in DLTensor.")
        return self.array.__dlpack__(max_version=max_version, dl_device=dl_device, copy=True)


def test_from_dlpack_of_a_device_array_into_numpy_copies_it_to_the_host():
    # The code path of a GPU array (its device type faked on this machine): the NumPy backend asks
    # the exporter for a host copy, here JAX's own exporter with JAX's arguments.
    source = jnp.arange(6, dtype=jnp.int16).reshape(2, 3)
    t = nbt.from_dlpack(_OnADevice(source), names=["x", "y"], backend=nbt.NumPyBackend())
    assert (str(t.type), t.names, t.backend) == ("s16", ("x", "y"), nbt.NumPyBackend())
    np.testing.assert_array_equal(t.to_numpy(), np.arange(6).reshape(2, 3))
    host = np.arange(3.0)
    copied = nbt.from_dlpack(_OnADevice(host), backend=nbt.NumPyBackend())
    assert not np.shares_memory(copied.data, host) and copied.to_numpy().tolist() == [0.0, 1.0, 2.0]


def test_from_dlpack_of_a_device_array_that_cannot_be_copied_names_to_numpy():
    with pytest.raises(nbt.ArgumentError, match=r"lives on a device \(DLPack device \(2, 0\)\).*t\.to_numpy\(\)"):
        nbt.from_dlpack(_OnADevice(np.arange(3), can_copy=False), backend=nbt.NumPyBackend())


def test_from_dlpack_of_a_tensor_keeps_its_names_and_type():
    t = nbt.tensor([[1, 2], [3, 4]], type="u8", names=["x", "y"])
    for backend in (nbt.NumPyBackend(), nbt.XLABackend()):
        copy = nbt.from_dlpack(t, backend=backend)
        assert (str(copy.type), copy.names, copy.backend) == ("u8", ("x", "y"), backend)
        np.testing.assert_array_equal(copy.to_numpy(), t.to_numpy())
    assert nbt.from_dlpack(t, names=["a", None]).names == ("a", None)
    flags = nbt.from_dlpack(np.array([True, False]))
    assert str(flags.type) == "u8" and flags.to_numpy().tolist() == [1, 0]


def test_dlpack_refuses_what_it_cannot_carry_with_numbat_errors():
    with pytest.raises(nbt.ArgumentError, match=r"DLPack has no s4 type.*nbt.as_type\(t, 's8'\)"):
        np.from_dlpack(nbt.tensor([1, 2], type="s4"))
    with pytest.raises(nbt.ArgumentError, match=r"NumPy's DLPack export has no bf16.*XLABackend"):
        np.from_dlpack(nbt.tensor([1.0], type="bf16", backend=nbt.NumPyBackend()))
    with pytest.raises(nbt.ArgumentError, match="nbt.devectorize"):
        np.from_dlpack(nbt.vectorize(nbt.iota((2, 3)), "x"))
    with pytest.raises(nbt.ArgumentError, match=r"from_dlpack takes an array with __dlpack__.*nbt.tensor"):
        nbt.from_dlpack([1, 2])
    with pytest.raises(nbt.ArgumentError, match="NumPy cannot import this array"):
        nbt.from_dlpack(jnp.ones(2, jnp.bfloat16), backend=nbt.NumPyBackend())
    with pytest.raises(nbt.ArgumentError, match="export through DLPack a traced tensor"):
        jax.jit(lambda a: np.from_dlpack(a))(_tensor())


# --- NumPy and JAX habits ---


@pytest.mark.parametrize(
    ("name", "spelling"),
    [
        ("zeros", "nbt.broadcast(0.0, shape)"),
        ("ones", "nbt.broadcast(1.0, shape)"),
        ("full", "nbt.broadcast(value, shape)"),
        ("zeros_like", "nbt.fill(t, 0)"),
        ("arange", "nbt.iota((n,))"),
        ("matmul", "nbt.dot(a, b)"),
        ("concat", "nbt.concatenate(tensors, axis=0)"),
        ("hstack", "nbt.concatenate"),
        ("vstack", "nbt.concatenate"),
        ("where", "nbt.select(pred, on_true, on_false)"),
        ("amax", "nbt.reduce_max"),
        ("tolist", "nbt.to_list(t)"),
        ("float32", 'the Nx type "f32"'),
        ("int64", 'the Nx type "s64"'),
        ("bool_", 'the Nx type "u8"'),
    ],
)
def test_numpy_names_the_module_spells_otherwise_name_numbat_s_spelling(name, spelling):
    with pytest.raises(AttributeError, match=f"no attribute '{name}': numbat spells it {re.escape(spelling)}"):
        getattr(nbt, name)


def test_the_module_s_hints_name_ops_that_exist():
    from numbat import _SPELLINGS

    for name, spelling in _SPELLINGS.items():
        assert not hasattr(nbt, name), name
        for op in re.findall(r"nbt\.(\w+)\(", spelling):
            assert callable(getattr(nbt, op)), (name, op)


def test_an_unknown_module_attribute_is_a_plain_attribute_error():
    with pytest.raises(AttributeError, match=r"^module 'numbat' has no attribute 'no_such_thing'$"):
        nbt.no_such_thing  # noqa: B018
    assert not hasattr(nbt, "zeros")  # hasattr and getattr defaults keep working
    assert not hasattr(nbt, "a")  # NumPy 2 deprecates the dtype alias "a": no warning escapes
    assert getattr(nbt, "ones", None) is None


@pytest.mark.parametrize(
    ("method", "spelling"),
    [
        ("tolist", "nbt.to_list(t)"),
        ("item", "nbt.to_number(t)"),
        ("numpy", "t.to_numpy()"),
        ("max", "nbt.reduce_max(t, axes=None, keep_axes=False)"),
        ("min", "nbt.reduce_min(t, axes=None, keep_axes=False)"),
        ("prod", "nbt.product(t"),
        ("itemsize", "t.type.bits // 8"),
    ],
)
def test_numpy_methods_name_numbat_s_spelling(method, spelling):
    with pytest.raises(AttributeError, match=f"no attribute '{method}': numbat spells it {re.escape(spelling)}"):
        getattr(nbt.tensor([1, 2]), method)


def test_max_and_min_of_one_tensor_point_to_the_reductions():
    t = nbt.tensor([3, 1, 2])
    with pytest.raises(TypeError, match=r"nbt.reduce_max\(t, axes=None, keep_axes=False\)"):
        nbt.max(t)
    with pytest.raises(TypeError, match=r"nbt.reduce_min\(t, axes=None, keep_axes=False\)"):
        nbt.min(t)
    assert nbt.max(t, 2).to_numpy().tolist() == [3, 2, 2]
    assert nbt.min(t, right=2).to_numpy().tolist() == [2, 1, 2]
    with pytest.raises(nbt.ArgumentError, match="unknown option 'axis'"):
        nbt.max(t, 2, axis=0)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("float64", "f64"), ("float32", "f32"), ("int32", "s32"), ("uint8", "u8"), ("bool", "u8"), ("bfloat16", "bf16")],
)
def test_numpy_dtype_names_work_wherever_a_type_does(name, expected):
    assert str(nbt.as_type(nbt.tensor([1, 0]), name).type) == expected
    assert str(nbt.tensor([1, 0], type=name).type) == expected
    assert str(nbt.iota((2,), type=name).type) == expected
    assert str(nbt.tensor([1, 0]).astype(name).type) == expected
    assert str(nbt.template((2,), name).type) == expected


@pytest.mark.parametrize(("code", "nx_name"), [("float", "f64"), ("int", "s64"), ("f4", "f32"), ("<i8", "s64")])
def test_numpy_type_codes_are_refused_with_the_nx_name(code, nx_name):
    with pytest.raises(nbt.ArgumentError, match=f"unknown type '{re.escape(code)}': .* numbat spells '{nx_name}'"):
        nbt.as_type(nbt.tensor([1]), code)


def test_f8_is_nx_s_8_bit_float_not_numpy_s_float64():
    assert str(nbt.tensor([1.0], type="f8").type) == "f8"
    assert nbt.tensor([1.0], type="f8").type.dtype.itemsize == 1


@pytest.mark.parametrize("backend", [nbt.NumPyBackend(), nbt.XLABackend()], ids=["numpy", "xla"])
def test_from_dlpack_of_what_the_importer_cannot_take_is_a_numbat_error(backend):
    # Found by the fuzz and the allocation sweep: an object array and a read-only (zero-stride) view
    # ended in DLPack's own BufferError.
    with pytest.raises(nbt.ArgumentError, match="from_dlpack: .* cannot import this array"):
        nbt.from_dlpack(np.array([1, 1, 1], dtype=object), backend=backend)
    if isinstance(backend, nbt.XLABackend):
        with pytest.raises(nbt.ArgumentError, match="readonly"):
            nbt.from_dlpack(np.broadcast_to(np.float64(1), (10, 10)), backend=backend)
