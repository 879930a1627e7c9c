"""Ctrl-C and a Stop button reach a running while_loop (issues 41 and 47, docs/design.md,
decision 19): an interruptible loop stops with `numbat.Interrupted` naming the loop and its
exact iteration count, compiled (plain, vectorized, a fori_loop with tensor bounds, inside
the caller's `jax.jit`) and on the Evaluator; a stop belongs to the call it targets (Ctrl-C:
the main thread's; `request_stop(thread)`); the SIGINT handler and wakeup fd come back after
every call, whenever the signal lands, and a SIGINT no check took leaves nothing for a later
call; a call queued behind earlier work stops instead of hanging; and in a real IPython
kernel, "Interrupt kernel" stops a never-ending loop and the next cell still has the
earlier variables.

Every test runs twice: as the CPU reports an error raised in a host callback, and with the
callback-raising path off (`NUMBAT_STOP_RAISES=0`, `_interrupt.RAISE_FROM_CALLBACK`), as a
GPU behaves (the error is lost, or reported late: the program ends as if the loop had
finished)."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import jax
import pytest

import numbat as nbt
from numbat._defn import _effects, _interrupt


@pytest.fixture(autouse=True, params=[True, False], ids=["callback-raises", "callback-cannot-raise"])
def stop_mode(request, monkeypatch):
    """Both ways a platform reports a check's error (see the module's docstring)."""
    monkeypatch.setattr(_interrupt, "RAISE_FROM_CALLBACK", request.param)
    monkeypatch.setenv("NUMBAT_STOP_RAISES", "1" if request.param else "0")
    return request.param


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


def _stop_main_after(seconds: float) -> threading.Thread:
    """Asks the main thread's call to stop `seconds` after one runs (a request when none runs reaches nobody)."""

    def ask():
        while _interrupt.current_call(threading.main_thread()) is None:
            time.sleep(0.01)
        time.sleep(seconds)
        _interrupt.request_stop(threading.main_thread())

    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    return thread


def _sigint_when_running(seconds: float) -> threading.Thread:
    """Sends SIGINT `seconds` after a call runs on the main thread (not while it compiles)."""

    def send():
        while _interrupt.current_call(threading.main_thread()) is None:
            time.sleep(0.01)
        time.sleep(seconds)
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


def _wakeup_fd() -> int:
    """The wakeup fd now (reading it sets it, so it is set back)."""
    fd = signal.set_wakeup_fd(-1)
    if fd != -1:
        signal.set_wakeup_fd(fd)
    return fd


