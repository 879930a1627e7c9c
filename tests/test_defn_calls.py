"""Calling defns: containers and numbers in and out, static arguments, options, the
Evaluator against XLA across the op library, the cache and its telemetry, threads."""

import collections
import logging
import threading

import jax
import numpy as np
import pytest

import numbat as nbt
from numbat._defn import _call

Pair = collections.namedtuple("Pair", "left right")


@pytest.fixture
def events():
    seen = []
    nbt.telemetry.attach(
        "test-defn-calls",
        [("numbat", "compilation"), ("numbat", "cache_hit"), ("numbat", "evaluation")],
        lambda event, measurements, metadata: seen.append((event[-1], measurements, metadata)),
    )
    yield seen
    nbt.telemetry.detach("test-defn-calls")


@pytest.mark.parametrize("compiler", ["xla", "evaluator"])
def test_containers_in_and_out_keep_their_structure(compiler):
    fun = nbt.defn(lambda d: {"sum": d["a"] + d["b"][0], "rest": [d["b"][1] * 2]}, compiler=compiler)
    out = fun({"a": nbt.tensor([1.0, 2.0]), "b": (nbt.tensor([3.0, 4.0]), 5)})
    assert sorted(out) == ["rest", "sum"] and isinstance(out["rest"], list)
    np.testing.assert_array_equal(out["sum"].to_numpy(), [4.0, 6.0])
    assert str(out["rest"][0].type) == "s32" and nbt.to_number(out["rest"][0]) == 10
    swapped = nbt.defn(lambda p: Pair(p.right, p.left), compiler=compiler)(Pair(nbt.tensor(1), nbt.tensor(2.5)))
    assert isinstance(swapped, Pair) and str(swapped.left.type) == "f32" and nbt.to_number(swapped.right) == 1


def test_numbers_become_tensors_and_other_values_are_static(events):
    scale = nbt.defn(lambda a, b: a * b)
    out = scale(2, 3.5)
    assert str(out.type) == "f32" and nbt.to_number(out) == 7.0
    step = nbt.defn(lambda a, mode: a + 1 if mode == "up" else a - 1)
    assert nbt.to_number(step(nbt.tensor(1), "up")) == 2 and nbt.to_number(step(nbt.tensor(1), "down")) == 0
    assert nbt.to_number(step(nbt.tensor(5), "up")) == 6
    compilations = [meta for kind, _, meta in events if kind == "compilation" and "'" in meta["signature"]]
    assert [meta["signature"] for meta in compilations] == ["(s32, 'up')", "(s32, 'down')"]
    assert compilations[1]["reason"] == "static values changed from ((1, 'up'),) to ((1, 'down'),)"
    with pytest.raises(nbt.ArgumentError, match="neither a tensor, a number, nor hashable"):
        step(nbt.tensor(1), {"up"})


def test_every_compile_and_hit_is_reported_and_hits_are_counted_without_a_handler(events):
    fun = nbt.jit(lambda t: t - 1)
    for value in ([1.0], [2.0], [1.0, 2.0], [3.0]):
        fun(nbt.tensor(value))
    assert [kind for kind, _, _ in events] == ["compilation", "cache_hit", "compilation", "cache_hit"]
    assert events[2][2]["reason"] == "input 0 changed from f32[1] to f32[2]"
    nbt.telemetry.detach("test-defn-calls")
    before = nbt.telemetry.counts()[fun.name]["cache_hits"]
    fun(nbt.tensor([4.0]))
    assert fun.cache_info() == {"compiled": 2, "hits": 3}
    assert nbt.telemetry.counts()[fun.name]["cache_hits"] == before + 1


def test_jit_of_the_same_function_and_options_shares_one_cache():
    def inc(t):
        return t + 1

    assert nbt.jit(inc) is nbt.jit(inc) and nbt.jit(inc) is not nbt.jit(inc, compiler="evaluator")
    for value in range(3):
        nbt.jit_apply(inc, [nbt.tensor(value)])
    assert nbt.jit(inc).cache_info() == {"compiled": 1, "hits": 2}


