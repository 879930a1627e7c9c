"""One answer on every path (docs/design.md, decision 13), over random shapes and values drawn by
hypothesis: element-wise binary ops with broadcasting, reductions over random axes, and
casts between random types. Eager NumPy, eager XLA, `nbt.defn` on XLA and the evaluator on
NumPy agree (`_differential.same`, with its PLATFORM_DIFFERENCES), and for float types the
NumPy path matches a float64 NumPy reference rounded to the output type.

Budget: derandomized, 25 examples per test in CI (about 10 s); `NUMBAT_DIFFERENTIAL=full` draws 200,
`NUMBAT_DIFFERENTIAL_EXAMPLES=n` draws n.
"""

from __future__ import annotations

import dataclasses
import os
import warnings

import _differential as d
import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import numbat as nbt
from numbat._core._op_table import REDUCTIONS as REDUCTION_TABLE
from numbat._core._op_table import STRUCTURED
from numbat.backends._cast import cast

EXAMPLES = int(
    os.environ.get("NUMBAT_DIFFERENTIAL_EXAMPLES", "200" if os.environ.get("NUMBAT_DIFFERENTIAL") == "full" else "25")
)
SETTINGS = settings(
    max_examples=EXAMPLES, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
FLOATS = ("f8_e4m3fn", "f16", "bf16", "f32", "f64")

# Binary ops and their float64 references (None: the paths must agree, no reference).
BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
    "min": np.minimum,
    "max": np.maximum,
    "atan2": np.arctan2,
    "pow": None,
    "remainder": None,
    "equal": None,
    "less": None,
}
# Reductions over axes and their float64 references: the op table's (`_core/_op_table.REDUCTIONS`),
# and `mean`, a composite of `sum`.
REDUCTIONS = {name: op.reference for name, op in REDUCTION_TABLE.items() if op.public} | {"mean": np.mean}


def _pool(type_name: str) -> list:
    """Values to draw from: the type's edge values without subnormals (they have their own
    rule, checked over the edge grid by test_differential.py) and ordinary numbers."""
    edges = d.edge_values(type_name)
    return [v for v in edges if not d.has_subnormal(np.asarray([v]))]


@st.composite
def shapes(draw, min_rank=0, max_rank=3):
    return tuple(draw(st.lists(st.integers(1, 3), min_size=min_rank, max_size=max_rank)))


@st.composite
def arrays(draw, type_name: str, shape: tuple):
    size = int(np.prod(shape, dtype=np.int64))
    pool = _pool(type_name)
    dtype = pool[0].dtype if hasattr(pool[0], "dtype") else np.dtype(type(pool[0]))
    values = draw(
        st.lists(
            st.one_of(st.sampled_from(pool), st.integers(-100, 100), st.floats(-1e3, 1e3, width=32)),
            min_size=size,
            max_size=size,
        )
    )
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dtype.kind in "iu" or dtype in d.SUBBYTE_DTYPES:  # whole numbers, wrapped into the type
            info = ml_dtypes.iinfo(dtype)
            span = int(info.max) - int(info.min) + 1
            values = [(int(v) - int(info.min)) % span + int(info.min) if np.isfinite(v) else 0 for v in values]
            return np.array(values, dtype=object).astype(dtype).reshape(shape)
        return np.array(values, dtype=np.complex128 if dtype.kind == "c" else np.float64).astype(dtype).reshape(shape)


def _broadcastable(draw, shape: tuple) -> tuple:
    """A shape that broadcasts with `shape`: some axes set to 1, some leading axes dropped."""
    dropped = draw(st.integers(0, len(shape)))
    return tuple(1 if draw(st.booleans()) else size for size in shape[dropped:])


