"""Trust: nothing runs from bytes numbat did not write (the signing key, the disk cache,
`nbt.xla.deserialize`), and faults of the disk cache degrade to compiling without it."""

import json
import os
import pickle
import stat
import struct
import subprocess
import sys
import textwrap
import threading
import tracemalloc
import warnings

import jax
import pytest

import numbat as nbt
from numbat._runtime import _disk_cache, _signing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXECUTABLE = b"NUMBAT-FUNCTION-2 executable\n"
PORTABLE = b"NUMBAT-FUNCTION-3 portable\n"


class _Planted:
    """Unpickling this creates the directory `path`: the proof that a payload ran."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (os.mkdir, (self.path,))


@pytest.fixture
def data_dir(tmp_path, monkeypatch):
    """A fresh signing key for the test."""
    directory = tmp_path / "data"
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(directory))
    return directory


def _fun(x):
    return nbt.exp(x) * 2 + 1


def _call(directory, value=0.0):
    """A new defn with the disk cache in `directory`, called once: (result, CacheWarnings,
    whether the executable came from the disk)."""
    events = []
    nbt.telemetry.attach("trust", nbt.telemetry.COMPILATION, lambda e, m, meta: events.append(meta["cached_on_disk"]))
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = nbt.defn(_fun, cache=str(directory))(nbt.tensor([value]))
    finally:
        nbt.telemetry.detach("trust")
    assert all(w.category is _disk_cache.CacheWarning for w in caught), [str(w.message) for w in caught]
    return result.to_numpy().tolist(), [str(w.message) for w in caught], events == [True]


def _entry(directory):
    """The path of the one entry that `_call` writes in `directory`."""
    assert _call(directory)[1:] == ([], False)
    (entry,) = directory.glob("*.xla")
    return entry


# The signing key.


def test_the_key_is_created_once_with_mode_0600_and_every_process_agrees(data_dir):
    results = []
    barrier = threading.Barrier(6)

    def race():
        barrier.wait()
        results.append(_signing.sign(b"message"))

    threads = [threading.Thread(target=race) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    key = data_dir / "signing_key"
    assert len(set(results)) == 1 and len(results) == 6
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    assert key.stat().st_size == 32 and sorted(p.name for p in data_dir.iterdir()) == ["signing_key"]
    other = subprocess.run(
        [sys.executable, "-c", "from numbat._runtime import _signing; print(_signing.sign(b'message').hex())"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "NUMBAT_DATA_DIR": str(data_dir)},
        check=True,
    )
    assert other.stdout.strip() == results[0].hex()


def test_the_key_lives_in_the_xdg_data_home_without_numbat_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBAT_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert _signing.key_path() == str(tmp_path / "xdg" / "numbat" / "signing_key")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert _signing.key_path() == str(tmp_path / "home" / ".local" / "share" / "numbat" / "signing_key")


def test_a_relative_xdg_data_home_is_ignored(tmp_path, monkeypatch):
    """The XDG spec: a relative path in XDG_DATA_HOME is invalid and is ignored."""
    monkeypatch.delenv("NUMBAT_DATA_DIR")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    for value in ("relative/data", "", "."):
        monkeypatch.setenv("XDG_DATA_HOME", value)
        assert _signing.key_path() == str(tmp_path / "home" / ".local" / "share" / "numbat" / "signing_key")


@pytest.mark.skipif(os.name != "posix", reason="modes and owners are POSIX's")
def test_a_data_directory_others_can_write_or_another_user_owns_is_refused(data_dir, monkeypatch):
    _signing.sign(b"create it")
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    for mode in (0o777, 0o770, 0o702):
        data_dir.chmod(mode)
        with pytest.raises(nbt.xla.KeyFileError, match=rf"data directory .* has mode {oct(mode)}: others could"):
            _signing.sign(b"x")
    data_dir.chmod(0o755)  # readable by others is fine: the key itself is 0600
    mac = _signing.sign(b"x")
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(data_dir).st_uid + 1)
    with pytest.raises(nbt.xla.KeyFileError, match="data directory .* belongs to another user"):
        _signing.sign(b"x")
    monkeypatch.undo()
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(data_dir))
    assert _signing.sign(b"x") == mac


def test_a_key_is_never_created_in_a_directory_others_can_write(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(shared))
    with pytest.raises(nbt.xla.KeyFileError, match="others could replace the signing key"):
        _signing.sign(b"x")
    assert list(shared.iterdir()) == []


def test_a_key_file_with_the_wrong_mode_size_kind_or_owner_is_refused(data_dir, monkeypatch):
    _signing.sign(b"create it")
    key = data_dir / "signing_key"
    key.chmod(0o644)
    with pytest.raises(nbt.xla.KeyFileError, match="mode 0o644.*chmod 600"):
        _signing.sign(b"x")
    key.chmod(0o600)
    key.write_bytes(b"short")
    with pytest.raises(nbt.xla.KeyFileError, match="holds 5 bytes, not 32"):
        _signing.sign(b"x")
    key.unlink()
    key.mkdir()
    with pytest.raises(nbt.xla.KeyFileError, match="not a regular file"):
        _signing.sign(b"x")
    key.rmdir()
    _signing.sign(b"a new key")
    monkeypatch.setattr(os, "geteuid", lambda: os.stat(key).st_uid + 1)
    with pytest.raises(nbt.xla.KeyFileError, match="belongs to another user"):
        _signing.sign(b"x")


def test_a_bad_key_file_leaves_the_disk_cache_unused_with_one_warning(data_dir, tmp_path):
    _signing.sign(b"create it")
    (data_dir / "signing_key").chmod(0o640)
    result, caught, from_disk = _call(tmp_path / "cache")
    assert result == [3.0] and not from_disk and len(caught) == 1 and "signing key" in caught[0]
    assert list((tmp_path / "cache").glob("*.xla")) == []


# The disk cache.


def test_a_planted_pickle_entry_runs_nothing_and_the_defn_recompiles(data_dir, tmp_path):
    cache = tmp_path / "cache"
    entry = _entry(cache)
    marker = tmp_path / "pwned"
    payload = pickle.dumps(_Planted(str(marker)))
    header = json.dumps({"key": entry.stem, "compile_time": 1}).encode()
    entry.write_bytes(_disk_cache.MAGIC + os.urandom(32) + header + b"\n" + payload)
    result, caught, from_disk = _call(cache)
    assert result == [3.0] and not from_disk and not marker.exists()
    assert len(caught) == 1 and "signature does not match this user's key" in caught[0]
    assert _call(cache) == ([3.0], [], True)  # the entry was rewritten, signed
    pickle.loads(payload)  # the planted payload was live: unpickling it runs its code
    assert marker.exists()


def test_an_entry_written_under_another_users_key_is_rejected(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "alice"))
    _entry(cache)
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "bob"))
    result, caught, from_disk = _call(cache)
    assert result == [3.0] and not from_disk and len(caught) == 1 and "another user" in caught[0]
    assert _call(cache) == ([3.0], [], True)
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "alice"))
    assert _call(cache)[2] is False  # bob's rewrite is not alice's


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],
        lambda b: b[:-1] + bytes([b[-1] ^ 1]),
        lambda b: b.replace(b'"compile_time": ', b'"compile_time": 9'),
        lambda b: b"",
        lambda b: b"numbat-xla-cache-v1\n" + b[len(_disk_cache.MAGIC) :],
    ],
    ids=["truncated", "payload-edited", "header-edited", "empty", "old-version"],
)
def test_a_damaged_entry_gives_one_warning_and_is_rewritten(data_dir, tmp_path, damage):
    cache = tmp_path / "cache"
    entry = _entry(cache)
    entry.write_bytes(damage(entry.read_bytes()))
    result, caught, from_disk = _call(cache)
    assert result == [3.0] and not from_disk and len(caught) == 1 and "ignoring disk cache entry" in caught[0]
    assert _call(cache) == ([3.0], [], True)


def test_a_signed_entry_renamed_to_another_modules_key_is_rejected(data_dir, tmp_path):
    cache = tmp_path / "cache"
    entry = _entry(cache)
    nbt.defn(lambda x: x - 1, cache=str(cache))(nbt.tensor([0.0]))
    (other,) = [p for p in cache.glob("*.xla") if p != entry]
    other.write_bytes(entry.read_bytes())
    with pytest.warns(_disk_cache.CacheWarning, match="written for another module"):
        result = nbt.defn(lambda x: x - 1, cache=str(cache))(nbt.tensor([0.0]))
    assert result.to_numpy().tolist() == [-1.0]


@pytest.mark.parametrize("size, reason", [(1 << 30, "more than an entry numbat writes"), (1 << 28, "signature")])
def test_a_planted_huge_entry_costs_o_chunk_memory_and_one_warning(data_dir, tmp_path, size, reason):
    """A sparse file (it costs the attacker nothing) under an entry's name: past the cap it
    is refused unread; under it, its MAC is checked in chunks. Either way the memory it costs
    is a chunk's, not its size (the old reader read 1 GiB whole: a 4 GiB peak)."""
    cache = tmp_path / "cache"
    entry = _entry(cache)
    with open(entry, "r+b") as file:
        file.seek(len(_disk_cache.MAGIC) + 32)
        file.truncate(size)  # the magic and a MAC stay; the rest reads as zeros
    tracemalloc.start()
    try:
        result, caught, from_disk = _call(cache)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result == [3.0] and not from_disk and len(caught) == 1 and reason in caught[0], caught
    assert peak < 16 << 20, f"reading the planted entry took {peak} bytes"
    assert _call(cache) == ([3.0], [], True)  # rewritten


