"""A reader of JAX's profiler traces (`*.xplane.pb`, an `XSpace` protocol buffer) in plain
Python, run as a script in a child process by `_trace_events`.

It imports nothing but the standard library, so the child starts in a few milliseconds
and a trace it cannot read ends in an exception or a dead child, never in this process:
on an H200, `jax.profiler.ProfileData` aborted the whole kernel ("Fatal Python error:
Aborted") while reading the stats of a GPU trace's events.

The format is tsl's `xplane.proto`: an `XSpace` holds `XPlane`s (`/host:CPU`, one
`/device:GPU:N` per GPU, ...); a plane holds `XLine`s (a host thread, a GPU stream such as
`Stream #7(Kernel)`), its event and stat metadata (name tables), and a line its `XEvent`s,
each a metadata id, an offset from the line's start (picoseconds), a duration and
`XStat`s. A stat's value is a double, an unsigned or signed integer, a string, bytes, or a
reference to another stat metadata whose name is the value (CUPTI's `kernel_details`,
`tf_op`, and the `hlo_op` and `hlo_module` parsed from XLA's kernel annotations).

`read(data, module)` returns what the profile needs and no more (bounded in size):
- `planes`: per plane its name, its lines' names, its event count and the stat names seen;
- `events`: `[plane, line, name, start_ps, duration_ps, stats]` for each event of a device
  plane's stream lines, and each host event whose `hlo_module` is `module`;
- `marks`: `[name, start_ps, end_ps]` of each host event named `RUN_MARK` + a number
  (the profile's own per-call markers).
Times are integer picoseconds since the epoch the trace uses.
"""

from __future__ import annotations

import json
import struct
import sys

RUN_MARK = "numbat profile run "
MAX_EVENTS = 200_000  # events kept for the profile: ten runs of a program of 20,000 kernels
_STAT_NAMES = 64  # stat names listed per plane


class TraceFormatError(ValueError):
    """The bytes are not an XSpace this reader understands."""


