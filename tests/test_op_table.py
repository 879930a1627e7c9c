"""The op table (`numbat/_core/_op_table.py`; docs/design.md, decision 18) is the single source of the
facts about each element-wise op: the backend families' tables and `_apply.REAL_ONLY` are
made from it, and this file checks the rest against it (the front-end functions' result
types, the public API, the API page's list, Nx's function list), and that the front-end
functions are generated from the entries or written with their entry's doc. Throwaway ops are
added through the table alone, as docs/guides/adding_an_op.md does, and followed to both
backends, `grad`, `vectorize`, `jit`, the expression graph, their doctest, the contract, the
API page (whose list of the table's ops docs/_ext/numbat_op_table.py makes from the table)
and the differential test: in this process, and in a copy of the package whose only change is
the entry in `_op_table.py`."""

from __future__ import annotations

import doctest
import importlib
import inspect
import os
import pathlib

import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest
from test_docs import _autosummaries
from test_families import declared_ops

import numbat as nbt
from numbat._core import _op_table, _types
from numbat._core._errors import ArgumentError
from numbat._ops.composite import math as composite_math
from numbat._ops.primitive import _apply, _generate
from numbat._ops.primitive import reduction as reduction_front
from numbat.backends import _contract
from numbat.backends._families import _tables

ROOT = pathlib.Path(__file__).resolve().parent.parent
OPS = _op_table.OPS
FAMILIES = ("elementwise", "math", "bitwise", "complex")

# The result-type rules the table names, as `_apply.unary`/`binary` apply them to the operands' type.
RULES = {
    "same": lambda t: t,
    "floating": _types.to_floating,
    "real": _types.to_real,
    "u8": lambda t: _types.U8,
    "same_integer": lambda t: t,
    "parts": lambda t: _types.to_real(_types.to_floating(t)),
    "complex": lambda t: _types.to_complex(_types.to_floating(t)),
}
SAMPLE_TYPES = ["u8", "s32", "f32", "f64", "c64"]


def _front_end(op: _op_table.Op):
    return getattr(importlib.import_module(f"numbat._ops.primitive.{op.family}"), op.name)


def _expected_type(op: _op_table.Op, type_name: str):
    """The output type the table's rule gives, or None where the op must refuse the type."""
    type_ = _types.parse(type_name)
    if (op.real_only and type_.is_complex) or (op.result == "same_integer" and not type_.is_integer):
        return None
    return RULES[op.result](type_)


def test_every_entry_is_well_formed():
    for op in OPS.values():
        assert op.family in FAMILIES and op.kind in ("unary", "own_type", "binary", "merged"), op
        assert op.result in RULES, op


def test_each_family_implements_exactly_its_table_ops():
    for family in FAMILIES:
        table_ops = {name for name, op in OPS.items() if op.family == family}
        entries = {name for name, entry in _op_table.STRUCTURED.items() if entry.family == family}
        assert declared_ops(family) == table_ops | entries, family


def test_the_backend_tables_and_real_only_come_from_the_table():
    from numbat.backends._families import math

    assert _apply.REAL_ONLY == {name for name, op in OPS.items() if op.real_only}
    assert {"erf", "complex", "less", "round"} <= _apply.REAL_ONLY
    assert set(math.TABLES["unary"]) == {n for n, op in OPS.items() if op.family == "math" and op.kind == "unary"}
    assert [name for name, op in OPS.items() if op.compute is None] == []  # every entry holds its computation
    for family in FAMILIES:  # and no family module holds code of its own for the table's ops
        assert not hasattr(importlib.import_module(f"numbat.backends._families.{family}"), "CODE"), family


@pytest.mark.parametrize("name", sorted(OPS))
def test_the_front_end_gives_the_tables_result_type(name):
    op = OPS[name]
    fun = _front_end(op)
    for type_name in SAMPLE_TYPES:
        operands = [nbt.tensor([1, 2], type=type_name)] * op.arity
        expected = _expected_type(op, type_name)
        if expected is None:
            with pytest.raises(ArgumentError):
                fun(*operands)
        else:
            assert fun(*operands).type == expected, f"{name}[{type_name}]"


def test_the_public_api_exports_every_public_op_of_the_table():
    for op in OPS.values():
        assert (op.name in nbt.__all__) == op.public, op.name
        if op.public:  # the front-end function, or a composite of it (`log` with a base)
            exported = inspect.unwrap(getattr(nbt, op.name))
            assert exported is _front_end(op) or exported.__module__ == f"numbat._ops.composite.{op.family}", op.name
    assert inspect.unwrap(nbt.log) is composite_math.log and composite_math.log(8.0).type == _types.parse("f32")


