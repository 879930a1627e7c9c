"""Sharding (EXLA's `shard_jit`) on `jax.sharding`: a `Mesh` names a grid of devices,
and `shard_jit` compiles a function to run on all of them, each input split along
the mesh axes its `input_shardings` entry names.
"""

from __future__ import annotations

import math
import typing

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

from .. import _names
from .._errors import ArgumentError
from .._ops import _dispatch
from .._tensor import Tensor
from ..backends.xla_backend import XLABackend
from . import _client


@typing.final
class Mesh:
    """A named grid of devices of one client, `shape` devices along each mesh axis.

    >>> nbt.Mesh("mesh", (1,)).size
    1
    """

    def __init__(self, name: str, shape: tuple, client: str | None = None):
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        if not isinstance(name, str) or not shape or not all(isinstance(s, int) and s >= 1 for s in shape):
            raise ArgumentError(f"Mesh(name, shape) needs a name and positive axis sizes, got {name!r}, {shape!r}")
        self.name, self.shape, self.client = name, shape, client
        self.size = math.prod(shape)

    def __repr__(self) -> str:
        return f"numbat.Mesh<{self.name}: {self.shape}>"

    def jax_mesh(self) -> jax.sharding.Mesh:
        platform = _client.PLATFORMS[self.client or _client.default_client()]
        devices = jax.devices(platform)
        if len(devices) < self.size:
            raise ArgumentError(
                f"mesh {self.name!r} of shape {self.shape} needs {self.size} devices; client {platform!r} has "
                f"{len(devices)} (on the host, configure more first: nbt.xla.configure(clients={{'host': "
                f"{{'platform': 'host', 'device_count': {self.size}}}}}))"
            )
        axes = tuple(f"{self.name}_{i}" for i in range(len(self.shape)))
        return jax.sharding.Mesh(np.array(devices[: self.size]).reshape(self.shape), axes)


def shard_jit(fun, mesh: Mesh, input_shardings: list, **opts):
    """`fun` compiled to run across `mesh`. `input_shardings[i]` maps a dimension of
    argument i (an int, or an axis name) to the mesh axes it is split over; other
    dimensions are replicated. The compiled function takes one list of arguments per
    device (the device's shard of each argument), in mesh order, and returns the
    result as one tensor.

    >>> f = nbt.xla.shard_jit(lambda t: t * 2, nbt.Mesh("mesh", (1,)), input_shardings=[{0: [0]}])
    >>> f([[nbt.tensor([1, 2, 3])]])
    numbat.Tensor<
      s32[3]
      [2, 4, 6]
    >
    """
    if not isinstance(mesh, Mesh):
        raise ArgumentError(f"shard_jit needs an nbt.Mesh, got {mesh!r}")
    if not isinstance(input_shardings, (list, tuple)) or not all(isinstance(s, dict) for s in input_shardings):
        raise ArgumentError(
            f"input_shardings must be a list of {{dimension: [mesh axes]}} dicts, got {input_shardings!r}"
        )
    for spec in input_shardings:
        for axes in spec.values():
            if not all(isinstance(a, int) and 0 <= a < len(mesh.shape) for a in axes):
                raise ArgumentError(f"input_shardings: mesh axes {axes!r} are not axes of mesh {mesh.shape}")
    from .._defn._compiler import Defn

    target = fun if isinstance(fun, Defn) else Defn(fun, **opts)

    def run(shards):
        if not isinstance(shards, (list, tuple)) or len(shards) != mesh.size:
            raise ArgumentError(f"shard_jit: expected one list of arguments per device ({mesh.size}), got {shards!r}")
        count = len(input_shardings)
        if not all(isinstance(s, (list, tuple)) and len(s) == count for s in shards):
            raise ArgumentError(f"shard_jit: each device's list must hold {count} argument(s)")
        jax_mesh = mesh.jax_mesh()
        devices = list(jax_mesh.devices.flat)
        arguments = []
        for position, spec in enumerate(input_shardings):
            pieces = [_dispatch.to_tensor(device_args[position]) for device_args in shards]
            first = pieces[0]
            dims = {_names.axis_index(first.names, d): tuple(axes) for d, axes in spec.items()}
            partition = [None] * first.rank
            global_shape = list(first.shape)
            for dim, axes in dims.items():
                partition[dim] = tuple(jax_mesh.axis_names[a] for a in axes) or None
                global_shape[dim] *= math.prod(mesh.shape[a] for a in axes)
            for index, piece in enumerate(pieces):
                if piece.shape != first.shape or piece.type != first.type:
                    raise ArgumentError(
                        f"shard_jit: argument {position} on device {index} is {piece.type}{list(piece.shape)}, "
                        f"expected {first.type}{list(first.shape)} like device 0"
                    )
            sharding = NamedSharding(jax_mesh, PartitionSpec(*partition))
            here = jax.process_index()  # with several processes, each places its own devices' shards
            with jax.enable_x64(True):
                placed = [
                    jax.device_put(np.asarray(p.to_numpy()), d)
                    for p, d in zip(pieces, devices)
                    if d.process_index == here
                ]
                data = jax.make_array_from_single_device_arrays(tuple(global_shape), sharding, placed)
            arguments.append(Tensor(data, first.type, first.names, XLABackend(mesh.client)))
        with jax.enable_x64(True):
            return jax.jit(target._traced_call)(*arguments)

    return run