def test_an_executable_larger_than_an_entry_holds_is_compiled_without_the_cache(data_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(_disk_cache, "MAX_ENTRY_BYTES", 1000)
    result, caught, _ = _call(tmp_path / "cache")
    assert result == [3.0] and len(caught) == 1 and "more than an entry holds (1000)" in caught[0]
    assert list((tmp_path / "cache").glob("*.xla")) == []


# Faults of the disk cache: one warning, the defn runs, nothing blocks.


def _within(seconds, call):
    """`call()` in a thread, failing the test if it has not returned in `seconds`."""
    out = []
    thread = threading.Thread(target=lambda: out.append(call()), daemon=True)
    thread.start()
    thread.join(timeout=seconds)
    assert out, f"blocked for more than {seconds} s"
    return out[0]


def test_a_fifo_in_place_of_an_entry_does_not_block(data_dir, tmp_path):
    cache = tmp_path / "cache"
    entry = _entry(cache)
    entry.unlink()
    os.mkfifo(entry)
    result, caught, from_disk = _within(60, lambda: _call(cache))
    assert result == [3.0] and not from_disk and caught == [caught[0]] and "not a regular file" in caught[0]


def test_a_symbolic_link_in_place_of_an_entry_is_not_followed(data_dir, tmp_path):
    cache = tmp_path / "cache"
    entry = _entry(cache)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    entry.unlink()
    entry.symlink_to(fifo)
    result, caught, from_disk = _within(60, lambda: _call(cache))
    assert result == [3.0] and not from_disk and len(caught) == 1 and "cannot be opened" in caught[0]


def test_a_directory_in_place_of_an_entry_gives_one_warning(data_dir, tmp_path):
    cache = tmp_path / "cache"
    entry = _entry(cache)
    entry.unlink()
    entry.mkdir()
    for _ in range(2):  # the directory stays (it cannot be replaced): each compile warns once
        result, caught, from_disk = _call(cache)
        assert result == [3.0] and not from_disk and len(caught) == 1 and "not a regular file" in caught[0]
    assert [p.name for p in cache.iterdir()] == [entry.name]  # no temporary file was left behind


def test_a_cache_path_under_a_regular_file_gives_one_warning(data_dir, tmp_path):
    (tmp_path / "file").write_text("not a directory")
    result, caught, from_disk = _call(tmp_path / "file" / "cache")
    assert result == [3.0] and not from_disk and len(caught) == 1 and "cannot be used" in caught[0]


# Run first in the child: root gives up reading and writing through any file mode
# (CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH leave the bounding set), then execs the test,
# so that modes mean for it what they mean for any user.
_WITHOUT_ROOT_OVERRIDES = """
import ctypes, os, sys
if os.geteuid() == 0:
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")
os.execv(sys.executable, [sys.executable, *sys.argv[1:]])
"""


def test_unreadable_entries_unwritable_directories_and_a_full_disk_degrade(tmp_path):
    """In a process of its own where file modes hold even for root: an entry with mode 000,
    a directory with mode 555, and a write past RLIMIT_FSIZE (a full disk)."""
    code = """
        import json, os, resource, sys, warnings
        import numbat as nbt
        base = sys.argv[1]

        def call(name):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                out = nbt.defn(lambda x: x * 2, cache=os.path.join(base, name))(nbt.tensor([2.0]))
            return out.to_numpy().tolist(), [str(w.message) for w in caught]

        results = {}
        call("unreadable")
        (entry,) = [os.path.join(base, "unreadable", n) for n in os.listdir(os.path.join(base, "unreadable"))]
        os.chmod(entry, 0)
        results["unreadable"] = call("unreadable")
        os.mkdir(os.path.join(base, "readonly"), 0o555)
        results["readonly"] = call("readonly")
        results["readonly_left"] = os.listdir(os.path.join(base, "readonly"))
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, resource.RLIM_INFINITY))
        results["full"] = call("full")
        results["full_left"] = os.listdir(os.path.join(base, "full"))
        print(json.dumps(results))
        """
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_ROOT_OVERRIDES, "-c", textwrap.dedent(code), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "NUMBAT_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": ROOT},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.splitlines()[-1])
    for case, reason in [
        ("unreadable", "cannot be opened"),
        ("readonly", "cannot be written"),
        ("full", "File too large"),
    ]:
        result, caught = results[case]
        assert result == [4.0] and len(caught) == 1 and reason in caught[0], (case, caught)
    assert results["readonly_left"] == results["full_left"] == []  # no half-written entry or temporary file