def _agree(name: str, fun, arrays_: list, types: list, reference=None, terms: float = 0.0):
    """Runs `fun` on the four paths; asserts they agree and match `reference` (float64)."""
    outcomes = {path: d.run(path, fun, arrays_, types) for path in d.PATHS}
    expected = outcomes["numpy"]
    assert expected[0] == "ok" or d.is_numbat_error(expected), f"{name}: not a numbat error: {expected}"
    platform = d.xla_platform()
    for path in d.PATHS[1:]:
        specials = d.complex_specials_differ(name, path, platform)  # PLATFORM_DIFFERENCES, GPU
        problem = d.same(expected, outcomes[path], terms=terms, complex_specials=specials)
        if problem and path == "defn" and "negative integer power" in str(expected):
            problem = None  # PLATFORM_DIFFERENCES["negative integer powers inside defn on XLA"]
        assert problem is None, f"{name}{[a.shape for a in arrays_]} {types} on {path}: {problem}"
    if reference is not None and expected[0] == "ok" and all(t in FLOATS for t in types):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            wide = np.asarray(reference(*[a.astype(np.float64) for a in arrays_]), dtype=np.float64)
            want = cast(np, wide, expected[4].dtype)
        bad = d.mismatches(want, expected[4], terms)
        assert not bad.any(), f"{name} {types} vs float64: {want[bad][:4]} vs {expected[4][bad][:4]}"


@SETTINGS
@given(data=st.data())
def test_binary_ops_with_broadcasting_agree(data):
    name = data.draw(st.sampled_from(sorted(BINARY)), label="op")
    type_name = data.draw(st.sampled_from(d.ALL_TYPES), label="type")
    if type_name.startswith("c") and name in ("min", "max", "atan2", "remainder", "less"):
        type_name = "f32"  # ordering ops are real-only (Nx raises: the edge-value test checks that)
    left_shape = data.draw(shapes(), label="left shape")
    right_shape = _broadcastable(data.draw, left_shape)
    if data.draw(st.booleans(), label="swap"):
        left_shape, right_shape = right_shape, left_shape
    left = data.draw(arrays(type_name, left_shape), label="left")
    right = data.draw(arrays(type_name, right_shape), label="right")
    _agree(name, getattr(nbt, name), [left, right], [type_name, type_name], BINARY[name])


@SETTINGS
@given(data=st.data())
def test_reductions_over_random_axes_agree(data):
    name = data.draw(st.sampled_from(sorted(REDUCTIONS)), label="op")
    type_name = data.draw(st.sampled_from(d.ALL_TYPES), label="type")
    if type_name.startswith("c") and name in REDUCTION_TABLE and REDUCTION_TABLE[name].real_only:
        type_name = "f64"
    shape = data.draw(shapes(min_rank=1), label="shape")
    axes = data.draw(st.none() | st.lists(st.integers(0, len(shape) - 1), unique=True, min_size=1), label="axes")
    keep_axes = data.draw(st.booleans(), label="keep_axes")
    x = data.draw(arrays(type_name, shape), label="values")
    reference = REDUCTIONS[name]
    wide_axes = None if axes is None else tuple(axes)
    with np.errstate(all="ignore"):  # PLATFORM_DIFFERENCES["summation order"]
        magnitudes = np.abs(x.astype(np.complex128))
        terms = float(np.sum(magnitudes[np.isfinite(magnitudes)]))
    _agree(
        name,
        lambda t: getattr(nbt, name)(t, axes=axes, keep_axes=keep_axes),
        [x],
        [type_name],
        None if reference is None else (lambda a: reference(a, axis=wide_axes, keepdims=keep_axes)),
        terms,
    )


@SETTINGS
@given(data=st.data())
def test_casts_between_random_types_agree(data):
    source = data.draw(st.sampled_from(d.ALL_TYPES), label="from")
    target = data.draw(st.sampled_from(d.ALL_TYPES), label="to")
    x = data.draw(arrays(source, data.draw(shapes(), label="shape")), label="values")
    # The reference for float-to-float casts: round the float64 value to the target.
    reference = (lambda a: a) if source in FLOATS and target in FLOATS else None
    _agree(f"as_type->{target}", lambda t: nbt.as_type(t, target), [x], [source], reference)


def test_the_ci_budget_rotates_one_type_a_day_through_the_other_sixteen():
    days = [d.selected_types(None, day) for day in range(len(d.ALL_TYPES) - len(d.CORE_TYPES))]
    assert all(types[:3] == d.CORE_TYPES and len(types) == 4 for types in days)
    assert {types[3] for types in days} == set(d.ALL_TYPES) - set(d.CORE_TYPES)
    assert d.selected_types("full", 0) == d.ALL_TYPES
    assert d.selected_types("bf16, u64", 0) == ("bf16", "u64")


