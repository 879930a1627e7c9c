"""Shared fixtures: the backends every agreeing test runs on, and a private data directory
(numbat's signing key) so that tests never touch the real home."""

import os

import pytest

import numbat as nbt

BACKENDS = {"numpy": nbt.NumPyBackend, "xla": nbt.XLABackend}


@pytest.fixture(scope="session", autouse=True)
def _private_data_dir(tmp_path_factory):
    """NUMBAT_DATA_DIR for this session and the processes it starts."""
    previous = os.environ.get("NUMBAT_DATA_DIR")
    os.environ["NUMBAT_DATA_DIR"] = str(tmp_path_factory.mktemp("numbat-data"))
    yield
    if previous is None:
        del os.environ["NUMBAT_DATA_DIR"]
    else:
        os.environ["NUMBAT_DATA_DIR"] = previous


@pytest.fixture(params=sorted(BACKENDS))
def backend(request):
    """Each backend in turn, made the default for the test."""
    instance = BACKENDS[request.param]()
    with nbt.default_backend(instance):
        yield instance
