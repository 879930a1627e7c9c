"""`vectorize` of a function: a function over single examples, run over a batch axis with `jax.vmap`.

`nbt.vectorize(tensor, axes)` makes vectorized tensors, as Nx does (`vectorization`);
given a function instead, it is this transform on JAX's `vmap`:
`nbt.vectorize(fun)(batch)` calls `fun` on each slice of `batch` along `axis` (as if
in a loop, but as one compiled computation) and stacks the results along a new leading
axis named `name`. Inside `fun` the tensors have no batch axis. It works eagerly and
inside a defn, where it is recorded as one `vectorize` node whose sub-graph is `fun`
on one example.
"""

from __future__ import annotations

import jax
import numpy as np

from ..._core import _names
from ..._core._errors import ArgumentError
from ..._tensor import _expr
from ..._tensor._tensor import Tensor, check_concrete, is_deallocated, is_tensor, is_traced
from ...backends import _default
from ...backends.numpy_backend import NumPyBackend
from ...backends.xla_backend import XLABackend
from .. import _dispatch


def vectorize_function(fun, axis=0, name=None):
    """`fun` mapped over `axis` (an int or name) of every tensor argument; the results
    gain a leading axis (named `name`, or the mapped axis' name).

    >>> nbt.vectorize(lambda row: nbt.sum(row * row))(nbt.tensor([[1, 2], [3, 4]], names=["batch", "x"]))
    numbat.Tensor<
      s32[batch: 2]
      [5, 25]
    >
    """
    if not callable(fun):
        raise ArgumentError(f"vectorize needs a function, got {type(fun).__name__} {fun!r}")

    def mapped(*args):
        tensors = [_dispatch.to_tensor(a) if not isinstance(a, Tensor) else a for a in args]
        if not tensors:
            raise ArgumentError("vectorize: the function needs at least one tensor argument")
        for tensor in tensors:
            if not is_traced(tensor) and is_deallocated(tensor):
                check_concrete(tensor, "vectorize a function over")  # the numbat error for a freed tensor
        positions = [_names.axis_index(t.names, axis) for t in tensors]
        sizes = {t.shape[p] for t, p in zip(tensors, positions)}
        if len(sizes) != 1:
            raise ArgumentError(f"vectorize: the mapped axes have different sizes {sorted(sizes)}")
        batch_name = name if name is not None else tensors[0].names[positions[0]]
        backend = _default.current()
        compute = backend if isinstance(backend, XLABackend) else XLABackend()
        templates = [(t.type, t.names[:p] + t.names[p + 1 :]) for t, p in zip(tensors, positions)]
        found = {}

        recorder = _expr.current()

        def one(*datas):
            inner = [Tensor(d, type_, names, compute) for d, (type_, names) in zip(datas, templates)]
            sub = _expr.Recorder(parent=recorder)
            for position, tensor in enumerate(inner):
                sub.parameter(tensor, position)
            with _default.default_backend(compute), _expr.recording(sub):
                out = fun(*inner)
                leaves, treedef = jax.tree_util.tree_flatten(out, is_leaf=is_tensor)
                leaves = [_dispatch.to_tensor(leaf, compute) for leaf in leaves]
            found["treedef"], found["templates"] = treedef, [(t.type, t.names) for t in leaves]
            found["expr"] = sub.expr(leaves)
            return [t.data for t in leaves]

        datas = [t.data if not isinstance(t.data, np.ndarray) else jax.numpy.asarray(t.data) for t in tensors]
        with jax.enable_x64(True):
            outputs = jax.vmap(one, in_axes=positions)(*datas)
        results = []
        for data, (type_, names) in zip(outputs, found["templates"]):
            if isinstance(backend, NumPyBackend):
                results.append(Tensor(np.asarray(data), type_, (batch_name, *names), backend))
            else:
                results.append(Tensor(data, type_, (batch_name, *names), compute))
        if recorder is not None:
            params = {"axes": tuple(positions), "name": batch_name}
            recorder.record_many("vectorize", tuple(tensors), params, results, subgraphs=(("of", found["expr"]),))
        return jax.tree_util.tree_unflatten(found["treedef"], results)

    return mapped
