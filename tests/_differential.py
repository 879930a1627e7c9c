"""What the differential tests share: the ops they cover (discovered from the package),
the Nx types, edge values per type, the four paths and the comparison of outcomes.

The four paths: eager NumPy backend, eager XLA backend, `nbt.defn` on XLA, and the
evaluator (`nbt.defn(fun, compiler="evaluator")` over NumPy tensors). An outcome is the
result's type, shape, names and values, or the class and message of the numbat error.

PLATFORM_DIFFERENCES is the one table of differences kept on purpose; the comparison
applies exactly these and nothing else.
"""

from __future__ import annotations

import datetime
import inspect
import os
import re
import warnings

import ml_dtypes
import numpy as np
from _paths import promised_precision

import numbat as nbt
from numbat._core import _op_table
from numbat._core._errors import ArgumentError

ALL_TYPES = (
    "f8_e4m3fn",
    "f16",
    "bf16",
    "f32",
    "f64",
    "c64",
    "c128",
    "u8",
    "u16",
    "u32",
    "u64",
    "s8",
    "s16",
    "s32",
    "s64",
    "u2",
    "u4",
    "s2",
    "s4",
)
# Nx's sub-byte integers, stored one a byte in ml_dtypes' types.
SUBBYTE_DTYPES = tuple(np.dtype(t) for t in (ml_dtypes.int2, ml_dtypes.int4, ml_dtypes.uint2, ml_dtypes.uint4))
# CI's budget: three types always (f32, c64, s8: one float, complex and integer type) and one
# more that rotates through the other sixteen, a new one each day (UTC), so sixteen days of CI
# check every Nx type; about 90 s on a 2-core machine. NUMBAT_DIFFERENTIAL=full checks all
# nineteen (about six minutes); NUMBAT_DIFFERENTIAL=bf16,u64 checks the types named.
CORE_TYPES = ("f32", "c64", "s8")


def selected_types(setting: str | None, day: int) -> tuple:
    """The types a run checks, from NUMBAT_DIFFERENTIAL's value `setting` on day `day`
    (days since 0001-01-01)."""
    if setting == "full":
        return ALL_TYPES
    if setting:
        named = tuple(name.strip() for name in setting.split(","))
        unknown = [name for name in named if name not in ALL_TYPES]
        if unknown:
            raise ValueError(f"NUMBAT_DIFFERENTIAL names unknown types {unknown}; the types: {ALL_TYPES} (or 'full')")
        return named
    rest = [name for name in ALL_TYPES if name not in CORE_TYPES]
    return (*CORE_TYPES, rest[day % len(rest)])


def one_type_a_day(setting: str | None, day: int) -> tuple:
    """The types test_differential_ops.py checks: those `setting` names (as `selected_types`),
    and in CI (no setting) one type a day, rotating through all nineteen (its recipes are many
    ops each, about 30 s a type on a 2-core machine)."""
    return selected_types(setting, day) if setting else (ALL_TYPES[day % len(ALL_TYPES)],)


_TODAY = datetime.datetime.now(datetime.UTC).toordinal()
TYPES = selected_types(os.environ.get("NUMBAT_DIFFERENTIAL"), _TODAY)
TYPES_OF_THE_DAY = one_type_a_day(os.environ.get("NUMBAT_DIFFERENTIAL"), _TODAY)
PATHS = ("numpy", "xla", "defn", "evaluator")

