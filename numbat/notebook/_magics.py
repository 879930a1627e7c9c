"""`%numbat`: look at numbat from a notebook. Subcommands render as a text
table beside an HTML one, so they read well in a terminal and under nbval.

`%numbat info` never starts the XLA client: before it starts, it lists the
settings that will apply, which is when they still can be changed.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import sys

import jax
from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

from .. import telemetry
from .._core._errors import ArgumentError
from .._runtime import _client
from ..xla._trace_events import ProfilerError
from . import _settings
from ._graph import graph, profile
from ._plots import telemetry_chart
from ._strip import CellWatcher
from ._tables import Section, bundle

SUBCOMMANDS = ("info", "telemetry", "cache", "client", "memory", "precision", "interruptible", "graph", "profile")


def _version(distribution: str, module_name: str | None = None) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        module = sys.modules.get(module_name or distribution)
        return getattr(module, "__version__", None) or "not installed (imported from source)"


def info_sections() -> list[Section]:
    """Versions, the XLA client's state, clients, devices and settings."""
    versions = [
        ("numbat", _version("numbat-nx", "numbat")),
        ("jax", getattr(jax, "__version__", _version("jax"))),
    ]
    versions.append(("jaxlib", _version("jaxlib")))
    sections = [Section("versions", ("package", "version"), versions)]
    if _client.started():
        cell = _client.started_in_cell()
        state = f"started in cell [{cell}]" if cell is not None else "started (outside a cell numbat saw)"
        sections.append(Section("XLA client", (), [], state))
        clients = [
            (name, c["platform"], c["devices"], "yes" if c["default"] else "") for name, c in _client.clients().items()
        ]
        sections.append(Section("clients", ("client", "platform", "devices", "default"), clients))
        devices = [(d["client"], d["id"], d["kind"], d["platform"]) for d in _client.devices()]
        sections.append(Section("devices", ("client", "id", "kind", "platform"), devices))
    else:
        order = ", ".join(_client.PLATFORMS)
        note = f"not started; it starts on first use with the first available of {order}, and the settings below apply then"
        sections.append(Section("XLA client", (), [], note))
    settings = [(name, "(unset)" if value is None else value) for name, value in _client.settings().items()]
    sections.append(Section("settings", ("variable", "value"), settings))
    return sections


def _ms(measurements: dict, key: str) -> str:
    value = measurements.get(key)
    return f"{value / 1000:.1f} ms" if isinstance(value, (int, float)) else "? ms"


def telemetry_section(since: int = 0, limit: int = 20) -> Section:
    """The last `limit` compilations logged after sequence number `since`.

    Times come last, in one column, so that the text form lines up the same
    whatever the times are (nbval replaces them before comparing).
    """
    records = telemetry.log(since=since, event=telemetry.COMPILATION)
    shown = records[-limit:] if limit > 0 else []
    rows = []
    for r in shown:
        meta, measure = r.metadata, r.measurements
        times = ", ".join(
            f"{label} {_ms(measure, key)}"
            for label, key in (
                ("trace", "eval_time"),
                ("compile", "compile_time"),
                ("total", "total_time"),
            )
        )
        disk = "yes" if meta.get("cached_on_disk") else "no"
        rows.append(
            (
                r.sequence,
                meta.get("function", "?"),
                meta.get("signature", ""),
                meta.get("client", ""),
                meta.get("device", ""),
                disk,
                meta.get("reason", ""),
                times,
            )
        )
    header = ("#", "function", "signature", "client", "device", "disk cache", "reason", "time")
    if not records:
        note = "no compilations yet"
    elif len(records) > len(shown):
        note = f"showing the last {len(shown)} of {len(records)}; %numbat telemetry -n N shows more"
    else:
        note = ""
    return Section("compilations", header, rows, note)


def cache_section() -> Section:
    """Compilations and cache hits per function since the process started."""
    counts = telemetry.counts()
    rows = [(name, c["compilations"], c["cache_hits"]) for name, c in sorted(counts.items())]
    return Section(
        "defn cache",
        ("function", "compilations", "cache hits"),
        rows,
        "" if rows else "nothing compiled yet",
    )


