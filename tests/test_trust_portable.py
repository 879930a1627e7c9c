"""A portable blob not signed with this user's key is a stranger's program, and nothing in it
is parsed, vetted or compiled in this process unless it is loaded with `trusted=True`
(issue 39, docs/design.md, decision 14). The hostile blobs are the ones found by hand, each built here
from `jax.export`: a custom call hidden in the serialized VJP, bytecode patched or mutated at
random, XLA CHECK failures (a pad by +-(2**63-1)), functions that call each other 2**16
times. Each must be refused before `jax.export.deserialize` sees a byte of it (watched).

A trusted blob's export record is checked before use (kept arguments, dims, platforms,
device count), and the outputs of any blob, the user's own included, are summed against the
device before it loads."""

import dataclasses
import json
import os
import random
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
from numbat.backends import _allocation
from numbat.backends.xla_backend import XLABackend

SIGNED = b"NUMBAT-FUNCTION-3 portable\n"
UNSIGNED = b"NUMBAT-FUNCTION-2 portable\n"  # numbat's portable format before it was signed
F32_4 = jax.ShapeDtypeStruct((4,), "float32")


@pytest.fixture(autouse=True)
def data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "data"))
    _signing.sign(b"this user has a key")


@pytest.fixture
def nothing_parsed(monkeypatch):
    """Fails the test if the blob's module is parsed or anything is compiled."""

    def refuse(*args, **kwargs):
        raise AssertionError("a stranger's module reached the parser or the compiler")

    monkeypatch.setattr(jax.export, "deserialize", refuse)
    monkeypatch.setattr(jax.stages.Lowered, "compile", refuse)


def _template(aval):
    return [str(_types.of_dtype(aval.dtype)), list(aval.shape), [None] * len(aval.shape)]


def _wrapped(payload: bytes, exported, magic=SIGNED, mac=None, own=False):
    """`payload` (a serialized export) in numbat's portable format: signed with this user's
    key when `own`, else with someone else's MAC (or none, in the unsigned format)."""
    outputs = exported.out_avals
    header = {
        "portable": True,
        "name": "shared",
        "inputs": [_template(a) for a in exported.in_avals],
        "outputs": [_template(a) for a in outputs],
        "structure": 0 if len(outputs) == 1 else {"tuple": list(range(len(outputs)))},
        "jax": jax.__version__,
        "jaxlib": jax.__version__,
        "platform": "cpu",
        "device_kind": "cpu",
    }
    encoded = json.dumps(header).encode()
    body = struct.pack("<Q", len(encoded)) + encoded + payload
    if magic == UNSIGNED:
        return magic + body
    if own:
        return magic + _signing.sign(magic + body) + body
    return magic + (os.urandom(32) if mac is None else mac) + body


def _edited(exported, edit):
    """`exported` with its module's text rewritten by `edit` (an attacker's tool)."""
    with mlir.make_ir_context():
        text = edit(exported.mlir_module())
        assert text != exported.mlir_module()
        module = ir.Module.parse(text)
        serialized = jax_export._module_to_bytecode(module)
    return dataclasses.replace(exported, mlir_module_serialized=serialized)


def _vjp_with_a_custom_call():
    """A harmless primal (x * 2) whose serialized VJP calls LAPACK's LU."""

    @jax.custom_vjp
    def double(x):
        return x * 2

    def backward(_, g):
        return (jax.lax.linalg.lu(g[:1].reshape(1, 1))[0].reshape(1) * jnp.ones(4),)

    double.defvjp(lambda x: (double(x), None), backward)
    exported = jax.export.export(jax.jit(double))(F32_4)
    return bytes(exported.serialize(vjp_order=1)), exported


