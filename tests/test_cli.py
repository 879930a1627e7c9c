"""Tests for numbat/cli.py (and the demo and benchmark it runs)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from numbat import cli
from numbat._tools import _demo

ROOT = Path(__file__).resolve().parents[1]


def _install(prefix: Path, *options: str) -> Path:
    assert cli.main(["kernel", "install", "--prefix", str(prefix), *options]) == 0
    return prefix / "share" / "jupyter" / "kernels"


def test_the_kernel_spec_file_is_the_cli_spec_written_out():
    """One home for the kernel spec: `cli.KERNEL_SPEC`; kernel/numbat/kernel.json (the project's
    kernel folder) must say the same, and no other copy ships in the package."""
    canonical = json.loads((ROOT / "kernel" / "numbat" / "kernel.json").read_text())
    assert canonical == cli.KERNEL_SPEC
    assert sorted(path.name for path in (ROOT / "numbat").rglob("*.json")) == []


def test_kernel_install_into_prefix(tmp_path, capsys):
    kernels = _install(tmp_path)
    spec = json.loads((kernels / "numbat" / "kernel.json").read_text())
    assert spec["argv"][0] == sys.executable
    assert spec["argv"][1:3] == ["-m", "ipykernel_launcher"]
    assert "{connection_file}" in spec["argv"]
    assert "--ext=numbat" in spec["argv"]
    assert spec["env"]["XLA_PYTHON_CLIENT_PREALLOCATE"] == "false"
    assert spec["display_name"] == "Numbat"
    assert spec["language"] == "python"
    assert str(kernels / "numbat") in capsys.readouterr().out


def test_kernel_install_with_a_name_is_lowercased(tmp_path):
    kernels = _install(tmp_path, "--name", "Numbat-Dev")
    assert (kernels / "numbat-dev" / "kernel.json").is_file()


def test_installed_kernel_starts_with_the_extension_loaded(tmp_path):
    kernels = _install(tmp_path)
    specs = KernelSpecManager(kernel_dirs=[str(kernels)])
    manager = KernelManager(kernel_name="numbat", kernel_spec_manager=specs)
    manager.start_kernel()
    client = manager.client()
    client.start_channels()
    outputs = []
    try:
        client.wait_for_ready(timeout=60)
        reply = client.execute_interactive(
            "import os, sys\n"
            "print(sys.executable, os.environ['XLA_PYTHON_CLIENT_PREALLOCATE'],\n"
            "      'numbat' in get_ipython().extension_manager.loaded)",
            output_hook=outputs.append,
            timeout=60,
        )
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert reply["content"]["status"] == "ok"
    text = "".join(message["content"].get("text", "") for message in outputs)
    assert text.split() == [sys.executable, "false", "True"]


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "the following arguments are required: command"),
        (["kernel"], "the following arguments are required: action"),
        (["kernel", "install", "--user", "--sys-prefix"], "not allowed with argument"),
        (["kernel", "install", "--name", "no spaces"], "invalid kernel name 'no spaces'"),
        (["bench", "--size", "0"], "expected a positive integer, got '0'"),
        (["bench", "--rounds", "many"], "expected a positive integer, got 'many'"),
        (["bench", "warp"], "invalid choice: 'warp'"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_usage_errors_exit_2(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_doctor():
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=2"}
    result = subprocess.run(
        [sys.executable, "-m", "numbat", "doctor"], capture_output=True, check=False, text=True, timeout=120, env=env
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    rows = {line.split(maxsplit=1)[0]: line for line in lines}
    assert rows["python"].endswith(f"({sys.executable})")
    assert {"numbat", "jax", "jaxlib", "numpy", "kernel", "x64", "default", "device", "memory"} <= rows.keys()
    assert rows["XLA_FLAGS"].endswith("--xla_force_host_platform_device_count=2  (environment)")
    assert [line for line in lines if line.startswith("device ")] == [
        "device                          host:0 cpu (cpu)",
        "device                          host:1 cpu (cpu)",
    ]
    assert "limit" in rows["memory"] and "MiB" in rows["memory"]


def test_doctor_warns_about_gpu_preallocation():
    unset = {
        name: ("(unset)", "default") for name in ("XLA_PYTHON_CLIENT_PREALLOCATE", "XLA_PYTHON_CLIENT_MEM_FRACTION")
    }
    settings = {**unset, "XLA_CLIENT_MEM_FRACTION": ("(unset)", "default")}
    assert "preallocation is on" in cli._doctor_warnings(settings, {"cuda": {}, "host": {}})[0]
    settings["XLA_PYTHON_CLIENT_PREALLOCATE"] = ("false", "numbat")
    assert cli._doctor_warnings(settings, {"cuda": {}}) == []
    assert cli._doctor_warnings(unset | {"XLA_CLIENT_MEM_FRACTION": ("(unset)", "default")}, {"host": {}}) == []


def test_demo(capsys):
    assert cli.main(["demo"]) == 0
    out = capsys.readouterr().out
    assert "s32[x: 2][y: 2]" in out
    assert "@nbt.defn\ndef softmax(t):" in out
    assert "[telemetry] compiled" in out
    assert "1 compilation event(s) for 2 calls." in out
    assert _demo.NOTEBOOK in out


@pytest.mark.parametrize("suite", ["softmax", "dispatch", "eager", "trace", "notebook"])
def test_every_bench_suite_runs_small(suite, tmp_path, capsys):
    path = tmp_path / "bench.json"
    size = "64" if suite != "notebook" else "32"
    assert cli.main(["bench", suite, "--size", size, "--rounds", "3", "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "ips" in out and "median" in out and "99th %" in out
    results = json.loads(path.read_text())["results"]
    assert results and all(s["median_us"] > 0 for r in results for s in r["stats"].values())
    for result in results:
        for ratio in result["ratios"]:
            assert ratio["ratio"] > 0 and f"{ratio['numbat']} is " in out


def test_doctor_check_quick_runs_every_item_on_this_machine_and_reports_each():
    """`numbat doctor --check --quick` on the CPU (CI has no GPU): the profile, the peaks, a stop,
    the memory settings in a child and the bench ratios run and report; tests and tutorials skip."""
    done = subprocess.run(
        [sys.executable, "-m", "numbat", "doctor", "--check", "--quick"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={k: v for k, v in os.environ.items() if not k.startswith(("XLA_", "JAX_"))},
    )
    report = done.stdout[done.stdout.index("numbat self-check on cpu:0") :]
    lines = {line.split()[1]: line.split()[0] for line in report.splitlines()[1:] if line.startswith("  ")}
    assert list(lines) == ["tests", "tutorials", "profile", "peaks", "stop", "memory", "bench"], report
    assert lines["tests"] == lines["tutorials"] == "SKIP" and "quick scope" in report
    assert lines["profile"] == lines["peaks"] == lines["stop"] == lines["memory"] == "PASS", report
    assert re.search(r"softmax f32\[65536\]: \d+ kernels, [\d.]+ of [\d.]+ µs per call", report)
    assert "stopped after" in report and "the child applied the host's device_count=2 and has 2 devices" in report
    assert "numbat defn f32 / jax.jit f32 = " in report and "numbat defn (cached) / jax.jit (cached) = " in report
    result = report.strip().splitlines()[-1]
    assert re.fullmatch(r"result: \d passed, \d failed, 2 skipped in [\d.]+ s", result), result
    assert done.returncode == (1 if "FAIL" in lines.values() else 0), done.stderr
    assert cli.main(["doctor", "--quick"]) == 2  # --quick only with --check


def test_the_self_check_fails_when_an_item_fails_or_it_takes_more_than_five_minutes():
    from numbat._tools import _selfcheck

    passed = [_selfcheck.Item("stop", "PASS", "")]
    assert (_selfcheck.BUDGET, _selfcheck.RATIO_LIMIT, _selfcheck.EXTRA_LIMIT_US) == (300.0, 1.3, 10.0)  # as documented
    assert _selfcheck.verdict(passed, 299.0) == ("result: 1 passed, 0 failed, 0 skipped in 299.0 s", 0)
    assert _selfcheck.verdict(passed, 300.5)[1] == 1 and "over the 300 s budget" in _selfcheck.verdict(passed, 300.5)[0]
    assert _selfcheck.verdict([*passed, _selfcheck.Item("bench", "FAIL", "")], 10.0)[1] == 1


def test_the_self_checks_test_files_exist_and_its_tests_item_runs_pytest_in_a_child(tmp_path):
    from numbat._tools import _selfcheck

    assert all((ROOT / name).is_file() for name in _selfcheck.GPU_TESTS)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("def test_ok():\n    pass\n\ndef test_bad():\n    assert 1 == 2\n")
    item = _selfcheck.run_tests(tmp_path, files=("tests/test_a.py", "tests/test_missing.py"), workers=1)
    assert item.status == "FAIL" and item.detail.startswith("1 failed, 1 passed in "), item
    assert "(1 files: test_a); first failures: tests/test_a.py::test_bad" in item.detail
    empty = _selfcheck.run_tests(tmp_path / "nothing")
    assert empty.status == "SKIP" and "run the check in a checkout" in empty.detail


def test_the_self_checks_tutorials_item_executes_notebooks_under_the_numbat_kernel(tmp_path):
    import nbformat

    from numbat._tools import _selfcheck

    for name, source in (("01_ok.ipynb", "import numbat as nbt\nnbt.sum(nbt.iota((3,)))"), ("02_bad.ipynb", "1 / 0")):
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
        nbformat.write(notebook, tmp_path / name)
    item = _selfcheck.run_tutorials(sorted(tmp_path.glob("*.ipynb")), timeout=120)
    assert item.status == "FAIL" and item.detail.startswith("1 of 2 ran clean (2 code cells); 02_bad.ipynb: "), item
    assert "ZeroDivisionError" in item.detail
