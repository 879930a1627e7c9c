"""The per-user secret key that signs what numbat writes, as Jupyter signs notebooks.

A compiled executable is native code, so numbat loads one (from the disk cache or from
`nbt.xla.deserialize`) only if it carries an HMAC-SHA256 made with this key, and checks the
MAC before it parses anything else in the bytes. The key is 32 random bytes in the file
`signing_key` under numbat's data directory: `$NUMBAT_DATA_DIR` if set, else
`$XDG_DATA_HOME/numbat` (an absolute `XDG_DATA_HOME`: the XDG spec ignores a relative one),
else `~/.local/share/numbat`. It is created on first use with mode 0600 (its directory 0700),
written whole to a temporary file and linked into place, so two processes that start together
agree on one key. A key file that is not a regular file of 32 bytes, is readable by group or
others, or belongs to another user, and a data directory that belongs to another user or that
group or others can write to (they could swap the key), are refused with a `KeyFileError`
naming the fix; numbat never signs or loads with them.

Signed bytes are checked in chunks (`Verifier`), so bytes of any size cost O(chunk) memory
before they are authenticated; `verify_existing` never creates a key (bytes cannot carry this
user's MAC before the user has a key).

>>> mac = sign(b"some bytes")
>>> len(mac), verify(b"some bytes", mac), verify(b"other bytes", mac)
(32, True, False)
>>> oct(os.stat(key_path()).st_mode & 0o777)
'0o600'
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
import tempfile
import typing

from . import _regular_file

KEY_BYTES = 32
MAC_BYTES = hashlib.sha256().digest_size


class KeyFileError(RuntimeError):
    """numbat's signing key file cannot be used (wrong size, permissions or owner)."""

    __module__ = "numbat.xla"


def data_dir() -> str:
    """numbat's per-user data directory (`$NUMBAT_DATA_DIR`, else the XDG data home)."""
    explicit = os.environ.get("NUMBAT_DATA_DIR")
    if explicit:
        return os.path.abspath(explicit)
    base = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):  # unset, empty or relative: the spec's default
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "numbat")


def key_path() -> str:
    """The path of the signing key file."""
    return os.path.join(data_dir(), "signing_key")


def sign(message: bytes) -> bytes:
    """The HMAC-SHA256 of `message` under this user's key (created on first use)."""
    return hmac.new(_key(), message, hashlib.sha256).digest()


def verify(message: bytes, mac: bytes) -> bool:
    """Whether `mac` is this user's HMAC of `message` (compared in constant time)."""
    return hmac.compare_digest(sign(message), mac)


CHUNK_BYTES = 1 << 20


@typing.final
class Verifier:
    """An HMAC of this user's key fed in parts (`update` takes any buffer, in chunks of
    `CHUNK_BYTES`, without copying it whole), then compared with `matches`.

    >>> verifier = Verifier(); verifier.update(b"some "); verifier.update(memoryview(b"bytes"))
    >>> verifier.matches(sign(b"some bytes")), verifier.matches(bytes(32))
    (True, False)
    """

    def __init__(self, key: bytes | None = None):
        self._mac = hmac.new(_key() if key is None else key, digestmod=hashlib.sha256)

    def update(self, data) -> None:
        view = memoryview(data).cast("B")
        for start in range(0, len(view), CHUNK_BYTES):
            self._mac.update(view[start : start + CHUNK_BYTES])

    def matches(self, mac) -> bool:
        return hmac.compare_digest(self._mac.digest(), bytes(mac))


def verify_existing(parts, mac) -> bool:
    """Whether `mac` is this user's HMAC of the concatenated buffers `parts`; False without
    creating a key when this user has none yet."""
    try:
        key = _read(key_path())
    except FileNotFoundError:
        return False
    verifier = Verifier(key)
    for part in parts:
        verifier.update(part)
    return verifier.matches(mac)


def _key() -> bytes:
    path = key_path()
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    _create(path)
    return _read(path)


def check_directory(directory: str) -> None:
    """Refuses a data directory that another user owns or that group or others can write
    to: whoever can write there can replace the key (and so sign what numbat loads)."""
    try:
        info = os.stat(directory)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise KeyFileError(f"numbat's data directory {directory} cannot be read ({error})") from None
    if not stat.S_ISDIR(info.st_mode):
        raise KeyFileError(f"numbat's data directory {directory} is not a directory; {_DIRECTORY_FIX}")
    if os.name != "posix":
        return
    if info.st_uid != os.geteuid():
        raise KeyFileError(
            f"numbat's data directory {directory} belongs to another user (uid {info.st_uid}); {_DIRECTORY_FIX}"
        )
    if info.st_mode & 0o022:
        raise KeyFileError(
            f"numbat's data directory {directory} has mode {oct(info.st_mode & 0o777)}: others could replace "
            f"the signing key in it. Run `chmod go-w {directory}` (numbat makes it 0700), or {_DIRECTORY_FIX}"
        )


def _read(path: str) -> bytes:
    check_directory(os.path.dirname(path))
    try:
        with _regular_file.opened(path) as (handle, info):
            _check_owner_and_mode(path, info)
            key = os.read(handle, KEY_BYTES + 1)
    except FileNotFoundError:
        raise
    except _regular_file.NotRegularFile:
        raise KeyFileError(f"numbat's signing key {path} is not a regular file; {_FIX}") from None
    except OSError as error:
        raise KeyFileError(f"numbat's signing key {path} cannot be opened ({error}); {_FIX}") from None
    if len(key) != KEY_BYTES:
        raise KeyFileError(f"numbat's signing key {path} holds {len(key)} bytes, not {KEY_BYTES}; {_FIX}")
    return key


def _check_owner_and_mode(path: str, info: os.stat_result) -> None:
    """A key file of this user's that only this user can read (POSIX)."""
    if os.name != "posix":
        return
    if info.st_uid != os.geteuid():
        raise KeyFileError(f"numbat's signing key {path} belongs to another user (uid {info.st_uid}); {_FIX}")
    if info.st_mode & 0o077:
        raise KeyFileError(
            f"numbat's signing key {path} has mode {oct(info.st_mode & 0o777)}: others could read it. "
            f"Run `chmod 600 {path}`, or delete it and numbat makes a new one"
        )


def _create(path: str) -> None:
    """Writes a new key to a private temporary file and links it into place: the link fails
    if another process got there first, and then its key is the one both use."""
    directory = os.path.dirname(path)
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        check_directory(directory)
        handle, temporary = tempfile.mkstemp(dir=directory, prefix=".signing_key-")  # O_EXCL, mode 0600
    except OSError as error:
        raise KeyFileError(
            f"numbat cannot create its signing key in {directory} ({error}); set NUMBAT_DATA_DIR to a private "
            "directory you can write to"
        ) from None
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(secrets.token_bytes(KEY_BYTES))
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass
        except OSError as error:
            raise KeyFileError(f"numbat cannot create its signing key {path} ({error})") from None
    finally:
        os.unlink(temporary)


_FIX = "delete it and numbat makes a new one (entries it signed are then recompiled)"
_DIRECTORY_FIX = "set NUMBAT_DATA_DIR to a private directory of yours"
