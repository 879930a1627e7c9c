"""Compiled functions saved and loaded: `serialize(fun, args)` gives bytes that
`deserialize` turns back into a callable in another process.

Two forms. The default holds the compiled executable as XLA serializes it, so the
loading process runs it without tracing or compiling; it loads only with the same
JAX and jaxlib versions on the same kind of device. `portable=True` holds the
StableHLO module through `jax.export` instead: it loads on any platform the export
lists and with later JAX versions, and XLA compiles it once when it loads.

Around the payload is a JSON header (the argument templates, the output structure
and templates, the versions and platform); nothing is unpickled. The bytes hold
machine code or a program: load only what you or someone you trust wrote.
"""

from __future__ import annotations

import importlib.metadata
import json
import struct
import typing

import jax
from jax.experimental import serialize_executable

from .. import _types
from .._errors import ArgumentError
from .._ops import _dispatch
from .._tensor import Tensor
from ..backends import _default
from ..backends._abstract import Template
from ..backends.xla_backend import XLABackend

_MAGIC = b"NUMBAT-FUNCTION-1\n"


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
    from .._defn._signature import flatten
    from ._lowering import _placeholder, as_defn

    if not isinstance(portable, bool):
        raise ArgumentError(f"serialize: portable must be True or False, got {portable!r}")
    target = as_defn(fun, **opts)
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"serialize: args must be a list of tensors or templates, got {args!r}")
    placeholders = tuple(_placeholder(a, target) if isinstance(a, Template) else a for a in args)
    signature, tensors = flatten(placeholders, {}, target._convert)
    if len(tensors) != len(args) or signature.statics:
        raise ArgumentError("serialize: args must be tensors or templates (one per parameter), not containers")
    lowered, jitted, traced, plain_jit = target.lower(signature)  # the lowering a call compiles
    avals = [jax.ShapeDtypeStruct(t.shape, t.type.dtype) for t in signature.templates]
    with target.lowering_context(True):
        if portable:
            payload = bytes(jax.export.export(jitted)(*avals).serialize())
    if not portable:
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
    return _MAGIC + struct.pack("<Q", len(encoded)) + encoded + payload


def deserialize(blob: bytes, backend: XLABackend | None = None) -> SerializedFunction:
    """The function `serialize` wrote, ready to call on tensors (on `backend`, default
    the current default XLA backend)."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise ArgumentError(f"deserialize expects bytes, got {type(blob).__name__}")
    blob = bytes(blob)
    if not blob.startswith(_MAGIC) or len(blob) < len(_MAGIC) + 8:
        raise ArgumentError("deserialize: these bytes were not written by nbt.xla.serialize")
    (length,) = struct.unpack_from("<Q", blob, len(_MAGIC))
    start = len(_MAGIC) + 8
    try:
        header = json.loads(blob[start : start + length])
        inputs = tuple(_template_from(t) for t in header["inputs"])
        outputs = tuple(_template_from(t) for t in header["outputs"])
    except (ValueError, KeyError, TypeError) as error:
        raise ArgumentError(f"deserialize: the header is damaged ({error})") from None
    payload = blob[start + length :]
    backend = _default.resolve(backend)
    if not isinstance(backend, XLABackend):
        backend = XLABackend()
    if header["portable"]:
        try:
            exported = jax.export.deserialize(bytearray(payload))
        except Exception as error:  # noqa: BLE001 - jax.export reports a damaged module in several ways
            raise ArgumentError(f"deserialize: the exported module cannot be read ({error})") from None
        call = exported.call
    else:
        versions = (jax.__version__, importlib.metadata.version("jaxlib"), backend.device.platform)
        if versions != (header["jax"], header["jaxlib"], header["platform"]):
            raise ArgumentError(
                f"deserialize: this executable was compiled with jax {header['jax']}, jaxlib {header['jaxlib']} "
                f"for {header['platform']}; this process has jax {versions[0]}, jaxlib {versions[1]} on "
                f"{versions[2]}. Serialize with portable=True to move between them"
            )
        in_tree = jax.tree_util.tree_structure((tuple(range(len(inputs))), {}))
        out_tree = jax.tree_util.tree_structure(0 if len(outputs) == 1 else tuple(range(len(outputs))))
        try:
            with jax.enable_x64(True):
                call = serialize_executable.deserialize_and_load(
                    payload, in_tree, out_tree, execution_devices=[backend.device]
                )
        except (RuntimeError, ValueError, TypeError) as error:
            raise ArgumentError(f"deserialize: XLA cannot load the executable ({error})") from None
    return SerializedFunction(header["name"], inputs, outputs, header["structure"], call, backend)


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
    return Template(tuple(int(s) for s in shape), _types.parse(type_name), tuple(names))


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
