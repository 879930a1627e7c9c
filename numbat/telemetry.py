"""Telemetry, as in Elixir's `:telemetry`: attach handlers to events such as
`("numbat", "compilation")`. The last events are kept in a bounded log;
`("numbat", "cache_hit")` events are counted per function instead of logged,
so a hot loop never pushes compilations out of the log.

A handler is called as `handler(event, measurements, metadata)`. A handler
that raises is detached and logged; it never breaks a computation.

>>> seen = []
>>> attach("doc", ("numbat", "compilation"), lambda event, m, meta: seen.append(meta["function"]))
>>> execute(("numbat", "compilation"), {"total_time": 1}, {"function": "f"})
>>> detach("doc"), seen
(True, ['f'])
"""

from __future__ import annotations

import collections
import logging
import threading
import time
import typing

from ._core._errors import ArgumentError
from ._tensor import _check

Event = tuple[str, ...]
Handler = typing.Callable[[Event, dict, dict], None]

COMPILATION: Event = ("numbat", "compilation")
CACHE_HIT: Event = ("numbat", "cache_hit")
# A compilation begins and ends (successful or not): for progress displays, not logged or counted.
COMPILATION_START: Event = ("numbat", "compilation_start")
COMPILATION_END: Event = ("numbat", "compilation_end")
_UNLOGGED = (CACHE_HIT, COMPILATION_START, COMPILATION_END)
LOG_SIZE = 1000

_logger = logging.getLogger("numbat.telemetry")
_lock = threading.Lock()
_handlers: dict[str, tuple[tuple[Event, ...], Handler]] = {}
_log: collections.deque = collections.deque(maxlen=LOG_SIZE)
_sequence = 0
# Per function: {"compilation": n, "cache_hit": n}, plain dicts so that a hot path's increment is cheap.
_counts: dict[str, dict[str, int]] = collections.defaultdict(lambda: {"compilation": 0, "cache_hit": 0})
_cells: dict[str, list[list[int]]] = collections.defaultdict(list)  # live hit cells of defns, by name
# Cells whose defn is gone, waiting to be folded into `_counts`. `release_cell` runs from a
# weakref finalizer, that is whenever the garbage collector runs, which can be inside a
# section holding `_lock` on this very thread: it queues the cell (a deque's append takes no
# lock) and folds only if it gets the lock without waiting; `counts` and `hit_cell` fold the rest.
_released: collections.deque = collections.deque()
listened = False  # whether any handler is attached (hot paths read it without a call or the lock)


class Record(typing.NamedTuple):
    """One event as kept in the log: a sequence number, wall time, event, measurements, metadata."""

    sequence: int
    time: float
    event: Event
    measurements: dict
    metadata: dict


def attach(handler_id: str, events: Event | list[Event], handler: Handler) -> None:
    """Calls `handler` on each of `events` (one event tuple or a list of them)
    until `detach(handler_id)`. Attaching an id twice replaces the first."""
    if not isinstance(handler_id, str):
        raise ArgumentError(f"telemetry.attach: handler_id must be a str, got {handler_id!r}")
    if isinstance(events, tuple) and events and isinstance(events[0], str):
        events = [events]
    if not isinstance(events, (list, tuple)) or not events:
        raise ArgumentError(f"telemetry.attach: events must be an event tuple or a list of them, got {events!r}")
    events = tuple(_event("telemetry.attach", event) for event in events)
    if not callable(handler):
        raise ArgumentError(f"telemetry.attach: the handler for {handler_id!r} must be callable, got {handler!r}")
    global listened
    with _lock:
        _handlers[handler_id] = (events, handler)
        listened = True


def _event(function: str, event) -> Event:
    """`event` checked: a tuple of strings such as ("numbat", "compilation")."""
    if not isinstance(event, tuple) or not event or not all(isinstance(part, str) for part in event):
        raise ArgumentError(
            f'{function}: an event is a tuple of strings such as ("numbat", "compilation"), got {event!r}'
        )
    return event


def detach(handler_id: str) -> bool:
    """Removes a handler; returns whether it was attached. An id is a str, as `attach` takes.

    >>> nbt.telemetry.detach("never-attached")
    False
    >>> nbt.telemetry.detach({"a": 1})
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: telemetry.detach: handler_id must be a str, got {'a': 1}
    """
    global listened
    if not isinstance(handler_id, str):
        raise ArgumentError(f"telemetry.detach: handler_id must be a str, got {handler_id!r}")
    with _lock:
        removed = _handlers.pop(handler_id, None) is not None
        listened = bool(_handlers)
        return removed


def handlers() -> list[str]:
    """The ids of attached handlers."""
    return list(_handlers)


def execute(event: Event, measurements: dict, metadata: dict) -> None:
    """Logs an event and calls every handler attached to it."""
    _event("telemetry.execute", event)
    if not isinstance(measurements, dict) or not isinstance(metadata, dict):
        raise ArgumentError(
            f"telemetry.execute: measurements and metadata must be dicts, got {measurements!r} and {metadata!r}"
        )
    _emit(event, measurements, metadata)


