"""numbat: Nx and EXLA for Python on JAX. Typed, named tensors; numerical
definitions compiled to XLA; a compiler you can see into from Jupyter.

>>> import numbat as nbt
>>> nbt.to_number(nbt.sum(nbt.tensor([1, 2, 3])))
6
"""

import functools as _functools

__version__ = "0.1.0"  # the distribution numbat-nx's version (pyproject.toml reads it here)

from . import constants as constants
from . import linalg as linalg
from . import notebook as notebook
from . import random as random
from . import telemetry as telemetry
from . import xla as xla
from ._core import _op_table, _types
from ._core._errors import AllocationError as AllocationError
from ._core._errors import ArgumentError as ArgumentError
from ._core._errors import ClientError as ClientError
from ._core._errors import HookError as HookError
from ._core._errors import Interrupted as Interrupted
from ._core._types import Type as Type
from ._defn import Defn as Defn
from ._defn import Expr as Expr
from ._defn import RecompilationWarning as RecompilationWarning
from ._defn import compile as compile
from ._defn import cond as cond
from ._defn import container as container
from ._defn import custom_grad as custom_grad
from ._defn import debug_expr as debug_expr
from ._defn import debug_expr_apply as debug_expr_apply
from ._defn import default_defn_options as default_defn_options
from ._defn import defn as defn
from ._defn import fori_loop as fori_loop
from ._defn import global_default_defn_options as global_default_defn_options
from ._defn import grad as grad
from ._defn import hook as hook
from ._defn import inspect_expr as inspect_expr
from ._defn import inspect_value as inspect_value
from ._defn import interruptible as interruptible
from ._defn import io_call as io_call
from ._defn import is_cached as is_cached
from ._defn import jacobian as jacobian
from ._defn import jit as jit
from ._defn import jit_apply as jit_apply
from ._defn import print_expr as print_expr
from ._defn import print_value as print_value
from ._defn import runtime_call as runtime_call
from ._defn import value_and_grad as value_and_grad
from ._defn import while_loop as while_loop
from ._library._heatmap import Heatmap as Heatmap
from ._library._heatmap import to_heatmap as to_heatmap
from ._library._serialize import deserialize as deserialize
from ._library._serialize import load_numpy as load_numpy
from ._library._serialize import load_numpy_archive as load_numpy_archive
from ._library._serialize import serialize as serialize
from ._ops import _keywords
from ._ops import primitive as _primitive
from ._ops._convert import from_dlpack as from_dlpack
from ._ops._convert import tensor as tensor
from ._ops.composite.construct import diff as diff
from ._ops.composite.construct import fill as fill
from ._ops.composite.construct import from_binary as from_binary
from ._ops.composite.construct import linspace as linspace
from ._ops.composite.construct import make_diagonal as make_diagonal
from ._ops.composite.construct import outer as outer
from ._ops.composite.construct import put_diagonal as put_diagonal
from ._ops.composite.construct import take_diagonal as take_diagonal
from ._ops.composite.construct import to_binary as to_binary
from ._ops.composite.construct import to_flat_list as to_flat_list
from ._ops.composite.construct import to_list as to_list
from ._ops.composite.construct import tri as tri
from ._ops.composite.construct import tril as tril
from ._ops.composite.construct import triu as triu
from ._ops.composite.math import log as log
from ._ops.composite.shape import pad_outer as pad_outer
from ._ops.composite.shape import reflect as reflect
from ._ops.composite.shape import slice_along_axis as slice_along_axis
from ._ops.composite.shape import split as split
from ._ops.composite.shape import stack as stack
from ._ops.composite.shape import tile as tile
from ._ops.composite.shape import to_batched as to_batched
from ._ops.composite.shorthand import bf16 as bf16
from ._ops.composite.shorthand import c64 as c64
from ._ops.composite.shorthand import c128 as c128
from ._ops.composite.shorthand import f8 as f8
from ._ops.composite.shorthand import f16 as f16
from ._ops.composite.shorthand import f32 as f32
from ._ops.composite.shorthand import f64 as f64
from ._ops.composite.shorthand import s2 as s2
from ._ops.composite.shorthand import s4 as s4
from ._ops.composite.shorthand import s8 as s8
from ._ops.composite.shorthand import s16 as s16
from ._ops.composite.shorthand import s32 as s32
from ._ops.composite.shorthand import s64 as s64
from ._ops.composite.shorthand import u2 as u2
from ._ops.composite.shorthand import u4 as u4
from ._ops.composite.shorthand import u8 as u8
from ._ops.composite.shorthand import u16 as u16
from ._ops.composite.shorthand import u32 as u32
from ._ops.composite.shorthand import u64 as u64
from ._ops.composite.statistics import all_close as all_close
from ._ops.composite.statistics import covariance as covariance
from ._ops.composite.statistics import logsumexp as logsumexp
from ._ops.composite.statistics import mean as mean
from ._ops.composite.statistics import median as median
from ._ops.composite.statistics import mode as mode
from ._ops.composite.statistics import standard_deviation as standard_deviation
from ._ops.composite.statistics import variance as variance
from ._ops.composite.statistics import weighted_mean as weighted_mean
from ._ops.composite.vectorization import broadcast_vectors as broadcast_vectors
from ._ops.composite.vectorization import devectorize as devectorize
from ._ops.composite.vectorization import reshape_vectors as reshape_vectors
from ._ops.composite.vectorization import revectorize as revectorize
from ._ops.composite.vectorization import vectorize as vectorize
from ._ops.primitive.creation import template as template
from ._ops.primitive.creation import to_number as to_number
from ._ops.primitive.creation import to_tensor as to_tensor
from ._ops.primitive.shape import axes as axes
from ._ops.primitive.shape import axis_index as axis_index
from ._ops.primitive.shape import axis_size as axis_size
from ._ops.primitive.shape import bit_size as bit_size
from ._ops.primitive.shape import byte_size as byte_size
from ._ops.primitive.shape import compatible as compatible
from ._ops.primitive.shape import flat_size as flat_size
from ._ops.primitive.shape import names as names
from ._ops.primitive.shape import rank as rank
from ._ops.primitive.shape import rename as rename
from ._ops.primitive.shape import shape as shape
from ._ops.primitive.shape import size as size
from ._ops.primitive.shape import to_template as to_template
from ._ops.primitive.shape import type as type
from ._tensor._tensor import Tensor as Tensor
from .backends import AbstractBackend as AbstractBackend
from .backends import NumPyBackend as NumPyBackend
from .backends import XLABackend as XLABackend
from .backends import backend_copy as backend_copy
from .backends import backend_deallocate as backend_deallocate
from .backends import backend_transfer as backend_transfer
from .backends import default_backend as default_backend
from .backends import global_default_backend as global_default_backend
from .backends import with_default_backend as with_default_backend
from .notebook import load_ipython_extension as load_ipython_extension
from .notebook import unload_ipython_extension as unload_ipython_extension
from .xla._sharding import Mesh as Mesh

