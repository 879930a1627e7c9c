"""The op table's other families (`numbat/_core/_op_table.STRUCTURED`: creation, cumulative,
window, shape, indexing, sort, products, linalg, fft, and the structured ops of the
element-wise and reduction families): every method of the backend contract has exactly one
entry of the table; the contract declares a method from its entry's signature; a family's
method is filled in from an entry's `compute`; `NAN_CHECKED`, the public namespace and the
API page come from the entries; and no list of op names is left outside the table.
`tests/test_differential_random.py` checks each entry against its NumPy reference, and the
last test here adds a throwaway shape op through the table, as docs/guides/adding_an_op.md
does."""

from __future__ import annotations

import abc
import ast
import dataclasses
import importlib
import inspect
import pathlib

import numpy as np
import pytest
from test_docs import BLOCK, _autosummaries
from test_families import declared_ops

import numbat as nbt
from numbat._core import _op_table
from numbat._core._errors import ArgumentError
from numbat.backends import _contract
from numbat.backends._families import _base

ROOT = pathlib.Path(__file__).resolve().parent.parent
CONTRACT = _contract.AbstractBackend
STRUCTURED = _op_table.STRUCTURED
BACKENDS = [nbt.NumPyBackend, nbt.XLABackend]
# The contract's methods that are not ops: running ops and moving data.
NOT_OPS = {"execute", "execute_binary", "from_numpy", "to_numpy", "describe"}