def _emit(event: Event, measurements: dict, metadata: dict, count: bool = True) -> None:
    global _sequence
    with _lock:
        if count and event in (COMPILATION, CACHE_HIT):
            _counts[metadata.get("function", "?")][event[-1]] += 1
        if event not in _UNLOGGED:
            _sequence += 1
            _log.append(Record(_sequence, time.time(), event, measurements, metadata))
        targets = [(hid, handler) for hid, (events, handler) in _handlers.items() if event in events]
    for handler_id, handler in targets:
        try:
            handler(event, measurements, metadata)
        except Exception:
            detach(handler_id)
            _logger.exception("telemetry handler %r raised on %r and was detached", handler_id, event)


def cache_hit(function: str, key: str | typing.Callable[[], str], counted: bool = False) -> None:
    """Counts a cache hit of `function` (unless `counted`: the caller's `hit_cell` already
    did); emits `("numbat", "cache_hit")` (with the cache `key`, or `key()` computed only
    then) when a handler listens, so a hit costs almost nothing otherwise."""
    if not isinstance(function, str):
        raise ArgumentError(f"telemetry.cache_hit: function must be a str (its name), got {function!r}")
    if listened:
        for events, _ in list(_handlers.values()):
            if CACHE_HIT in events:
                metadata = {"function": function, "key": key if isinstance(key, str) else key()}
                _emit(CACHE_HIT, {"count": 1}, metadata, count=not counted)
                return
    if not counted:
        _counts[function]["cache_hit"] += 1


def hit_cell(function: str) -> list[int]:
    """A live one-element counter of `function`'s cache hits, summed into `counts()`: a hot
    path bumps `cell[0]` (one increment, no call). `release_cell` folds it back.

    >>> before = counts().get("hit_cell_example", {"cache_hits": 0})["cache_hits"]
    >>> cell = hit_cell("hit_cell_example")
    >>> cell[0] += 1
    >>> counts()["hit_cell_example"]["cache_hits"] - before
    1
    >>> release_cell("hit_cell_example", cell)
    >>> counts()["hit_cell_example"]["cache_hits"] - before
    1
    """
    if not isinstance(function, str):
        raise ArgumentError(f"telemetry.hit_cell: function must be a str (its name), got {function!r}")
    cell = [0]
    with _lock:
        _fold_released()
        _cells[function].append(cell)
    return cell


def release_cell(function: str, cell: list[int]) -> None:
    """Folds `cell`'s hits into `function`'s count and stops reading it (its owner is gone)."""
    if not isinstance(function, str):
        raise ArgumentError(f"telemetry.release_cell: function must be a str (its name), got {function!r}")
    _released.append((function, cell))
    if _lock.acquire(blocking=False):  # never waits: a finalizer inside a locked section would wait forever
        try:
            _fold_released()
        finally:
            _lock.release()


def _fold_released() -> None:
    """Folds the released cells into their function's count (the caller holds `_lock`)."""
    while _released:
        function, cell = _released.popleft()
        cells = _cells.get(function, [])
        if any(c is cell for c in cells):
            cells[:] = [c for c in cells if c is not cell]
            _counts[function]["cache_hit"] += cell[0]


def listening(event: Event) -> bool:
    """Whether a handler is attached to `event` (cheap: emit only when someone listens).

    >>> attach("listening-doc", ("numbat", "evaluation"), lambda event, m, meta: None)
    >>> listening(("numbat", "evaluation")), listening(("numbat", "nothing"))
    (True, False)
    >>> detach("listening-doc")
    True
    """
    _event("telemetry.listening", event)
    return listened and any(event in events for events, _ in list(_handlers.values()))


def log(since: int = 0, event: Event | None = None) -> list[Record]:
    """Logged records with a sequence number above `since`, optionally of one event."""
    _check.integer("telemetry.log", "since", since)
    if event is not None:
        _event("telemetry.log", event)
    with _lock:
        records = list(_log)
    return [r for r in records if r.sequence > since and (event is None or r.event == event)]


def last_sequence() -> int:
    """The sequence number of the latest event (0 before any)."""
    return _sequence


def counts() -> dict[str, dict[str, int]]:
    """Compilations and cache hits per function since the process started (functions
    that have done neither yet are left out).

    >>> before = counts().get("counted_example", {"cache_hits": 0})["cache_hits"]
    >>> execute(CACHE_HIT, {"count": 1}, {"function": "counted_example"})
    >>> counts()["counted_example"]["cache_hits"] - before
    1
    """
    with _lock:
        _fold_released()
        totals = {name: (c["compilation"], c["cache_hit"]) for name, c in _counts.items()}
        for name, cells in _cells.items():
            compilations, hits = totals.get(name, (0, 0))
            totals[name] = (compilations, hits + sum(cell[0] for cell in cells))
    return {
        name: {"compilations": compilations, "cache_hits": hits}
        for name, (compilations, hits) in totals.items()
        if compilations or hits
    }


# The public API: what `help()`, `import *`, tab completion and the API pages list.
__all__ = [
    "CACHE_HIT",
    "COMPILATION",
    "COMPILATION_END",
    "COMPILATION_START",
    "LOG_SIZE",
    "Record",
    "attach",
    "counts",
    "detach",
    "execute",
    "handlers",
    "last_sequence",
    "listening",
    "log",
]


def __dir__() -> list[str]:
    """Tab completion lists the public API (`__all__`), not the names this module imports."""
    return sorted(__all__)
