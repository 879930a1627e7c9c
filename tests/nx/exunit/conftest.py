"""The paths a ported ExUnit test runs on.

Every test takes the `path` fixture. `NUMBAT_EXUNIT_PATHS` (a comma-separated list of
numpy, xla, jit) picks the paths; `all` runs the three. Unset (CI), the cheapest path,
numpy, runs every time and one of xla and jit more, alternating by the day (UTC), so two
days of CI cover every path. `NUMBAT_EXUNIT_PATHS=all python -m pytest tests/nx/exunit`
runs everything.
"""

import datetime
import os

import _paths
import pytest

ALL_PATHS = ("numpy", "xla", "jit")


def selected_paths(setting: str | None, day: int) -> tuple[str, ...]:
    """The paths to run for `setting` (the environment variable) on `day` (days since the epoch)."""
    if setting is None or not setting.strip():
        return ("numpy", ("xla", "jit")[day % 2])
    if setting.strip() == "all":
        return ALL_PATHS
    paths = tuple(name.strip() for name in setting.split(",") if name.strip())
    unknown = [name for name in paths if name not in ALL_PATHS]
    if unknown:
        raise pytest.UsageError(f"NUMBAT_EXUNIT_PATHS names unknown paths {unknown}; use {', '.join(ALL_PATHS)} or all")
    return paths


def _today() -> int:
    return (datetime.datetime.now(datetime.UTC).date() - datetime.date(1970, 1, 1)).days


def pytest_generate_tests(metafunc):
    if "path" in metafunc.fixturenames:
        metafunc.parametrize("path", selected_paths(os.environ.get("NUMBAT_EXUNIT_PATHS"), _today()))


@pytest.fixture(autouse=True)
def promised_precision():
    """Nx's ExUnit answers are f32 products: every case runs at the precision compared paths
    promise (`_paths.promised_precision`: "highest"), on every platform (the CPU's f32 is
    unchanged by it; on NVIDIA GPUs since Ampere XLA's default is TF32, whose 3.2e-4 relative
    error on an H200 failed the grad and linalg cases). docs/guides/xla.md, "Precision on each
    platform"; docs/design.md, decision 21."""
    with _paths.promised_precision():
        yield