def test_the_api_page_lists_every_public_op_of_the_table():
    assert _unlisted_on_the_api_page() == set()


def _unlisted_on_the_api_page() -> set[str]:
    listed = set(_autosummaries()["numbat"])
    return {name for name, op in {**OPS, **_op_table.REDUCTIONS}.items() if op.public and name not in listed}


def test_the_nx_functions_named_are_nxs():
    nx = {line.strip() for line in (ROOT / "docs" / "_ext" / "nx_functions.txt").read_text().splitlines()}
    nx = {name for name in nx if name and not name.startswith("#")}
    assert {op.nx for op in OPS.values() if op.nx} <= nx
    assert [op.name for op in OPS.values() if op.nx is None and op.name in nx] == []  # an Nx name is mirrored


def add_table_op(monkeypatch, op):
    """`op` added as a new op of the math family is its table entry alone (with `examples`, so
    that its front-end function is generated); the rest is what numbat does at import, redone
    for this op (undone afterwards)."""
    from numbat._ops.primitive import math as front_math
    from numbat.backends._families import math as back_math

    monkeypatch.setitem(_op_table.OPS, op.name, op)
    # What import does: the front-end function, the backend family's tables, the contract, the public API.
    monkeypatch.setattr(front_math, op.name, None, raising=False)  # removed again afterwards
    delattr(front_math, op.name)
    assert _generate.define(vars(front_math), "math", [op.name]) == [op.name]
    front_end = getattr(front_math, op.name)
    monkeypatch.setattr(back_math.Array, op.name, None, raising=False)  # removed again afterwards
    _tables.fill(back_math.Array, unary={op.name: _tables.build("math")["unary"][op.name]})
    monkeypatch.setattr(_contract.AbstractBackend, "__abstractmethods__", _contract.AbstractBackend.__abstractmethods__)
    monkeypatch.setattr(_contract.AbstractBackend, op.name, None, raising=False)
    delattr(_contract.AbstractBackend, op.name)
    assert _contract.declare_table_ops(_contract.AbstractBackend) == [op.name]
    exported = nbt._table_exports(vars(nbt))
    assert exported == {op.name: front_end}
    monkeypatch.setattr(nbt, op.name, exported[op.name], raising=False)
    return op


@pytest.fixture
def throwaway_op(monkeypatch):
    """`throwaway_exp2` (2 ** x, computed by `xp.exp2`) added through the table."""
    op = _op_table.Op(
        "throwaway_exp2",
        "math",
        "unary",
        "floating",
        narrow=True,
        reference=np.exp2,
        compute=lambda xp, x: xp.exp2(x),
        doc="2 to the power of each element.",
        examples="""
            >>> nbt.throwaway_exp2(nbt.tensor([0.0, 3.0]))
            numbat.Tensor<
              f32[2]
              [1.0, 8.0]
            >
        """,
    )
    return add_table_op(monkeypatch, op)


def _log1mexp_reference(x):
    """log(1 - e ** x) for x < 0, in float64, without cancellation."""
    return np.where(x > -np.log(2), np.log(-np.expm1(x)), np.log1p(-np.exp(x)))


@pytest.mark.parametrize(
    "compute, wrong",
    [
        (lambda xp, x: xp.log(1 - xp.exp(x)), True),  # 1 - e ** -1e-8 is 0 in f32: -inf, not -18.4
        (lambda xp, x: xp.where(x > -0.6931472, xp.log(-xp.expm1(x)), xp.log1p(-xp.exp(x))), False),
    ],
)
def test_a_wrong_formula_added_through_the_table_fails_the_differential_test(monkeypatch, compute, wrong):
    from test_differential import check_on_domains

    op = _op_table.Op(
        "throwaway_log1mexp",
        "math",
        "unary",
        "floating",
        narrow=True,
        reference=_log1mexp_reference,
        domain=(-np.inf, 0.0),
        compute=compute,
        doc="log(1 - e ** x).",
        examples=">>> str(nbt.throwaway_log1mexp(nbt.tensor([-1.0])).type)\n'f32'",
    )
    add_table_op(monkeypatch, op)
    table = {**OPS, op.name: op}
    references = {op.name: op.reference}
    for type_name in ("f32", "f64"):
        failures = check_on_domains([op.name], type_name, {op.name: nbt.throwaway_log1mexp}, references, table)
        assert bool([line for line in failures if "vs float64 reference" in line]) == wrong, failures


