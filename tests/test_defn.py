"""defn: compilation through XLA, the cache, telemetry, the expression graph, errors."""

import jax
import numpy as np
import pytest

import numbat as nbt
from numbat._defn import _signature


@pytest.fixture
def events():
    seen = []
    handler_id = "test-defn"
    nbt.telemetry.attach(
        handler_id,
        [("numbat", "compilation"), ("numbat", "cache_hit")],
        lambda event, measurements, metadata: seen.append((event, measurements, metadata)),
    )
    yield seen
    nbt.telemetry.detach(handler_id)


def test_softmax_on_a_million_values_matches_numpy_and_hits_the_cache(events):
    @nbt.defn
    def softmax(t):
        return nbt.exp(t) / nbt.sum(nbt.exp(t))

    x = np.random.default_rng(1).standard_normal(1_000_000).astype(np.float32)
    first = softmax(nbt.tensor(x))
    second = softmax(nbt.tensor(x[::-1].copy()))
    expected = np.exp(x.astype(np.float64)) / np.exp(x.astype(np.float64)).sum()
    np.testing.assert_allclose(first.to_numpy(), expected, rtol=1e-5, atol=1e-12)
    np.testing.assert_allclose(second.to_numpy(), expected[::-1], rtol=1e-5, atol=1e-12)
    assert str(first.type) == "f32" and first.shape == (1_000_000,)

    kinds = [event[-1] for event, _, _ in events]
    assert kinds == ["compilation", "cache_hit"]
    _, measurements, metadata = events[0]
    assert measurements["total_time"] == measurements["eval_time"] + measurements["compile_time"] > 0
    assert metadata["function"].endswith("softmax")
    assert metadata["signature"] == "(f32[1000000])"
    assert metadata["reason"] == "first call"
    assert events[1][2]["key"] == metadata["key"]
    assert softmax.cache_info() == {"compiled": 1, "hits": 1}


def test_recompile_reason_and_signature_includes_names(events):
    fun = nbt.jit(lambda t: t + 1)
    fun(nbt.tensor([1, 2], names=["x"]))
    fun(nbt.tensor([1, 2], names=["y"]))
    fun(nbt.tensor([1.0, 2.0], names=["y"]))
    compilations = [meta for event, _, meta in events if event[-1] == "compilation"]
    assert len(compilations) == 3
    assert compilations[1]["reason"] == "input 0 changed from s32[x: 2] to s32[y: 2]"
    assert "f32[y: 2]" in compilations[2]["reason"]


def test_outputs_keep_names_types_and_containers():
    @nbt.defn
    def stats(t):
        return {"total": nbt.sum(t, axes=["y"]), "pair": (nbt.mean(t), t * 2)}

    result = stats(nbt.tensor([[1, 2], [3, 4]], names=["x", "y"]))
    assert result["total"].names == ("x",) and result["total"].to_numpy().tolist() == [3, 7]
    assert str(result["pair"][0].type) == "f32" and nbt.to_number(result["pair"][0]) == 2.5
    assert isinstance(result["pair"][1].backend, nbt.XLABackend)


def test_static_options_and_numbers():
    @nbt.defn
    def scale(t, factor, mode="add"):
        return t + factor if mode == "add" else t * factor

    t = nbt.tensor([1.0, 2.0])
    assert scale(t, 2).to_numpy().tolist() == [3.0, 4.0]
    assert scale(t, 3, mode="multiply").to_numpy().tolist() == [3.0, 6.0]
    assert scale.cache_info()["compiled"] == 2


def test_64_bit_inputs_stay_64_bit():
    result = nbt.jit(lambda t: t * 2)(nbt.tensor([2**40], type="s64"))
    assert str(result.type) == "s64" and result.to_numpy().tolist() == [2**41]
    assert result.data.dtype == np.int64


