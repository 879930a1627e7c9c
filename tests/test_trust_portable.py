"""A stranger's portable blob is data until proven harmless (numbat/xla/_untrusted.py):
signed portable blobs load as they are; one without this user's signature is refused
before anything compiles it when it calls any custom call, has a shape past int64 or the
device's memory, or an entry function that its export record misdescribes.

The attacks are the ones found by hand (issue 30): a `lapack_sgetrf_ffi` call with an
undersized pivot result (it corrupts the heap when run), a broadcast to (2**31,)*3 (XLA
aborts sizing it), a 4 TiB output (RESOURCE_EXHAUSTED). None of them is ever compiled or
run here: each must be refused by `deserialize`, and `compile` is watched to prove it."""

import dataclasses
import json
import os
import re
import struct

import jax
import jax.numpy as jnp
import pytest
from jax._src.export import _export as jax_export
from jax._src.interpreters import mlir
from jax._src.lib.mlir import ir

import numbat as nbt
from numbat._core import _types
from numbat._runtime import _signing

SIGNED = b"NUMBAT-FUNCTION-3 portable\n"
UNSIGNED = b"NUMBAT-FUNCTION-2 portable\n"  # numbat's portable format before it was signed
F32_4 = jax.ShapeDtypeStruct((4,), "float32")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "data"))
    _signing.sign(b"this user has a key")


@pytest.fixture
def nothing_compiles(monkeypatch):
    """Fails the test if XLA is asked to compile anything."""

    def refuse(*args, **kwargs):
        raise AssertionError("a stranger's module reached the compiler")

    monkeypatch.setattr(jax.stages.Lowered, "compile", refuse)
    monkeypatch.setattr(jax.export.Exported, "call", refuse)


def _exported(fun, *avals, edit=None):
    """`fun` exported by jax.export; `edit` rewrites the module's text (an attacker's tool)."""
    exported = jax.export.export(jax.jit(fun))(*avals)
    if edit is None:
        return exported
    with mlir.make_ir_context():
        text = edit(exported.mlir_module())
        assert text != exported.mlir_module()
        serialized = jax_export._module_to_bytecode(ir.Module.parse(text))
    return dataclasses.replace(exported, mlir_module_serialized=serialized)


def _template(aval):
    return [str(_types.of_dtype(aval.dtype)), list(aval.shape), [None] * len(aval.shape)]


def _wrapped(exported, magic=SIGNED, mac=None):
    """`exported` in numbat's portable format, with a MAC made by someone else's key."""
    header = {
        "portable": True,
        "name": "shared",
        "inputs": [_template(a) for a in exported.in_avals],
        "outputs": [_template(a) for a in exported.out_avals],
        "structure": 0,
        "jax": jax.__version__,
        "jaxlib": jax.__version__,
        "platform": "cpu",
        "device_kind": "cpu",
    }
    encoded = json.dumps(header).encode()
    body = struct.pack("<Q", len(encoded)) + encoded + bytes(exported.serialize())
    if magic == UNSIGNED:
        return magic + body
    return magic + (os.urandom(32) if mac is None else mac) + body


def _undersized_lu():
    """LU through LAPACK, its pivot result cut to 1 element (LAPACK writes 64)."""
    return _exported(
        lambda a: jax.lax.linalg.lu(a)[0],
        jax.ShapeDtypeStruct((64, 64), "float32"),
        edit=lambda text: text.replace("tensor<64xi32>", "tensor<1xi32>"),
    )


