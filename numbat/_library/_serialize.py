"""Tensors to bytes and back: `serialize`/`deserialize` (Nx's, for tensors and containers
of tensors) and `load_numpy`/`load_numpy_archive` (NumPy's .npy and .npz files).

The format is numbat's own and holds no pickled Python: a magic line, a JSON header
(the container's structure and each tensor's type, shape and names) and the raw
element bytes, optionally zlib-compressed. Loading a file from an untrusted source
cannot run code; a damaged one raises `ArgumentError`.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import struct
import zipfile
import zlib

import numpy as np

from .._core import _names, _types
from .._core._errors import ArgumentError
from .._ops import _convert, _vectorized
from .._ops.composite.vectorization import vectorize
from .._tensor._tensor import Template, Tensor
from ..backends import _allocation, _default

_MAGIC = b"NUMBAT-TENSORS-1\n"


def serialize(data, compressed: int = 0) -> bytes:
    """`data` (a tensor, a number, or tuples, lists and string-keyed dicts of them) as
    bytes; `compressed` is a zlib level from 0 (none) to 9.

    >>> blob = nbt.serialize({"w": nbt.tensor([[1.5, 2.0]], names=["x", "y"]), "b": (nbt.tensor(3),)})
    >>> restored = nbt.deserialize(blob)
    >>> restored["w"]
    numbat.Tensor<
      f32[x: 1][y: 2]
      [
        [1.5, 2.0]
      ]
    >
    >>> restored["b"]
    (numbat.Tensor<
      s32
      3
    >,)
    """
    if isinstance(compressed, bool) or not isinstance(compressed, int) or not 0 <= compressed <= 9:
        raise ArgumentError(f"serialize: compressed must be a zlib level 0..9, got {compressed!r}")
    buffers: list[bytes] = []
    structure = _encode(data, buffers, "data")
    payload = b"".join(buffers)
    if compressed:
        payload = zlib.compress(payload, compressed)
    header = json.dumps({"structure": structure, "compressed": bool(compressed)}).encode()
    return _MAGIC + struct.pack("<Q", len(header)) + header + payload


def deserialize(blob: bytes, backend=None):
    """The tensors (in their containers) that `serialize` wrote, on `backend` (default:
    the current default backend)."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise ArgumentError(f"deserialize expects bytes, got {type(blob).__name__}")
    blob = bytes(blob)
    if not blob.startswith(_MAGIC) or len(blob) < len(_MAGIC) + 8:
        raise ArgumentError("deserialize: these bytes were not written by nbt.serialize")
    (length,) = struct.unpack_from("<Q", blob, len(_MAGIC))
    start = len(_MAGIC) + 8
    backend = _default.resolve(backend)
    try:
        header = json.loads(blob[start : start + length])
        payload = blob[start + length :]
        templates: list[Template] = []
        total = _claimed(header["structure"], templates)  # the header's sizes, summed and checked
        # before inflating, each tensor charged what making it costs too (a header of 200,000
        # scalars in 6.4 MB took 916 MB to load)
        _allocation.check_all(
            "deserialize", "the tensors of this file", templates, backend, per_item=_allocation.PER_TENSOR
        )
        if header["compressed"]:
            payload = zlib.decompressobj().decompress(payload, total + 1)  # a zlib bomb stops at the claim
        if len(payload) != total:
            raise ValueError(f"the payload holds {len(payload)} bytes where the header says {total}")
        return _decode(header["structure"], memoryview(payload), backend)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, zlib.error) as error:
        raise ArgumentError(f"deserialize: the data is damaged or truncated ({error})") from None


def _claimed(node: dict, templates: list) -> int:
    """The payload bytes the header's tensors take; each tensor's template (vectorized axes
    first, names checked as `nbt.tensor` checks them) is appended to `templates`."""
    stack, total = [node], 0
    while stack:  # no recursion: a header nested past Python's limit is refused by the size check
        node = stack.pop()
        if "tensor" not in node:
            stack.extend(node.get("tuple", node.get("list", list(node.get("dict", {}).values()))))
            continue
        type_name, shape, names, size = node["tensor"]
        vectorized = tuple((str(name), int(count)) for name, count in node.get("vectorized", ()))
        _vectorized.unique_names("a tensor of the header", [name for name, _ in vectorized])
        shape = tuple(count for _, count in vectorized) + tuple(int(d) for d in shape)
        if any(d < 0 for d in shape):
            raise ValueError(f"the header's shape {list(shape)} has a negative dimension")
        names = (None,) * len(vectorized) + _names.normalize(names, len(shape) - len(vectorized))
        template = Template(shape, _types.parse(type_name), names)
        if not isinstance(size, int) or size != math.prod(template.shape) * template.type.dtype.itemsize:
            raise ValueError(f"the header's size {size!r} does not match its shape {list(shape)} of {type_name}")
        templates.append(template)
        total += size
    return total