# The differences between paths that numbat keeps, with the reason. The comparison in
# `same` applies these rules and no others.
PLATFORM_DIFFERENCES = {
    "subnormals": (
        "XLA on CPU treats subnormal float inputs as zero and flushes subnormal results to zero "
        "(DAZ/FTZ, as EXLA); NumPy computes with them. Making every NumPy op flush would cost a "
        "select per op. Compared: results within the type's smallest normal of each other, and "
        "where an input is subnormal, XLA's result may equal NumPy's result for that input as zero."
    ),
    "atan2, pow and cbrt of subnormals": (
        "XLA on CPU gives for subnormal inputs of atan2, pow and cbrt neither IEEE's answer nor "
        "zero's (f32: atan2(1e-45, 1e-45) is NaN, 1e-45 ** 0.5 is 2.6e-23, cbrt(1e-45) is "
        "-5.6e-16; f64: atan2(5e-324, -1.0) is -pi). numbat reads these ops' subnormal inputs as "
        "signed zero on every path, for the types whose subnormals XLA computes as subnormal "
        "(bf16, f32, f64; f16 and f8 widen to normal f32). Compared: the float64 reference "
        "of these ops, for those types, is taken with the same inputs read as zero (READ_AS_ZERO)."
    ),
    "ulps": (
        "Transcendental functions come from different libraries (NumPy's libm, XLA's own "
        "approximations): float results may differ by a few ulps (8 ulps of the result's type, "
        "relative), complex results by as much relative to their magnitude."
    ),
    "summation order": (
        "Reductions add in the backend's order (NumPy pairwise, XLA in vectorized partial sums): "
        "a sum whose terms cancel may differ by a few ulps of the terms' total magnitude, not of "
        "the result. Compared, for reductions and windows only: within 8 ulps of the sum of the "
        "finite inputs' magnitudes."
    ),
    "negative integer powers inside defn on XLA": (
        "Nx raises for an integer to a negative integer power; numbat raises on every path where "
        "the exponent's values are known (eager NumPy and XLA, the evaluator, constants in a defn). "
        "An exponent traced by a defn on XLA has no values until it runs: there XLA's integer "
        "power gives 1 for base 1, +-1 for base -1, else 0."
    ),
    "negative shifts and complex atan2 inside defn on XLA": (
        "Nx raises for a shift by a negative amount and for atan2 of complex numbers with a non-zero "
        "imaginary part; numbat raises where the values are known (eager NumPy and XLA, constants). "
        "Traced by a defn on XLA they have no values until it runs: there a shift gives XLA's "
        "answer and atan2 NaN+NaN i."
    ),
    "complex special values on a GPU": (
        "XLA on a GPU lowers some complex arithmetic with other formulas than XLA on the CPU (MLIR's "
        "complex lowering, which recovers C99's infinities), so where an answer is not finite the "
        "two give different infinities and NaNs. The NumPy backend computes complex special values "
        "with XLA on the host CPU (backends/_families/_tables.py, complex_as_xla). Measured on an "
        "NVIDIA H200 (jax 0.11.2), c64: divide nan-infj where the host gives nan+nanj, acos "
        "likewise, window_product inf+nanj where the host gives nan+nanj. Compared, only for "
        "these ops (GPU_COMPLEX_SPECIALS), only on the XLA paths and only when the XLA backend's "
        "platform is not the CPU: an element whose host answer has an infinite or NaN part "
        "matches any answer with an infinite or NaN part; finite answers are compared as ever."
    ),
    "singular triangular matrices inside defn on XLA": (
        "Nx's triangular_solve raises for a 0 on the matrix's diagonal; numbat raises on every "
        "path where the matrix's values are known (eager NumPy and XLA, the evaluator). A matrix "
        "traced by a defn has no values until it runs: there XLA's triangular solve gives "
        "infinities or NaNs, as EXLA's does."
    ),
}

# (op, types) whose subnormal inputs every path reads as zero
# (PLATFORM_DIFFERENCES["atan2, pow and cbrt of subnormals"]).
# The op table's entries with `subnormals_as_zero`.
READ_AS_ZERO = {name: ("bf16", "f32", "f64") for name, op in _op_table.OPS.items() if op.subnormals_as_zero}

# (op, type, input value) -> the PLATFORM_DIFFERENCES entry that exempts that element (and
# only it) from the comparison between paths.
EXEMPT = {}  # none now: sinh and cosh on XLA are within 3 ulps (`_core/_op_code._hyperbolic`)


