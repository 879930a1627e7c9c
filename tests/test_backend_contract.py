"""The backend contract (`numbat/backends/_contract.py`) is what both backends implement:
exactly its methods, with its signatures, and nothing public besides."""

import ast
import inspect
import pathlib

import pytest

import numbat as nbt
from numbat._core import _op_table
from numbat.backends import _contract

CONTRACT = _contract.AbstractBackend
BACKENDS = [nbt.NumPyBackend, nbt.XLABackend]


def _methods(cls) -> dict:
    """The public functions `cls` defines or inherits (not from `object`), by name."""
    found = {}
    for klass in reversed(cls.__mro__[:-1]):  # object last in the MRO: left out
        for name, value in vars(klass).items():
            if not name.startswith("_") and inspect.isfunction(value):
                found[name] = value
    return found


def _shape(fun) -> list:
    """A signature without annotations: each parameter's name, kind and default."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(fun).parameters.values()]


def test_the_contract_declares_every_method_abstract_and_documented():
    declared = {name for name, value in vars(CONTRACT).items() if inspect.isfunction(value)}
    assert declared == set(CONTRACT.__abstractmethods__)
    # The methods written out in the contract's class body, and the op table's entries declared from the table.
    source = ast.parse(pathlib.Path(_contract.__file__).read_text())
    body = next(node for node in source.body if isinstance(node, ast.ClassDef) and node.name == "AbstractBackend")
    written = {node.name for node in body.body if isinstance(node, ast.FunctionDef)}
    assert declared == written | set(_contract.TABLE_DECLARED) and not written & set(_contract.TABLE_DECLARED)
    assert set(_op_table.OPS) | set(_op_table.REDUCTIONS) <= declared  # every table op is in the contract
    undocumented = [name for name in declared if not (vars(CONTRACT)[name].__doc__ or "").strip()]
    assert undocumented == []


def test_the_element_wise_declarations_are_generated_from_the_table():
    # One declaration per element-wise entry, none written out: its arity's signature and its entry's doc.
    assert set(_op_table.OPS) <= set(_contract.TABLE_DECLARED)
    source = pathlib.Path(_contract.__file__).read_text()
    assert [name for name in _op_table.OPS if f"def {name}(" in source] == []
    for name, op in _op_table.OPS.items():
        method = vars(CONTRACT)[name]
        assert list(inspect.signature(method).parameters) == [
            "self",
            "out",
            *(["tensor"], ["left", "right"])[op.arity - 1],
        ]
        assert method.__doc__ == op.doc and op.doc, name
    assert "lands on this line" not in _contract.__doc__


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_a_backend_implements_exactly_the_contract(backend):
    assert not inspect.isabstract(backend)
    methods = _methods(backend)
    assert set(methods) - set(_methods(CONTRACT)) == set()  # nothing public beyond the contract
    assert all(methods[name] is not vars(CONTRACT)[name] for name in methods)  # each one implemented


@pytest.mark.parametrize("backend", BACKENDS, ids=lambda b: b.__name__)
def test_a_backend_method_takes_the_contracts_arguments(backend):
    methods = _methods(backend)
    differ = {name: (_shape(fun), _shape(methods[name])) for name, fun in _methods(CONTRACT).items()}
    assert {name: pair for name, pair in differ.items() if pair[0] != pair[1]} == {}


def test_a_method_outside_the_contract_is_refused():
    class Extra(nbt.NumPyBackend.__mro__[1]):  # ArrayBackend with placement and one extra op
        _wrap = _place = execute = execute_binary = from_numpy = to_numpy = describe = None

        def exp3(self, out, tensor): ...

    assert set(_methods(Extra)) - set(_methods(CONTRACT)) == {"exp3"}


def test_a_method_with_other_arguments_is_refused():
    def exp(self, out, x): ...

    assert _shape(exp) != _shape(CONTRACT.exp)


def _contract_sections() -> dict:
    """The contract's methods by the family its section comment names (`_families/<family>.py`),
    with those declared from the op table (`_contract.declare_table_ops`) in their entry's family."""
    sections, family = {}, None
    for line in inspect.getsource(CONTRACT).splitlines():
        if line.strip().startswith("# ---"):
            family = line.split("`_families/")[1].split(".py`")[0] if "`_families/" in line else None
        elif line.strip().startswith("def ") and family:
            sections.setdefault(family, set()).add(line.strip()[4:].split("(")[0])
    for name in _contract.TABLE_DECLARED:  # declared from the op table: in its entry's family
        sections.setdefault(_op_table.ENTRIES[name].family, set()).add(name)
    return sections


def test_the_contracts_sections_are_the_families():
    from test_families import declared_ops  # each family's `Array` methods

    sections = _contract_sections()
    assert len(sections) == 14
    assert {family: declared_ops(family) for family in sections} == sections