# The public functions of the op table's other families (each entry's `public`, `_op_table.STRUCTURED`),
# from their family's front-end module (`_ops/primitive/<family>.py`): no line here per function.
_ENTRY_OPS = {name: entry.family for entry in _op_table.STRUCTURED.values() for name in entry.public}
globals().update({name: getattr(vars(_primitive)[family], name) for name, family in _ENTRY_OPS.items()})


# The op table's public ops (`_core/_op_table.py`: the element-wise ops and the reductions) are
# exported from the table, each from its family's front-end module (`_ops/primitive/<family>.py`)
# unless a name above already gives it (a composite such as `log`): a new op of the table needs no
# line here (docs/guides/adding_an_op.md); tests/test_op_table.py checks the table against this
# module's names and `__all__`.
def _table_exports(namespace: dict) -> dict:
    """The op table's public ops missing from `namespace`, from their family's front-end module."""
    ops = {**_op_table.OPS, **_op_table.REDUCTIONS}.items()
    return {name: getattr(vars(_primitive)[op.family], name) for name, op in ops if op.public and name not in namespace}


_TABLE_OPS = sorted(name for name, op in {**_op_table.OPS, **_op_table.REDUCTIONS}.items() if op.public)
globals().update(_table_exports(globals()))

# Every public op raises numbat's ArgumentError for an unknown option (not a bare TypeError).
# Every public function refuses an unknown keyword with numbat's error, not Python's TypeError.
_keywords.guard_namespace(
    globals(),
    (
        "numbat._ops.",
        "numbat.backends",
        "numbat._defn",
        "numbat._tensor._expr",
        "numbat._library._serialize",
        "numbat._library._heatmap",
    ),
)
_keywords.guard_namespace(vars(linalg), ("numbat.linalg",), "linalg.")
_keywords.guard_namespace(vars(random), ("numbat.random",), "random.")