def test_numpy_backend_inputs_are_moved_to_the_device():
    host = nbt.tensor([1.0, 2.0], backend=nbt.NumPyBackend())
    result = nbt.jit(nbt.exp)(host)
    assert isinstance(result.data, jax.Array)


def test_ops_run_under_named_scopes_that_reach_the_optimized_hlo():
    # Each scope names the op and the graph node it computes: b = exp [ a ], d = add [ b, c ]
    # (c is the constant 1, recorded before the add).
    fun = nbt.defn(lambda t: nbt.exp(t) + 1)
    signature, _ = _signature.flatten((nbt.tensor([1.0, 2.0]),), {}, lambda x: x)
    flat, _ = fun.trace(signature)
    hlo = jax.jit(flat).lower(np.zeros(2, np.float32)).compile().as_text()
    assert 'op_name="jit(<lambda>)/exp#1/exp"' in hlo
    assert 'op_name="jit(<lambda>)/add#3/add"' in hlo


def test_debug_expr_lists_ops_in_letter_format():
    expr = nbt.debug_expr(lambda t: nbt.exp(t) / nbt.sum(nbt.exp(t)))(nbt.tensor([[1, 2], [3, 4]]))
    text = str(expr)
    assert "parameter a:0" in text and "s32[2][2]" in text
    assert "b = exp [ a ]" in text
    assert "sum [ c, axes: [0, 1], keep_axes: False ]" in text
    assert isinstance(expr, nbt.Expr)


def test_print_expr_prints_while_tracing_only_once(capsys):
    fun = nbt.jit(lambda t: nbt.print_expr(nbt.negate(t)))
    fun(nbt.tensor([1]))
    fun(nbt.tensor([2]))
    out = capsys.readouterr().out
    assert out.count("numbat.Expr<") == 1 and "negate [ a ]" in out


def test_grad_inside_defn_is_recorded():
    fun = nbt.jit(lambda t: nbt.grad(lambda x: nbt.sum(x * x))(t))
    assert fun(nbt.tensor([1.0, 3.0])).to_numpy().tolist() == [2.0, 6.0]
    expr = nbt.debug_expr(lambda t: nbt.grad(lambda x: nbt.sum(x * x))(t))(nbt.tensor([1.0]))
    assert "grad [ a ]" in str(expr)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda f: f([1, 2], "text"), "takes 1 positional argument but 2 were given"),
        (lambda f: f({"a": nbt.tensor([1])}), "not enough values to unpack"),
        (lambda f: f((nbt.tensor([1]), nbt.tensor([2]), nbt.tensor([3]))), "too many values to unpack"),
    ],
)
def test_wrong_container_structure_is_a_clear_error(call, message):
    @nbt.defn
    def add_pair(pair):
        left, right = pair
        return left + right

    with pytest.raises(nbt.ArgumentError, match=f"defn .*add_pair failed while tracing inputs .*{message}"):
        call(add_pair)


def test_compiled_rejects_other_structures_and_signatures():
    compiled = nbt.compile(lambda a, b: a + b, [nbt.template((2,), "s32"), nbt.template((2,), "s32")])
    assert compiled(nbt.tensor([1, 2]), nbt.tensor([3, 4])).to_numpy().tolist() == [4, 6]
    with pytest.raises(nbt.ArgumentError, match="input structure changed"):
        compiled((nbt.tensor([1, 2]), nbt.tensor([3, 4])))
    with pytest.raises(nbt.ArgumentError, match="input 1 changed from s32\\[2\\] to s32\\[3\\]"):
        compiled(nbt.tensor([1, 2]), nbt.tensor([3, 4, 5]))


def test_bad_outputs_and_arguments():
    with pytest.raises(nbt.ArgumentError, match="output leaf 1 is str"):
        nbt.jit(lambda t: (t, "label"))(nbt.tensor([1]))
    with pytest.raises(nbt.ArgumentError, match="neither a tensor, a number, nor hashable"):
        nbt.jit(lambda t, extra: t)(nbt.tensor([1]), {1, 2})
    with pytest.raises(nbt.ArgumentError, match="unknown defn compiler"):
        nbt.defn(lambda t: t, compiler="llvm")
    with pytest.raises(nbt.ArgumentError, match="unknown defn option"):
        nbt.defn(lambda t: t, lazy=True)


