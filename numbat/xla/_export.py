"""Compiled functions saved and loaded: `serialize(fun, args)` gives bytes that
`deserialize` turns back into a callable in another process.

Two forms. The default holds the compiled executable as XLA serializes it (through
`jax.experimental.serialize_executable`, a pickle around native code), so the loading
process runs it without tracing or compiling; it loads only with the same JAX and
jaxlib versions on the same kind of device, and only for the user who wrote it.

`portable=True` holds the StableHLO module through `jax.export` instead, serialized as
a flatbuffer (no pickle, no native code): it loads on any platform the export lists and
with later JAX versions, and XLA compiles it once when it loads. It is the way to share a
function across machines; another user loads it with `trusted=True`.

Both carry an HMAC-SHA256 under this user's secret key (`_signing`: 32 random bytes, mode
0600, in `$NUMBAT_DATA_DIR`, `$XDG_DATA_HOME/numbat` or `~/.local/share/numbat`) over all
of their bytes (the header and the whole payload: for a portable blob its module, VJPs,
shardings, platforms, device count and kept-argument indices), checked in chunks, in
constant time, before anything else in them is parsed. A blob that fails (another user's,
edited, crafted) is refused with an `ArgumentError` and nothing in it is parsed, vetted or
compiled in this process: a portable blob is a program, and MLIR's parser and XLA's compiler
were never meant for hostile input. `trusted=True` loads it anyway, as code: it runs its
author's code, as `pickle.loads` and JAX's `deserialize_and_load` do, and is only for a blob
from a source you trust as you trust code you run.

Around the payload is a JSON header (the argument templates, the output structure and
templates, the versions and platform). `deserialize` checks it against what it loads:
argument and result types and shapes that differ from the executable's or the module's
are an `ArgumentError`, so an edited header cannot relabel data; outputs that the target
device cannot hold are an `AllocationError` when the blob loads.
"""

from __future__ import annotations

import importlib.metadata
import json
import pickle
import struct
import typing

import jax
import numpy as np
from jax.experimental import serialize_executable

from .._core import _jax_private, _types
from .._core._errors import ArgumentError
from .._defn._lower import refuse_subbyte_executable
from .._defn._signature import flatten
from .._ops import _dispatch
from .._runtime import _signing
from .._tensor._tensor import Template, Tensor
from ..backends import _allocation, _default
from ..backends.xla_backend import XLABackend
from ._lowering import as_defn, placeholder

_EXECUTABLE = b"NUMBAT-FUNCTION-2 executable\n"
_PORTABLE = b"NUMBAT-FUNCTION-3 portable\n"  # signed, as executables are
_UNSIGNED_PORTABLE = b"NUMBAT-FUNCTION-2 portable\n"  # numbat's before portable blobs were signed
_OLD = b"NUMBAT-FUNCTION-1\n"
_HEADER_LIMIT = 1 << 24  # bytes of JSON; a header holds templates, far less than this


def serialize(fun, args, portable: bool = False, **opts) -> bytes:
    """`fun` (a function of tensors, or a defn) compiled for `args` (tensors or
    templates) as bytes. `portable` chooses a `jax.export` module over the executable.

    >>> blob = nbt.xla.serialize(lambda x, y: x * y + 1, [nbt.template((2,), "f32"), nbt.template((2,), "f32")])
    >>> f = nbt.xla.deserialize(blob)
    >>> f(nbt.tensor([1.0, 2.0]), nbt.tensor([3.0, 4.0]))
    numbat.Tensor<
      f32[2]
      [4.0, 9.0]
    >
    """
    if not isinstance(portable, bool):
        raise ArgumentError(f"serialize: portable must be True or False, got {portable!r}")
    target = as_defn(fun, **opts)
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"serialize: args must be a list of tensors or templates, got {args!r}")
    placeholders = tuple(placeholder(a, target) if isinstance(a, Template) else a for a in args)
    signature, tensors = flatten(placeholders, {}, target._convert)
    if len(tensors) != len(args) or signature.statics:
        raise ArgumentError("serialize: args must be tensors or templates (one per parameter), not containers")
    lowered, jitted, traced, plain_jit = target.lower(signature)  # the lowering a call compiles
    avals = [jax.ShapeDtypeStruct(t.shape, t.type.dtype) for t in signature.templates]
    with target.lowering_context(True):
        if portable:
            payload = bytes(jax.export.export(jitted)(*avals).serialize())
    if not portable:
        refuse_subbyte_executable("serialize (an executable)", signature, "pass portable=True")
        with target.lowering_context(not plain_jit):
            payload, _, _ = serialize_executable.serialize(lowered.compile())
    if traced["effectful"]:
        raise ArgumentError("serialize: functions with hooks or print_value cannot be serialized")
    device = target.backend.device
    header = {
        "portable": portable,
        "name": target.name,
        "inputs": [_template_json(t) for t in signature.templates],
        "outputs": [_template_json(t) for t in traced["templates"]],
        "structure": _structure(jax.tree_util.tree_unflatten(traced["treedef"], list(range(len(traced["templates"]))))),
        "jax": jax.__version__,
        "jaxlib": importlib.metadata.version("jaxlib"),
        "platform": device.platform,
        "device_kind": device.device_kind,
    }
    encoded = json.dumps(header).encode()
    body = struct.pack("<Q", len(encoded)) + encoded + payload
    magic = _PORTABLE if portable else _EXECUTABLE
    return magic + _signing.sign(magic + body) + body