def _script(code: str, timeout: float = 120) -> str:
    """Runs `code` in a fresh Python (this test's stop mode in its environment) and returns
    what it printed; a run that hangs past `timeout` fails the test."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")]))}
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            check=False,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"the script hung for {timeout} s; it printed {error.stdout!r}")
    assert done.returncode == 0 and "Exception ignored" not in done.stderr, done.stdout + done.stderr
    return done.stdout


def test_sigint_stops_a_compiled_loop_with_a_numbat_error_and_restores_the_handler():
    run = _runner(interruptible=True)
    before, fd_before = signal.getsignal(signal.SIGINT), _wakeup_fd()
    _sigint_after(0.5)
    start = time.monotonic()
    with pytest.raises(nbt.Interrupted, match=r"while_loop halve \(in defn .*run\) stopped after [\d,]+ iterations"):
        run(nbt.tensor(1.0), nbt.tensor(-1))
    assert time.monotonic() - start < 2.0
    assert signal.getsignal(signal.SIGINT) is before and _wakeup_fd() == fd_before
    count, value = run(nbt.tensor(1.0), nbt.tensor(4))  # the defn runs again
    assert (nbt.to_number(count), nbt.to_number(value)) == (4, 0.0625)


def test_the_guides_runaway_loop_stops_on_sigint():
    @nbt.defn(interruptible=True)
    def runaway(x):  # as docs/guides/defn.md writes it: the condition never turns false
        return nbt.while_loop(lambda s: (s[0] >= 0) | (s[0] < 0), lambda s: (s[0] + 1, s[1] * 0.5), (nbt.tensor(0), x))

    _sigint_when_running(0.5)
    stopped = (
        r"^while_loop \(in defn .*runaway\) stopped after [\d,]+ iterations: interrupted \(Ctrl-C, Interrupt kernel"
    )
    with pytest.raises(nbt.Interrupted, match=stopped):
        runaway(nbt.tensor(1.0))


def test_a_stop_request_for_a_thread_stops_its_loop():
    run = _runner(interruptible=True)
    _stop_main_after(0.3)
    with pytest.raises(nbt.Interrupted, match=r"stopped after [\d,]+ iterations"):
        run(nbt.tensor(1.0), nbt.tensor(-1))
    assert not _interrupt.requested() and _interrupt.current_call() is None


def test_a_request_with_no_call_running_is_kept_for_nobody():
    run = _runner(interruptible=True)
    assert _interrupt.request_stop(threading.main_thread()) is None
    count, _ = run(nbt.tensor(1.0), nbt.tensor(1000))  # past several checks
    assert nbt.to_number(count) == 1000


def test_a_loop_that_ends_within_its_first_stride_never_calls_back(monkeypatch):
    checks = []
    check = _interrupt.check
    monkeypatch.setattr(_interrupt, "check", lambda *args: checks.append(args) or check(*args))
    run = _runner(interruptible=True)
    count, _ = run(nbt.tensor(1.0), nbt.tensor(_interrupt.FIRST_STRIDE - 1))
    assert nbt.to_number(count) == _interrupt.FIRST_STRIDE - 1 and checks == []
    run(nbt.tensor(1.0), nbt.tensor(_interrupt.FIRST_STRIDE + 1))
    assert len(checks) == 1 and checks[0][2:] == (0, _interrupt.FIRST_STRIDE, _interrupt.FIRST_STRIDE)


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

        return nbt.while_loop(lambda s: nbt.all(s >= 0) | nbt.all(s < 0), step, x)  # never false

    _stop_main_after(0.3)
    with pytest.raises(nbt.Interrupted, match=r"while_loop step \(in defn .*count_up\)"):
        count_up(nbt.vectorize(nbt.tensor([0, 1, 2]), "batch"))


def test_a_fori_loop_with_tensor_bounds_stops():
    @nbt.defn(interruptible=True)
    def total(n):
        def add(i, s):
            return s + nbt.sin(nbt.as_type(i, "f32"))

        return nbt.fori_loop(0, n, add, nbt.tensor(0.0))

    assert abs(nbt.to_number(total(nbt.tensor(100))) - sum(__import__("math").sin(i) for i in range(100))) < 1e-4
    _sigint_after(0.5)
    start = time.monotonic()
    with pytest.raises(nbt.Interrupted, match=r"fori_loop add \(in defn .*total\) stopped after [\d,]+ iterations"):
        total(nbt.tensor(2**31 - 1))
    assert time.monotonic() - start < 2.0


def test_a_defn_inside_the_callers_jax_jit_stops_under_interruptible():
    run = _runner(interruptible=True)
    jitted = jax.jit(lambda x: run(nbt.tensor(x), nbt.tensor(-1))[0].data)
    _sigint_after(1.0)
    stopped = r"while_loop halve \(in defn .*run\) stopped after [\d,]+ iterations"
    with pytest.raises(nbt.Interrupted, match=stopped), nbt.interruptible():
        jitted(1.0)


def test_a_stop_the_platform_reports_at_effects_barrier_is_interrupted(monkeypatch):
    def barrier():
        raise jax.errors.JaxRuntimeError(
            "INTERNAL: CpuCallback error calling callback: Stop: numbat.Interrupted: while_loop step stopped "
            "after 1,024 iterations"
        )

    monkeypatch.setattr(jax, "effects_barrier", barrier)
    with pytest.raises(nbt.Interrupted, match="while_loop step stopped after 1,024 iterations"):
        _effects.raise_pending()
    with pytest.raises(nbt.Interrupted, match="while_loop step stopped after 1,024 iterations"), nbt.interruptible():
        barrier()


def test_a_stop_the_platform_reports_at_exit_is_not_printed():
    printed = _script(
        """
        import jax
        from jax._src import dispatch
        import numbat as nbt

        class Reported:  # a token whose program a check stopped, as a GPU reports it at the barrier
            def block_until_ready(self):
                raise jax.errors.JaxRuntimeError("INTERNAL: CpuCallback error: Stop: numbat.Interrupted: "
                                                 "while_loop step stopped after 16 iterations")

        dispatch.runtime_tokens.output_runtime_tokens["device"] = Reported()
        print("exiting")
        """
    )
    assert printed == "exiting\n"  # and nothing on stderr (the script's checks fail on any)


def test_the_evaluator_stops_on_a_request_and_on_sigint():
    run = nbt.defn(_runner().fun, compiler="evaluator")
    _stop_main_after(0.3)
    with pytest.raises(nbt.Interrupted, match=r"while_loop halve \(in defn .*run\) stopped after [\d,]+ iterations"):
        run(nbt.tensor(1.0), nbt.tensor(-1))
    _sigint_after(0.5)
    with pytest.raises(nbt.Interrupted, match=r"while_loop halve \(in defn .*run\) stopped after [\d,]+ iterations"):
        run(nbt.tensor(1.0), nbt.tensor(-1))


def test_the_option_is_checked():
    with pytest.raises(nbt.ArgumentError, match="option interruptible must be True or False, got 'yes'"):
        nbt.defn(lambda x: x, interruptible="yes")
    with pytest.raises(nbt.ArgumentError, match="request_stop takes a call, a thread or nothing, got str"):
        _interrupt.request_stop("main")


def test_the_check_counts_exactly_past_32_bits_and_aims_at_the_time_target():
    label = "while_loop test_check"
    with _interrupt.Scope() as call:
        run_id, stride = _interrupt.check(label, False, 0, _interrupt.FIRST_STRIDE, _interrupt.FIRST_STRIDE)
        assert run_id > 0 and stride == 2 * _interrupt.FIRST_STRIDE
        for _ in range(3):  # three strides of 2**31 - 1: past 2**32
            time.sleep(0.01)
            run_id, stride = _interrupt.check(label, False, run_id, 2**31 - 1, stride)
            assert 1 <= stride <= _interrupt.MAX_STRIDE
        _interrupt.request_stop(call)
        assert _interrupt.check(label, False, run_id, 100, stride).tolist() == [run_id, 0]  # stop: stride 0
        assert call.stopped == (label, _interrupt.FIRST_STRIDE + 3 * (2**31 - 1) + 100)
        with pytest.raises(nbt.Interrupted, match=f"stopped after {16 + 3 * (2**31 - 1) + 100:,} iterations"):
            raise _interrupt.interrupted(*call.stopped)
        call.stopped = None


def test_sigint_during_a_hook_stops_the_loop_and_leaves_nothing_behind():
    sent = []

    def signal_once(value):
        if not sent:
            sent.append(1)
            os.kill(os.getpid(), signal.SIGINT)  # arrives while the hook runs

    def step(s):
        return nbt.hook(s + 1, "slow")

    run = nbt.defn(
        lambda x, n: nbt.while_loop(lambda s: s < n, step, x), hooks={"slow": signal_once}, interruptible=True
    )
    run(nbt.tensor(0), nbt.tensor(0))  # compiled, no iteration
    with pytest.raises(nbt.Interrupted, match=r"while_loop step \(in defn .*<lambda>\) stopped after 16 iterations"):
        run(nbt.tensor(0), nbt.tensor(1000))
    sent.append(1)  # no more signals: the next call runs to its end
    assert nbt.to_number(run(nbt.tensor(0), nbt.tensor(1000))) == 1000


def test_sigint_during_a_hook_after_the_last_check_still_stops_the_call():
    def signal_at_18(value):
        if int(value.to_numpy()) == 18:  # after the check at 16; the loop ends at 20, no check after
            os.kill(os.getpid(), signal.SIGINT)

    def step(s):
        return nbt.hook(s + 1, "late")

    run = nbt.defn(
        lambda x, n: nbt.while_loop(lambda s: s < n, step, x), hooks={"late": signal_at_18}, interruptible=True
    )
    run(nbt.tensor(0), nbt.tensor(0))  # compiled, no iteration
    with pytest.raises(KeyboardInterrupt):  # not returned as if nothing had happened
        run(nbt.tensor(0), nbt.tensor(20))
    assert nbt.to_number(run(nbt.tensor(100), nbt.tensor(1000))) == 1000  # the next call is not stopped


def test_sigint_outside_a_check_is_a_keyboard_interrupt_and_leaves_nothing_behind():
    def signal_now(value):
        os.kill(os.getpid(), signal.SIGINT)

    @nbt.defn(hooks={"after": signal_now}, interruptible=True)
    def run(x, n):
        out = nbt.while_loop(lambda s: s < n, lambda s: s + 1, x)
        return nbt.hook(out, "after")  # after the loop: no check takes the signal

    plain = _runner(interruptible=True)
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        run(nbt.tensor(0), nbt.tensor(100))
    assert signal.getsignal(signal.SIGINT) is before and _wakeup_fd() == -1
    count, _ = plain(nbt.tensor(1.0), nbt.tensor(100_000))  # nobody interrupts it: it ends
    assert nbt.to_number(count) == 100_000


def test_two_threads_running_one_defn_stop_independently():
    run = _runner(interruptible=True)
    caught, started = {}, {}

    def call(name):
        started[name] = time.monotonic()
        try:
            run(nbt.tensor(1.0), nbt.tensor(-1))
        except nbt.Interrupted as error:
            caught[name] = (time.monotonic(), str(error))

    workers = {name: threading.Thread(target=call, args=(name,), daemon=True) for name in ("a", "b")}
    for worker in workers.values():
        worker.start()
    time.sleep(1.0)
    asked = time.monotonic()
    assert _interrupt.request_stop(workers["a"]) is not None
    workers["a"].join(timeout=5)
    assert "a" in caught and "b" not in caught and workers["b"].is_alive()
    assert caught["a"][0] - asked < 2.0
    time.sleep(1.0)
    asked = time.monotonic()
    _interrupt.request_stop(workers["b"])
    workers["b"].join(timeout=5)
    assert "b" in caught and caught["b"][0] - asked < 2.0
    for _, message in caught.values():  # a count that grew with the time run, not wrapped nor shared
        count = int(message.split("stopped after ")[1].split(" iterations")[0].replace(",", ""))
        assert 0 < count < 2**32


def test_sigint_stops_the_main_threads_call_not_a_background_threads():
    run = _runner(interruptible=True)
    caught = []

    def background():
        try:
            run(nbt.tensor(1.0), nbt.tensor(-1))
        except nbt.Interrupted as error:
            caught.append(error)

    worker = threading.Thread(target=background, daemon=True)
    worker.start()
    time.sleep(0.5)
    _sigint_after(0.5)
    with pytest.raises(nbt.Interrupted):
        run(nbt.tensor(1.0), nbt.tensor(-1))
    time.sleep(0.5)
    assert worker.is_alive() and not caught  # the background loop runs on
    _interrupt.request_stop(worker)
    worker.join(timeout=5)
    assert len(caught) == 1


def test_a_call_queued_behind_earlier_work_stops_instead_of_hanging():
    printed = _script(
        """
        import os, signal, threading, time
        import numbat as nbt

        @nbt.defn
        def work_n(m, n):  # matrix products: the runtime queues the next call behind them
            return nbt.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, nbt.dot(nbt.sin(s[1]), s[1])),
                                  (nbt.tensor(0), m))

        @nbt.defn(interruptible=True)
        def forever(x, limit):
            return nbt.while_loop(lambda s: (limit < 0) | (s[0] < limit), lambda s: (s[0] + 1, s[1] * 0.5),
                                  (nbt.tensor(0), x))

        x, m = nbt.tensor(1.0), nbt.broadcast(nbt.tensor(0.001), (300, 300))
        work_n(m, nbt.tensor(2)), forever(x, nbt.tensor(3))
        pending = work_n(m, nbt.tensor(3000))  # left unread: still computing
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
            forever(x, nbt.tensor(-1))
            print("returned")
        except nbt.Interrupted as error:
            print("Interrupted", "stopped after" in str(error))
        print("pending", nbt.to_number(pending[0]), pending[0].data.is_ready())
        """,
        timeout=90,
    )
    assert printed.splitlines() == ["Interrupted True", "pending 3000 True"], printed


def test_random_sigints_into_short_calls_leave_the_handler_and_wakeup_fd_untouched():
    # The figure is 15 s of signals into 100,000 calls (NUMBAT_STRESS_SECONDS=15
    # NUMBAT_STRESS_CALLS=100000); the suite runs a shorter share of it.
    seconds, calls = os.environ.get("NUMBAT_STRESS_SECONDS", "3"), os.environ.get("NUMBAT_STRESS_CALLS", "100000")
    printed = _script(
        f"""
        import os, random, signal, threading, time
        import numbat as nbt

        def raiser(signum, frame):  # one KeyboardInterrupt per call at most, so the loop's own lines go on
            if inside[0]:
                inside[0] = False
                raise KeyboardInterrupt

        inside = [False]
        signal.signal(signal.SIGINT, raiser)
        short = nbt.defn(lambda x: nbt.while_loop(lambda s: s[0] < 40, lambda s: (s[0] + 1, s[1] * 0.5),
                                                   (nbt.tensor(0), x))[0], interruptible=True)
        x = nbt.tensor(1.0)
        short(x)
        done, bad, calls, signals, outcomes = threading.Event(), 0, 0, [0], {{}}

        def fire():
            while not done.is_set():
                time.sleep(random.uniform(0, 0.003))
                os.kill(os.getpid(), signal.SIGINT)
                signals[0] += 1

        end = time.monotonic() + {seconds}
        threading.Thread(target=fire, daemon=True).start()
        while time.monotonic() < end and calls < {calls}:
            try:
                try:
                    calls += 1
                    inside[0] = True
                    kind = "ok" if nbt.to_number(short(x)) == 40 else "wrong"
                except (KeyboardInterrupt, nbt.Interrupted) as error:
                    kind = type(error).__name__
                finally:
                    inside[0] = False
                outcomes[kind] = outcomes.get(kind, 0) + 1
            except KeyboardInterrupt:
                pass
            handler, fd = signal.getsignal(signal.SIGINT), signal.set_wakeup_fd(-1)
            bad += handler is not raiser or fd != -1
        done.set()
        time.sleep(0.1)
        print(calls, signals[0], bad, sorted(outcomes.items()))
        """,
        timeout=float(seconds) + 120,
    )
    calls, signals, bad = (int(word) for word in printed.split()[:3])
    print(f"{calls:,} calls, {signals:,} SIGINTs, {bad} left the handler or wakeup fd installed: {printed}")
    assert bad == 0 and signals > 100 and calls > 100 and "wrong" not in printed, printed


KERNEL_SETUP = """import numbat as nbt
%load_ext numbat
%numbat interruptible on
kept = nbt.tensor([1.0, 2.0])