def _one_or_two(op, reduction: str):
    """Nx's element-wise `max`/`min` of two tensors, answering NumPy's one-argument habit."""

    @_functools.wraps(op)
    def call(left, right=_ONE_ARGUMENT, **options):
        if right is _ONE_ARGUMENT:
            raise TypeError(
                f"{op.__name__}() missing 1 required positional argument: 'right': nbt.{op.__name__}(a, b) is Nx's "
                f"element-wise {op.__name__} of two tensors; the {op.__name__}imum of one tensor's elements is "
                f"nbt.{reduction}(t, axes=None, keep_axes=False)"
            )
        return op(left, right, **options)

    return call


_ONE_ARGUMENT = object()
max = _one_or_two(max, "reduce_max")
min = _one_or_two(min, "reduce_min")

# NumPy's and JAX's names that numbat spells otherwise (Nx's names): `nbt.zeros` says how.
_SPELLINGS = {
    "zeros": "nbt.broadcast(0.0, shape) (Nx builds constant tensors by broadcasting a number; type= with as_type)",
    "ones": "nbt.broadcast(1.0, shape)",
    "full": "nbt.broadcast(value, shape)",
    "empty": "nbt.broadcast(0.0, shape)",
    "zeros_like": "nbt.fill(t, 0)",
    "ones_like": "nbt.fill(t, 1)",
    "full_like": "nbt.fill(t, value)",
    "empty_like": "nbt.fill(t, 0)",
    "arange": "nbt.iota((n,)) (0 to n-1; nbt.iota((n,)) * step + start for a range) or nbt.linspace",
    "identity": "nbt.eye(n)",
    "array": "nbt.tensor(data, type=..., names=...)",
    "asarray": "nbt.tensor(data, type=..., names=...)",
    "from_numpy": "nbt.tensor(array)",
    "astype": "nbt.as_type(t, type)",
    "matmul": "nbt.dot(a, b) (or a @ b)",
    "einsum": "nbt.dot(a, contract_axes, b, contract_axes) (Nx's dot with contraction and batch axes)",
    "tensordot": "nbt.dot(a, contract_axes, b, contract_axes)",
    "inner": "nbt.dot(a, b)",
    "concat": "nbt.concatenate(tensors, axis=0)",
    "hstack": "nbt.concatenate(tensors, axis=-1) (or axis=0 for vectors)",
    "vstack": "nbt.concatenate(tensors, axis=0) (nbt.stack for vectors)",
    "append": "nbt.concatenate([t, values], axis=0)",
    "expand_dims": "nbt.new_axis(t, axis, name=None)",
    "newaxis": "nbt.new_axis(t, axis, name=None)",
    "swapaxes": "nbt.transpose(t, axes=[...])",
    "moveaxis": "nbt.transpose(t, axes=[...])",
    "ravel": "nbt.flatten(t)",
    "flip": "nbt.reverse(t, axes=None)",
    "where": "nbt.select(pred, on_true, on_false)",
    "maximum": "nbt.max(a, b)",
    "minimum": "nbt.min(a, b)",
    "amax": "nbt.reduce_max(t, axes=None, keep_axes=False)",
    "amin": "nbt.reduce_min(t, axes=None, keep_axes=False)",
    "prod": "nbt.product(t, axes=None, keep_axes=False)",
    "std": "nbt.standard_deviation(t, axes=None, keep_axes=False, ddof=0)",
    "var": "nbt.variance(t, axes=None, keep_axes=False, ddof=0)",
    "average": "nbt.weighted_mean(t, weights, axes=None)",
    "cumsum": "nbt.cumulative_sum(t, axis=0)",
    "cumprod": "nbt.cumulative_product(t, axis=0)",
    "power": "nbt.pow(a, b)",
    "square": "nbt.multiply(t, t) (or t * t, or nbt.pow(t, 2))",
    "absolute": "nbt.abs(t)",
    "isnan": "nbt.is_nan(t)",
    "isinf": "nbt.is_infinity(t)",
    "allclose": "nbt.all_close(a, b, rtol=1e-05, atol=1e-08)",
    "isclose": "nbt.all_close(a, b) for the whole tensors (element-wise: nbt.abs(a - b) <= atol + rtol * nbt.abs(b))",
    "array_equal": "nbt.to_number(nbt.all(nbt.equal(a, b)))",
    "diag": "nbt.make_diagonal(t) (vector to matrix) or nbt.take_diagonal(t) (matrix to vector)",
    "tolist": "nbt.to_list(t)",
    "item": "nbt.to_number(t)",
    "vmap": "nbt.vectorize(t, name) for named batching; jax.vmap works over numbat code too",
}


