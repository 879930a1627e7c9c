"""numbat: Nx and EXLA for Python on JAX. Typed, named tensors; numerical
definitions compiled to XLA; a compiler you can see into from Jupyter.

>>> import numbat as nbt
>>> nbt.to_number(nbt.sum(nbt.tensor([1, 2, 3])))
6
"""

from ._errors import ArgumentError as ArgumentError, ClientError as ClientError
from ._tensor import Tensor as Tensor
from ._types import Type as Type
from ._ops.creation import as_type as as_type, broadcast as broadcast, eye as eye, iota as iota
from ._ops.creation import template as template, tensor as tensor, to_number as to_number
from ._ops.elementwise import abs as abs, add as add, cos as cos, divide as divide, equal as equal, exp as exp
from ._ops.elementwise import greater as greater, greater_equal as greater_equal, less as less
from ._ops.elementwise import less_equal as less_equal, log as log, multiply as multiply, negate as negate
from ._ops.elementwise import not_equal as not_equal, pow as pow, sin as sin, sqrt as sqrt, subtract as subtract
from ._ops.elementwise import tanh as tanh
from ._ops.linalg import dot as dot
from ._ops.reduction import argmax as argmax, argmin as argmin, mean as mean, reduce_max as reduce_max
from ._ops.reduction import reduce_min as reduce_min, sum as sum
from ._ops.shape import reshape as reshape, transpose as transpose
from .backends import AbstractBackend as AbstractBackend, NumPyBackend as NumPyBackend, XLABackend as XLABackend
from .backends import backend_copy as backend_copy, backend_transfer as backend_transfer
from .backends import default_backend as default_backend, global_default_backend as global_default_backend
from .defn import Defn as Defn, Expr as Expr, compile as compile, debug_expr as debug_expr, defn as defn
from .defn import grad as grad, inspect_expr as inspect_expr, jit as jit, jit_apply as jit_apply
from .defn import print_expr as print_expr, value_and_grad as value_and_grad
from . import telemetry as telemetry, xla as xla


def load_ipython_extension(ipython):
    """`%load_ext numbat`: registers magics, displays and the telemetry strip."""
    from .notebook import load_ipython_extension as load

    load(ipython)


def unload_ipython_extension(ipython):
    """`%unload_ext numbat`: removes what loading registered."""
    from .notebook import unload_ipython_extension as unload

    unload(ipython)