@nbt.defn
def forever(x):
    return nbt.while_loop(lambda s: (s[0] >= 0) | (s[0] < 0), lambda s: (s[0] + 1, s[1] * 0.5), (nbt.tensor(0), x))
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
    while True:  # skip replies to earlier requests (start_new_kernel's kernel_info may be left)
        reply = client.get_shell_msg(timeout=timeout)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply["content"], "".join(printed)


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
        # An interrupted plain cell leaves nothing behind: a later loop that nobody interrupts ends.
        msg_id = client.execute("import time; time.sleep(30)")
        time.sleep(1.0)
        manager.interrupt_kernel()
        reply, _ = _reply(client, msg_id, 30)
        assert reply["ename"] == "KeyboardInterrupt", reply
        count_to = "count_to = nbt.defn(lambda n: nbt.while_loop(lambda s: s < n, lambda s: s + 1, nbt.tensor(0)))"
        reply, printed = _reply(client, client.execute(f"{count_to}\nprint(nbt.to_number(count_to(3_000_000)))"), 60)
        assert reply["status"] == "ok" and printed == "3000000\n", (reply, printed)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


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

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    time.sleep(0.5)
    assert _interrupt.request_stop(worker) is not None
    worker.join(timeout=10)
    assert not worker.is_alive() and len(caught) == 1


