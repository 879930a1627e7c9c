"""The `numbat` command: install the Jupyter kernel, check the set-up, demo, benchmark.

Exit codes: 0 ok, 1 the command failed, 2 usage error.
"""

import argparse
import importlib.metadata
import json
import platform
import re
import sys
import tempfile
from pathlib import Path

import jax

from . import xla
from ._core._errors import ArgumentError
from ._tools import _bench, _bench_markdown, _demo, _selfcheck

KERNEL_NAME = "numbat"

# Jupyter's rule for kernel names (jupyter_client.kernelspec), checked before installing.
_KERNEL_NAME_PATTERN = re.compile(r"^[a-z0-9._-]+$")


# The Numbat Jupyter kernel spec, its one home. kernel/numbat/kernel.json is this spec as a
# file (for `jupyter kernelspec install kernel/numbat`); tests/test_cli.py checks they are equal.
KERNEL_SPEC = {
    "argv": ["python", "-m", "ipykernel_launcher", "-f", "{connection_file}", "--ext=numbat"],
    "display_name": "Numbat",
    "language": "python",
    "env": {"XLA_PYTHON_CLIENT_PREALLOCATE": "false"},
    "metadata": {"debugger": True},
}


def kernel_spec() -> dict:
    """The Numbat kernel spec (`KERNEL_SPEC`), with argv[0] set to this Python interpreter."""
    return {**json.loads(json.dumps(KERNEL_SPEC)), "argv": [sys.executable, *KERNEL_SPEC["argv"][1:]]}


def install_kernel(name: str = KERNEL_NAME, *, user: bool = False, prefix: str | None = None) -> str:
    """Installs the Numbat kernel spec and returns the directory it went to.

    With neither `user` nor `prefix`, installs system-wide (as `jupyter kernelspec install`).
    """
    from jupyter_client.kernelspec import KernelSpecManager

    with tempfile.TemporaryDirectory() as source:
        Path(source, "kernel.json").write_text(json.dumps(kernel_spec(), indent=2) + "\n")
        return KernelSpecManager().install_kernel_spec(source, kernel_name=name, user=user, prefix=prefix)


def _kernel_name(value: str) -> str:
    name = value.lower()
    if not _KERNEL_NAME_PATTERN.fullmatch(name):
        raise argparse.ArgumentTypeError(f"invalid kernel name {value!r}: use letters, digits, '.', '_' and '-' only")
    return name


def _positive_int(value: str) -> int:
    error = argparse.ArgumentTypeError(f"expected a positive integer, got {value!r}")
    try:
        number = int(value)
    except ValueError:
        raise error from None
    if number < 1:
        raise error
    return number


def _cmd_kernel_install(args: argparse.Namespace) -> int:
    prefix = sys.prefix if args.sys_prefix else args.prefix
    try:
        path = install_kernel(args.name, user=args.user, prefix=prefix)
    except OSError as error:
        print(
            f"numbat: error: cannot install the kernel spec: {error}\n"
            "Use --user, --sys-prefix or --prefix DIR to install where you can write.",
            file=sys.stderr,
        )
        return 1
    print(f"Installed the Numbat kernel spec {args.name!r} in {path}")
    print(f"  python: {sys.executable}")
    return 0


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def _cmd_doctor(args: argparse.Namespace) -> int:
    rows = [("python", f"{platform.python_version()} ({sys.executable})")]
    rows += [("numbat", _version("numbat-nx"))]  # the distribution's name (the module's is numbat)
    rows += [(name, _version(name)) for name in ("jax", "jaxlib", "numpy", "ml_dtypes")]

    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    try:
        spec = KernelSpecManager().get_kernel_spec(KERNEL_NAME)
        rows.append(("kernel", f"{KERNEL_NAME} in {spec.resource_dir} (python {spec.argv[0]})"))
    except NoSuchKernel:
        rows.append(("kernel", "not installed: run `numbat kernel install --sys-prefix`"))

    try:
        for name, value in xla.settings().items():
            rows.append((name, f"{value[0]}  ({value[1]})"))
        rows.append(("x64", f"{jax.config.jax_enable_x64} (numbat enters x64 per op; your JAX code keeps this)"))
        rows.append(("default", f"{jax.default_backend()}; clients: {', '.join(xla.clients())}"))
        for device in xla.devices():
            rows.append(("device", f"{device['client']}:{device['id']} {device['kind']} ({device['platform']})"))
        for entry in xla.memory():
            usage = f"in use {_mib(entry['in_use'])}, peak {_mib(entry['peak'])}, limit {_mib(entry['limit'])}"
            rows.append(("memory", f"{entry['device']} {usage} ({entry['source']})"))
        rows += [("warning", text) for text in _doctor_warnings(xla.settings(), xla.clients())]
        status = 0
    except (ImportError, RuntimeError) as error:
        rows.append(("jax", f"failed to start: {type(error).__name__}: {error}"))
        status = 1

    width = max(len(key) for key, _ in rows)
    for key, value in rows:
        print(f"{key:<{width}}  {value}")
    if args.quick and not args.check:
        print("numbat: error: --quick goes with --check", file=sys.stderr)
        return 2
    if args.check and status == 0:
        print()
        return _selfcheck.check(quick=args.quick)
    return status