def _varint(data, position: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if position >= len(data):
            raise TraceFormatError("a varint runs past the end of the trace")
        byte = data[position]
        position += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, position
        shift += 7
        if shift > 63:
            raise TraceFormatError("a varint is longer than 10 bytes")


def fields(data) -> list[tuple[int, int, object]]:
    """The (field number, wire type, value) of each field of one message: a varint as an
    int, a length-delimited field as a memoryview, a fixed64 as 8 bytes, a fixed32 as 4.

    >>> fields(bytes([0x08, 0x96, 0x01, 0x12, 0x02, 0x68, 0x69]))[0][:2], bytes(fields(b"\\x12\\x02hi")[0][2])
    ((1, 0), b'hi')
    """
    data = memoryview(data)
    found, position = [], 0
    while position < len(data):
        key, position = _varint(data, position)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, position = _varint(data, position)
        elif wire == 2:
            size, position = _varint(data, position)
            if position + size > len(data):
                raise TraceFormatError(f"field {number} runs past the end of its message")
            value, position = data[position : position + size], position + size
        elif wire == 1:
            value, position = bytes(data[position : position + 8]), position + 8
        elif wire == 5:
            value, position = bytes(data[position : position + 4]), position + 4
        else:
            raise TraceFormatError(f"field {number} has wire type {wire}, which XSpace does not use")
        if position > len(data):
            raise TraceFormatError(f"field {number} runs past the end of its message")
        found.append((number, wire, value))
    return found


def _signed(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def _text(value) -> str:
    return bytes(value).decode("utf-8", "replace")


def _metadata(entry, kind: str) -> tuple[int, str, list]:
    """A map entry of `event_metadata` or `stat_metadata`: (id, name, stats)."""
    key, name, stats = 0, "", []
    for number, _, value in fields(entry):
        if number == 1:
            key = _signed(value)
        elif number == 2:
            for inner, _, part in fields(value):
                if inner == 2 or (inner == 4 and kind == "event" and not name):
                    name = _text(part)  # XEventMetadata: name 2, display_name 4
                elif inner == 5 and kind == "event":
                    stats.append(part)
    return key, name, stats


def _stat(message, names: dict) -> tuple[str, object]:
    key, value = "", None
    for number, _, part in fields(message):
        if number == 1:
            key = names.get(_signed(part), f"stat#{_signed(part)}")
        elif number == 2:
            value = struct.unpack("<d", part)[0]
        elif number == 3:
            value = part
        elif number == 4:
            value = _signed(part)
        elif number == 5:
            value = _text(part)
        elif number == 6:
            value = f"<{len(part)} bytes>"
        elif number == 7:
            value = names.get(part, f"stat#{part}")  # a reference: the named stat metadata's name
    return key, value


def _plane(message, module: str, out: dict) -> None:
    name, lines, event_names, stat_names, event_stats = "", [], {}, {}, {}
    for number, _, value in fields(message):
        if number == 2:
            name = _text(value)
        elif number == 3:
            lines.append(value)
        elif number == 4:
            key, label, stats = _metadata(value, "event")
            event_names[key] = label
            event_stats[key] = stats
        elif number == 5:
            key, label, _ = _metadata(value, "stat")
            stat_names[key] = label
    device = name.startswith("/device:")
    summary = {"name": name, "lines": [], "events": 0, "stats": set()}
    parsed = []
    for line in lines:
        line_name, start, events = "", 0, []
        for number, _, value in fields(line):
            if number == 2:
                line_name = _text(value)
            elif number == 3:
                start = _signed(value)
            elif number == 4:
                events.append(value)
        parsed.append((line_name, start, events))
    # A device's kernels: its streams' events, else (a trace XProf already converted) its "XLA Ops" line's.
    streams = any(line_name.startswith("Stream") for line_name, _, _ in parsed)
    for line_name, start, events in parsed:
        summary["lines"].append(line_name)
        summary["events"] += len(events)
        stream = device and (line_name.startswith("Stream") if streams else line_name == "XLA Ops")
        for event in events:
            key, offset, duration, stats = 0, 0, 0, []
            for number, _, value in fields(event):
                if number == 1:
                    key = _signed(value)
                elif number == 2:
                    offset = _signed(value)
                elif number == 3:
                    duration = _signed(value)
                elif number == 4:
                    stats.append(value)
            label = event_names.get(key, f"event#{key}")
            if not (stream or stats or event_stats.get(key) or label.startswith(RUN_MARK)):
                continue  # a host event without stats: no kernel of ours
            values = dict(_stat(s, stat_names) for s in event_stats.get(key, ()))
            values.update(_stat(s, stat_names) for s in stats)
            summary["stats"].update(values)
            begin = start * 1000 + offset  # picoseconds, as ints: a float of ns since 1970 keeps 256 ns
            if label.startswith(RUN_MARK) and not device:
                out["marks"].append([label, begin, begin + duration])
            elif stream or (not device and values.get("hlo_module") == module and "hlo_op" in values):
                if len(out["events"]) >= MAX_EVENTS:
                    raise TraceFormatError(f"the trace holds more than {MAX_EVENTS} kernel events")
                kept = {k: v for k, v in values.items() if isinstance(v, (int, float, str)) and len(str(v)) < 4096}
                out["events"].append([name, line_name, label, begin, duration, kept])
    summary["stats"] = sorted(summary["stats"])[:_STAT_NAMES]
    out["planes"].append(summary)


def read(data: bytes, module: str) -> dict:
    """The planes, kernel events and run marks of a serialized XSpace (see the module's text).

    >>> read(b"", "jit_f")
    {'planes': [], 'events': [], 'marks': []}
    """
    out = {"planes": [], "events": [], "marks": []}
    for number, wire, value in fields(data):
        if number == 1 and wire == 2:
            _plane(value, module, out)
    return out


def main(arguments: list[str]) -> int:
    """`python _xspace.py TRACE MODULE ANSWER`: reads TRACE, writes the answer as JSON."""
    trace, module, answer = arguments
    with open(trace, "rb") as file:
        data = file.read()
    found = read(data, module)
    with open(answer, "w", encoding="utf-8") as file:
        json.dump(found, file)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
