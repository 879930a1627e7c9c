"""Faults and concurrency: a raising print_value formatter, a KeyboardInterrupt while
compiling, inside a callback or while writing the disk cache, recursion and deep
nesting that leave no context behind, and eager ops from several threads."""

import os
import threading

import jax
import numpy as np
import pytest

import numbat as nbt


def test_a_raising_print_value_formatter_is_a_hook_error_and_the_defn_runs_again(capsys):
    calls = []

    def formatter(tensor):
        calls.append(tensor)
        if len(calls) == 1:
            raise RuntimeError("formatter bug")
        return "fine"

    show = nbt.defn(lambda t: nbt.print_value(t * 2, formatter=formatter))
    with pytest.raises(nbt.HookError, match="formatter bug"):
        show(nbt.tensor([1.0]))
    np.testing.assert_array_equal(show(nbt.tensor([1.0])).to_numpy(), [2.0])
    assert "fine" in capsys.readouterr().out


def test_a_keyboard_interrupt_while_tracing_leaves_the_defn_usable():
    interrupt = [True]

    def body(t):
        if interrupt[0]:
            interrupt[0] = False
            raise KeyboardInterrupt
        return t + 1

    fun = nbt.defn(body)
    with pytest.raises(KeyboardInterrupt):
        fun(nbt.tensor([1.0]))
    assert fun.cache_info()["compiled"] == 0  # nothing half-made was kept
    # The lock was released: another thread can compile, and this one calls it.
    done = []
    thread = threading.Thread(target=lambda: done.append(fun(nbt.tensor([1.0])).to_numpy()), daemon=True)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive() and done[0].tolist() == [2.0]
    assert fun(nbt.tensor([5.0])).to_numpy().tolist() == [6.0] and fun.cache_info()["compiled"] == 1


def _state():
    """Every context numbat enters while it traces or runs a defn."""
    from numbat._defn import _effects, _options
    from numbat._tensor import _expr
    from numbat.backends import _default

    return (
        _expr.current(),
        _default.current(),
        _effects.active_hooks.get(),
        _options._scoped.get(),
        dict(_options._global),
        jax.config.jax_default_matmul_precision,
        jax.config.jax_enable_x64,
    )


def _recurses_forever(t):
    return _recurses_forever(t + 1)


def _nested(depth):
    value = nbt.tensor(1.0)
    for _ in range(depth):
        value = [value]
    return value


_DEADLY = {
    "recursion while tracing": (lambda: nbt.defn(_recurses_forever)(nbt.tensor(1.0)), RecursionError),
    "recursion in a branch": (
        lambda: nbt.defn(lambda t: nbt.cond(t > 0, _recurses_forever, lambda x: x, t))(nbt.tensor(1.0)),
        RecursionError,
    ),
    "recursion in a loop body": (
        lambda: nbt.defn(lambda t: nbt.while_loop(lambda s: s < 3, _recurses_forever, t))(nbt.tensor(1.0)),
        RecursionError,
    ),
    "recursion under grad": (lambda: nbt.grad(_recurses_forever)(nbt.tensor(1.0)), RecursionError),
    "interrupt while tracing": (
        lambda: nbt.defn(lambda t: (_ for _ in ()).throw(KeyboardInterrupt))(nbt.tensor(1.0)),
        KeyboardInterrupt,
    ),
    "defn argument nested 5000 deep": (lambda: nbt.defn(lambda x: x)(_nested(5000)), nbt.ArgumentError),
    "evaluator argument nested 5000 deep": (
        lambda: nbt.defn(lambda x: x, compiler="evaluator")(_nested(5000)),
        nbt.ArgumentError,
    ),
    "grad argument nested 5000 deep": (lambda: nbt.grad(lambda x: x)(_nested(5000)), nbt.ArgumentError),
    "defn result nested 5000 deep": (lambda: nbt.jit(lambda t: _nested(5000))(nbt.tensor(1.0)), nbt.ArgumentError),
    "tensor data nested 5000 deep": (lambda: nbt.tensor(_nested(5000)), nbt.ArgumentError),
    "vectorize of a container nested 5000 deep": (lambda: nbt.vectorize(_nested(5000), "x"), nbt.ArgumentError),
    "hook value nested 5000 deep": (lambda: nbt.hook(_nested(5000), print), nbt.ArgumentError),
}