def test_is_cached_follows_shapes_static_options_and_is_exposed_by_numbat_xla():
    fun = nbt.defn(lambda a, n=1: a * n)
    assert not nbt.is_cached(fun, [nbt.tensor([1])], n=2)
    fun(nbt.tensor([1]), n=2)
    assert nbt.is_cached(fun, [nbt.tensor([5])], n=2) and nbt.xla.is_cached(fun, [nbt.tensor([5])], n=2)
    assert not nbt.is_cached(fun, [nbt.tensor([5])], n=3) and not nbt.is_cached(fun, [nbt.tensor([5, 6])], n=2)
    with pytest.raises(nbt.ArgumentError, match="is_cached needs a defn"):
        nbt.is_cached(lambda a: a, [nbt.tensor(1)])


def test_options_are_checked_and_lazy_transfers_accepts_the_upfront_exla_values():
    for value in ("opt_in", "never"):
        assert nbt.to_number(nbt.defn(lambda a: a * 2, lazy_transfers=value)(nbt.tensor(2))) == 4
    with pytest.raises(nbt.ArgumentError, match='lazy_transfers="always" is not supported'):
        nbt.defn(lambda a: a, lazy_transfers="always")
    with pytest.raises(nbt.ArgumentError, match="lazy_transfers must be one of opt_in, never"):
        nbt.defn(lambda a: a, lazy_transfers="sometimes")
    with pytest.raises(nbt.ArgumentError, match="unknown defn option"):
        nbt.defn(lambda a: a, fast=True)
    with pytest.raises(nbt.ArgumentError, match="unknown defn compiler 'gcc'"):
        nbt.defn(lambda a: a, compiler="gcc")
    with pytest.raises(nbt.ArgumentError, match="cache must be True, False or a directory"):
        nbt.defn(lambda a: a, cache=3)


def test_a_defn_given_new_options_runs_its_function_with_them():
    base = nbt.defn(lambda a: nbt.hook(a * 2, "seen"))
    seen = []
    hooked = nbt.jit(base, compiler="evaluator", hooks={"seen": lambda v: seen.append(nbt.to_number(v))})
    assert hooked.compiler == "evaluator" and hooked.fun is base.fun
    assert nbt.to_number(hooked(nbt.tensor(3))) == 6 and seen == [6]


def test_debug_logs_compilations_and_hits(caplog):
    fun = nbt.defn(lambda a: a + 1, debug=True)
    with caplog.at_level(logging.INFO, logger="numbat.defn"):
        fun(nbt.tensor(1))
        fun(nbt.tensor(2))
    messages = [record.getMessage() for record in caplog.records]
    assert "compiled (s32) (trace" in messages[0] and messages[1].endswith("cache hit for (s32)")


def test_cache_directory_goes_through_the_disk_cache(tmp_path, events):
    fun = nbt.defn(lambda a: a * 3, cache=str(tmp_path))
    np.testing.assert_array_equal(fun(nbt.tensor([1.0])).to_numpy(), [3.0])
    again = nbt.defn(lambda a: a * 3, cache=str(tmp_path))
    np.testing.assert_array_equal(again(nbt.tensor([2.0])).to_numpy(), [6.0])
    compilations = [meta for kind, _, meta in events if kind == "compilation"]
    assert [meta["cached_on_disk"] for meta in compilations] == [False, True]


def test_evaluator_runs_on_the_default_backend_and_reports_its_runs(events):
    fun = nbt.defn(lambda a: nbt.cond(nbt.sum(a) > 0, lambda: a * 2, lambda: -a), compiler="evaluator")
    with nbt.default_backend(nbt.NumPyBackend()):
        out = fun(nbt.tensor([1.0, 2.0]))
        number = fun(-3)
    assert isinstance(out.backend, nbt.NumPyBackend) and isinstance(number.backend, nbt.NumPyBackend)
    np.testing.assert_array_equal(out.to_numpy(), [2.0, 4.0])
    assert nbt.to_number(number) == 3
    assert [kind for kind, _, _ in events] == ["evaluation", "evaluation"]
    assert events[0][2]["signature"] == "(f32[2])" and events[0][1]["total_time"] >= 0


