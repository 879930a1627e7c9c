"""What every array implementation shares: the array module, the helpers that convert
operands to the output type and wrap results, and `fill`, which makes the methods of the
op table's entries that hold their computation (`_core/_op_table.STRUCTURED`)."""

from __future__ import annotations

import abc

from ..._core import _op_table
from ..._core._errors import ArgumentError
from ..._tensor._tensor import Template, Tensor
from .._cast import cast


class ArrayBase(abc.ABC):
    """Helpers over `self.xp` (`numpy` or `jax.numpy`); subclasses implement placement."""

    xp = None  # the array module: numpy or jax.numpy

    @abc.abstractmethod
    def _wrap(self, out: Template, data) -> Tensor:
        """Wraps `data` (already of `out`'s dtype and shape) as a tensor of this backend."""

    @abc.abstractmethod
    def _place(self, out: Template, data) -> Tensor:
        """Wraps freshly created `data`, moving it to this backend's device."""

    def _as(self, tensor: Tensor, out: Template):
        if tensor.type == out.type:  # the common case: a tensor's data always has its type's dtype
            return tensor.data
        return cast(self.xp, self.xp.asarray(tensor.data), out.type.dtype)  # Nx's conversion rules


def _entry_method(entry):
    """The method of an op table entry with a `compute` (`_op_table.Entry`): its operands
    converted to the output's type (kept in their own with `own_type`; an index operand, in
    `indices`, its data as it is), computed, wrapped; written out as one line, so that it costs
    no more than a method written by hand."""
    own = "self.xp.asarray({}.data)" if entry.own_type else "self._as({}, out)"
    arguments = []
    for name in entry.operands:
        bare = name.lstrip("*")
        convert = "{}.data" if bare in entry.as_data else own
        arguments.append(f"*[{convert.format('each')} for each in {bare}]" if name != bare else convert.format(name))
    arguments += [f"{name}={name}" for name in entry.param_names]
    wrap = "self._place" if entry.creates else "self._wrap"
    body = f"return {wrap}(out, _compute(self.xp, {', '.join(['out', *arguments])}))"
    method = entry.function(body, {"_compute": entry.compute})
    method.from_table = True  # fill may run again (a test adding an op): it replaces its own methods
    return method


def fill(array: type, family: str) -> list[str]:
    """Makes each entry of `family` in the op table's other families (`_op_table.STRUCTURED`) with
    a `compute` a method of `array`; refuses an entry with both a `compute` and a method written
    out, or with neither. Returns the names filled in."""
    filled = []
    for entry in _op_table.STRUCTURED.values():
        if entry.family != family:
            continue
        written = entry.name in vars(array) and not getattr(vars(array)[entry.name], "from_table", False)
        if entry.compute is not None:
            if written:
                raise ArgumentError(f"op {entry.name!r} has both a compute in the op table and a method in {family}")
            setattr(array, entry.name, _entry_method(entry))
            filled.append(entry.name)
        elif not written:
            raise ArgumentError(f"op {entry.name!r} of the op table has no compute and no method in {family}")
    return filled