def test_a_new_op_is_its_table_entry_alone(throwaway_op, backend):
    from numbat._ops.primitive import math as front_math

    # Its front-end function, generated: a function of the family's module, with the entry's doctest.
    fun = front_math.throwaway_exp2
    assert (fun.__name__, fun.__qualname__, fun.__module__) == ("throwaway_exp2",) * 2 + ("numbat._ops.primitive.math",)
    assert str(inspect.signature(fun)) == "(tensor)" and fun.__doc__.startswith("2 to the power of each element.")
    (test,) = [t for t in doctest.DocTestFinder().find(front_math, globs={"nbt": nbt}) if t.name.endswith("exp2")]
    assert doctest.DocTestRunner().run(test, out=lambda text: None).failed == 0 and len(test.examples) == 1
    x = np.array([0.5, 3.0], np.float32)
    result = nbt.throwaway_exp2(nbt.tensor(x))
    assert result.backend is backend and result.type == _types.parse("f32")
    np.testing.assert_allclose(result.to_numpy(), np.exp2(x), rtol=1e-6)
    assert nbt.throwaway_exp2(nbt.tensor([1, 2], type="s8")).type == _types.parse("f32")
    gradient = nbt.grad(lambda t: nbt.sum(nbt.throwaway_exp2(t)))(nbt.tensor(x))
    np.testing.assert_allclose(gradient.to_numpy(), np.exp2(x) * np.log(2), rtol=1e-5)
    vectorized = nbt.throwaway_exp2(nbt.vectorize(nbt.tensor(np.stack([x, 2 * x])), "rows"))
    assert vectorized.vectorized_axes == (("rows", 2),)
    np.testing.assert_allclose(nbt.devectorize(vectorized).to_numpy(), np.exp2([x, 2 * x]), rtol=1e-6)
    graph = nbt.debug_expr(nbt.throwaway_exp2)(nbt.tensor(x))
    assert "throwaway_exp2 [ a ]" in str(graph)
    np.testing.assert_allclose(nbt.jit(nbt.throwaway_exp2)(nbt.tensor(x)).to_numpy(), np.exp2(x), rtol=1e-6)
    assert "throwaway_exp2" in _contract.AbstractBackend.__abstractmethods__
    # The API page lists it from the table (docs/_ext/numbat_op_table.py): no line to add.
    assert "throwaway_exp2" in _autosummaries()["numbat"] and _unlisted_on_the_api_page() == set()
    # The differential check at random points of its domain: the four paths and the entry's reference agree.
    from test_differential import check_on_domains

    table, references = {**OPS, throwaway_op.name: throwaway_op}, {throwaway_op.name: throwaway_op.reference}
    assert (
        check_on_domains([throwaway_op.name], "f32", {throwaway_op.name: nbt.throwaway_exp2}, references, table) == []
    )


def test_the_precision_flags_wrap_on_their_own():
    # narrow: 8-bit floats in f32, on every backend; wide_on_numpy: floats below f64 in f64, on NumPy only
    seen = []
    record = lambda xp, x: seen.append(x.dtype) or x
    f8, f32 = np.ones(2, ml_dtypes.float8_e4m3fn), np.ones(2, np.float32)
    assert _tables.narrow(record)(np, f8).dtype == f8.dtype and _tables.narrow(record)(np, f32).dtype == f32.dtype
    assert _tables.wide_on_numpy(record)(np, f32).dtype == f32.dtype
    assert _tables.wide_on_numpy(record)(jnp, jnp.asarray(f32)).dtype == f32.dtype
    assert seen == [np.dtype(np.float32), np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float32)]
    assert [op.name for op in OPS.values() if op.wide_on_numpy and not op.narrow] == []  # none yet, but allowed


def _throwaway_sum_of_squares(tensor, axes=None, keep_axes=False):
    return reduction_front._reduce("throwaway_sum_of_squares", tensor, axes, keep_axes)