# One-line uses of the op library: the Evaluator on NumPy and XLA-compiled code must agree.
OPS = {
    "softmax": lambda x, y: nbt.exp(x) / nbt.sum(nbt.exp(x), axes=[1], keep_axes=True),
    "dot": lambda x, y: nbt.dot(x, nbt.transpose(y)),
    "reductions": lambda x, y: (nbt.sum(x, axes=[0]), nbt.reduce_max(y), nbt.mean(x), nbt.argmax(x, axis=1)),
    "elementwise": lambda x, y: nbt.tanh(x) * nbt.sqrt(nbt.abs(y)) - nbt.log1p(nbt.abs(x)),
    "compare_select": lambda x, y: nbt.select(x > y, x, y * 2),
    "shape": lambda x, y: nbt.reshape(nbt.concatenate([x, y], axis=0), (3, 4)),
    "slice": lambda x, y: nbt.slice(x, [0, 1], [2, 2]) * nbt.put_slice(y, [1, 0], nbt.tensor([[9.0, 9.0]]))[:, 1:],
    "cumulative": lambda x, y: nbt.cumulative_sum(x, axis=1),
    "sort": lambda x, y: nbt.sort(y, axis=1),
    "types": lambda x, y: nbt.as_type(x * 10, "s32") // 3,
    "while": lambda x, y: nbt.while_loop(lambda s: nbt.sum(s) < 100.0, lambda s: s * 2, nbt.abs(x) + 1),
    "fori": lambda x, y: nbt.fori_loop(0, 3, lambda i, s: s + i * y, x),
    "cond": lambda x, y: nbt.cond([(nbt.sum(x) > 100, lambda: x), (nbt.sum(x) > 0, lambda: y)], lambda: x - y),
    "grad": lambda x, y: nbt.grad(lambda a: nbt.sum(nbt.sin(a) * y))(x),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_evaluator_and_xla_agree_across_the_op_library(name):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    y = rng.standard_normal((2, 3)).astype(np.float32)
    if name == "dot":
        y = y[:, :3]
    compiled = nbt.jit(OPS[name])(nbt.tensor(x), nbt.tensor(y))
    with nbt.default_backend(nbt.NumPyBackend()):
        evaluated = nbt.jit(OPS[name], compiler="evaluator")(nbt.tensor(x), nbt.tensor(y))
    for got, expected in zip(_leaves(evaluated), _leaves(compiled)):
        assert got.type == expected.type and got.names == expected.names
        np.testing.assert_allclose(got.to_numpy(), expected.to_numpy(), rtol=2e-6, atol=1e-6)


def _leaves(value):
    if isinstance(value, nbt.Tensor):
        return [value]
    return [leaf for item in value for leaf in _leaves(item)]


def test_concurrent_calls_of_many_signatures_compile_each_once_and_agree(events):
    fun = nbt.defn(lambda a, b: a * b + 1)
    inputs = [(nbt.tensor([float(i)] * (1 + i % 3)), nbt.tensor(2.0)) for i in range(24)]
    results = [None] * len(inputs)

    def call(i):
        results[i] = fun(*inputs[i]).to_numpy()

    threads = [threading.Thread(target=call, args=(i,)) for i in range(len(inputs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert fun.cache_info()["compiled"] == 3
    assert sum(kind == "compilation" for kind, _, _ in events) == 3
    for i, result in enumerate(results):
        np.testing.assert_array_equal(result, [2.0 * i + 1] * (1 + i % 3))


def test_a_hook_that_calls_its_own_defn_does_not_deadlock():
    calls = []

    def again(value):
        if not calls:  # once: the inner call runs this hook too
            calls.append(None)
            calls[0] = outer(nbt.tensor([0.5])).to_numpy().tolist()

    @nbt.defn
    def outer(a):
        return nbt.hook(a + 1, again)

    done = []
    thread = threading.Thread(target=lambda: done.append(outer(nbt.tensor([1.0, 2.0])).to_numpy()), daemon=True)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive() and done[0].tolist() == [2.0, 3.0] and calls == [[1.5]]


def test_repeated_calls_of_several_tensors_check_every_argument_each_call():
    """The fast path for a call like the last one still checks each argument's type,
    names, shape and backend: any change compiles (or finds) the right entry."""
    fun = nbt.defn(lambda a, b: (a + b, nbt.sum(a)))
    a, b = nbt.tensor([1, 2]), nbt.tensor(10)
    for _ in range(3):
        total, summed = fun(a, b)
    assert total.to_numpy().tolist() == [11, 12] and summed.to_numpy().tolist() == 3
    named = fun(nbt.tensor([1, 2], names=["x"]), b)[0]
    assert named.names == ("x",)
    wider = fun(nbt.tensor([1.5, 2.5, 3.5]), b)[0]
    assert str(wider.type) == "f32" and wider.to_numpy().tolist() == [11.5, 12.5, 13.5]
    other = fun(nbt.tensor([1, 2], backend=nbt.NumPyBackend()), b)[0]
    assert other.to_numpy().tolist() == [11, 12]
    assert fun(a, nbt.tensor(1.0, type="f64"))[0].type == nbt.tensor(1.0, type="f64").type
    with pytest.raises(nbt.ArgumentError):
        fun(a, "not a tensor")
    assert fun(a, b)[1].to_numpy().tolist() == 3
    assert fun.cache_info()["compiled"] == 4  # the NumPy tensor moves over: the first signature again


def test_a_flat_tuple_of_outputs_comes_back_as_a_tuple_and_other_structures_as_they_were():
    pair = nbt.defn(lambda a, b: (a * 2, b))
    nested = nbt.defn(lambda a, b: {"x": [a], "y": (b,)})
    a, b = nbt.tensor([1]), nbt.tensor(2)
    for _ in range(2):
        assert type(pair(a, b)) is tuple
        result = nested(a, b)
        assert set(result) == {"x", "y"} and type(result["x"]) is list and type(result["y"]) is tuple


def test_repeated_calls_of_one_tensor_check_the_argument_each_call(events):
    """The one-tensor fast path (a call like the last one) still checks the argument's
    type, names, backend and shape, a freed buffer and tracing, and reports each hit."""
    double = nbt.defn(lambda t: t * 2)
    a = nbt.tensor([1.0, 2.0])
    for _ in range(3):
        result = double(a)
    assert result.to_numpy().tolist() == [2.0, 4.0] and double.hits == 2
    assert [kind for kind, _, _ in events].count("cache_hit") == 2  # emitted on the fast path too
    assert double(nbt.tensor([1, 2])).type == nbt.tensor([1, 2]).type  # another type
    assert double(a).names == (None,)
    assert double(nbt.tensor([1.0, 2.0], names=["x"])).names == ("x",)  # other names
    assert double(a).shape == (2,) and double(nbt.tensor([1.0, 2.0, 3.0])).shape == (3,)  # another shape
    assert double.cache_info()["compiled"] == 4  # each compiled by numbat, none retraced behind its back
    assert double(a).shape == (2,) and double(nbt.tensor([[1.0, 2.0]])).shape == (1, 2)  # another rank
    host = double(nbt.tensor([1.0, 2.0], backend=nbt.NumPyBackend()))  # another backend: moved over
    assert host.backend == double.backend and host.to_numpy().tolist() == [2.0, 4.0]
    assert double(a).to_numpy().tolist() == [2.0, 4.0]
    vectorized = double(nbt.vectorize(nbt.tensor([[1.0, 2.0], [3.0, 4.0]]), "rows"))
    assert vectorized.vectorized_axes == (("rows", 2),)
    assert double(a).to_numpy().tolist() == [2.0, 4.0]
    freed = nbt.tensor([5.0, 6.0])
    nbt.backend_deallocate(freed)
    with pytest.raises(nbt.ArgumentError, match="freed with nbt.backend_deallocate"):
        double(freed)
    graph = nbt.debug_expr(lambda t: double(double(t)))(a)  # while tracing: inlined, not called
    assert "multiply" in str(graph)
    hits = double.hits
    double.name = "renamed_double"
    double(a)
    assert double.hits == hits + 1 and nbt.telemetry.counts()["renamed_double"]["cache_hits"] == 1
    assert events[-1][0] == "cache_hit" and events[-1][2]["function"] == "renamed_double"


def test_the_one_tensor_route_keeps_a_named_record_of_the_last_call():
    """Route 1 compares a call with a named record of the last one (`SingleCall`); the record
    holds no hit counter, so a renamed defn keeps the route and counts under its new name."""
    double = nbt.defn(lambda t: t * 2)
    a = nbt.tensor([1.0, 2.0], names=["x"])
    double(a), double(a)  # compiled on the general route, then recorded by route 2
    last = double._last_single
    assert isinstance(last, _call.SingleCall)
    assert (last.type, last.names, last.backend, last.shape) == (a.type, a.names, a.backend, a.shape)
    assert (last.out_type, last.out_names) == (a.type, ("x",)) and last.key
    double.name = "renamed_record_double"
    assert double(a).to_numpy().tolist() == [2.0, 4.0] and double._last_single is last
    assert nbt.telemetry.counts()["renamed_record_double"]["cache_hits"] == 1


def test_repeated_calls_with_containers_of_tensors_take_the_fast_path_and_check_every_leaf(monkeypatch):
    """Tensors in tuples, lists and dicts (a model's parameters) are read by route 2 without
    flattening a signature; any change of a leaf's type, names, shape or backend, or of the
    structure, finds (or compiles) the right entry."""
    step = nbt.defn(lambda params, x: {"y": params["w"] * x + params["b"][0], "n": nbt.sum(x)})
    params, x = {"w": nbt.tensor([2.0, 3.0]), "b": (nbt.tensor(1.0),)}, nbt.tensor([1.0, 1.0])
    step(params, x)
    flattened = []
    real_flatten = nbt._defn._signature.flatten
    monkeypatch.setattr(nbt._defn._signature, "flatten", lambda *a: flattened.append(1) or real_flatten(*a))
    for _ in range(3):
        result = step(params, x)
    assert result["y"].to_numpy().tolist() == [3.0, 4.0] and not flattened and step.hits == 3
    assert step({"w": nbt.tensor([2.0, 3.0], names=["k"]), "b": (nbt.tensor(1.0),)}, x)["y"].names == ("k",)
    assert step({"w": nbt.tensor([2, 3]), "b": (nbt.tensor(1),)}, nbt.tensor([1, 1]))["y"].type == nbt.tensor(1).type
    assert step({"w": nbt.tensor([2.0]), "b": [nbt.tensor(1.0)]}, nbt.tensor([1.0]))["y"].shape == (1,)  # list, shape
    host = {"w": nbt.tensor([2.0, 3.0], backend=nbt.NumPyBackend()), "b": (nbt.tensor(1.0),)}
    assert step(host, x)["y"].to_numpy().tolist() == [3.0, 4.0]  # moved over on the general route
    with pytest.raises(nbt.ArgumentError):
        step({"w": nbt.tensor([2.0, 3.0]), "b": (nbt.tensor(1.0),), "extra": {1, 2}}, x)
    assert step.cache_info()["compiled"] == 4
    flattened.clear()
    assert step(params, x)["n"].to_numpy().tolist() == 2.0 and not flattened
    freed = nbt.tensor([2.0, 3.0])
    nbt.backend_deallocate(freed)
    with pytest.raises(nbt.ArgumentError, match="freed with nbt.backend_deallocate"):
        step({"w": freed, "b": (nbt.tensor(1.0),)}, x)


def test_deeply_nested_containers_take_the_general_route():
    """Nesting deeper than route 2 reads is served by the general route, with the same answer."""
    deep = nbt.tensor([1.0])
    for _ in range(_call.MAX_DEPTH + 2):
        deep = (deep,)
    unwrap = nbt.defn(
        lambda nested: nbt.sum(jax.tree_util.tree_leaves(nested, is_leaf=lambda v: isinstance(v, nbt.Tensor))[0])
    )
    assert [unwrap(deep).to_numpy().tolist() for _ in range(2)] == [1.0, 1.0] and unwrap.hits == 1


@pytest.mark.parametrize("arity", [1, 2], ids=["one tensor (route 1)", "two tensors (route 2)"])
def test_a_compiled_defn_called_under_the_evaluator_is_inlined_on_every_route(arity, events):
    """`Defn.__call__` asks once, for every route, whether the call is inlined: a defn called
    from a body the Evaluator runs is inlined even when an earlier call left its compiled entry
    to a fast route (before, routes 1 and 2 ran the entry and counted a hit; route 3 inlined)."""
    inner = nbt.defn(lambda *ts: ts[0] * 2 if len(ts) == 1 else ts[0] * ts[1])
    outer = nbt.defn(lambda *ts: inner(*ts) + 1, compiler="evaluator")
    args = [nbt.tensor([1.0, 2.0])] * arity
    inner(*args), inner(*args)  # compiled, then a hit on its fast route
    assert inner.cache_info() == {"compiled": 1, "hits": 1}
    assert outer(*args).to_numpy().tolist() == ([3.0, 5.0] if arity == 1 else [2.0, 5.0])
    assert inner.cache_info() == {"compiled": 1, "hits": 1}
    assert [kind for kind, _, _ in events].count("cache_hit") == 1
    assert inner(*args).to_numpy().tolist() == ([2.0, 4.0] if arity == 1 else [1.0, 4.0])
    assert inner.cache_info() == {"compiled": 1, "hits": 2}  # outside the Evaluator: the fast route again