@pytest.mark.parametrize("name", list(_DEADLY))
def test_no_exception_poisons_the_process(name):
    fun, expected = _DEADLY[name]
    before = _state()
    with pytest.raises(expected) as caught:
        fun()
    if expected is nbt.ArgumentError:
        assert "is nested 5000 levels deep; numbat takes at most 100 levels" in str(caught.value)
    assert _state() == before  # every context restored
    # Python's own stack accounting is intact (JAX's pytree code, given 5000 levels, broke it for good)
    assert _count_down(800) == 0
    assert nbt.defn(lambda t: t + 1)(nbt.tensor([1.0])).to_numpy().tolist() == [2.0]
    assert nbt.grad(lambda t: t * t)(nbt.tensor(3.0)).to_numpy() == 6.0


def _count_down(n):
    return 0 if n == 0 else _count_down(n - 1)


def test_nesting_up_to_the_limit_is_accepted():
    assert nbt.defn(lambda x: x)(_nested(99))  # the argument tuple's own level is not counted


def _interrupted(first_only):
    def callback(value):
        if first_only:
            first_only.pop()
            raise KeyboardInterrupt
        return value

    return callback


@pytest.mark.parametrize("where", ["hook", "print_value formatter", "runtime_call"])
def test_an_interrupt_inside_a_callback_reaches_the_caller_and_the_defn_runs_again(where, capsys):
    callback = _interrupted([True])
    if where == "hook":
        fun = nbt.defn(lambda t: nbt.hook(t * 2, callback))
    elif where == "print_value formatter":
        fun = nbt.defn(lambda t: nbt.print_value(t * 2, formatter=lambda v: str(callback(v).to_numpy())))
    else:
        fun = nbt.defn(lambda t: nbt.runtime_call(nbt.template((1,), "f32"), t, callback) * 2)
    before = _state()
    with pytest.raises(KeyboardInterrupt):
        fun(nbt.tensor([1.0]))
    assert _state() == before
    assert fun(nbt.tensor([1.0])).to_numpy().tolist() == [2.0]
    assert fun.cache_info()["compiled"] == 1  # the second call reused the compiled code


def test_a_keyboard_interrupt_while_writing_the_disk_cache_leaves_no_partial_entry(tmp_path, monkeypatch):
    real_replace = os.replace

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        nbt.defn(lambda t: t * 3, cache=str(tmp_path))(nbt.tensor([1.0, 2.0]))
    assert list(tmp_path.iterdir()) == []  # the temporary file was removed, no entry was half-written
    monkeypatch.setattr(os, "replace", real_replace)
    events = []
    nbt.telemetry.attach("faults-disk", nbt.telemetry.COMPILATION, lambda e, m, meta: events.append(meta))
    try:
        first = nbt.defn(lambda t: t * 3, cache=str(tmp_path))(nbt.tensor([1.0, 2.0]))
        again = nbt.defn(lambda t: t * 3, cache=str(tmp_path))(nbt.tensor([1.0, 2.0]))
    finally:
        nbt.telemetry.detach("faults-disk")
    assert first.to_numpy().tolist() == again.to_numpy().tolist() == [3.0, 6.0]
    assert [meta.get("cached_on_disk") for meta in events] == [False, True]


def _work(t):
    """A mix of op families, eagerly."""
    m = nbt.reshape(t, (4, 4))
    out = nbt.dot(m, nbt.transpose(m)) / 10
    out = nbt.cumulative_sum(nbt.sort(out, axis=1), axis=0)
    out = nbt.window_max(out, (2, 2)) + nbt.sum(nbt.exp(-nbt.abs(m)), axes=[0])[:3]
    return nbt.argmax(out, axis=1), nbt.logsumexp(out)


@pytest.mark.parametrize("backend", [nbt.NumPyBackend(), nbt.XLABackend()], ids=["numpy", "xla"])
def test_eager_ops_from_eight_threads_agree_with_a_serial_run(backend):
    rng = np.random.default_rng(7)
    inputs = [nbt.tensor(rng.normal(size=16).astype(np.float32), backend=backend) for _ in range(32)]
    serial = [tuple(r.to_numpy() for r in _work(t)) for t in inputs]
    results = [None] * len(inputs)
    errors = []

    def worker(indices):
        try:
            for i in indices:
                results[i] = tuple(r.to_numpy() for r in _work(inputs[i]))
        except Exception as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=worker, args=(range(k, len(inputs), 8),)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    for got, expected in zip(results, serial):
        np.testing.assert_array_equal(got[0], expected[0])
        np.testing.assert_allclose(got[1], expected[1], rtol=1e-6)