@magics_class
class NumbatMagics(Magics):
    """The `%numbat` line magic."""

    def __init__(self, shell=None):
        super().__init__(shell)
        self.telemetry_since = 0  # `%numbat telemetry clear` hides what came before

    @magic_arguments()
    @argument(
        "subcommand",
        nargs="?",
        default="info",
        help="info (the default), telemetry, cache, client, memory, precision, interruptible, graph or profile",
    )
    @argument("arguments", nargs="*", help="the subcommand's arguments (see below)")
    @argument("-n", "--limit", type=int, default=20, help="with telemetry: how many recent compilations to show")
    @argument(
        "--runs",
        type=int,
        default=10,
        help="with profile: how many calls to time (each kernel shows the mean of the middle half)",
    )
    @argument("--fused", action="store_true", help="with graph: group the ops by the XLA kernel they ended in")
    @argument("--all", action="store_true", dest="everything", help="with graph: draw every node of a large graph")
    @argument("--mlir", action="store_true", help="with graph: show the StableHLO module")
    @argument("--hlo", action="store_true", help="with graph: show XLA's optimized HLO")
    @argument(
        "--locations", action="store_true", help="with graph --mlir/--hlo: keep source locations (file paths, frames)"
    )
    @line_magic
    def numbat(self, line=""):
        """Look at numbat from the notebook.

        Subcommands:
          info       versions; whether the XLA client started, and in which cell;
                     clients, devices and XLA settings
          telemetry  recent compilations: function, signature, trace and compile
                     time, client, device, reason (`show`, the default);
                     `clear` lists only compilations from then on; `on`/`off`
                     shows or hides the strip after each cell; `chart` plots
                     compile time per function
          cache      compilations and cache hits per function
          client     the XLA clients; `%numbat client NAME` picks the default
                     client before the client starts
          memory     memory settings and use; `%numbat memory preallocate=false
                     fraction=0.5` sets them before the client starts
          precision  `%numbat precision default|high|highest`: the matmul
                     precision of defns created from now on
          interruptible  `%numbat interruptible on|off`: whether the while_loops
                     of defns created from now on stop on Ctrl-C (Interrupt
                     kernel) and a live view's Stop button
          graph      `%numbat graph FUN ARGS... [--fused] [--all] [--mlir|--hlo]`:
                     the expression graph of FUN on the named ARGS (--all: every
                     node of a large graph), grouped by XLA kernel with --fused,
                     or its IR (without file paths and stack frames unless
                     --locations)
          profile    `%numbat profile FUN ARGS... [--runs N]`: where the time of a
                     call goes, kernel by kernel: a table, the graph shaded by
                     time, the roofline against the machine's peaks

        Examples: `%numbat info`, `%numbat telemetry -n 5`, `%numbat graph f x --fused`.
        """
        try:
            args = parse_argstring(self.numbat, line)
        except (UsageError, ValueError) as error:  # ValueError: unbalanced quotes
            return _error(f"{error}")
        command, rest = args.subcommand, args.arguments
        if command not in SUBCOMMANDS:
            return _error(f"unknown subcommand {command!r}; subcommands are {', '.join(SUBCOMMANDS)}")
        actions = ([], ["clear"], ["show"], ["on"], ["off"], ["chart"])
        if rest and command in ("info", "cache") or (command == "telemetry" and rest not in actions):
            return _error(
                f"`%numbat {command}` takes no argument {' '.join(rest)!r}; "
                "`%numbat telemetry` takes show, clear, on, off or chart"
            )
        if command in ("graph", "profile") and len(rest) == 1 and _needs_arguments(self.shell.user_ns.get(rest[0])):
            return _error(
                f"`%numbat {command} {rest[0]}` names no arguments for {rest[0]}; usage: "
                f"%numbat {command} FUN ARGS..., the function and the variables to call it with, "
                f"e.g. `%numbat {command} {rest[0]} x`"
            )
        return self._run(command, rest, args)

    def _run(self, command: str, rest: list, args):
        """Runs `%numbat` subcommand `command`, its arguments checked, on the `rest` of the line."""
        from IPython.display import display

        if command == "info":
            display(bundle(info_sections()), raw=True)
        elif command == "telemetry" and rest == ["clear"]:
            self.telemetry_since = telemetry.last_sequence()
            print("numbat: %numbat telemetry now lists compilations from here on (the log itself is kept)")
        elif command == "telemetry" and rest in (["on"], ["off"]):
            CellWatcher.enabled = rest == ["on"]
            print(f"numbat: the telemetry strip after each cell is {rest[0]}")
        elif command == "telemetry" and rest == ["chart"]:
            display(telemetry_chart())
        elif command == "telemetry":
            display(bundle([telemetry_section(self.telemetry_since, args.limit)]), raw=True)
        elif command == "cache":
            display(bundle([cache_section()]), raw=True)
        elif command == "graph":
            ir = "mlir" if args.mlir else "hlo" if args.hlo else None
            try:
                display(graph(self.shell.user_ns, rest, args.fused, ir, args.everything, args.locations), raw=True)
            except ArgumentError as error:
                return _error(str(error))
        elif command == "profile":
            try:
                display(profile(self.shell.user_ns, rest, args.runs), raw=True)
            except (ArgumentError, ProfilerError) as error:
                return _error(str(error))
        elif command == "interruptible":
            message = _settings.interruptible(rest)
            print(message, file=sys.stderr if "takes" in message else sys.stdout)
        else:
            shown = getattr(_settings, command)(rest)
            if isinstance(shown, str):
                print(shown, file=sys.stderr)
            else:
                display(bundle(shown), raw=True)


def _needs_arguments(fun) -> bool:
    """Whether `fun` is a function that cannot be called without arguments."""
    if not callable(fun):
        return False
    try:
        inspect.signature(fun).bind()
    except TypeError:
        return True
    except ValueError:  # no signature to read (a builtin): let the call say
        return False
    return False


def _error(message: str) -> None:
    print(f"numbat: {message} (see %numbat? for help)", file=sys.stderr)