@pytest.fixture
def throwaway_reduction(monkeypatch):
    """`throwaway_sum_of_squares` added as a new reduction is: its table entry and its front-end
    function; the rest is what numbat does at import, redone for this op (undone afterwards)."""
    from numbat.backends._families import reduction as back_reduction

    op = _op_table.Reduction(
        "throwaway_sum_of_squares",
        "same",
        compute=lambda xp, x, axes, keep_axes: xp.sum(x * x, axis=axes, keepdims=keep_axes),
        reference=lambda x, axis=None, keepdims=False: np.sum(x * x, axis=axis, keepdims=keepdims),
    )
    monkeypatch.setitem(_op_table.REDUCTIONS, op.name, op)
    monkeypatch.setattr(reduction_front, op.name, _throwaway_sum_of_squares, raising=False)
    monkeypatch.setattr(back_reduction.Array, op.name, None, raising=False)  # removed again afterwards
    delattr(back_reduction.Array, op.name)
    assert op.name in back_reduction.fill(back_reduction.Array)  # what import does, redone
    monkeypatch.setattr(_contract.AbstractBackend, "__abstractmethods__", _contract.AbstractBackend.__abstractmethods__)
    monkeypatch.setattr(_contract.AbstractBackend, op.name, None, raising=False)
    delattr(_contract.AbstractBackend, op.name)
    assert _contract.declare_table_ops(_contract.AbstractBackend) == [op.name]
    exported = nbt._table_exports(vars(nbt))
    assert exported == {op.name: _throwaway_sum_of_squares}
    monkeypatch.setattr(nbt, op.name, exported[op.name], raising=False)
    return op


def test_a_new_reduction_is_its_table_entry_and_its_front_end_function(throwaway_reduction, backend):
    import _differential as d

    x = np.array([[0.5, 3.0], [1.0, -2.0]], np.float32)
    result = nbt.throwaway_sum_of_squares(nbt.tensor(x), axes=[1])
    assert result.backend is backend and result.type == _types.parse("f32") and result.shape == (2,)
    np.testing.assert_allclose(result.to_numpy(), [9.25, 5.0])
    assert nbt.throwaway_sum_of_squares(nbt.tensor(x, names=["i", "j"]), axes=["j"], keep_axes=True).shape == (2, 1)
    gradient = nbt.grad(lambda t: nbt.throwaway_sum_of_squares(t))(nbt.tensor(x))
    np.testing.assert_allclose(gradient.to_numpy(), 2 * x)
    vectorized = nbt.throwaway_sum_of_squares(nbt.vectorize(nbt.tensor(x), "rows"))
    assert vectorized.vectorized_axes == (("rows", 2),)
    np.testing.assert_allclose(nbt.devectorize(vectorized).to_numpy(), [9.25, 5.0])
    assert "throwaway_sum_of_squares" in str(nbt.debug_expr(nbt.throwaway_sum_of_squares)(nbt.tensor(x)))
    np.testing.assert_allclose(nbt.jit(nbt.throwaway_sum_of_squares)(nbt.tensor(x)).to_numpy(), 14.25)
    assert "throwaway_sum_of_squares" in _contract.AbstractBackend.__abstractmethods__
    assert callable(nbt.NumPyBackend.throwaway_sum_of_squares) and callable(nbt.XLABackend.throwaway_sum_of_squares)
    # The API page lists it from the table (docs/_ext/numbat_op_table.py): no line to add.
    assert "throwaway_sum_of_squares" in _autosummaries()["numbat"] and _unlisted_on_the_api_page() == set()
    # The differential check: the four paths agree and match the entry's reference.
    failures = []
    fun = lambda t: nbt.throwaway_sum_of_squares(t, axes=[1])
    expected = d.compare_paths({"ss": fun}, [x], "f32", failures)
    assert failures == [] and expected["ss"][0] == "ok"
    np.testing.assert_allclose(expected["ss"][4], throwaway_reduction.reference(x.astype(np.float64), axis=(1,)))


def test_an_entry_without_a_computation_is_refused(monkeypatch):
    neither = _op_table.Op("throwaway_neither", "math", "unary", "floating")
    monkeypatch.setitem(_op_table.OPS, neither.name, neither)
    with pytest.raises(ArgumentError, match=r"math has none for \['throwaway_neither'\]"):
        _tables.build("math")


def test_a_generated_function_and_a_written_one_of_one_name_are_refused():
    from numbat._ops.primitive import math as front_math

    with pytest.raises(ArgumentError, match=r"generates \['exp'\], which numbat._ops.primitive.math writes too"):
        _generate.define(dict(vars(front_math)), "math", ["exp"])


@pytest.mark.parametrize("name", sorted(OPS))
def test_a_front_end_function_is_generated_from_its_entry_or_written_with_its_entrys_doc(name):
    op, fun = OPS[name], _front_end(OPS[name])
    assert " ".join(fun.__doc__.split("\n\n")[0].split()) == op.doc, name  # the entry's doc: its first paragraph
    module = importlib.import_module(f"numbat._ops.primitive.{op.family}")
    source = inspect.getsource(module)
    assert (op.examples is not None) == (f"def {name}(" not in source), name  # generated, or written, not both
    assert fun.__module__ == module.__name__ and fun.__qualname__ == name and fun.__globals__ is vars(module)
    parameters = list(inspect.signature(fun).parameters)[: op.arity]
    assert parameters == (["tensor"] if op.arity == 1 else ["left", "right"]), name
    if op.examples is not None:
        assert str(inspect.signature(fun)) == ("(tensor)" if op.arity == 1 else "(left, right)")
        assert fun.__doc__ == _generate.docstring(op) and ">>> nbt." in fun.__doc__