def __getattr__(name: str):
    # PEP 562: runs only for a name the module does not have.
    spelling = _SPELLINGS.get(name)
    if spelling is None and name.isidentifier() and not name.startswith("_"):
        spelling = _type_spelling(name)
    if spelling is None:
        raise AttributeError(f"module 'numbat' has no attribute {name!r}")
    raise AttributeError(f"module 'numbat' has no attribute {name!r}: numbat spells it {spelling}")


def _type_spelling(name: str) -> str | None:
    """`nbt.float32` and friends: the Nx type's name, for a NumPy dtype's name."""
    try:
        nx_type = _types.parse(name)
    except ArgumentError:
        return None
    return f'the Nx type "{nx_type}" (type="{nx_type}", nbt.Type{tuple(nx_type)!r} or a NumPy dtype work)'


# The public API: what `help(nbt)`, `from numbat import *`, tab completion and the API pages list.
__all__ = [
    "AbstractBackend",
    "AllocationError",
    "ArgumentError",
    "ClientError",
    "Defn",
    "Expr",
    "Heatmap",
    "HookError",
    "Interrupted",
    "Mesh",
    "NumPyBackend",
    "RecompilationWarning",
    "Tensor",
    "Type",
    "XLABackend",
    "all_close",
    "axes",
    "axis_index",
    "axis_size",
    "backend_copy",
    "backend_deallocate",
    "backend_transfer",
    "bf16",
    "bit_size",
    "broadcast_vectors",
    "byte_size",
    "c64",
    "c128",
    "compatible",
    "compile",
    "cond",
    "constants",
    "container",
    "covariance",
    "custom_grad",
    "debug_expr",
    "debug_expr_apply",
    "default_backend",
    "default_defn_options",
    "defn",
    "deserialize",
    "devectorize",
    "diff",
    "f8",
    "f16",
    "f32",
    "f64",
    "fill",
    "flat_size",
    "fori_loop",
    "from_binary",
    "from_dlpack",
    "global_default_backend",
    "global_default_defn_options",
    "grad",
    "hook",
    "inspect_expr",
    "inspect_value",
    "interruptible",
    "io_call",
    "is_cached",
    "jacobian",
    "jit",
    "jit_apply",
    "linalg",
    "linspace",
    "load_ipython_extension",
    "load_numpy",
    "load_numpy_archive",
    "logsumexp",
    "make_diagonal",
    "mean",
    "median",
    "mode",
    "names",
    "notebook",
    "outer",
    "pad_outer",
    "print_expr",
    "print_value",
    "put_diagonal",
    "random",
    "rank",
    "reflect",
    "rename",
    "reshape_vectors",
    "revectorize",
    "runtime_call",
    "s2",
    "s4",
    "s8",
    "s16",
    "s32",
    "s64",
    "serialize",
    "shape",
    "size",
    "slice_along_axis",
    "split",
    "stack",
    "standard_deviation",
    "take_diagonal",
    "telemetry",
    "template",
    "tensor",
    "tile",
    "to_batched",
    "to_binary",
    "to_flat_list",
    "to_heatmap",
    "to_list",
    "to_number",
    "to_template",
    "to_tensor",
    "tri",
    "tril",
    "triu",
    "type",
    "u2",
    "u4",
    "u8",
    "u16",
    "u32",
    "u64",
    "unload_ipython_extension",
    "value_and_grad",
    "variance",
    "vectorize",
    "weighted_mean",
    "while_loop",
    "with_default_backend",
    "xla",
]
__all__ += [name for name in _TABLE_OPS if name not in __all__]  # the op table's, exported above
__all__ += [
    name for name in sorted(_ENTRY_OPS) if name not in __all__
]  # the other families' entries' public functions, exported above
