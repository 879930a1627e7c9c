"""Run-time side effects (hook, print_value, inspect_value), vectorize, and the
recompilation warning."""

import numpy as np
import pytest

import numbat as nbt


def test_named_hooks_come_from_the_defn_option_and_are_part_of_its_key():
    seen = []
    with_hook = nbt.defn(lambda t: nbt.hook(t * 2, "seen"), hooks={"seen": lambda v: seen.append(v.to_numpy())})
    without = nbt.defn(lambda t: nbt.hook(t * 2, "seen"))
    np.testing.assert_array_equal(with_hook(nbt.tensor([1, 2])).to_numpy(), [2, 4])
    np.testing.assert_array_equal(without(nbt.tensor([1, 2])).to_numpy(), [2, 4])
    assert [s.tolist() for s in seen] == [[2, 4]]
    with pytest.raises(nbt.ArgumentError, match="hooks must map hook names to functions"):
        nbt.defn(lambda t: t, hooks={"x": 1})


def test_a_hook_that_raises_is_a_hook_error_and_the_defn_runs_again():
    calls = []

    def fragile(value):
        calls.append(value)
        if len(calls) == 1:
            raise ValueError("first call fails")

    fun = nbt.jit(lambda t: nbt.hook(t + 1, fragile))
    with pytest.raises(nbt.HookError, match="hook 'fragile' raised ValueError: first call fails"):
        fun(nbt.tensor([1]))
    np.testing.assert_array_equal(fun(nbt.tensor([1])).to_numpy(), [2])
    with pytest.raises(nbt.HookError):
        nbt.hook(nbt.tensor([1]), lambda v: 1 / 0)


def test_print_value_prints_at_run_time(capsys):
    fun = nbt.jit(lambda t: nbt.print_value(t * 3, label="tripled"))
    fun(nbt.tensor([1, 2]))
    fun(nbt.tensor([3, 4]))
    out = capsys.readouterr().out
    assert out.count("tripled: numbat.Tensor<") == 2 and "[9, 12]" in out
    nbt.print_value(nbt.tensor(5), formatter=lambda t: f"value={nbt.to_number(t)}")
    assert capsys.readouterr().out == "value=5\n"
    nbt.inspect_value(nbt.tensor([1.5]), label="x")
    assert capsys.readouterr().out.startswith("x: numbat.Tensor<")


@pytest.mark.parametrize("compiled", [False, True])
def test_vectorize_maps_over_the_batch_axis(compiled, backend):
    rows = nbt.tensor([[1.0, 3.0], [2.0, 2.0], [0.0, 4.0]], names=["batch", "x"])
    fun = nbt.vectorize(lambda row: row / nbt.sum(row))
    out = nbt.jit(fun)(rows) if compiled else fun(rows)
    assert out.names == ("batch", "x")
    np.testing.assert_allclose(out.to_numpy(), rows.to_numpy() / rows.to_numpy().sum(axis=1, keepdims=True))
    with pytest.raises(nbt.ArgumentError, match="different sizes"):
        nbt.vectorize(lambda a, b: a + b)(nbt.iota((2, 3)), nbt.iota((3, 3)))


def test_recompiling_for_the_same_shapes_warns():
    fun = nbt.jit(lambda t, k: t * k)
    for k in range(4):
        fun(nbt.tensor([1]), k=k)
    with pytest.warns(nbt.RecompilationWarning, match="compiled 5 times for the input shapes"):
        fun(nbt.tensor([1]), k=4)


@pytest.mark.parametrize("route", ["options", "tensors"])
def test_the_recompilation_warning_points_at_the_call_whichever_route_compiled(route):
    # With options a call goes straight to the general route; with a tensor alone it tries
    # route 2 first, a frame deeper: the warning names the caller's line either way.
    fun = nbt.jit(lambda t, k=1: t * k)
    calls = {
        "options": lambda i: fun(nbt.tensor([1]), k=i),
        "tensors": lambda i: fun(nbt.tensor([1], type=["s8", "s16", "s32", "u8", "u16"][i])),
    }[route]
    for i in range(4):
        calls(i)
    with pytest.warns(nbt.RecompilationWarning) as record:
        calls(4)
    assert record[0].filename == __file__


def test_vectorize_inside_a_defn_is_one_node_with_the_per_example_graph():
    fun = lambda m: nbt.vectorize(lambda row: row / nbt.sum(row))(m) * 2
    text = str(nbt.debug_expr(fun)(nbt.tensor([[1.0, 2.0], [3.0, 4.0]], names=["batch", "x"])))
    assert "b = vectorize [ a, axes: [0], name: 'batch' ]" in text and "of -> e:" in text
    assert "parameter c:0                               f32[x: 2]" in text and "f = multiply [ b, 2.0 ]" in text


def _clipped_cumsum(t, limit):
    return nbt.tensor(np.minimum(np.cumsum(t.to_numpy()), limit), type=t.type)