def _patched_constant():
    """A 77-element constant, its bytecode patched where the type's size is written."""
    exported = jax.export.export(jax.jit(lambda x: x[0] + jnp.arange(77.0, dtype=jnp.float32)))(F32_4)
    payload = bytearray(exported.serialize())
    payload[payload.rindex(77) if 77 in payload else len(payload) // 2] = 0xFF
    return bytes(payload), exported


def _mutated(seed):
    def build():
        exported = jax.export.export(jax.jit(lambda x: jnp.sin(x) * 2 + 1))(F32_4)
        payload = bytearray(exported.serialize())
        rng = random.Random(seed)
        for _ in range(rng.randint(1, 8)):
            payload[rng.randrange(len(payload))] = rng.randrange(256)
        return bytes(payload), exported

    return build


def _pad_by_int64_extremes():
    top = 2**63 - 1
    exported = jax.export.export(jax.jit(lambda x: jax.lax.pad(x, 0.0, [(1, -1, 0)])))(F32_4)
    edited = _edited(exported, lambda text: text.replace("low = [1], high = [-1]", f"low = [-{top}], high = [{top}]"))
    return bytes(edited.serialize()), exported


def _functions_calling_each_other_twice():
    """16 levels of private functions, each calling the previous one twice (2**16 calls)."""
    level = jax.jit(lambda x: x + 1)
    for _ in range(16):
        level = jax.jit(lambda x, inner=level: inner(x) + inner(x))
    exported = jax.export.export(level)(F32_4)
    return bytes(exported.serialize()), exported


ATTACKS = {
    "a custom call in the serialized VJP": _vjp_with_a_custom_call,
    "a constant's bytecode patched": _patched_constant,
    **{f"bytecode mutated at random (seed {seed})": _mutated(seed) for seed in range(3)},
    "stablehlo.pad by -(2**63-1) and 2**63-1": _pad_by_int64_extremes,
    "16 levels of functions each calling the previous twice": _functions_calling_each_other_twice,
}


@pytest.mark.parametrize("magic", [SIGNED, UNSIGNED], ids=["foreign-mac", "unsigned"])
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_strangers_blob_is_refused_before_anything_parses_it(attack, magic, nothing_parsed):
    payload, exported = ATTACKS[attack]()
    with pytest.raises(nbt.ArgumentError) as caught:
        nbt.xla.deserialize(_wrapped(payload, exported, magic))
    message = str(caught.value)
    assert message.startswith("deserialize: this portable blob is not signed with your numbat key"), message
    assert "not from you" in message and "parses nothing in any other" in message
    assert "trusted=True" in message and "runs its author's code" in message


def test_the_signature_covers_the_whole_blob_vjps_included(nothing_parsed):
    payload, exported = _vjp_with_a_custom_call()
    blob = _wrapped(payload, exported, own=True)
    for position in (len(blob) - 1, len(blob) - len(payload) // 3):  # inside the VJP, then the record
        edited = bytearray(blob)
        edited[position] ^= 1
        with pytest.raises(nbt.ArgumentError, match="not signed with your numbat key"):
            nbt.xla.deserialize(bytes(edited))


def test_a_benign_blob_of_mine_loads_and_runs_without_trusted():
    blob = nbt.xla.serialize(lambda x: x * 2 + 1, [nbt.template((4,), "f32")], portable=True)
    shared = nbt.xla.deserialize(blob)
    assert shared(nbt.tensor([0.0, 1.0, 2.0, 3.0])).to_numpy().tolist() == [1.0, 3.0, 5.0, 7.0]


def test_a_benign_strangers_blob_loads_with_trusted(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "bob"))
    blob = nbt.xla.serialize(lambda m: nbt.linalg.qr(m)[1], [nbt.template((3, 3), "f32")], portable=True)
    monkeypatch.setenv("NUMBAT_DATA_DIR", str(tmp_path / "carol"))
    with pytest.raises(nbt.ArgumentError, match="not from you"):
        nbt.xla.deserialize(blob)
    qr = nbt.xla.deserialize(blob, trusted=True)
    assert qr(nbt.eye(3, type="f32")).shape == (3, 3)
    assert not (tmp_path / "carol").exists()  # checking a stranger's MAC creates no key


RECORDS = {
    "module_kept_var_idx=(7,)": (
        {"module_kept_var_idx": (7,)},
        r"the export record keeps arguments \[7\] of 1; the blob is damaged",
    ),
    "platforms=('tpu',)": ({"platforms": ("tpu",)}, r"exported for tpu, not for (cpu|cuda|rocm)"),
    "nr_devices=8": ({"nr_devices": 8}, r"exported for 8 devices; this process has 1 \w+ device"),
    "a dim of 10**20": (
        {"in_avals": (jax.core.ShapedArray((10**20,), jnp.float32),)},
        r"the header is damaged .*100000000000000000000.* is not a template",
    ),
}


@pytest.mark.parametrize("record", list(RECORDS))
def test_a_trusted_blobs_export_record_is_checked_before_use(record):
    change, message = RECORDS[record]
    exported = dataclasses.replace(jax.export.export(jax.jit(lambda x: x * 2))(F32_4), **change)
    for own in (True, False):
        with pytest.raises(nbt.ArgumentError, match=message):
            nbt.xla.deserialize(_wrapped(bytes(exported.serialize()), exported, own=own), trusted=True)


def test_outputs_that_fit_one_by_one_but_not_together_never_load(nothing_parsed):
    capacity, _ = _allocation.capacity_of(XLABackend())
    elements = int(capacity * 0.4) // 4  # three f32 outputs of 40% of the host's memory each
    with jax.enable_x64(True):
        exported = jax.export.export(jax.jit(lambda x: (jnp.broadcast_to(x[0], (elements,)),) * 3))(F32_4)
    payload = bytes(exported.serialize())
    for blob, trusted in ((_wrapped(payload, exported, own=True), False), (_wrapped(payload, exported), True)):
        with pytest.raises(
            nbt.AllocationError, match=r"deserialize needs .* for the outputs of shared together \(f32\[\d+\] and f32"
        ):
            nbt.xla.deserialize(blob, trusted=trusted)


def test_looking_into_a_strangers_blob_happens_in_a_child_process(nothing_parsed):
    payload, exported = _vjp_with_a_custom_call()
    found = nbt.xla.inspect_blob(_wrapped(payload, exported))  # this process parses none of it
    assert found["name"] == "shared" and found["has_vjp"] and found["platforms"] == ["cpu"]
    assert found["custom_calls"] == ["lapack_sgetrf_ffi"]  # hidden in the VJP
    assert found["ops"]["stablehlo.multiply"] >= 1 and "func.func public @main" in found["stablehlo"]


@pytest.mark.parametrize(
    "child, timeout, message",
    [
        (
            "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)",
            30,
            r"was killed by SIGSEGV; this process is untouched",
        ),
        ("while True:\n    pass", 1, r"took longer than 1 s; the child process reading it was stopped"),
        ("bytearray(10 << 30)", 30, r"failed \(MemoryError\)"),  # the address-space limit holds
    ],
    ids=["a crash", "a hang", "10 GiB"],
)
def test_a_blob_that_kills_the_child_is_a_numbat_error(child, timeout, message, monkeypatch):
    from numbat.xla import _inspect

    monkeypatch.setattr(_inspect, "LOOK", child)  # what a hostile blob does to the parser
    payload, exported = _mutated(0)()
    with pytest.raises(nbt.ArgumentError, match=message):
        nbt.xla.inspect_blob(_wrapped(payload, exported), timeout=timeout)


def test_inspecting_mutated_bytecode_ends_in_an_answer_or_a_numbat_error():
    # Issue 39: 17 of 1,500 such blobs killed the process that parsed them; here only a child can die.
    for seed in range(3):
        payload, exported = _mutated(seed)()
        try:
            found = nbt.xla.inspect_blob(_wrapped(payload, exported))
        except nbt.ArgumentError as error:
            assert str(error).startswith("inspect_blob: the child process reading the blob"), error
        else:
            assert found["name"] == "shared"