def _parameters(fun) -> list:
    """A signature without annotations: each parameter's name, kind and default."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(fun).parameters.values()]


def test_every_method_of_the_contract_has_exactly_one_entry():
    ops = set(CONTRACT.__abstractmethods__) - NOT_OPS
    tables = [set(_op_table.OPS), set(_op_table.REDUCTIONS), set(STRUCTURED)]
    assert sum(len(table) for table in tables) == len(_op_table.ENTRIES)  # no name in two tables
    assert set(_op_table.ENTRIES) == ops


def test_the_contract_declares_an_entry_from_its_signature_unless_written_out():
    written = {name for name in STRUCTURED if name not in _contract.TABLE_DECLARED}
    assert written == set()  # every entry: the written-out select, clip and stop_grad are gone
    for name, entry in STRUCTURED.items():
        declared = getattr(CONTRACT, name)
        expected = _parameters(entry.function("...", {}))
        assert _parameters(declared) == expected, name
        assert declared.__doc__.startswith(entry.doc) or name in written, name
    assert str(inspect.signature(CONTRACT.slice)) == "(self, out, tensor, *starts, lengths, strides)"


def test_every_entry_is_well_formed():
    families = {
        "creation",
        "elementwise",
        "math",
        "reduction",
        "cumulative",
        "window",
        "shape",
        "indexing",
        "sort",
        "products",
        "linalg",
        "fft",
    }
    nx_names = {line.strip() for line in (ROOT / "docs" / "_ext" / "nx_functions.txt").read_text().splitlines()}
    for entry in STRUCTURED.values():
        assert entry.family in families and entry.result in _op_table.RESULT_RULES, entry.name
        assert entry.doc.endswith(".") and entry.notes, entry.name
        assert all(name in nx_names for name in entry.nx if "." not in name), entry.name  # Nx's own module
        assert not entry.samples or entry.reference is not None, entry.name
        params = [p.split("=")[0] for p in entry.params]
        assert bool(entry.kinds) == ("kind" in params or "mode" in params), entry.name


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_a_computed_entry_is_its_familys_method_on_both_backends(backend):
    for name, entry in STRUCTURED.items():
        family = importlib.import_module(f"numbat.backends._families.{entry.family}").Array
        method = vars(family).get(name)
        assert method is not None and name in declared_ops(entry.family), name
        assert getattr(method, "from_table", False) == (entry.compute is not None), name
        assert getattr(backend, name) is method, name  # nothing overrides it


def test_the_family_modules_keep_only_what_the_table_cannot_say():
    # docs/guides/adding_an_op.md and architecture.md name these: each needs the backend itself
    # (a user's function, a NaN check through the backend), a gradient rule of its own, or is
    # long (linalg's algorithms, conv, the scatters); every other entry holds its computation.
    kept = {name for name, entry in STRUCTURED.items() if entry.compute is None}
    assert kept == {
        "bitcast",
        "argmax",
        "argmin",
        "reduce",
        "window",
        "window_reduce",
        "window_scatter",
        "indexed",
        "top_k",
        "conv",
        "decompose",
        "solve",
    }


def test_fill_refuses_an_entry_with_both_a_compute_and_a_method_or_neither():
    class Array:  # the shape family with `reverse`, an entry with a compute, written out too
        def reverse(self, out, tensor, axes): ...

    with pytest.raises(ArgumentError, match="'reverse' has both a compute in the op table and a method"):
        _base.fill(Array, "shape")
    with pytest.raises(ArgumentError, match="'top_k' of the op table has no compute and no method"):
        _base.fill(type("Array", (), {}), "sort")


def test_nan_checked_is_the_entries_with_keeps_nan():
    entries = [*_op_table.REDUCTION_TABLE, *_op_table.STRUCTURED_TABLE]
    assert _op_table.NAN_CHECKED == {entry.name for entry in entries if entry.keeps_nan}
    assert _op_table.NAN_CHECKED == {"reduce_max", "reduce_min", "window", "top_k"}


def test_the_profiler_names_a_windows_nan_check():
    # The NaN check's conditional is the backend method's (`window`); the list it replaced
    # named `window_max`, a name no kernel carries, so a window's check went unexplained.
    report = nbt.xla.fusion_report(lambda x: nbt.window_max(x, (2,)), [nbt.iota((8,), type="f32")])
    notes = [kernel.note for kernel in report.kernels if kernel.opcode == "conditional"]
    assert notes and notes[0].startswith("window's NaN check"), notes


def test_the_public_functions_come_from_the_entries():
    source = (ROOT / "numbat" / "__init__.py").read_text()
    for entry in STRUCTURED.values():
        module = importlib.import_module(f"numbat._ops.primitive.{entry.family}")
        for name in entry.public:
            assert name in nbt.__all__ and inspect.unwrap(getattr(nbt, name)) is vars(module)[name], name
            assert f"import {name} as {name}" not in source, f"{name}: exported by hand, not from the table"
    assert len(source.splitlines()) < 600


def test_the_api_page_lists_every_entrys_public_functions():
    listed = set(_autosummaries()["numbat"])
    assert {name for entry in STRUCTURED.values() for name in entry.public} - listed == set()


def test_the_api_page_lists_no_entrys_function_by_hand():
    # Every family's list comes from the table (`numbat-table-ops`); the hand-written lists
    # hold the composite functions only.
    page = (ROOT / "docs" / "api" / "index.md").read_text()
    by_hand = {line.strip() for block in BLOCK.findall(page) for line in block.splitlines() if line.startswith("   ")}
    public = {name for entry in _op_table.ENTRIES.values() for name in _public_names(entry)}
    assert by_hand & public == set()
    assert {"stack", "outer", "split", "linspace"} <= by_hand  # composites stay hand-listed


def _public_names(entry) -> tuple:
    """The public functions an entry of any table runs."""
    if isinstance(entry, _op_table.Entry):
        return entry.public
    return (entry.name,) if entry.public else ()


def _op_name_lists(path: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    """The list, set and tuple displays of `path` whose strings (two or more) are all op names
    of the table, but those made of entries' `kinds` (`sum`, `max`: a window's, not the reductions)."""
    names = set(_op_table.ENTRIES)
    kinds = {kind for entry in STRUCTURED.values() for kind in entry.kinds}
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.List, ast.Set, ast.Tuple)):
            strings = {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if len(strings) >= 2 and strings <= names and not strings <= kinds:
                found.append(f"{path.relative_to(root)}:{node.lineno}: {sorted(strings & names)}")
    return found


def test_no_list_of_op_names_outside_the_table():
    found = []
    for path in sorted([*(ROOT / "numbat").rglob("*.py"), *(ROOT / "docs" / "_ext").rglob("*.py")]):
        found += _op_name_lists(path)
    assert found == []


def test_the_scan_finds_a_list_of_op_names(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text('CHECKED = {"window", "top_k"}\nKINDS = ("sum", "max")\n')
    assert _op_name_lists(planted, tmp_path) == ["planted.py:1: ['top_k', 'window']"]


def test_a_new_shape_op_reaches_both_backends_and_the_contract(monkeypatch):
    # docs/guides/adding_an_op.md, "An op of another family": an entry with its computation
    # (and a front-end function), nothing else: the contract declares it, both backends run it.
    from numbat._ops import _dispatch
    from numbat.backends._families import shape

    entry = _op_table.Entry(
        "roll_one",
        "shape",
        ("tensor",),
        ("axis",),
        "The elements moved one place along `axis`, the last coming first.",
        "same",
        compute=lambda xp, out, x, axis: xp.roll(x, 1, axis),
        reference=lambda x, axis: np.roll(x, 1, axis),
        samples=((((3, 4),), {"axis": 1}),),
        notes="linear: its gradient is the opposite roll",
    )
    monkeypatch.setitem(STRUCTURED, "roll_one", entry)
    monkeypatch.setitem(_op_table.ENTRIES, "roll_one", entry)
    filled = _base.fill(shape.Array, "shape")
    declared = _contract.declare_entries(CONTRACT)
    try:
        assert "roll_one" in filled and declared == ["roll_one"]
        assert "roll_one" in CONTRACT.__abstractmethods__
        assert str(inspect.signature(CONTRACT.roll_one)) == "(self, out, tensor, axis)"
        x = np.arange(12.0).reshape(3, 4)
        for backend in BACKENDS:
            tensor = nbt.tensor(x, backend=backend())
            result = _dispatch.run("roll_one", nbt.template((3, 4), "f64"), (tensor,), axis=1)
            np.testing.assert_array_equal(result.to_numpy(), np.roll(x, 1, 1))
            assert backend.roll_one is vars(shape.Array)["roll_one"]
        traced = nbt.defn(lambda t: _dispatch.run("roll_one", nbt.template((3, 4), "f64"), (t,), axis=0))
        np.testing.assert_array_equal(traced(nbt.tensor(x)).to_numpy(), np.roll(x, 1, 0))
        test_every_method_of_the_contract_has_exactly_one_entry()
    finally:
        delattr(shape.Array, "roll_one")
        delattr(CONTRACT, "roll_one")
        abc.update_abstractmethods(CONTRACT)
    assert "roll_one" not in CONTRACT.__abstractmethods__


def test_an_entry_is_a_frozen_record():
    with pytest.raises(dataclasses.FrozenInstanceError):
        STRUCTURED["dot"].name = "matmul"
