"""Faults and concurrency: a raising print_value formatter, a KeyboardInterrupt while
compiling or while writing the disk cache, and eager ops from several threads."""

import os
import threading

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
