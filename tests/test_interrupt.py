"""Ctrl-C and a Stop button reach a running while_loop (issue 41, docs/design.md, decision 19):
an interruptible loop stops with `numbat.Interrupted` naming the loop and its iteration
count, compiled (plain, vectorized, inside the caller's `jax.jit`) and on the Evaluator;
the SIGINT handler comes back after; and in a real IPython kernel, "Interrupt kernel"
stops a never-ending loop and the next cell still has the earlier variables."""

import os
import signal
import threading
import time

import jax
import pytest

import numbat as nbt
from numbat._defn import _interrupt


def _runner(**options):
    """A defn looping until `limit` (forever when it is negative), compiled by a short run first."""

    def halve(state):
        return state[0] + 1, state[1] * 0.5

    @nbt.defn(**options)
    def run(x, limit):
        return nbt.while_loop(lambda s: (limit < 0) | (s[0] < limit), halve, (nbt.tensor(0), x))

    run(nbt.tensor(1.0), nbt.tensor(3))
    return run


def _sigint_after(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_sigint_stops_a_compiled_loop_with_a_numbat_error_and_restores_the_handler():
    run = _runner(interruptible=True)
    before = signal.getsignal(signal.SIGINT)
    _sigint_after(0.5)
    start = time.monotonic()
    with pytest.raises(nbt.Interrupted, match=r"while_loop halve \(in defn .*run\) stopped after [\d,]+ iterations"):
        run(nbt.tensor(1.0), nbt.tensor(-1))
    assert time.monotonic() - start < 2.0
    assert signal.getsignal(signal.SIGINT) is before
    count, value = run(nbt.tensor(1.0), nbt.tensor(4))  # the defn runs again
    assert (nbt.to_number(count), nbt.to_number(value)) == (4, 0.0625)


def test_a_stop_request_stops_the_loop_at_its_first_check():
    run = _runner(interruptible=True)
    _interrupt.request_stop()
    with pytest.raises(nbt.Interrupted, match=f"stopped after {_interrupt.FIRST_STRIDE} iterations"):
        run(nbt.tensor(1.0), nbt.tensor(-1))
    assert not _interrupt.requested()


def test_a_loop_that_ends_within_its_first_stride_never_calls_back():
    run = _runner(interruptible=True)
    _interrupt.request_stop()
    try:
        count, _ = run(nbt.tensor(1.0), nbt.tensor(_interrupt.FIRST_STRIDE - 1))
        assert nbt.to_number(count) == _interrupt.FIRST_STRIDE - 1
        assert _interrupt.requested()  # nobody took the request
    finally:
        _interrupt.clear()


def test_loops_are_not_interruptible_unless_asked():
    plain, checked = _runner(), _runner(interruptible=True)
    args = (nbt.tensor(1.0), nbt.tensor(3))
    assert "callback" not in _lowered(plain, args) and "callback" in _lowered(checked, args)
    previous = nbt.global_default_defn_options(interruptible=True)
    try:
        assert "callback" in _lowered(_runner(), args)
    finally:
        nbt.global_default_defn_options(previous)


def _lowered(defn, args) -> str:
    signature, _ = nbt._defn._signature.flatten(args, {}, defn._convert)
    return defn.lower(signature)[0].as_text()


def test_a_vectorized_loop_stops():
    @nbt.defn(interruptible=True)
    def count_up(x):
        def step(s):
            return s + 1

        return nbt.while_loop(lambda s: nbt.all(s >= 0), step, x)

    _interrupt.request_stop()
    with pytest.raises(nbt.Interrupted, match=r"while_loop step \(in defn .*count_up\)"):
        count_up(nbt.vectorize(nbt.tensor([0, 1, 2]), "batch"))


def test_a_defn_inside_the_callers_jax_jit_stops_under_interruptible():
    run = _runner(interruptible=True)
    jitted = jax.jit(lambda x: run(nbt.tensor(x), nbt.tensor(-1))[0].data)
    _sigint_after(1.0)
    with pytest.raises(nbt.Interrupted, match="while_loop halve"), nbt.interruptible():
        jitted(1.0)


def test_the_evaluator_stops_on_a_request_and_on_sigint():
    run = nbt.defn(_runner().fun, compiler="evaluator")
    _interrupt.request_stop()
    with pytest.raises(nbt.Interrupted, match="stopped after 0 iterations"):
        run(nbt.tensor(1.0), nbt.tensor(-1))
    _sigint_after(0.5)
    with pytest.raises(nbt.Interrupted, match=r"while_loop halve \(in defn .*run\) stopped after [\d,]+ iterations"):
        run(nbt.tensor(1.0), nbt.tensor(-1))


def test_the_option_is_checked():
    with pytest.raises(nbt.ArgumentError, match="option interruptible must be True or False, got 'yes'"):
        nbt.defn(lambda x: x, interruptible="yes")


def test_the_check_counts_past_32_bits_and_aims_at_the_time_target():
    label = "while_loop test_check"
    _interrupt.check(label, _interrupt.FIRST_STRIDE, _interrupt.FIRST_STRIDE)  # a run's first check
    time.sleep(0.01)
    stride = int(_interrupt.check(label, 2**32 - 16, 2**31 - 1))
    assert 1 <= stride <= _interrupt.MAX_STRIDE
    _interrupt.request_stop()
    with pytest.raises(_interrupt.Stop, match=f"stopped after {2**32 + 100:,} iterations"):
        _interrupt.check(label, 100, stride)  # wrapped once
    assert isinstance(_interrupt.stopped_error(), nbt.Interrupted)


KERNEL_SETUP = """import numbat as nbt
%load_ext numbat
%numbat interruptible on
kept = nbt.tensor([1.0, 2.0])

@nbt.defn
def forever(x):
    return nbt.while_loop(lambda s: s[0] >= 0, lambda s: (s[0] + 1, s[1] * 0.5), (nbt.tensor(0), x))
"""


def _reply(client, msg_id, timeout):
    """The execute reply to `msg_id` and the stdout the cell printed."""
    printed = []
    deadline = time.monotonic() + timeout
    while True:
        message = client.get_iopub_msg(timeout=max(0.1, deadline - time.monotonic()))
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])
        if message["msg_type"] == "status" and message["content"]["execution_state"] == "idle":
            break
    return client.get_shell_msg(timeout=timeout)["content"], "".join(printed)