# nbt.xla.deserialize.


def _parts(blob):
    """(magic, mac, header, payload) of a blob that serialize wrote."""
    magic = EXECUTABLE if blob.startswith(EXECUTABLE) else PORTABLE
    mac = blob[len(magic) : len(magic) + 32]
    body = blob[len(magic) + len(mac) :]
    (length,) = struct.unpack_from("<Q", body)
    return magic, mac, json.loads(body[8 : 8 + length]), body[8 + length :]


def _join(magic, header, payload, sign=False, mac=b""):
    encoded = json.dumps(header).encode()
    body = struct.pack("<Q", len(encoded)) + encoded + payload
    mac = _signing.sign(magic + body) if sign else mac
    return magic + mac + body


def test_a_crafted_executable_blob_is_refused_and_runs_nothing(data_dir, tmp_path):
    marker = tmp_path / "pwned"
    _, mac, header, _ = _parts(nbt.xla.serialize(lambda x: x * 2, [nbt.template((2,), "f32")]))
    crafted = _join(EXECUTABLE, header, pickle.dumps(_Planted(str(marker))), mac=mac)
    with pytest.raises(nbt.ArgumentError, match="not signed with your numbat key.*portable=True.*trusted=True"):
        nbt.xla.deserialize(crafted)
    assert not marker.exists()
    # trusted=True loads without the check, as documented: the blob's code runs.
    with pytest.raises(nbt.ArgumentError, match="XLA cannot load the executable"):
        nbt.xla.deserialize(crafted, trusted=True)
    assert marker.exists()
    with pytest.raises(nbt.ArgumentError, match="trusted must be True or False"):
        nbt.xla.deserialize(crafted, trusted="yes")


