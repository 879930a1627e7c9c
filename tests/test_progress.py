"""The "compiling ..." line (issue 41): a compile longer than the threshold shows, while
it runs, which defn compiles for which signature and for how long, updated in place, and
the line is emptied when the compile ends (the strip follows the cell); a quick compile
shows nothing; a failed compile empties it too; the extension attaches it and unloading
detaches it."""

import threading
import time

import pytest

import numbat as nbt
from numbat import telemetry
from numbat.notebook import _extension, _progress


class _Recorder:
    """Stands in for the cell's display: every bundle shown, then every update."""

    def __init__(self):
        self.bundles, self.lock = [], threading.Lock()

    def show(self, bundle):
        with self.lock:
            self.bundles.append(bundle)
        return self.show


def _slow(seconds):
    """A defn whose tracing (part of its compile) takes `seconds`."""

    def body(t):
        time.sleep(seconds)
        return t * 2

    body.__qualname__ = "slow_body"
    return nbt.defn(body)


@pytest.fixture
def recorder():
    recorder = _Recorder()
    progress = _progress.CompileProgress(threshold=0.2, every=0.1, show=recorder.show, watched=lambda: True)
    progress.attach()
    yield recorder
    progress.detach()


def test_a_slow_compile_shows_what_compiles_and_for_how_long_then_the_line_is_emptied(recorder):
    _slow(0.8)(nbt.tensor([1.0, 2.0]))
    time.sleep(0.2)  # the timer thread's last update
    texts = [bundle["text/plain"] for bundle in recorder.bundles]
    assert len(texts) >= 3, texts
    assert texts[0].startswith("numbat: compiling slow_body (f32[2]) ... 0.")
    assert [float(t.split("... ")[1][:-2]) for t in texts[:-1]] == sorted(
        float(t.split("... ")[1][:-2]) for t in texts[:-1]
    )
    assert texts[-1] == ""  # emptied: the strip tells the rest


def test_a_quick_compile_shows_nothing(recorder):
    _slow(0.0)(nbt.tensor([1.0]))
    time.sleep(0.4)
    assert recorder.bundles == []


def test_a_failed_compile_empties_the_line(recorder):
    def broken(t):
        time.sleep(0.5)
        raise ValueError("broken on purpose")

    with pytest.raises(ValueError, match="broken on purpose"):
        nbt.defn(broken)(nbt.tensor([1.0]))
    time.sleep(0.2)
    assert recorder.bundles and recorder.bundles[-1] == {"text/plain": ""}


def test_compile_start_and_end_are_not_logged():
    before = telemetry.last_sequence()
    telemetry.execute(telemetry.COMPILATION_START, {}, {"function": "f", "signature": "()"})
    telemetry.execute(telemetry.COMPILATION_END, {}, {"function": "f"})
    assert telemetry.last_sequence() == before


def test_the_extension_attaches_the_progress_line_and_unloading_detaches_it(ip):
    assert "numbat-compile-progress-start" in telemetry.handlers()
    assert id(ip) in _extension._progress
    ip.run_line_magic("unload_ext", "numbat")
    assert "numbat-compile-progress-start" not in telemetry.handlers()
    ip.run_line_magic("load_ext", "numbat")


def test_nothing_shows_where_nobody_watches():
    recorder = _Recorder()
    progress = _progress.CompileProgress(threshold=0, every=0.1, show=recorder.show)  # the real check
    progress.attach()
    try:
        _slow(0.3)(nbt.tensor([1.0]))
    finally:
        progress.detach()
    assert not _progress.interactive_client() and recorder.bundles == []  # pytest: no kernel, no line
