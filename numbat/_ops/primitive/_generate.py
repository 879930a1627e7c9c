"""The front-end functions that the op table generates (as NumPy's `generate_umath.py`
generates its ufuncs): an element-wise entry with `examples` (`_core/_op_table.py`) is
all its function says, `unary(name, tensor, rule)` or `binary(name, left, right, rule)` with
the result-type rule its `result` names, and its docstring the entry's `doc` and `examples`.
`define` makes each such function a real function of its family's module
(`numbat._ops.primitive.<family>`): its `__name__`, `__qualname__`, `__module__`, signature
(`(tensor)` or `(left, right)`) and globals are that module's, so doctest finds and runs its
examples there, and the API pages document it as any function. An entry without `examples`
has a hand-written function of its own (extra parameters, special cases), which takes its
result-type rule from the entry too (`result_type`).

>>> from numbat._ops.primitive import math
>>> math.exp.__module__, math.exp.__qualname__, str(inspect.signature(math.exp))
('numbat._ops.primitive.math', 'exp', '(tensor)')
"""

from __future__ import annotations

import inspect
import types

from ..._core import _op_table, _types
from ..._core._errors import ArgumentError
from . import _apply


def _parts(type_: _types.Type) -> _types.Type:
    return _types.to_real(_types.to_floating(type_))


def _complex(type_: _types.Type) -> _types.Type:
    return _types.to_complex(_types.to_floating(type_))


# The table's result-type rules (`Op.result`), each a function of the operands' type (None: that type).
_RULES = {
    "same": None,
    "floating": _types.to_floating,
    "real": _types.to_real,
    "u8": _apply.u8,
    "parts": _parts,
    "complex": _complex,
}


def result_type(name: str):
    """The result-type rule of op `name`'s entry, as `_apply.unary`/`binary` take it (None: the
    operands' type); `same_integer` refuses other than integer operands, naming the op."""
    op = _op_table.OPS[name]
    if op.result == "same_integer":
        return _apply.integers(name)
    if op.result not in _RULES:
        raise ArgumentError(f"the op table's {name!r} names an unknown result-type rule {op.result!r}")
    return _RULES[op.result]


def _unary(name, rule):
    apply = _apply.unary

    def function(tensor):
        return apply(name, tensor, rule)

    return function


def _binary(name, rule):
    apply = _apply.binary

    def function(left, right):
        return apply(name, left, right, rule)

    return function


def docstring(op: _op_table.Op) -> str:
    """The generated function's docstring: the entry's `doc`, then its `examples`."""
    return f"{op.doc}\n\n{inspect.cleandoc(op.examples)}\n"


def generated(family: str) -> list[str]:
    """The ops of `family` whose front-end function the table generates (their entries have `examples`)."""
    return [name for name, op in _op_table.OPS.items() if op.family == family and op.examples is not None]


def define(namespace: dict, family: str, names: list[str] | None = None) -> list[str]:
    """Defines in `namespace` (a family module's globals) the generated function of each entry
    of `family` with `examples` (or of those of `names`), and returns their names; refuses a
    name the module writes."""
    names = generated(family) if names is None else names
    written = sorted(name for name in names if name in namespace)
    if written:
        raise ArgumentError(f"the op table generates {written}, which {namespace['__name__']} writes too")
    for name in names:
        op = _op_table.OPS[name]
        template = (_unary if op.arity == 1 else _binary)(name, result_type(name))
        code = template.__code__.replace(co_name=name, co_qualname=name)
        function = types.FunctionType(code, namespace, name, None, template.__closure__)
        function.__qualname__ = name
        function.__doc__ = docstring(op)
        namespace[name] = function
    return names