@pytest.mark.parametrize("magic", [EXECUTABLE, PORTABLE])
def test_a_huge_forged_blob_is_refused_without_a_copy(data_dir, magic):
    """The MAC is checked in chunks over the caller's buffer: a 256 MiB forged blob costs no
    copy of itself (the old check copied it twice: bytes(blob), then magic + body)."""
    _signing.sign(b"create the key")
    forged = bytearray(magic + bytes(32) + struct.pack("<Q", 2) + b"{}" + bytes(1 << 28))
    tracemalloc.start()
    try:
        with pytest.raises(nbt.ArgumentError):
            nbt.xla.deserialize(forged)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20, f"checking the blob took {peak} bytes"


def test_an_executable_blob_from_another_key_loads_only_when_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "alice"))
    blob = nbt.xla.serialize(lambda x: x * 2, [nbt.template((2,), "f32")])
    assert nbt.xla.deserialize(blob)(nbt.tensor([1.0, 2.0])).to_numpy().tolist() == [2.0, 4.0]
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "bob"))
    with pytest.raises(nbt.ArgumentError, match="not signed with your numbat key"):
        nbt.xla.deserialize(blob)
    with pytest.raises(nbt.ArgumentError, match="not signed with your numbat key"):
        nbt.xla.deserialize(blob[:-1])
    assert nbt.xla.deserialize(blob, trusted=True)(nbt.tensor([1.0, 2.0])).to_numpy().tolist() == [2.0, 4.0]