def _encode(value, buffers: list, where: str):
    if isinstance(value, Tensor):
        array = np.ascontiguousarray(value.to_numpy())  # a vectorized tensor's: every entry, its axes first
        buffers.append(array.tobytes())
        node = {"tensor": [str(value.type), list(value.shape), list(value.names), len(buffers[-1])]}
        if value.vectorized_axes:
            node["vectorized"] = [list(axis) for axis in value.vectorized_axes]
        return node
    if _types.is_number(value):
        return _encode(_convert.tensor(value), buffers, where)
    if isinstance(value, (tuple, list)):
        kind = "tuple" if isinstance(value, tuple) else "list"
        return {kind: [_encode(item, buffers, f"{where}[{i}]") for i, item in enumerate(value)]}
    if isinstance(value, dict):
        for key in value:
            if not isinstance(key, str):
                raise ArgumentError(f"serialize: dict keys must be strings, {where} has key {key!r}")
        return {"dict": {key: _encode(item, buffers, f"{where}[{key!r}]") for key, item in value.items()}}
    raise ArgumentError(
        f"serialize takes tensors, numbers, and tuples, lists and dicts of them; {where} is {type(value).__name__}"
    )


def _decode(node: dict, payload: memoryview, backend, offset: list | None = None):
    offset = offset if offset is not None else [0]
    if "tensor" in node:
        type_name, shape, names, size = node["tensor"]
        type_ = _types.parse(type_name)
        chunk = payload[offset[0] : offset[0] + size]
        if len(chunk) != size:
            raise ValueError("the payload is shorter than the header says")
        offset[0] += size
        vectorized = [(str(name), int(size)) for name, size in node.get("vectorized", ())]
        sizes = [size for _, size in vectorized]
        array = np.frombuffer(chunk, dtype=type_.dtype).reshape(sizes + list(shape)).copy()
        names = (None,) * len(sizes) + tuple(names)
        tensor = backend.from_numpy(Template(tuple(array.shape), type_, names), array)
        if vectorized:
            tensor = vectorize(tensor, vectorized)
        return tensor
    if "tuple" in node:
        return tuple(_decode(item, payload, backend, offset) for item in node["tuple"])
    if "list" in node:
        return [_decode(item, payload, backend, offset) for item in node["list"]]
    return {key: _decode(item, payload, backend, offset) for key, item in node["dict"].items()}


def load_numpy(source, backend=None) -> Tensor:
    """A tensor from a NumPy .npy file: its bytes, or a path. Pickled object arrays are refused;
    the header's shape is checked against the data and the device before anything is allocated.

    >>> import io, numpy as np
    >>> buffer = io.BytesIO(); np.save(buffer, np.array([[1, 2]], dtype=np.int16))
    >>> nbt.load_numpy(buffer.getvalue())
    numbat.Tensor<
      s16[1][2]
      [
        [1, 2]
      ]
    >
    """
    array = _np_load(source, "load_numpy", backend)
    if not isinstance(array, np.ndarray):
        raise ArgumentError("load_numpy: this is a .npz archive; use nbt.load_numpy_archive")
    return _from_array(array, backend, "load_numpy")


def load_numpy_archive(source, backend=None) -> dict:
    """The tensors of a NumPy .npz archive (its bytes, or a path), by name (a member's name
    without its `.npy`, as `np.load` names it).

    Every member's header is read and checked against its data first, and the members are
    summed against the device (each charged what making a tensor costs too) before any is
    read; the member checked is the member read. An archive with two members that NumPy
    names alike (`a.npy` and `a`) is refused: which one `np.load` reads is not the one a
    reader of the names would expect.

    >>> import io, numpy as np
    >>> buffer = io.BytesIO(); np.savez(buffer, w=np.array([1.5, 2.0]), b=np.array(3, np.int8))
    >>> sorted((name, str(t.type)) for name, t in nbt.load_numpy_archive(buffer.getvalue()).items())
    [('b', 's8'), ('w', 'f64')]
    """
    op = "load_numpy_archive"
    with _opened(source, op) as (file, where):
        magic = file.read(6)
        if magic == b"\x93NUMPY":
            raise ArgumentError(f"{op}: this is a single .npy array; use nbt.load_numpy")
        file.seek(0)
        try:
            archive = zipfile.ZipFile(file)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as error:
            raise ArgumentError(f"{op}: cannot read {where} as a .npz archive ({error})") from None
        with archive:
            members = _members(archive, op)
            templates = [_vetted(archive, info, f"{op} ({name})", backend) for name, info in members.items()]
            _allocation.check_all(
                op, "the members of this archive", templates, backend, per_item=_allocation.PER_TENSOR
            )
            return {name: _member(archive, info, f"{op} ({name})", backend) for name, info in members.items()}