def test_interrupt_kernel_stops_a_never_ending_loop_and_keeps_the_variables():
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        reply, _ = _reply(client, client.execute(KERNEL_SETUP), 120)
        assert reply["status"] == "ok", reply
        msg_id = client.execute("forever(kept)")
        time.sleep(2.0)
        interrupted_at = time.monotonic()
        manager.interrupt_kernel()
        reply, _ = _reply(client, msg_id, 30)
        took = time.monotonic() - interrupted_at
        print(f"SIGINT to error: {took:.3f} s")
        assert reply["status"] == "error" and reply["ename"] == "Interrupted", reply
        assert "stopped after" in reply["evalue"]
        assert took < 2.0, took
        reply, printed = _reply(client, client.execute("print(nbt.to_number(nbt.sum(kept)))"), 60)
        assert reply["status"] == "ok" and printed == "3.0\n", (reply, printed)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def test_sigint_during_a_hook_stops_the_loop_too():
    def slow_hook(value):
        time.sleep(0.01)  # most of each iteration: the signal arrives while the hook runs

    def step(s):
        return nbt.hook(s + 1, "slow")

    run = nbt.defn(lambda x: nbt.while_loop(lambda s: s >= 0, step, x), hooks={"slow": slow_hook}, interruptible=True)
    run(nbt.tensor(-1))  # compiled, no iteration
    _sigint_after(0.5)
    with pytest.raises(nbt.Interrupted, match=r"while_loop step \(in defn .*<lambda>\) stopped after"):
        run(nbt.tensor(0))


def test_the_magic_and_the_environment_turn_it_on_for_defns_created_after(ip, capsys, monkeypatch):
    previous = nbt.global_default_defn_options()
    try:
        ip.run_line_magic("numbat", "interruptible on")
        assert "are interruptible (Ctrl-C or Interrupt kernel" in capsys.readouterr().out
        assert nbt.defn(lambda x: x).interruptible is True
        ip.run_line_magic("numbat", "interruptible off")
        assert "are not interruptible" in capsys.readouterr().out
        assert nbt.defn(lambda x: x).interruptible is False
        ip.run_line_magic("numbat", "interruptible maybe")
        assert "takes on or off" in capsys.readouterr().err
        ip.run_line_magic("unload_ext", "numbat")
        monkeypatch.setenv("NUMBAT_INTERRUPTIBLE", "1")  # as a kernel spec's "env" sets it
        ip.run_line_magic("load_ext", "numbat")
        assert nbt.defn(lambda x: x).interruptible is True
    finally:
        nbt.global_default_defn_options(previous)


def test_a_stop_request_reaches_a_loop_called_from_a_worker_thread():
    run = _runner(interruptible=True)
    caught = []

    def call():
        try:
            run(nbt.tensor(1.0), nbt.tensor(-1))
        except nbt.Interrupted as error:
            caught.append(error)

    worker = threading.Thread(target=call)
    worker.start()
    time.sleep(0.5)
    _interrupt.request_stop()
    worker.join(timeout=10)
    assert not worker.is_alive() and len(caught) == 1