def _mib(value) -> str:
    return "not tracked" if value is None else f"{value / 2**20:.1f} MiB"


def _doctor_warnings(settings: dict, clients: dict) -> list[str]:
    """Settings that commonly cause trouble, in words."""
    warnings = []
    gpu = any(name in clients for name in ("cuda", "rocm"))
    if gpu and settings["XLA_PYTHON_CLIENT_PREALLOCATE"][0] in ("(unset)", "true", "1"):
        warnings.append(
            "GPU memory preallocation is on (XLA takes 75% of the GPU when it starts): several notebook "
            "kernels on one GPU will run out; set preallocate=False (nbt.xla.configure or %numbat memory)"
        )
    if (
        settings["XLA_PYTHON_CLIENT_MEM_FRACTION"][0] != "(unset)"
        and settings["XLA_CLIENT_MEM_FRACTION"][0] != "(unset)"
    ):
        warnings.append("both XLA_PYTHON_CLIENT_MEM_FRACTION and XLA_CLIENT_MEM_FRACTION are set; jaxlib refuses both")
    return warnings


def _cmd_demo(args: argparse.Namespace) -> int:
    _demo.run()
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    try:
        results = _bench.run(args.suite, size=args.size, rounds=args.rounds, rows=args.rows)
    except (ArgumentError, ValueError) as error:  # a size that cannot fit, an unknown kernel row, --rows elsewhere
        print(f"numbat: error: {error}", file=sys.stderr)
        return 2
    if args.markdown:
        print(_bench_markdown.markdown(results))
    else:
        _bench.print_tables(results)
    if args.json:
        _bench.write_json(results, args.json)
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, printing a command's whole help before the error when its subcommand is
    missing (`numbat`, `numbat kernel`): still exit 2, as argparse does for bad usage."""

    def error(self, message):
        if "arguments are required" in message:
            self.print_help(sys.stderr)
            print(file=sys.stderr)
        super().error(message)


def _kernel_specs() -> dict:
    from jupyter_client.kernelspec import KernelSpecManager

    return KernelSpecManager().get_all_specs()


def _is_numbat(spec: dict) -> bool:
    return "--ext=numbat" in spec["spec"].get("argv", [])


def _cmd_kernel_list(args: argparse.Namespace) -> int:
    specs = _kernel_specs()
    rows = [(name, "numbat" if _is_numbat(spec) else "", spec["resource_dir"]) for name, spec in sorted(specs.items())]
    if args.all:
        shown = rows
    else:
        shown = [row for row in rows if row[1]]
    if not shown:
        print("No Numbat kernel spec is installed: run `numbat kernel install --sys-prefix` (or --user).")
        return 0
    width = max(len(name) for name, _, _ in shown)
    for name, kind, directory in shown:
        python = specs[name]["spec"]["argv"][0] if specs[name]["spec"].get("argv") else "?"
        print(f"{name:<{width}}  {directory}  (python {python}){'  [numbat]' if kind and args.all else ''}")
    return 0


def _cmd_kernel_uninstall(args: argparse.Namespace) -> int:
    from jupyter_client.kernelspec import KernelSpecManager

    specs = _kernel_specs()
    spec = specs.get(args.name)
    if spec is None:
        installed = ", ".join(name for name, spec in sorted(specs.items()) if _is_numbat(spec)) or "none"
        print(
            f"numbat: error: no kernel spec named {args.name!r} (Numbat kernels installed: {installed})",
            file=sys.stderr,
        )
        return 1
    if not _is_numbat(spec):
        print(
            f"numbat: error: kernel spec {args.name!r} is not a Numbat kernel (no --ext=numbat in its argv); "
            f"remove it with `jupyter kernelspec remove {args.name}`",
            file=sys.stderr,
        )
        return 1
    try:
        path = KernelSpecManager().remove_kernel_spec(args.name)
    except OSError as error:
        print(f"numbat: error: cannot remove {spec['resource_dir']}: {error}", file=sys.stderr)
        return 1
    print(f"Removed the Numbat kernel spec {args.name!r} from {path}")
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="numbat", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(title="commands", dest="command", required=True)
    _add_kernel_commands(commands)
    doctor = commands.add_parser("doctor", help="print versions, JAX devices, the kernel spec and XLA_* settings")
    doctor.add_argument(
        "--check",
        action="store_true",
        help="then run the self-check on the default device (GPU tests, tutorials, a profile, a stop, memory "
        "settings, bench ratios against jax.jit; a few minutes) and print a report",
    )
    doctor.add_argument("--quick", action="store_true", help="with --check: skip the tests and tutorials, small sizes")
    doctor.set_defaults(run=_cmd_doctor)
    commands.add_parser("demo", help="a short printed tour of the API").set_defaults(run=_cmd_demo)
    _add_bench_command(commands)
    return parser


def _add_kernel_commands(commands) -> None:
    """`numbat kernel install`, `list` and `uninstall`."""
    kernel = commands.add_parser("kernel", help="manage the Numbat Jupyter kernel")
    kernel_commands = kernel.add_subparsers(title="kernel commands", dest="action", required=True)
    install = kernel_commands.add_parser(
        "install",
        help="install the Numbat kernel spec for this Python",
        description="Install the Numbat kernel spec (ipykernel with --ext=numbat) for this "
        "Python; without a location option it installs system-wide.",
    )
    where = install.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="install for the current user")
    where.add_argument("--sys-prefix", action="store_true", help=f"install into this environment ({sys.prefix})")
    where.add_argument("--prefix", metavar="DIR", help="install into DIR/share/jupyter/kernels")
    install.add_argument("--name", type=_kernel_name, default=KERNEL_NAME, help="kernel name (default: %(default)s)")
    install.set_defaults(run=_cmd_kernel_install)
    listing = kernel_commands.add_parser(
        "list",
        help="list the installed Numbat kernel specs",
        description="List the Numbat kernel specs Jupyter can find (name, directory, python).",
    )
    listing.add_argument("--all", action="store_true", help="list every kernel spec, marking Numbat's")
    listing.set_defaults(run=_cmd_kernel_list)
    uninstall = kernel_commands.add_parser(
        "uninstall",
        help="remove a Numbat kernel spec",
        description="Remove an installed Numbat kernel spec (only one whose argv loads --ext=numbat).",
    )
    uninstall.add_argument("--name", type=_kernel_name, default=KERNEL_NAME, help="kernel name (default: %(default)s)")
    uninstall.set_defaults(run=_cmd_kernel_uninstall)


def _add_bench_command(commands) -> None:
    """`numbat bench [suite]` and its options."""
    bench = commands.add_parser("bench", help="time numbat against jax.jit, jax.numpy and NumPy, interleaved")
    bench.add_argument(
        "suite",
        nargs="?",
        default="all",
        choices=("softmax", "dispatch", "eager", "trace", "notebook", "interrupt", "kernels", "all"),
        help="which suite (default: all)",
    )
    bench.add_argument(
        "--rows",
        metavar="KEYS",
        help="kernels suite only: comma-separated rows to run (e.g. top_k,take,mlp_step; default: all)",
    )
    bench.add_argument(
        "--markdown",
        action="store_true",
        help="print the README's Performance table (machine, date, each figure and its target) instead",
    )
    bench.add_argument("--size", type=_positive_int, default=None, help="problem size (default: each suite's own)")
    bench.add_argument("--rounds", type=_positive_int, default=200, help="timed rounds (default: %(default)s)")
    bench.add_argument("--json", metavar="PATH", help="also write every figure to PATH as JSON")
    bench.set_defaults(run=_cmd_bench)


def main(argv: list[str] | None = None) -> int:
    """Runs the `numbat` command line; returns the exit code (argparse exits 2 on bad usage)."""
    args = _parser().parse_args(argv)
    return args.run(args)


__all__ = ["KERNEL_NAME", "KERNEL_SPEC", "install_kernel", "kernel_spec", "main"]