def _opened(source, op: str):
    """A context giving `(file, where)`: `source`'s bytes as a file, or its path opened."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return contextlib.nullcontext((io.BytesIO(bytes(source)), "these bytes"))
    if not isinstance(source, (str, os.PathLike)):
        raise ArgumentError(f"{op} takes the file's bytes or its path, got {type(source).__name__}")
    try:
        file = open(source, "rb")  # noqa: SIM115 - closed by the context returned
    except OSError as error:
        raise ArgumentError(f"{op}: cannot read {source!r} as NumPy data ({error})") from None
    return _closing(file, repr(source))


@contextlib.contextmanager
def _closing(file, where: str):
    with file:
        yield file, where


def _members(archive: zipfile.ZipFile, op: str) -> dict:
    """Each member of `archive` by the name `np.load` gives it (`a.npy` and `a` are both `a`);
    two members of one name refuse the archive."""
    members: dict = {}
    for info in archive.infolist():
        name = info.filename.removesuffix(".npy")
        if name in members:
            raise ArgumentError(
                f"{op}: members {members[name].filename!r} and {info.filename!r} are both read as {name!r}; "
                "an archive whose member names collide so is refused (rename one)"
            )
        members[name] = info
    return members


def _vetted(archive: zipfile.ZipFile, info: zipfile.ZipInfo, op: str, backend) -> Template:
    """The template of member `info`, its header checked against the data it holds."""
    try:
        with archive.open(info) as file:
            return _vet_header(file, info.file_size, op, backend)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, NotImplementedError, RuntimeError) as error:
        raise ArgumentError(f"{op}: cannot read it as NumPy data ({error})") from None


def _member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, op: str, backend) -> Tensor:
    """The tensor of member `info` (vetted before, by `_vetted`)."""
    try:
        with archive.open(info) as file:
            array = np.lib.format.read_array(file, allow_pickle=False)
    except (ValueError, OSError, EOFError, zipfile.BadZipFile, NotImplementedError, RuntimeError) as error:
        raise ArgumentError(f"{op}: cannot read it as NumPy data ({error})") from None
    return _from_array(array, backend, op)


def _np_load(source, op: str, backend):
    where = "these bytes" if isinstance(source, (bytes, bytearray, memoryview)) else repr(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = io.BytesIO(bytes(source))
    elif not isinstance(source, (str, os.PathLike)):
        raise ArgumentError(f"{op} takes the file's bytes or its path, got {type(source).__name__}")
    try:
        with contextlib.nullcontext(source) if isinstance(source, io.BytesIO) else open(source, "rb") as file:
            if file.read(4) != b"PK\x03\x04":  # a .npy, not a .npz (zip) archive: its header is checked first
                size = file.seek(0, os.SEEK_END)
                file.seek(0)
                _vet_header(file, size, op, backend)
        if isinstance(source, io.BytesIO):
            source.seek(0)
        return np.load(source, allow_pickle=False)
    except (ValueError, OSError, EOFError) as error:
        raise ArgumentError(f"{op}: cannot read {where} as NumPy data ({error})") from None


def _vet_header(file, size: int, op: str, backend) -> Template:
    """Reads a .npy header from `file` (`size` bytes in all) and refuses a shape that the data
    does not hold or that the device cannot, before NumPy allocates it. Returns the template of
    what NumPy will allocate (bytes, for a dtype with no Nx type: refused once read)."""
    version = np.lib.format.read_magic(file)
    if version == (1, 0):
        shape, _, dtype = np.lib.format.read_array_header_1_0(file)
    elif version == (2, 0):
        shape, _, dtype = np.lib.format.read_array_header_2_0(file)
    else:
        raise ValueError(f".npy format version {version} is not one numbat reads (1.0 or 2.0)")
    if dtype.hasobject:
        raise ValueError("it holds Python objects, which only a pickle can load; numbat loads no pickles")
    needed = math.prod(shape) * dtype.itemsize
    if needed > size - file.tell():
        raise ValueError(f"the header claims {needed} bytes of {dtype} data for shape {shape}; the file holds fewer")
    try:
        template = Template(
            tuple(shape), _types.U8 if dtype.kind == "b" else _types.of_dtype(dtype), (None,) * len(shape)
        )
    except ArgumentError:  # refused with its reason once loaded
        template = Template((needed,), _types.U8, (None,))
    _allocation.check(op, template, backend, public=False)
    return template


def _from_array(array: np.ndarray, backend, op: str) -> Tensor:
    if array.dtype.kind == "b":
        array = array.astype(np.uint8)
    try:
        _types.of_dtype(array.dtype)
    except ArgumentError:
        raise ArgumentError(f"{op}: NumPy dtype {array.dtype} has no Nx type") from None
    return _convert.tensor(array, backend=backend)
