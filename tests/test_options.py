"""Global and scoped settings are checked when they are set (numbat/_defn/_options.py,
`global_default_backend`): a bad value is a numbat error naming the option and the
accepted values, and changes nothing."""

import os

import pytest

import numbat as nbt
from numbat._defn import _options
from numbat._runtime import _config

BAD_DEFN_OPTIONS = [
    ({"compiler": 3}, "unknown defn compiler 3; compilers are xla, evaluator"),
    ({"bogus": 1}, r"unknown defn option\(s\) \['bogus'\]; options are compiler, client, device_id"),
    ({"precision": "ultra"}, "option precision must be one of default, high, highest, got 'ultra'"),
    ({"precision": ["high"]}, r"option precision must be one of default, high, highest, got \['high'\]"),
    ({"cache": 3.5}, "option cache must be True, False or a directory path, got 3.5"),
    ({"hooks": 5}, "option hooks must map hook names to functions, got 5"),
    ({"debug": "yes"}, "option debug must be True or False, got 'yes'"),
    ({"lazy_transfers": "eager"}, "option lazy_transfers must be one of opt_in, never, got 'eager'"),
    ({"client": "nope"}, "option client must be one of cuda, rocm, tpu, host or None, got 'nope'"),
    ({"client": {}}, "option client must be one of cuda, rocm, tpu, host or None, got {}"),
    ({"device_id": -1}, "option device_id must be a non-negative int, got -1"),
    ({"device_id": 99}, r"option client/device_id: device_id 99 is out of range: client 'host' has 1 device\(s\)"),
]


def _works():
    return nbt.jit(lambda t: t + 1)(nbt.tensor([1.0])).to_numpy().tolist() == [2.0]


@pytest.mark.parametrize(
    "options,message", BAD_DEFN_OPTIONS, ids=[next(iter(o)) + "-" + str(i) for i, (o, _) in enumerate(BAD_DEFN_OPTIONS)]
)
def test_a_bad_global_default_defn_option_is_refused_and_changes_nothing(options, message):
    nbt.tensor(0)  # the client has started: device ids are checked against the devices
    previous = nbt.global_default_defn_options(precision="high")
    try:
        with pytest.raises(nbt.ArgumentError, match="global_default_defn_options: " + message):
            nbt.global_default_defn_options(options)
        assert nbt.global_default_defn_options() == {"precision": "high"}
        assert _works()
    finally:
        nbt.global_default_defn_options(previous)


@pytest.mark.parametrize("options,message", BAD_DEFN_OPTIONS[:3])
def test_scoped_defaults_and_defn_itself_check_the_same_way(options, message):
    with pytest.raises(nbt.ArgumentError, match="default_defn_options: " + message):
        nbt.default_defn_options(**options)
    assert _options._scoped.get() is None
    with pytest.raises(nbt.ArgumentError, match="defn: " + message):
        nbt.defn(lambda t: t, **options)
    assert _works()


@pytest.mark.parametrize(
    "backend,error,message",
    [
        (nbt.XLABackend(client="nope"), nbt.ArgumentError, "unknown XLA client 'nope'"),
        (nbt.XLABackend(device_id=99), nbt.ArgumentError, r"device_id 99 is out of range: client 'host' has 1"),
        (3, nbt.ArgumentError, "expected a backend such as nbt.NumPyBackend"),
    ],
    ids=["client", "device", "not-a-backend"],
)
def test_a_bad_global_default_backend_is_refused_and_changes_nothing(backend, error, message):
    nbt.tensor(0)
    before = nbt.global_default_backend()
    with pytest.raises(error, match=message):
        nbt.global_default_backend(backend)
    assert nbt.global_default_backend() is before
    assert _works()


def test_good_options_are_kept():
    previous = nbt.global_default_defn_options({"compiler": "evaluator", "hooks": {"h": print}})
    try:
        assert nbt.jit(lambda t: t).compiler == "evaluator"
    finally:
        nbt.global_default_defn_options(previous)
    assert nbt.global_default_defn_options() == previous


@pytest.mark.parametrize(
    "options, message",
    [
        ({"preallocate": 3}, "memory preallocate must be True, False or None, got 3"),
        ({"fraction": 1.5}, r"memory fraction must be in \(0, 1\], got 1.5"),
    ],
)
def test_a_bad_memory_setting_is_refused_and_changes_nothing(options, message):
    before = dict(os.environ)
    with pytest.raises(nbt.ArgumentError, match=message):
        _config.set_memory(**options)
    assert dict(os.environ) == before
