"""Dataclasses as containers, as Nx's `@derive {Nx.Container, containers: [...], keep: [...]}`:
their tensor fields are traced, and the fields they keep (`keep`, or a field declared with
`dataclasses.field(metadata={"static": True})`) are static values, part of the compiled
signature. `container` registers a dataclass with JAX's pytrees; a defn registers a
dataclass it meets in its arguments or results the same way."""

from __future__ import annotations

import dataclasses

import jax

from .._core._errors import ArgumentError

_registered: set[type] = set()


def container(cls=None, *, keep=()):
    """Makes a dataclass a container that defns, `grad` and the control flow take apart:
    its fields are tensors (or containers), except those named in `keep` or declared with
    `dataclasses.field(metadata={"static": True})`, which stay Python values, compiled in.

    >>> import dataclasses
    >>> @nbt.container(keep=["activation"])
    ... @dataclasses.dataclass
    ... class Dense:
    ...     kernel: object
    ...     bias: object
    ...     activation: str = "relu"
    >>> @nbt.defn
    ... def predict(layer, x):
    ...     y = nbt.dot(x, layer.kernel) + layer.bias
    ...     return nbt.max(y, 0) if layer.activation == "relu" else y
    >>> predict(Dense(nbt.tensor([[1.0], [-1.0]]), nbt.tensor([0.5])), nbt.tensor([[1.0, 3.0]]))
    numbat.Tensor<
      f32[1][1]
      [
        [0.0]
      ]
    >
    """
    if cls is None:
        return lambda cls: container(cls, keep=keep)
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
        raise ArgumentError(
            f"nbt.container takes a dataclass (decorate it with @dataclasses.dataclass first), got {cls!r}"
        )
    names = [field.name for field in dataclasses.fields(cls)]
    unknown = [name for name in keep if name not in names]
    if unknown:
        raise ArgumentError(f"nbt.container: keep names {unknown}, which are not fields of {cls.__name__} ({names})")
    if cls not in _registered:
        static = {field.name for field in dataclasses.fields(cls) if field.metadata.get("static")} | set(keep)
        data = [name for name in names if name not in static]
        jax.tree_util.register_dataclass(cls, data_fields=data, meta_fields=[n for n in names if n in static])
        _registered.add(cls)
    return cls


def register_found(tree, depth: int = 0) -> None:
    """Registers each dataclass (not yet a pytree) found in `tree`'s tuples, lists, dicts
    and dataclasses, so that JAX takes it apart as a container."""
    if depth > 32:
        return
    if isinstance(tree, (tuple, list)):
        for item in tree:
            register_found(item, depth + 1)
    elif isinstance(tree, dict):
        for item in tree.values():
            register_found(item, depth + 1)
    elif dataclasses.is_dataclass(tree) and not isinstance(tree, type):
        cls = type(tree)
        if cls not in _registered and _is_leaf(tree):
            container(cls)
        for field in dataclasses.fields(tree):
            register_found(getattr(tree, field.name), depth + 1)


def _is_leaf(value) -> bool:
    """Whether JAX takes `value` as a leaf (its class is not registered as a pytree)."""
    return jax.tree_util.tree_structure(value).num_nodes == 1
