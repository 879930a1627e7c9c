"""`nbt.notebook.live` (issue 41) without a browser: hooks from compiled code and a plain
Python loop feed it, redraws are throttled, `with chart:` draws the last values at the
end, its Stop (`chart.stop()`) stops an interruptible loop with `numbat.Interrupted`,
its picture is a PNG (what a saved notebook keeps), and bad names or values are refused."""

import itertools

import matplotlib
import pytest

import numbat as nbt
from numbat.notebook import _live

matplotlib.use("Agg")


class _Handle:
    """Stands in for IPython's DisplayHandle: records each update's PNG."""

    def __init__(self):
        self.updates = []

    def update(self, bundle, raw=False):
        assert raw and bundle["image/png"].startswith(b"\x89PNG")
        self.updates.append(bundle)


def _step(state):
    i, w = state
    nbt.hook((w - 3.0) ** 2, "loss")
    return i + 1, w - 0.2 * (w - 3.0)


def test_hooks_in_a_compiled_loop_feed_the_chart_step_by_step():
    chart = nbt.notebook.live("loss", every=0)
    train = nbt.defn(lambda w: nbt.while_loop(lambda s: s[0] < 5, _step, (nbt.tensor(0), w)), hooks=chart.hooks())
    train(nbt.tensor(0.0))
    steps, losses = zip(*chart.values["loss"])
    assert steps == (0, 1, 2, 3, 4)
    assert losses[0] == 9.0 and all(a > b for a, b in itertools.pairwise(losses))
    assert chart.draws == 5


def test_redraws_are_throttled_and_the_with_block_draws_the_last_values():
    chart = nbt.notebook.live("loss", "accuracy", every=3600)
    chart._handle = handle = _Handle()
    for step in range(100):
        chart.log(loss=1.0 / (step + 1), accuracy=step / 100)
    assert chart.draws == 1 and len(handle.updates) == 1  # the first value drew; the rest waited
    chart.__exit__(None, None, None)
    assert len(handle.updates) == 2 and handle.updates[-1]["text/plain"] == "<numbat live chart of loss, accuracy>"
    assert "loss=0.01 (step 99), accuracy=0.99 (step 99)" in repr(chart)  # shown again: the last values
    assert _live.LiveChart._repr_mimebundle_(chart)["image/png"].startswith(b"\x89PNG")


def test_stop_stops_an_interruptible_loop_fed_by_the_chart():
    chart = nbt.notebook.live("loss", every=3600)

    def feed(loss):
        chart.log(loss=loss)
        if len(chart.values["loss"]) == 20:
            chart.stop()

    train = nbt.defn(
        lambda w: nbt.while_loop(lambda s: (s[0] >= 0) | (s[0] < 0), _step, (nbt.tensor(0), w)),
        hooks={"loss": feed},
        interruptible=True,
    )
    with pytest.raises(nbt.Interrupted, match=r"while_loop _step \(in defn .*<lambda>\) stopped after \d+ iterations"):
        train(nbt.tensor(0.0))
    assert len(chart.values["loss"]) >= 20


def test_a_python_loop_feeds_it_at_given_steps():
    chart = nbt.notebook.live("loss", every=0)
    for epoch in range(3):
        chart.log(step=10 * epoch, loss=nbt.tensor(float(epoch)))
    assert chart.values["loss"] == [(0, 0.0), (10, 1.0), (20, 2.0)]
    assert [line.get_label() for line in chart.figure().axes[0].get_lines()] == ["loss = 2"]


def test_bad_names_and_values_are_refused():
    with pytest.raises(nbt.ArgumentError, match="live needs the names of the scalars to draw"):
        nbt.notebook.live()
    chart = nbt.notebook.live("loss")
    with pytest.raises(nbt.ArgumentError, match=r"unknown name\(s\) \['acc'\]; the chart draws \['loss'\]"):
        chart.log(acc=1.0)
    with pytest.raises(nbt.ArgumentError, match=r"loss must be a scalar, got shape \(2,\)"):
        chart.log(loss=nbt.tensor([1.0, 2.0]))
    with pytest.raises(nbt.ArgumentError, match="every must be a number of seconds >= 0"):
        nbt.notebook.live("loss", every=-1)


def test_the_stop_button_interrupts_its_own_kernel_only():
    kernel = "0d6c1b2e-5a4f-4c3b-9e8d-7f6a5b4c3d2e"
    bundle = _live.stop_button(kernel)
    assert 'class="numbat-live-stop"' in bundle["text/html"]
    assert f"(this, '{kernel}')" in bundle["text/html"]  # the request names this kernel
    assert "api/kernels/' + kernel + '/interrupt'" in bundle["text/html"] and "method: 'POST'" in bundle["text/html"]
    assert "api/sessions" not in bundle["text/html"] and "busy" not in bundle["text/html"]  # no other kernel
    assert bundle["text/plain"] == "<numbat live chart's Stop button: interrupts the kernel that showed it>"
    with pytest.raises(nbt.ArgumentError, match="a kernel id is letters, digits and dashes"):
        _live.stop_button("x'); alert('")


def test_the_kernel_id_comes_from_the_connection_file(monkeypatch):
    from ipykernel import connect, kernelapp

    assert _live.kernel_id() is None  # no kernel here
    monkeypatch.setattr(kernelapp.IPKernelApp, "initialized", classmethod(lambda cls: True))
    monkeypatch.setattr(connect, "get_connection_file", lambda: "/run/jupyter/kernel-0d6c1b2e-5a4f.json")
    assert _live.kernel_id() == "0d6c1b2e-5a4f"
    monkeypatch.setattr(connect, "get_connection_file", lambda: "/tmp/my-own-connection.json")
    assert _live.kernel_id() is None


def test_shown_in_a_kernel_the_button_says_what_it_is_in_plain_text(monkeypatch):
    shown = []
    monkeypatch.setattr(_live, "kernel_id", lambda: "1a2b")
    monkeypatch.setattr("IPython.display.display", lambda *args, **kwargs: shown.append((args, kwargs)))
    nbt.notebook.live("loss").show()
    (button,), options = shown[0]
    assert options == {"raw": True} and "(this, '1a2b')" in button["text/html"]
    assert "IPython.core.display.HTML" not in button["text/plain"]


def test_a_series_named_like_a_parameter_is_refused():
    for name in ("step", "title", "every", "stop_button"):
        with pytest.raises(nbt.ArgumentError, match=f"a series cannot be named '{name}'"):
            nbt.notebook.live(name, "loss")


def test_stop_asks_the_loop_of_the_thread_that_entered_the_chart():
    import threading
    import time

    chart = nbt.notebook.live("loss", every=3600, stop_button=False)
    chart._handle = _Handle()
    train = nbt.defn(
        lambda w: nbt.while_loop(lambda s: (s[0] >= 0) | (s[0] < 0), _step, (nbt.tensor(0), w)),
        hooks=chart.hooks(),
        interruptible=True,
    )
    caught = []

    def run():
        with chart:
            try:
                train(nbt.tensor(0.0))
            except nbt.Interrupted as error:
                caught.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    deadline = time.monotonic() + 30
    while not chart.values["loss"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert chart.stop() is not None  # from the main thread, where no call runs
    worker.join(timeout=10)
    assert len(caught) == 1 and "stopped after" in str(caught[0])
