"""Telemetry: attach/detach, the bounded log, counts, and handlers that raise."""

import logging

import numbat as nbt
from numbat import telemetry


def test_attach_execute_detach():
    seen = []
    telemetry.attach("t1", ("numbat", "custom"), lambda e, m, md: seen.append((e, m, md)))
    telemetry.execute(("numbat", "custom"), {"x": 1}, {"function": "f"})
    telemetry.execute(("numbat", "other"), {}, {})
    assert seen == [(("numbat", "custom"), {"x": 1}, {"function": "f"})]
    assert telemetry.detach("t1") is True
    assert telemetry.detach("t1") is False
    telemetry.execute(("numbat", "custom"), {}, {})
    assert len(seen) == 1


def test_a_raising_handler_is_detached_and_logged_without_breaking_compilation(caplog):
    def broken(event, measurements, metadata):
        raise RuntimeError("handler bug")

    telemetry.attach("broken", ("numbat", "compilation"), broken)
    with caplog.at_level(logging.ERROR, logger="numbat.telemetry"):
        result = nbt.jit(lambda t: t + 1)(nbt.tensor([1]))
    assert result.to_numpy().tolist() == [2]
    assert "broken" not in telemetry.handlers()
    assert "handler bug" in caplog.text


def test_log_is_bounded_and_cache_hits_are_counted_not_logged():
    start = telemetry.last_sequence()
    for i in range(telemetry.LOG_SIZE + 5):
        telemetry.execute(("numbat", "noise"), {}, {"i": i})
    assert len(telemetry.log()) == telemetry.LOG_SIZE
    assert telemetry.log(since=telemetry.last_sequence() - 2)[0].metadata["i"] == telemetry.LOG_SIZE + 3
    fun = nbt.jit(lambda t: t * 3)
    before = telemetry.last_sequence()
    for _ in range(3):
        fun(nbt.tensor([1]))
    compilations = telemetry.log(since=before, event=telemetry.COMPILATION)
    assert len(compilations) == 1
    assert telemetry.counts()[compilations[0].metadata["function"]]["cache_hits"] >= 2
    assert start < before
