"""Numerical definitions: trace to an expression graph, compile to XLA."""

from .._tensor._expr import Expr as Expr
from .._tensor._expr import inspect_expr as inspect_expr
from .._tensor._expr import print_expr as print_expr
from ._cache import is_cached as is_cached
from ._compiler import Defn as Defn
from ._compiler import RecompilationWarning as RecompilationWarning
from ._control import cond as cond
from ._control import fori_loop as fori_loop
from ._control import while_loop as while_loop
from ._effects import hook as hook
from ._effects import inspect_value as inspect_value
from ._effects import io_call as io_call
from ._effects import print_value as print_value
from ._grad import custom_grad as custom_grad
from ._grad import grad as grad
from ._grad import jacobian as jacobian
from ._grad import value_and_grad as value_and_grad
from ._jit import compile as compile
from ._jit import debug_expr as debug_expr
from ._jit import debug_expr_apply as debug_expr_apply
from ._jit import defn as defn
from ._jit import jit as jit
from ._jit import jit_apply as jit_apply
from ._options import default_defn_options as default_defn_options
from ._options import global_default_defn_options as global_default_defn_options
from ._runtime_call import runtime_call as runtime_call
