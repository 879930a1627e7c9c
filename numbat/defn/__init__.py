"""Numerical definitions: trace to an expression graph, compile to XLA."""

from ._compiler import Defn as Defn, compile as compile, debug_expr as debug_expr, defn as defn
from ._compiler import jit as jit, jit_apply as jit_apply
from ._expr import Expr as Expr, inspect_expr as inspect_expr, print_expr as print_expr
from ._grad import grad as grad, value_and_grad as value_and_grad