@pytest.mark.parametrize("backend", [nbt.NumPyBackend, nbt.XLABackend])
def test_runtime_call_runs_python_inside_compiled_code(backend):
    out = nbt.template((4,), "s32")
    with nbt.default_backend(backend()):
        eager = nbt.runtime_call(out, nbt.tensor([1, 2, 3, 4]), _clipped_cumsum, limit=5)
        fun = nbt.jit(lambda t: nbt.runtime_call(out, t, _clipped_cumsum, limit=5) * 10)
        compiled = fun(nbt.tensor([1, 2, 3, 4]))
        rows = nbt.vectorize(nbt.tensor([[1, 2, 3, 4], [4, 3, 2, 1]]), "x")
        per_row = nbt.runtime_call(out, rows, _clipped_cumsum, limit=5)
    assert eager.to_numpy().tolist() == [1, 3, 5, 5] and compiled.to_numpy().tolist() == [10, 30, 50, 50]
    assert per_row.vectorized_axes == (("x", 2),) and per_row.to_numpy().tolist() == [[1, 3, 5, 5], [4, 5, 5, 5]]
    assert isinstance(per_row.backend, backend) and isinstance(eager.backend, backend)
    assert fun(rows).to_numpy().tolist() == [[10, 30, 50, 50], [40, 50, 50, 50]]


def test_runtime_call_takes_containers_and_is_one_node_of_the_graph():
    out = (nbt.template((), "s32"), nbt.template((), "f32", names=None))
    summary = lambda d: (nbt.sum(d["a"]), nbt.mean(d["a"]))
    fun = lambda t: nbt.runtime_call(out, {"a": t}, summary)
    total, mean = nbt.jit(fun)(nbt.tensor([1, 2, 3]))
    assert nbt.to_number(total) == 6 and nbt.to_number(mean) == 2.0
    assert "runtime_call [ a, fun: '<lambda>' ]" in str(nbt.debug_expr(fun)(nbt.tensor([1, 2, 3])))


def test_a_runtime_call_whose_result_does_not_fit_is_a_numbat_error_and_the_defn_runs_again():
    wrong = nbt.template((3,), "s32")
    with pytest.raises(nbt.ArgumentError, match=r"result 0 is s32\[4\], the output template says s32\[3\]"):
        nbt.runtime_call(wrong, nbt.tensor([1, 2, 3, 4]), _clipped_cumsum, limit=5)
    fun = nbt.jit(lambda t, n: nbt.runtime_call(nbt.template((n,), "s32"), t, _clipped_cumsum, limit=5))
    with pytest.raises(nbt.HookError, match="runtime_call '_clipped_cumsum' raised ArgumentError"):
        fun(nbt.tensor([1, 2, 3, 4]), n=3)  # keyword arguments are static
    assert fun(nbt.tensor([1, 2, 3, 4]), n=4).to_numpy().tolist() == [1, 3, 5, 5]
    with pytest.raises(nbt.HookError, match="raised ZeroDivisionError"):
        nbt.runtime_call(wrong, nbt.tensor([1]), lambda t: 1 / 0)
    with pytest.raises(nbt.ArgumentError, match="the output must be a template"):
        nbt.runtime_call((3,), nbt.tensor([1]), _clipped_cumsum)


def test_io_call_passes_containers_through_and_names_come_from_the_hooks_option():
    seen = []
    record = lambda d: seen.append((d["x"].to_numpy().tolist(), nbt.to_number(d["total"])))
    body = lambda t: nbt.io_call({"x": t, "total": nbt.sum(t)}, "log", record)["x"] * 2
    assert nbt.jit(body)(nbt.tensor([1, 2])).to_numpy().tolist() == [2, 4]
    assert seen == [([1, 2], 3)]  # the default function of the name
    other = []
    nbt.jit(body, hooks={"log": lambda d: other.append(nbt.to_number(d["total"]))})(nbt.tensor([3, 4]))
    assert other == [7] and len(seen) == 1  # the option replaced it
    assert nbt.io_call(nbt.tensor([5]), "unnamed").to_numpy().tolist() == [5]  # no function: nothing happens
    assert "c = io_call [ b, a, name: 'log' ]" in str(nbt.debug_expr(body)(nbt.tensor([1, 2])))
    failing = nbt.jit(lambda t: nbt.io_call((t,), lambda value: 1 / 0)[0])
    with pytest.raises(nbt.HookError, match="io_call '<lambda>' raised ZeroDivisionError"):
        failing(nbt.tensor([1]))
    with pytest.raises(nbt.ArgumentError, match="io_call needs a function or a name"):
        nbt.io_call(nbt.tensor([1]), 3)


def test_a_hook_name_that_is_not_a_string_is_a_numbat_error():
    # Found by the fuzz (issue 40's new public names shifted its draws): an empty array as
    # hook's name raised NumPy's ValueError about truth values.
    with pytest.raises(nbt.ArgumentError, match="hook's name must be a string"):
        nbt.hook(nbt.tensor([1, 2]), lambda t: None, np.zeros((2, 0)))