ATTACKS = {
    "lapack_sgetrf_ffi with an undersized ipiv": (_undersized_lu, r"calls the custom call 'lapack_sgetrf_ffi'"),
    "a broadcast to (2**31,)*3": (
        lambda: _exported(lambda x: jnp.broadcast_to(x[0], (2**31,) * 3), F32_4),
        r"its stablehlo.broadcast_in_dim needs 34359738368 EiB .* for f32\[2147483648\]\[2147483648\]\[2147483648\]",
    ),
    "a 4 TiB output": (
        lambda: _exported(lambda x: jnp.broadcast_to(x[0], (2**40,)), F32_4),
        r"its stablehlo.broadcast_in_dim needs 4 TiB \(4398046511104 bytes\) for f32\[1099511627776\], more than",
    ),
    "a 4 TiB intermediate": (
        lambda: _exported(lambda x: jnp.sum(jnp.broadcast_to(x[0], (2**40,))), F32_4),
        r"needs 4 TiB \(4398046511104 bytes\) for f32\[1099511627776\]",
    ),
    "lapack_sgeqrf_ffi, on jax.export's stable list": (
        lambda: _exported(lambda a: jax.lax.linalg.qr(a)[1], jax.ShapeDtypeStruct((8, 8), "float32")),
        r"calls the custom call 'lapack_sgeqrf_ffi'",
    ),
}


@pytest.mark.parametrize("magic", [SIGNED, UNSIGNED], ids=["foreign-mac", "unsigned"])
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_strangers_harmful_blob_is_refused_before_it_compiles(attack, magic, nothing_compiles):
    build, reason = ATTACKS[attack]
    with pytest.raises(nbt.ArgumentError) as caught:
        nbt.xla.deserialize(_wrapped(build(), magic))
    message = str(caught.value)
    assert message.startswith("deserialize: this portable blob is not signed with your numbat key"), message
    assert "Pass trusted=True to load it as code" in message
    assert re.search(reason, message), message


def test_trusted_loads_a_strangers_blob_as_code_but_outputs_past_memory_never_load(nothing_compiles):
    blob = _wrapped(_undersized_lu())
    assert nbt.xla.deserialize(blob, trusted=True).outputs[0].shape == (64, 64)  # loaded (never called here)
    with pytest.raises(nbt.AllocationError, match=r"deserialize: output 0 of shared needs 4 TiB"):
        nbt.xla.deserialize(_wrapped(ATTACKS["a 4 TiB output"][0]()), trusted=True)


def test_a_strangers_harmless_blob_loads_and_runs():
    for magic in (SIGNED, UNSIGNED):
        shared = nbt.xla.deserialize(_wrapped(_exported(lambda x: x * 2 + 1, F32_4), magic))
        assert shared(nbt.tensor([0.0, 1.0, 2.0, 3.0])).to_numpy().tolist() == [1.0, 3.0, 5.0, 7.0]


def test_a_strangers_module_must_take_what_its_export_record_says(nothing_compiles):
    small = _exported(lambda x: x * 2, F32_4)
    large = _exported(lambda x: x * 2, jax.ShapeDtypeStruct((8,), "float32"))
    lying = dataclasses.replace(small, mlir_module_serialized=large.mlir_module_serialized)
    with pytest.raises(nbt.ArgumentError, match=r"its entry function takes \['tensor<8xf32>'\].*not what its export"):
        nbt.xla.deserialize(_wrapped(lying))


def test_my_own_portable_blob_is_signed_and_loads_without_the_checks(tmp_path, monkeypatch):
    blob = nbt.xla.serialize(lambda m: nbt.linalg.qr(m)[1], [nbt.template((3, 3), "f32")], portable=True)
    assert blob.startswith(SIGNED)
    body = blob[len(SIGNED) + 32 :]
    assert _signing.verify(SIGNED + body, blob[len(SIGNED) : len(SIGNED) + 32])
    qr = nbt.xla.deserialize(blob)
    assert qr(nbt.eye(3, type="f32")).shape == (3, 3)
    # Another user gets the same bytes: the checks apply, and say why it is refused if it is.
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "bob"))
    shared = nbt.xla.serialize(lambda x: x + 1, [nbt.template((2,), "f32")], portable=True)
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "carol"))
    assert nbt.xla.deserialize(shared)(nbt.tensor([1.0, 2.0])).to_numpy().tolist() == [2.0, 3.0]
    assert not (tmp_path / "carol").exists()  # checking a stranger's MAC creates no key
