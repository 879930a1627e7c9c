"""Shared fixtures: the backends every agreeing test runs on."""

import pytest

import numbat as nbt

BACKENDS = {"numpy": nbt.NumPyBackend, "xla": nbt.XLABackend}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request):
    """Each backend in turn, made the default for the test."""
    instance = BACKENDS[request.param]()
    with nbt.default_backend(instance):
        yield instance