def deserialize(blob: bytes, backend: XLABackend | None = None, trusted: bool = False) -> SerializedFunction:
    """The function `serialize` wrote, ready to call on tensors (on `backend`, default
    the current default XLA backend). A blob this user's key signed loads as it is; any other
    is refused before anything in it is parsed. `trusted=True` loads it anyway, as code (it
    runs its author's code), for a blob from a source you trust as you trust code you run.

    >>> blob = nbt.xla.serialize(lambda x: x * 2, [nbt.template((2,), "f32")])
    >>> forged = blob[:40] + bytes([blob[40] ^ 1]) + blob[41:]
    >>> nbt.xla.deserialize(forged)
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: deserialize: this executable blob is not signed with your numbat key, so it is not from you ...
    """
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise ArgumentError(f"deserialize expects bytes, got {type(blob).__name__}")
    if not isinstance(trusted, bool):
        raise ArgumentError(f"deserialize: trusted must be True or False, got {trusted!r}")
    view = memoryview(blob).cast("B")  # no copy of the blob before it is authenticated
    magic = next((m for m in (_EXECUTABLE, _PORTABLE, _UNSIGNED_PORTABLE, _OLD) if view[: len(m)] == m), None)
    if magic is None:
        raise ArgumentError("deserialize: these bytes were not written by nbt.xla.serialize")
    if magic == _OLD:
        raise ArgumentError(
            "deserialize: these bytes were written by an older numbat, without a signature; serialize again"
        )
    signed = magic != _UNSIGNED_PORTABLE
    start = len(magic) + (_signing.MAC_BYTES if signed else 0)
    body = view[start:]
    own = signed and len(view) >= start and _signing.verify_existing((magic, body), view[len(magic) : start])
    portable = magic != _EXECUTABLE
    if not own and not trusted:
        _refuse_stranger("portable" if portable else "executable")
    header, payload = _header(body)
    if header["portable"] is not portable:
        raise ArgumentError("deserialize: the header's format does not match the blob's")
    inputs = tuple(_template_from(t) for t in header["inputs"])
    outputs = tuple(_template_from(t) for t in header["outputs"])
    backend = _default.resolve(backend)
    if not isinstance(backend, XLABackend):
        backend = XLABackend()
    # a function whose results cannot fit together never loads
    _allocation.check_all("deserialize", f"the outputs of {header['name']}", outputs, backend)
    in_tree = jax.tree_util.tree_structure((tuple(range(len(inputs))), {}))
    out_tree = jax.tree_util.tree_structure(0 if len(outputs) == 1 else tuple(range(len(outputs))))
    trees = (in_tree, out_tree)
    if portable:
        call = _load_portable(payload, inputs, outputs, trees, backend)
    else:
        call = _load_executable(header, payload, inputs, outputs, trees, backend)
    return SerializedFunction(header["name"], inputs, outputs, header["structure"], call, backend)


def _load_portable(payload, inputs: tuple, outputs: tuple, trees: tuple, backend: XLABackend):
    """The call of a portable blob's exported module, checked against the header's
    `inputs` and `outputs` and their structures `trees` (inputs', outputs')."""
    try:
        exported = jax.export.deserialize(bytearray(payload))
    except Exception as error:  # noqa: BLE001 - jax.export reports a damaged module in several ways
        raise ArgumentError(f"deserialize: the exported module cannot be read ({error})") from None
    _check_record(exported, backend)
    _check("argument", inputs, exported.in_avals, exported.in_tree == trees[0])
    _check("result", outputs, exported.out_avals, exported.out_tree == trees[1])
    return exported.call