# Ops whose complex special values may differ on a non-CPU XLA platform
# (PLATFORM_DIFFERENCES["complex special values on a GPU"]); a name before "(" counts, so
# "window_product(padding)" is window_product.
GPU_COMPLEX_SPECIALS = ("acos", "divide", "window_product")


def xla_platform() -> str:
    """The platform of the XLA backend's default device ("cpu", "cuda", "rocm", "tpu")."""
    return nbt.XLABackend().device.platform


def complex_specials_differ(op: str, path: str, platform: str) -> bool:
    """Whether PLATFORM_DIFFERENCES["complex special values on a GPU"] applies to `op` on `path`
    when the XLA backend runs on `platform`."""
    return platform != "cpu" and path in ("xla", "defn") and op.split("(")[0] in GPU_COMPLEX_SPECIALS


def exempt_mask(op: str, type_name: str, array: np.ndarray) -> np.ndarray:
    """The elements of a unary op's input that EXEMPT leaves out of the comparison."""
    values = [value for (name, type_, value) in EXEMPT if name == op and type_ == type_name]
    return np.isin(array, values) if values else np.zeros(array.shape, bool)


# Ops covered by the differential tests: every public function of these modules (and
# `as_type`) is discovered; those that do not fit the unary/binary/reduction/window
# shapes have a recipe below, and the test fails for one that has neither.
MODULES = ("elementwise", "math", "complex", "bitwise", "reduction", "statistics", "window")