def test_branching_on_a_traced_tensor_explains_what_to_do():
    @nbt.defn
    def relu(t):
        return t if t > 0 else -t

    with pytest.raises(nbt.ArgumentError, match="traced"):
        relu(nbt.tensor(1.0))


def test_evaluator_compiler_runs_eagerly(events):
    fun = nbt.defn(lambda t: t * 2, compiler="evaluator")
    assert fun(nbt.tensor([1, 2])).to_numpy().tolist() == [2, 4]
    assert events == []


def test_constants_created_inside_a_defn_show_their_values():
    expr = nbt.debug_expr(lambda t: (t * 2, 1.0, t + nbt.tensor([5, 6])))(nbt.tensor([1, 2]))
    text = str(expr)
    assert "(b, 1.0, d)" in text
    assert "c = tensor [ [5, 6] ]" in text
    assert "?" not in text


def test_precision_option_is_checked():
    with pytest.raises(nbt.ArgumentError, match="precision must be one of default, high, highest"):
        nbt.defn(lambda t: t, precision="extreme")
    a = nbt.tensor([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_allclose(nbt.jit(lambda a: nbt.dot(a, a), precision="highest")(a).to_numpy(), [[7, 10], [15, 22]])


def test_default_defn_options_are_scoped():
    with nbt.default_defn_options(compiler="evaluator"):
        inside = nbt.jit(lambda t: t + 1)
    assert inside.compiler == "evaluator" and nbt.jit(lambda t: t).compiler == "xla"
    previous = nbt.global_default_defn_options(debug=True)
    try:
        assert nbt.jit(lambda t: t).debug is True
    finally:
        nbt.global_default_defn_options(previous)


def test_cache_false_compiles_every_call():
    counted = []
    nbt.telemetry.attach("count", ("numbat", "compilation"), lambda e, m, meta: counted.append(meta["function"]))
    try:
        fun = nbt.jit(lambda t: t * 2, cache=False)
        fun(nbt.tensor([1]))
        fun(nbt.tensor([2]))
    finally:
        nbt.telemetry.detach("count")
    assert len(counted) == 2 and not nbt.is_cached(fun, [nbt.tensor([1])])


def test_is_cached_follows_signatures():
    fun = nbt.jit(lambda t: t + 1)
    assert not nbt.xla.is_cached(fun, [nbt.tensor([1, 2])])
    fun(nbt.tensor([1, 2]))
    assert nbt.xla.is_cached(fun, [nbt.tensor([3, 4])]) and not nbt.xla.is_cached(fun, [nbt.tensor([1.0, 2.0])])


def test_the_evaluator_compiles_no_program_of_its_own_but_each_eager_xla_op_is_one(caplog):
    """Tutorial 03's words: on the XLA backend each eager op is a small program JAX compiles
    once per signature, so the evaluator's first call compiles exp, sum and divide; the
    second compiles nothing."""
    import logging

    jax.clear_caches()
    softmax = nbt.defn(lambda t: nbt.exp(t) / nbt.sum(nbt.exp(t)), compiler="evaluator")
    x = nbt.tensor([1.0, 2.0, 7.0])
    jax.config.update("jax_log_compiles", True)
    try:
        with caplog.at_level(logging.WARNING, logger="jax"):
            softmax(x)
            first = sum("Finished XLA compilation" in r.getMessage() for r in caplog.records)
            caplog.clear()
            softmax(x)
            second = sum("Finished XLA compilation" in r.getMessage() for r in caplog.records)
    finally:
        jax.config.update("jax_log_compiles", False)
    assert (first, second) == (3, 0)
