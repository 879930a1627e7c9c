"""A defn call's input signature: which leaves are tensors (with shape, type
and names), which are static, and the container structure around them."""

from __future__ import annotations

import typing

import jax
import numpy as np

from .._core._errors import ArgumentError
from .._core._format import vectorized_header as format_axes
from .._core._types import is_number
from .._ops import _convert
from .._tensor._tensor import Template, Tensor, VectorizedData, is_tensor
from . import _containers


class VectorizedArgument(ArgumentError):
    """A defn argument is a vectorized tensor: a defn call compiles it devectorized
    (`_vectorized_call`); `compile` and `debug_expr` refuse it."""


def _is_dynamic(value) -> bool:
    return isinstance(value, (Tensor, np.ndarray, jax.Array)) or is_number(value)


@typing.final
class Signature(typing.NamedTuple):
    """The cache key of a call: container structure, tensor templates, static values."""

    treedef: object
    templates: tuple  # one Template per dynamic leaf
    statics: tuple  # (position, value) of each static leaf
    options: tuple  # sorted keyword options

    def describe(self) -> str:
        """A short text form, e.g. `(f32[1000000], s32[x: 2])`."""
        parts = [str(t) for t in self.templates] + [f"{v!r}" for _, v in self.statics]
        parts += [f"{k}={v!r}" for k, v in self.options]
        return "(" + ", ".join(parts) + ")"

    def difference(self, other: Signature) -> str:
        """Why `self` needed its own compilation, compared with `other`."""
        if self.treedef != other.treedef:
            return f"input structure changed from {other.treedef} to {self.treedef}"
        for i, (new, old) in enumerate(zip(self.templates, other.templates)):
            if new != old:
                return f"input {i} changed from {old} to {new}"
        if self.statics != other.statics:
            return f"static values changed from {other.statics} to {self.statics}"
        return f"options changed from {dict(other.options)} to {dict(self.options)}"


def lists_as_tensors(args: tuple) -> tuple:
    """A list argument of numbers (nested lists of numbers included) is read as one tensor,
    as `nbt.tensor` reads it, not as a container of scalars; a list that holds a tensor
    (or is empty) stays a container.

    >>> double = nbt.defn(lambda x: x * 2)
    >>> double([1, 2, 3])
    numbat.Tensor<
      s32[3]
      [2, 4, 6]
    >
    >>> double([nbt.tensor(1), nbt.tensor(2)])  # a container: Python's list * 2
    [numbat.Tensor<
      s32
      1
    >, numbat.Tensor<
      s32
      2
    >, numbat.Tensor<
      s32
      1
    >, numbat.Tensor<
      s32
      2
    >]
    """
    for arg in args:
        if type(arg) is list:
            break
    else:
        return args
    return tuple(_convert.tensor(arg) if type(arg) is list and arg and _numbers_only(arg) else arg for arg in args)


def _numbers_only(value) -> bool:
    if type(value) is list:
        return all(_numbers_only(item) for item in value)
    return is_number(value)


def _is_argument_leaf(value) -> bool:
    return isinstance(value, (Tensor, Template))


def _template_refused(position: int, template: Template) -> ArgumentError:
    return ArgumentError(
        f"argument leaf {position} is a template ({template}), which has no data to run on; "
        "pass a tensor, or trace the template with nbt.debug_expr or nbt.compile"
    )


def refuse_templates(args: tuple) -> None:
    """Raises if a leaf of `args` is a template (where the defn runs, not only traces)."""
    for position, leaf in enumerate(jax.tree_util.tree_leaves(args, is_leaf=_is_argument_leaf)):
        if leaf.__class__ is Template:
            raise _template_refused(position, leaf)


def flatten(args: tuple, options: dict, to_tensor, templates_only: bool = False) -> tuple[Signature, list[Tensor]]:
    """Splits `args` into a signature and the tensors to pass as parameters.
    `to_tensor` turns arrays and numbers into tensors. A template (`nbt.template`) stands
    for a tensor only where nothing runs (`templates_only`: `debug_expr` traces for the
    signature alone); elsewhere it is refused."""
    _containers.register_found(args)
    leaves, treedef = jax.tree_util.tree_flatten(args, is_leaf=_is_argument_leaf)
    tensors, templates, statics = [], [], []
    for position, leaf in enumerate(leaves):
        if leaf.__class__ is Template:
            if not templates_only:
                raise _template_refused(position, leaf)
            templates.append(leaf)
        elif _is_dynamic(leaf):
            tensor = to_tensor(leaf)
            if tensor.data.__class__ is VectorizedData:
                raise VectorizedArgument(
                    f"argument leaf {position} is a vectorized tensor ({format_axes(tensor.data.axes)}); "
                    "call the defn itself with it, or nbt.devectorize it first"
                )
            tensors.append(tensor)
            templates.append(Template(tensor.shape, tensor.type, tensor.names))
        else:
            _check_hashable(leaf, f"argument leaf {position}")
            statics.append((position, leaf))
    options = {key: _frozen(value) for key, value in options.items()}
    for key, value in options.items():
        _check_option(key, value)
    return Signature(treedef, tuple(templates), tuple(statics), tuple(sorted(options.items()))), tensors


def unflatten(signature: Signature, tensors: list[Tensor]) -> tuple:
    """Rebuilds the arguments from a signature and (traced) tensors."""
    statics = dict(signature.statics)
    tensor_iter = iter(tensors)
    count = len(signature.templates) + len(statics)
    leaves = [statics[i] if i in statics else next(tensor_iter) for i in range(count)]
    return jax.tree_util.tree_unflatten(signature.treedef, leaves)


def _frozen(value):
    """An option's list (`axes=[1]`, as Nx's keyword lists take) as a tuple, so that it keys
    the compiled entry; the function receives the tuple."""
    if type(value) is list:
        return tuple(_frozen(item) for item in value)
    return value


def _check_option(key: str, value) -> None:
    """A keyword argument is a static option (Nx's keyword list): a tensor or an array there
    is refused with the fix, to pass it positionally."""
    if isinstance(value, (Tensor, np.ndarray, jax.Array)):
        raise ArgumentError(
            f"keyword argument {key!r} is a {type(value).__name__}, but a defn's keyword arguments are static "
            "options (as Nx's keyword list: a number, a string, a tuple), compiled into the code; "
            f"pass tensors positionally, e.g. f(x, {key}) instead of f(x, {key}={key})"
        )
    _check_hashable(value, f"option {key!r}")


def _check_hashable(value, where: str) -> None:
    try:
        hash(value)
    except TypeError:
        raise ArgumentError(
            f"{where} is a {type(value).__name__}, which is neither a tensor, a number, nor hashable; "
            "defn arguments are tensors, numbers, containers (tuple, list, dict) of them, or hashable static values"
        ) from None


def flatten_outputs(result) -> tuple[object, list[Tensor]]:
    """The output structure and its tensors; anything else is a clear error."""
    _containers.register_found(result)
    leaves, treedef = jax.tree_util.tree_flatten(result, is_leaf=is_tensor)
    for position, leaf in enumerate(leaves):
        if not isinstance(leaf, Tensor):
            raise ArgumentError(
                f"a defn must return tensors or containers (tuple, list, dict) of tensors; "
                f"output leaf {position} is {type(leaf).__name__} {leaf!r}"
            )
    return treedef, leaves