RECIPES = {
    "as_type": None,  # covered separately: every type to every type
    "clip": lambda x, y: nbt.clip(x, y, y),
    "select": lambda x, y: nbt.select(nbt.greater(x, y) if not x.type.is_complex else nbt.is_nan(x), x, y),
    "all_close": lambda x, y: nbt.all_close(x, y),
    "weighted_mean": lambda x, y: nbt.weighted_mean(x, y),
    "reduce": lambda x: nbt.reduce(x, 0, nbt.add),
    "window_reduce": lambda x: nbt.window_reduce(x, 0, (2,), nbt.add),
    "window_scatter_max": lambda x: nbt.window_scatter_max(
        x, nbt.broadcast(nbt.tensor(1, type=x.type), (x.shape[0] // 2,)), 0, (2,), strides=2
    ),
    "window_scatter_min": lambda x: nbt.window_scatter_min(
        x, nbt.broadcast(nbt.tensor(1, type=x.type), (x.shape[0] // 2,)), 0, (2,), strides=2
    ),
}

# Ops of those modules covered elsewhere: median and mode sort (the indexing/sort
# differential coverage), covariance works on matrices.
NOT_HERE = {
    "median": "computed by sort",
    "mode": "computed by sort",
    "covariance": "a matrix op (rank 2 and up): Nx's doctests cover it",
}


# The public ops test_differential_structure.py compares (hypothesis's shapes and edge values).
STRUCTURE_OPS = ("sort", "argsort", "take", "gather", "indexed_add", "indexed_put", "reverse", "transpose")
STRUCTURE_OPS += ("tile", "concatenate", "split", "cumulative_max", "cumulative_min")

_METADATA = "reads a tensor's metadata (no values to compare): tests/test_ops_io_and_metadata.py, test_names.py"
_HOST = "moves data between a tensor and the host (every comparison builds its inputs and reads its results with these)"
_DEFN = "a defn transform or option, not an op: every comparison runs through defn and the evaluator"
_MACHINE = "backends, devices and files: no result that a path computes"
# Public functions that the differential cannot compare as ops, with the reason.
NOT_COMPARED = {
    **dict.fromkeys(("axes", "axis_index", "axis_size", "bit_size", "byte_size", "compatible"), _METADATA),
    **dict.fromkeys(("flat_size", "names", "rank", "shape", "size", "type", "to_template", "template"), _METADATA),
    **dict.fromkeys(("tensor", "to_tensor", "to_number", "to_binary", "to_flat_list", "to_list"), _HOST),
    **dict.fromkeys(("from_binary", "from_dlpack"), _HOST),
    **dict.fromkeys(("u2", "u4", "u8", "u16", "u32", "u64", "s2", "s4", "s8", "s16", "s32", "s64"), _HOST),
    **dict.fromkeys(("f8", "f16", "f32", "f64", "bf16", "c64", "c128"), _HOST),
    "container": "registers a dataclass as a defn container: tests/test_nx_programs.py",
    **dict.fromkeys(("defn", "jit", "jit_apply", "compile", "debug_expr", "debug_expr_apply"), _DEFN),
    **dict.fromkeys(("default_defn_options", "global_default_defn_options", "is_cached"), _DEFN),
    **dict.fromkeys(("grad", "value_and_grad", "jacobian", "custom_grad"), _DEFN),
    **dict.fromkeys(("cond", "while_loop", "fori_loop", "interruptible"), _DEFN),
    **dict.fromkeys(("hook", "print_value", "inspect_value", "io_call", "runtime_call"), _DEFN),
    **dict.fromkeys(("print_expr", "inspect_expr"), "prints the expression graph: tests/test_defn.py"),
    **dict.fromkeys(("backend_copy", "backend_deallocate", "backend_transfer", "default_backend"), _MACHINE),
    **dict.fromkeys(("global_default_backend", "with_default_backend"), _MACHINE),
    **dict.fromkeys(("serialize", "deserialize", "load_numpy", "load_numpy_archive"), _MACHINE),
    "to_heatmap": "a text/HTML rendering of values, not a tensor: tests/test_notebook_views.py",
    **dict.fromkeys(("load_ipython_extension", "unload_ipython_extension"), "the IPython extension's hooks"),
}


def discover() -> dict:
    """name -> (kind, function) for every covered op; kind is unary, binary, reduce, window or recipe."""
    ops = {}
    for name in sorted(dir(nbt)):
        fun = getattr(nbt, name)
        module = getattr(fun, "__module__", "") or ""
        if not callable(fun) or module.rsplit(".", 1)[-1] not in MODULES or not module.startswith("numbat._ops"):
            continue
        if name in NOT_HERE:
            continue
        required = [p.name for p in inspect.signature(fun).parameters.values() if p.default is inspect.Parameter.empty]
        if name in RECIPES:
            ops[name] = ("recipe", RECIPES[name])
        elif (
            required == ["tensor"]
            and "axes" in inspect.signature(fun).parameters
            or required == ["tensor"]
            and "axis" in inspect.signature(fun).parameters
        ):
            ops[name] = ("reduce", fun)
        elif required == ["tensor"]:
            ops[name] = ("unary", fun)
        elif len(required) == 2 and module.endswith(("elementwise", "math", "complex", "bitwise")):
            ops[name] = ("binary", fun)
        elif required == ["tensor", "window"]:
            ops[name] = ("window", fun)
        else:
            ops[name] = ("unknown", fun)
    return ops


def edge_values(type_name: str) -> np.ndarray:
    """NaN, +-Inf, -0.0, subnormals, the type's min and max, 0, +-1 and a few ordinary values."""
    type_ = nbt.parse_type(type_name) if hasattr(nbt, "parse_type") else None
    dtype = _dtype(type_name)
    if dtype.kind in "iu" or dtype in SUBBYTE_DTYPES:
        info = ml_dtypes.iinfo(dtype)
        values = [0, 1, 2, 7, info.max, info.max - 1, info.min, info.min + 1]
        if info.min < 0:
            values += [-1, -2, -7]
        return np.array(sorted({v for v in values if info.min <= v <= info.max}), dtype=dtype)
    real = _real_edges(
        np.dtype(np.float32) if type_name == "c64" else np.dtype(np.float64) if type_name == "c128" else dtype
    )
    if dtype.kind == "c":
        few = real[[0, 1, 2, 3, 4, 5, 6, 9, 11]]  # nan, +-inf, -0, 0, +-1, a subnormal, the max
        grid = np.empty((few.size, few.size), dtype)
        grid.real, grid.imag = few[:, None], few[None, :]
        return grid.reshape(-1)
    del type_
    return real


def _real_edges(dtype: np.dtype) -> np.ndarray:
    info = ml_dtypes.finfo(dtype)
    values = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, -2.5]
    values += [float(info.smallest_subnormal), -float(info.smallest_subnormal), float(info.smallest_normal)]
    values += [float(info.max), -float(info.max), 3.0, 100.0]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.array(values, dtype=np.float64).astype(dtype)


def _dtype(type_name: str) -> np.dtype:
    return nbt.tensor(0, type=type_name).to_numpy().dtype


def backend_of(path: str):
    return nbt.NumPyBackend() if path in ("numpy", "evaluator") else nbt.XLABackend()


def run(path: str, fun, arrays: list, type_name: str | list):
    """The outcome of `fun(*tensors)` on `path`, the tensors built from `arrays` of `type_name`."""
    backend = backend_of(path)
    types = type_name if isinstance(type_name, list) else [type_name] * len(arrays)
    try:
        tensors = [nbt.tensor(a, type=t, backend=backend) for a, t in zip(arrays, types)]
        with nbt.default_backend(backend), promised_precision():  # compared paths: one precision
            if path == "defn":
                result = nbt.defn(fun)(*tensors)
            elif path == "evaluator":
                result = nbt.defn(fun, compiler="evaluator")(*tensors)
            else:
                result = fun(*tensors)
    except (ArgumentError, ValueError, TypeError, RuntimeError, ArithmeticError, IndexError) as error:
        return ("error", type(error).__name__, _first_line(error))
    return outcome(result)


def run_many(path: str, funs: dict, arrays: list, type_name: str) -> dict:
    """name -> outcome of each `funs[name](*tensors)` on `path`. A defn on XLA traces every
    op into one function (one compilation instead of one per op): an op that raises while
    tracing records its error, and if the compiled whole fails, each op runs alone."""
    if path != "defn":
        return {name: run(path, fun, arrays, type_name) for name, fun in funs.items()}
    errors = {}

    def everything(*tensors):
        results = {}
        for name, fun in funs.items():
            try:
                results[name] = fun(*tensors)
            except (ArgumentError, ValueError, TypeError, RuntimeError, ArithmeticError, IndexError) as error:
                errors[name] = ("error", type(error).__name__, _first_line(error))
        return results

    backend = backend_of(path)
    try:
        tensors = [nbt.tensor(a, type=type_name, backend=backend) for a in arrays]
        with nbt.default_backend(backend), promised_precision():
            results = nbt.defn(everything)(*tensors)
    except Exception:  # noqa: BLE001 - one op broke the whole: find it by running each alone
        return {name: run(path, fun, arrays, type_name) for name, fun in funs.items()}
    return {name: errors[name] if name in errors else outcome(results[name]) for name in funs}


def outcome(result):
    if isinstance(result, tuple):
        return tuple(outcome(r) for r in result)
    return ("ok", str(result.type), tuple(result.shape), tuple(result.names), result.to_numpy())


def _first_line(error) -> str:
    text = str(error).splitlines()[0] if str(error) else ""
    # A defn wraps a tracing error in its own message: keep the op's error itself.
    return text.split(": ", 3)[-1] if text.startswith("defn ") else text


def is_numbat_error(result) -> bool:
    return result[0] == "error" and result[1] in ("ArgumentError",)


def flushed(array: np.ndarray) -> np.ndarray:
    """`array` with subnormal elements (real or imaginary parts) replaced by zero of their sign,
    as XLA's CPU sees them."""
    if array.dtype.kind not in "fc" and not _is_ml_float(array.dtype):
        return array
    if array.dtype.kind == "c":
        result = np.empty_like(array)
        result.real, result.imag = flushed(array.real), flushed(array.imag)
        return result
    tiny = ml_dtypes.finfo(array.dtype).smallest_normal
    with np.errstate(all="ignore"):
        small = np.abs(array.astype(np.float64)) < float(tiny)
        zero = np.copysign(0.0, array.astype(np.float64))
    return np.where(small, zero.astype(array.dtype), array).astype(array.dtype)


def _is_ml_float(dtype) -> bool:
    try:
        ml_dtypes.finfo(dtype)
    except (TypeError, ValueError):
        return False
    return dtype.kind != "c"


def has_subnormal(array: np.ndarray) -> bool:
    return not np.array_equal(flushed(array), array, equal_nan=True) if array.dtype.kind not in "iu" else False


def same(expected, got, alternative=None, terms=0.0, exempt=None, complex_specials=False) -> str | None:
    """None when two outcomes agree (PLATFORM_DIFFERENCES applied), else what differs.
    `alternative` is NumPy's outcome with subnormal inputs read as zero: an element may
    match either (PLATFORM_DIFFERENCES["subnormals"]). `terms` is the magnitude of the terms
    a reduction summed (PLATFORM_DIFFERENCES["summation order"]), 0 for element-wise ops;
    `exempt` a mask of elements not compared (`exempt_mask`); `complex_specials`: whether
    PLATFORM_DIFFERENCES["complex special values on a GPU"] applies (`complex_specials_differ`)."""
    if isinstance(expected, tuple) and expected and isinstance(expected[0], tuple):
        for e, g in zip(expected, got):
            problem = same(e, g, terms=terms, complex_specials=complex_specials)
            if problem:
                return problem
        return None
    if expected[0] != got[0]:
        return f"{expected[0]} {expected[1:3] if expected[0] == 'error' else expected[1]} vs {got[0]} {got[1:3] if got[0] == 'error' else got[1]}"
    if expected[0] == "error":
        return None if expected[1] == got[1] else f"error {expected[1]} vs {got[1]}"
    if expected[1:4] != got[1:4]:
        return f"template {expected[1:4]} vs {got[1:4]}"
    bad = mismatches(expected[4], got[4], terms)
    if alternative is not None and alternative[0] == "ok" and alternative[1:4] == got[1:4]:
        bad = bad & mismatches(alternative[4], got[4], terms)
    if exempt is not None and exempt.shape == bad.shape:
        bad = bad & ~exempt
    if complex_specials and expected[4].dtype.kind == "c":
        bad = bad & ~(_not_finite(expected[4]) & _not_finite(got[4]))
    return (
        None
        if not bad.any()
        else f"values differ at {np.flatnonzero(bad)[:8].tolist()}: {expected[4].reshape(-1)[bad.reshape(-1)][:4]} vs {got[4].reshape(-1)[bad.reshape(-1)][:4]}"
    )


def mismatches(a: np.ndarray, b: np.ndarray, terms: float = 0.0) -> np.ndarray:
    """A boolean mask of elements that differ beyond PLATFORM_DIFFERENCES's "ulps",
    "subnormals" and (for a reduction of terms of magnitude `terms`) "summation order"."""
    if a.dtype.kind in "iub" or a.dtype in SUBBYTE_DTYPES:
        return a != b
    if a.dtype.kind == "c":
        return _float_mismatches(a.real, b.real, a, terms) | _float_mismatches(a.imag, b.imag, a, terms)
    return _float_mismatches(a, b, a, terms)


def _not_finite(array: np.ndarray) -> np.ndarray:
    """Complex elements with an infinite or NaN part."""
    return ~(np.isfinite(array.real) & np.isfinite(array.imag))


def _float_mismatches(a, b, whole, terms=0.0):
    info = ml_dtypes.finfo(a.dtype)
    x, y = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(all="ignore"):
        scale = np.fmax(np.abs(whole.astype(np.complex128 if whole.dtype.kind == "c" else np.float64)), terms)
        scale = np.fmax(np.abs(x), scale)  # a NaN part never hides the other part's scale
        close = np.abs(x - y) <= 8 * float(info.eps) * scale + float(info.smallest_normal)
    same_special = (np.isnan(x) & np.isnan(y)) | (x == y)
    return ~(close | same_special)


_REFUSED_VALUE = re.compile(r"cannot (left|right) shift by|atan2 only accepts real numbers")


def compare_paths(funs: dict, arrays: list, type_name: str, failures: list, terms=0.0, summed=None, platform=None):
    """Runs every op of `funs` on all four paths; records each disagreement with the NumPy
    path in `failures`; returns the NumPy outcomes. `terms`: see `same`; with `summed`, only
    the ops it names get them. `platform`: the XLA backend's (`xla_platform()` unless given)."""
    platform = xla_platform() if platform is None else platform
    results = {path: run_many(path, funs, arrays, type_name) for path in PATHS}
    alternatives = {}
    if any(has_subnormal(a) for a in arrays):  # PLATFORM_DIFFERENCES["subnormals"]
        alternatives = run_many("numpy", funs, [flushed(a) for a in arrays], type_name)
    for name in funs:
        expected = results["numpy"][name]
        if expected[0] == "error" and not is_numbat_error(expected):
            failures.append(f"{name}[{type_name}] numpy: bare {expected[1]}: {expected[2]}")
        for path in PATHS[1:]:
            alternative = alternatives.get(name) if path in ("xla", "defn") else None
            exempt = exempt_mask(name, type_name, arrays[0]) if len(arrays) == 1 else None
            op_terms = terms if summed is None or name in summed else 0.0
            specials = complex_specials_differ(name, path, platform)
            problem = same(expected, results[path][name], alternative, op_terms, exempt, specials)
            if problem and path == "defn" and name == "pow" and "negative integer power" in str(expected):
                problem = None  # PLATFORM_DIFFERENCES["negative integer powers inside defn on XLA"]
            if problem and path == "defn" and _REFUSED_VALUE.search(str(expected)):
                problem = None  # PLATFORM_DIFFERENCES["negative shifts and complex atan2 inside defn on XLA"]
            if problem:
                failures.append(f"{name}[{type_name}] {path}: {problem}")
    return results["numpy"]


def domain_points(domain: tuple, type_name: str, size: int, seed: int) -> np.ndarray:
    """`size` random values of the float type `type_name` in the real interval `domain`
    (`(low, high)`, an op table entry's `domain`): half spread over it (log-uniform in
    magnitude, from the type's smallest normal number to its largest, where a side is
    infinite or the interval wide; uniform where it is narrow), half next to its finite
    ends (inside, at log-uniform distances from a few ulps to the interval's width) and
    next to zero. Subnormals are left to the edge grid (their own rule). Deterministic
    for a `seed`."""
    dtype = _dtype(type_name)
    info = ml_dtypes.finfo(dtype)
    tiny, big = float(info.smallest_normal), float(info.max)
    low, high = max(float(domain[0]), -big), min(float(domain[1]), big)
    rng = np.random.default_rng(seed)
    spread, near = size // 2, size - size // 2
    magnitudes = 10.0 ** rng.uniform(np.log10(tiny), np.log10(big), spread)
    if high - low <= 16:
        values = rng.uniform(low, high, spread)
    elif low == -big and high == big:
        values = magnitudes * rng.choice([-1.0, 1.0], spread)
    elif high == big:
        values = low + magnitudes
    else:
        values = high - magnitudes
    ends = [end for end in (float(domain[0]), float(domain[1]), 0.0) if -big < end < big]
    width = min(high - low, 1e4)
    chosen = rng.choice(ends, near)
    closest = np.where(chosen == 0, np.log10(tiny), np.log10(float(info.eps)) - 1)  # next to 0: down to tiny
    distances = 10.0 ** rng.uniform(closest, np.log10(width))
    inward = np.where(chosen == low, 1.0, np.where(chosen == high, -1.0, rng.choice([-1.0, 1.0], near)))
    edge = chosen + inward * distances * np.fmax(np.abs(chosen), 1.0)
    with np.errstate(all="ignore"):
        points = np.concatenate([values, edge]).clip(low, high).astype(dtype)
    return flushed(points)