def _load_executable(header: dict, payload, inputs: tuple, outputs: tuple, trees: tuple, backend: XLABackend):
    """The loaded executable of an executable blob, for the jax, jaxlib and platform it was
    compiled with only, checked against the header's `inputs` and `outputs`."""
    versions = (jax.__version__, importlib.metadata.version("jaxlib"), backend.device.platform)
    if versions != (header["jax"], header["jaxlib"], header["platform"]):
        raise ArgumentError(
            f"deserialize: this executable was compiled with jax {header['jax']}, jaxlib {header['jaxlib']} "
            f"for {header['platform']}; this process has jax {versions[0]}, jaxlib {versions[1]} on "
            f"{versions[2]}. Serialize with portable=True to move between them"
        )
    try:
        with jax.enable_x64(True):
            call = serialize_executable.deserialize_and_load(bytes(payload), *trees, execution_devices=[backend.device])
    except (RuntimeError, ValueError, TypeError, EOFError, pickle.UnpicklingError) as error:
        raise ArgumentError(f"deserialize: XLA cannot load the executable ({error})") from None
    _check("argument", inputs, jax.tree_util.tree_leaves(call.args_info), True)
    _check("result", outputs, jax.tree_util.tree_leaves(call.out_info), True)
    return call


def portable_parts(blob) -> tuple[dict, memoryview]:
    """The checked header and the payload of a portable blob, signed or not, parsed no further
    (for `inspect_blob`, which reads the payload in a child process)."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise ArgumentError(f"inspect_blob expects bytes, got {type(blob).__name__}")
    view = memoryview(blob).cast("B")
    for magic, signed in ((_PORTABLE, True), (_UNSIGNED_PORTABLE, False)):
        if view[: len(magic)] == magic:
            header, payload = _header(view[len(magic) + (_signing.MAC_BYTES if signed else 0) :])
            if header["portable"] is not True:
                raise ArgumentError("deserialize: the header's format does not match the blob's")
            return header, payload
    if view[: len(_EXECUTABLE)] == _EXECUTABLE:
        raise ArgumentError("inspect_blob reads portable blobs; an executable blob is native code, not a module")
    raise ArgumentError("inspect_blob: these bytes were not written by nbt.xla.serialize(..., portable=True)")


def _refuse_stranger(kind: str) -> None:
    what = "native code" if kind == "executable" else "a program that XLA compiles"
    share = (
        "serialize with portable=True to share a function, and "
        if kind == "executable"
        else "nbt.xla.inspect_blob(blob) shows what it holds, read in a child process; "
    )
    raise ArgumentError(
        f"deserialize: this {kind} blob is not signed with your numbat key, so it is not from you (another "
        f"user or machine wrote it, or it was edited or truncated). It is {what}, so numbat loads only the "
        f"ones it wrote for you and parses nothing in any other: {share}pass trusted=True only for a blob "
        "from a source you trust as you trust code you run, because loading it runs its author's code"
    )


_MAX_DEVICES = 1 << 16  # more than any machine numbat runs on


def _check_record(exported, backend) -> None:
    """Refuses an export record (a trusted blob's) that cannot run here, before it is used:
    kept-argument indices in range, a platform and a device count this process has."""
    count = len(exported.in_avals)
    kept = exported.module_kept_var_idx
    if not all(isinstance(i, int) and 0 <= i < count for i in kept) or len(set(kept)) != len(kept):
        raise ArgumentError(
            f"deserialize: the export record keeps arguments {list(kept)} of {count}; the blob is damaged"
        )
    platform = _lowering_platform(backend.device)
    if platform not in exported.platforms:
        raise ArgumentError(
            f"deserialize: the module was exported for {', '.join(map(str, exported.platforms))}, not for "
            f"{platform} (this backend's device); serialize it again on {platform}"
        )
    available = len(jax.devices(backend.device.platform))
    if not isinstance(exported.nr_devices, int) or not 1 <= exported.nr_devices <= min(available, _MAX_DEVICES):
        raise ArgumentError(
            f"deserialize: the module was exported for {exported.nr_devices} devices; this process has "
            f"{available} {backend.device.platform} device(s)"
        )


def _lowering_platform(device) -> str:
    """The name jax.export gives `device`'s platform (cuda or rocm for a GPU)."""
    return _jax_private.canonical_platform(device.platform)


def _header(body: bytes) -> tuple[dict, bytes]:
    """The JSON header and the payload after it, with every field checked."""
    try:
        (length,) = struct.unpack_from("<Q", body)
        if length > len(body) - 8 or length > _HEADER_LIMIT:
            raise ValueError(f"its length {length} runs past the end of the blob or past {_HEADER_LIMIT} bytes")
        header = json.loads(bytes(body[8 : 8 + length]))
        if not isinstance(header.get("name"), str) or not isinstance(header.get("portable"), bool):
            raise TypeError("name or format missing")
        for field in ("jax", "jaxlib", "platform"):
            if not isinstance(header[field], str):
                raise TypeError(f"{field} is not a string")
        for field in ("inputs", "outputs"):
            if not isinstance(header[field], list) or not all(_template_from(t) for t in header[field]):
                raise ValueError(f"{field} is not a list of templates")
        leaves = sorted(_leaves(header["structure"], 0))
        if leaves != list(range(len(header["outputs"]))):
            raise ValueError("the output structure does not name each output once")
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError, struct.error) as error:
        raise ArgumentError(f"deserialize: the header is damaged ({error})") from None
    return header, body[8 + length :]