# --- The op table's other families (`_op_table.STRUCTURED`): each entry with a `reference`,
# on its `samples` at random values, eager on NumPy and XLA and under `nbt.defn`.

ENTRY_TYPES = {"f32": 2e-4, "f64": 1e-9}  # each input type and the relative tolerance it is held to


def _entry_arrays(entry, shapes_: tuple, type_name: str, seed: int) -> list:
    """The sample's operands: random values of `type_name` for each shape, constants as given."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(np.float32 if type_name == "f32" else np.float64)
    return [
        spec if isinstance(spec, np.ndarray) else rng.standard_normal(spec).astype(dtype)  # a shape, or a constant
        for spec in shapes_
    ]


def _entry_failures(entry, type_name: str) -> list[str]:
    """Where `entry`'s method disagrees with its NumPy reference on its samples (empty: nowhere)."""
    from numbat._ops import _dispatch
    from numbat._tensor._tensor import Template

    failures = []
    for number, (shapes_, params) in enumerate(entry.samples):
        arrays_ = _entry_arrays(entry, shapes_, type_name, seed=number)
        # The output's type: the reference's on the operands as they are; its values: on float64 copies.
        out_type = nbt.tensor(np.asarray(entry.reference(*arrays_, **params))).type
        wide = [a.astype(np.float64) if a.dtype.kind == "f" else a for a in arrays_]
        want = np.asarray(entry.reference(*wide, **params))
        out = Template(want.shape, out_type, (None,) * want.ndim)
        run = lambda *tensors: _dispatch.run(entry.name, out, tensors, **params)  # noqa: B023 - used at once
        for path in ("numpy", "xla", "defn"):
            backend = d.backend_of(path)
            tensors = [nbt.tensor(a, backend=backend) for a in arrays_]
            got = (nbt.defn(run) if path == "defn" else run)(*tensors).to_numpy()
            tolerance = ENTRY_TYPES[type_name] * max(1.0, float(np.max(np.abs(want), initial=0.0)))
            if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=tolerance):
                failures.append(f"{entry.name} sample {number} {type_name} on {path}: {got!r} vs reference {want!r}")
    return failures


ENTRIES_WITH_REFERENCES = sorted(name for name, entry in STRUCTURED.items() if entry.reference is not None)


@pytest.mark.parametrize("name", ENTRIES_WITH_REFERENCES)
@pytest.mark.parametrize("type_name", sorted(ENTRY_TYPES))
def test_the_other_families_match_their_references_at_random_values(name, type_name):
    entry = STRUCTURED[name]
    assert entry.samples, f"{name} has a reference and no samples to check it on"
    assert _entry_failures(entry, type_name) == []


def test_every_entry_with_a_compute_or_a_numpy_reference_is_checked():
    # The table's computations are all checked against NumPy, but those with no shape-free
    # reference: as_type (the casts' own test above), and those whose shape is `out`'s alone.
    computed = {name for name, entry in STRUCTURED.items() if entry.compute is not None}
    assert computed - set(ENTRIES_WITH_REFERENCES) == {"as_type", "broadcast", "reshape", "iota", "eye"}
    assert len(ENTRIES_WITH_REFERENCES) >= 20


def test_a_wrong_formula_in_an_entry_fails_its_reference(monkeypatch):
    from numbat.backends._families import _base, shape

    wrong = dataclasses.replace(STRUCTURED["reverse"], compute=lambda xp, out, x, axes: x)  # forgets to flip
    monkeypatch.setitem(STRUCTURED, "reverse", wrong)
    monkeypatch.setattr(shape.Array, "reverse", shape.Array.reverse)  # restored after the test
    _base.fill(shape.Array, "shape")
    failures = _entry_failures(wrong, "f64")
    assert any("reverse sample 0 f64 on numpy" in line for line in failures), failures
    _base.fill(shape.Array, "shape")  # the monkeypatch restores the table; the method is put back