def test_once_a_call_stopped_its_later_loops_end_at_their_first_check(monkeypatch):
    replies, check, asking = [], _interrupt.check, [True]

    def counted(*args):
        if asking[0] and len(replies) == 10:
            _interrupt.request_stop()  # this thread's call (the program runs on it)
        reply = check(*args)
        replies.append(int(reply[1]))
        return reply

    monkeypatch.setattr(_interrupt, "check", counted)

    @nbt.defn(interruptible=True)
    def nested(x):
        def inner(i, s):  # a fori_loop of 1,000 inner loops of 1,000 iterations each
            return nbt.while_loop(lambda t: t[0] < 1000, lambda t: (t[0] + 1, t[1] + 1.0), (nbt.tensor(0), s))[1]

        return nbt.fori_loop(0, 1000, inner, x)

    with pytest.raises(nbt.Interrupted, match=r"while_loop \(in defn .*nested\) stopped after [\d,]+ iterations"):
        nested(nbt.tensor(0.0))
    stop = replies.index(0)
    assert stop == 10 and replies[stop:] == [0] * (len(replies) - stop) and len(replies) > 900, replies[:20]
    asking[0] = False  # no more requests: the next call runs every loop to its end
    assert nbt.to_number(nested(nbt.tensor(0.0))) == 1_000_000.0