# The entry docs/guides/adding_an_op.md adds, as text in the table's `TABLE` list.
GUIDE_ENTRY = '''
    Op(
        "exp2",
        "math",
        "unary",
        "floating",
        narrow=True,
        reference=np.exp2,
        compute=lambda xp, x: xp.exp2(x),
        nx=None,
        doc="2 to the power of each element.",
        examples="""
            >>> nbt.exp2(nbt.tensor([0.0, 3.0]))
            numbat.Tensor<
              f32[2]
              [1.0, 8.0]
            >
        """,
    ),
'''

# What the copy with the new entry checks, in a process of its own (numbat imported from the copy).
GUIDE_CHECK = """
import doctest, sys
import numpy as np
sys.path[:0] = [sys.argv[1] + "/tests", sys.argv[1] + "/docs/_ext"]
import numbat as nbt
from numbat._ops.primitive import math
from numbat.backends import _contract
import numbat_op_table, test_differential

x = np.array([0.5, 3.0], np.float32)
for backend in (nbt.NumPyBackend(), nbt.XLABackend()):
    with nbt.default_backend(backend):
        t = nbt.tensor(x)
        assert nbt.exp2(t).backend is backend
        np.testing.assert_allclose(nbt.exp2(t).to_numpy(), np.exp2(x), rtol=1e-6)
        np.testing.assert_allclose(nbt.grad(lambda t: nbt.sum(nbt.exp2(t)))(t).to_numpy(), np.exp2(x) * np.log(2), rtol=1e-5)
        v = nbt.devectorize(nbt.exp2(nbt.vectorize(nbt.tensor(np.stack([x, x])), "rows")))
        np.testing.assert_allclose(v.to_numpy(), np.exp2([x, x]), rtol=1e-6)
        np.testing.assert_allclose(nbt.jit(nbt.exp2)(t).to_numpy(), np.exp2(x), rtol=1e-6)
        assert "exp2 [ a ]" in str(nbt.debug_expr(nbt.exp2)(t))
        (test,) = [t for t in doctest.DocTestFinder().find(math, globs={"nbt": nbt}) if t.name.endswith(".exp2")]
        assert doctest.DocTestRunner().run(test).failed == 0
assert "exp2" in nbt.__all__ and "exp2" in _contract.AbstractBackend.__abstractmethods__
assert _contract.AbstractBackend.exp2.__doc__ == "2 to the power of each element."
assert "exp2" in numbat_op_table.table_ops("math")
assert test_differential.OPS["exp2"][0] == "unary" and "exp2" in test_differential.REFERENCES
assert test_differential.check_on_domains(["exp2"], "f32") == [] == test_differential.check_on_domains(["exp2"], "f64")
print("exp2 reached everything")
"""


def test_the_guides_op_added_to_the_table_file_alone_reaches_everything(tmp_path):
    """docs/guides/adding_an_op.md's walk-through for real: a copy of the package whose only change
    is the new entry in `numbat/_core/_op_table.py`, imported in a fresh process."""
    import shutil
    import subprocess
    import sys

    for folder in ("numbat", "tests", "docs/_ext"):
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=ignore)
    table = tmp_path / "numbat" / "_core" / "_op_table.py"
    text = table.read_text()
    assert text.count("\n]\n\nOPS: dict") == 1 and "exp2" not in _op_table.OPS
    table.write_text(text.replace("\n]\n\nOPS: dict", GUIDE_ENTRY.rstrip("\n") + "\n]\n\nOPS: dict"))
    changed = [
        str(path.relative_to(tmp_path))
        for path in sorted(tmp_path.rglob("*.py"))
        if path.read_bytes() != (ROOT / path.relative_to(tmp_path)).read_bytes()
    ]
    assert changed == ["numbat/_core/_op_table.py"]  # the one file the guide names
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(tmp_path)}
    command = [sys.executable, "-c", GUIDE_CHECK, str(tmp_path)]
    done = subprocess.run(command, check=False, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0 and "exp2 reached everything" in done.stdout, done.stderr[-3000:]