def _check(kind: str, templates: tuple, avals: list, same_structure: bool) -> None:
    """Refuses a header whose templates differ from what the loaded program takes or gives."""
    found = [(np.dtype(a.dtype), tuple(a.shape)) for a in avals]
    wanted = [(t.type.dtype, t.shape) for t in templates]
    if not same_structure or found != wanted:
        found = [f"{dtype}{list(shape)}" for dtype, shape in found]
        wanted = [f"{t.type}{list(t.shape)}" for t in templates]
        raise ArgumentError(
            f"deserialize: the header's {kind} types {wanted} do not match the program's {found}; "
            "the blob was edited or damaged"
        )


@typing.final
class SerializedFunction:
    """A function loaded by `nbt.xla.deserialize`: call it with tensors matching
    `inputs` (templates); it returns the original function's output structure."""

    def __init__(self, name, inputs, outputs, structure, call, backend):
        self.name, self.inputs, self.outputs = name, inputs, outputs
        self._structure, self._call, self._backend = structure, call, backend

    def __repr__(self) -> str:
        inputs = ", ".join(str(t) for t in self.inputs)
        return f"<numbat.xla.SerializedFunction {self.name}({inputs})>"

    def __call__(self, *args):
        if len(args) != len(self.inputs):
            raise ArgumentError(f"{self.name} takes {len(self.inputs)} tensor(s), got {len(args)}")
        datas = []
        for position, (arg, template) in enumerate(zip(args, self.inputs)):
            tensor = _dispatch.to_tensor(arg, self._backend)
            if tensor.shape != template.shape or tensor.type != template.type:
                raise ArgumentError(
                    f"{self.name}: argument {position} is {tensor.type}{list(tensor.shape)}, "
                    f"compiled for {template.type}{list(template.shape)}"
                )
            datas.append(jax.device_put(tensor.data, self._backend.device))
        with jax.enable_x64(True):
            out = self._call(*datas)
        out = (out,) if len(self.outputs) == 1 else out
        results = [Tensor(data, t.type, t.names, self._backend) for data, t in zip(out, self.outputs)]
        return _rebuild(self._structure, results)


def _template_json(template: Template) -> list:
    return [str(template.type), list(template.shape), list(template.names)]


def _template_from(spec: list) -> Template:
    type_name, shape, names = spec
    if not isinstance(type_name, str) or not all(isinstance(s, int) and 0 <= s < 2**63 for s in shape):
        raise ValueError(f"{spec!r} is not a template")
    if len(names) != len(shape) or not all(n is None or isinstance(n, str) for n in names):
        raise ValueError(f"{spec!r} is not a template")
    return Template(tuple(shape), _types.parse(type_name), tuple(names))


def _leaves(structure, depth: int) -> list:
    """The output positions an output structure names (checked: JSON from a header)."""
    if depth > 100:
        raise ValueError("the output structure is nested too deeply")
    if isinstance(structure, int) and not isinstance(structure, bool):
        return [structure]
    if isinstance(structure, dict) and len(structure) == 1:
        ((kind, inner),) = structure.items()
        if kind in ("tuple", "list") and isinstance(inner, list):
            return [leaf for item in inner for leaf in _leaves(item, depth + 1)]
        if kind == "dict" and isinstance(inner, dict):
            return [leaf for item in inner.values() for leaf in _leaves(item, depth + 1)]
    raise ValueError(f"{structure!r} is not an output structure")


def _structure(value):
    """The output container with leaf positions, as JSON."""
    if isinstance(value, int):
        return value
    if isinstance(value, (tuple, list)):
        return {"tuple" if isinstance(value, tuple) else "list": [_structure(v) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) for k in value):
        return {"dict": {k: _structure(v) for k, v in value.items()}}
    raise ArgumentError("serialize: outputs must be tensors in tuples, lists or dicts with string keys")


def _rebuild(structure, leaves: list):
    if isinstance(structure, int):
        return leaves[structure]
    if "tuple" in structure:
        return tuple(_rebuild(s, leaves) for s in structure["tuple"])
    if "list" in structure:
        return [_rebuild(s, leaves) for s in structure["list"]]
    return {k: _rebuild(s, leaves) for k, s in structure["dict"].items()}