def test_a_portable_blob_from_another_user_loads_only_when_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "alice"))
    blob = nbt.xla.serialize(lambda x: x * 2, [nbt.template((2,), "f32")], portable=True)
    assert nbt.xla.deserialize(blob)(nbt.tensor([1.0, 2.0])).to_numpy().tolist() == [2.0, 4.0]
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "bob"))
    with pytest.raises(nbt.ArgumentError, match="portable blob is not signed with your numbat key, so it is not from"):
        nbt.xla.deserialize(blob)
    assert nbt.xla.deserialize(blob, trusted=True)(nbt.tensor([1.0, 2.0])).to_numpy().tolist() == [2.0, 4.0]
    assert not (tmp_path / "bob").exists()  # checking a stranger's MAC creates no key


@pytest.mark.parametrize("portable", [False, True])
@pytest.mark.parametrize("field, index, type_", [("outputs", 0, "s32"), ("inputs", 0, "s32"), ("outputs", 1, "f64")])
def test_an_edited_header_type_is_refused(data_dir, portable, field, index, type_):
    blob = nbt.xla.serialize(lambda x: (x * 2, nbt.sum(x)), [nbt.template((2,), "f32")], portable=portable)
    magic, mac, header, payload = _parts(blob)
    header[field][index][0] = type_
    kind = "result" if field == "outputs" else "argument"
    if not portable:
        with pytest.raises(nbt.ArgumentError, match="not signed"):  # the edit breaks the signature
            nbt.xla.deserialize(_join(magic, header, payload, mac=mac))
    for edited in [_join(magic, header, payload, sign=True), _join(magic, header, payload, mac=mac)]:
        with pytest.raises(nbt.ArgumentError, match=f"header's {kind} types .* do not match the program's"):
            nbt.xla.deserialize(edited, trusted=True)


@pytest.mark.parametrize(
    "edit, message",
    [
        (lambda h: h.update(structure={"tuple": [0, 0]}), "does not name each output once"),
        (lambda h: h.update(structure={"tuple": [0, 7]}), "does not name each output once"),
        (lambda h: h.update(outputs=[["f32", [-1], [None]]]), "not a template"),
        (lambda h: h.update(name=3), "name or format"),
        (lambda h: h.update(portable=False), "format does not match"),
    ],
)
def test_a_damaged_portable_header_is_refused(data_dir, edit, message):
    blob = nbt.xla.serialize(lambda x: (x * 2, nbt.sum(x)), [nbt.template((2,), "f32")], portable=True)
    magic, _, header, payload = _parts(blob)
    edit(header)
    with pytest.raises(nbt.ArgumentError, match=message):
        nbt.xla.deserialize(_join(magic, header, payload, sign=True))
    with pytest.raises(nbt.ArgumentError, match=message):
        nbt.xla.deserialize(_join(magic, header, payload, mac=bytes(32)), trusted=True)


_UNPICKLED = []
_RECORDING = []


def _audit(event, args):
    if _RECORDING and event == "pickle.find_class":
        _UNPICKLED.append(args)


def test_the_portable_format_unpickles_nothing(data_dir):
    """jax.export writes a flatbuffer; the executable format is a pickle (the control)."""
    sys.addaudithook(_audit)
    templates = [nbt.template((2,), "f32")]
    found = {}
    for portable in (True, False):
        blob = nbt.xla.serialize(lambda x: x * 2, templates, portable=portable)
        _UNPICKLED.clear()
        _RECORDING.append(True)
        try:
            out = nbt.xla.deserialize(blob)(nbt.tensor([1.0, 2.0]))
        finally:
            _RECORDING.clear()
        assert out.to_numpy().tolist() == [2.0, 4.0]
        found[portable] = list(_UNPICKLED)
    assert found[True] == [] and found[False] != []


def test_a_strangers_portable_blob_calling_a_custom_call_outside_jaxs_stable_list_is_refused(data_dir, monkeypatch):
    blob = nbt.xla.serialize(lambda x: x * 2, [nbt.template((2,), "f32")], portable=True)
    magic, _, header, _ = _parts(blob)

    def foreign(x):
        return jax.ffi.ffi_call("numbat_test_target", jax.ShapeDtypeStruct((2,), "float32"))(x)

    unchecked = [jax.export.DisabledSafetyCheck.custom_call("numbat_test_target")]
    exported = jax.export.export(jax.jit(foreign), disabled_checks=unchecked)(jax.ShapeDtypeStruct((2,), "float32"))
    crafted = _join(magic, header, bytes(exported.serialize()), mac=bytes(32))
    monkeypatch.setattr(jax.export, "deserialize", None)  # nothing in it is parsed
    with pytest.raises(nbt.ArgumentError, match="not signed with your numbat key.*parses nothing in any other"):
        nbt.xla.deserialize(crafted)
