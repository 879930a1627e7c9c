"""Sharding (EXLA's `shard_jit`) on `jax.sharding`: a `Mesh` names a grid of devices,
and `shard_jit` compiles a function to run on all of them, each input split along
the mesh axes its `input_shardings` entry names.
"""

from __future__ import annotations

import collections
import math
import threading
import time
import typing

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

from .. import telemetry
from .._core import _names
from .._core._errors import ArgumentError
from .._core._jax_private import DuplicateSpecError
from .._defn import _options, _report
from .._defn._definition import Defn
from .._defn._signature import flatten
from .._ops import _dispatch
from .._runtime import _client
from .._tensor._tensor import Tensor
from ..backends.xla_backend import XLABackend


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

    def key(self) -> tuple:
        """What makes two meshes the same grid (a cache key)."""
        return (self.name, self.shape, self.client)

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


# Compiled sharded functions, per function, options, mesh, input shardings and global
# argument signature: identical calls compile once (bounded: it keeps functions alive).
_CACHE_LIMIT = 128
_compiled: collections.OrderedDict = collections.OrderedDict()
_lock = threading.RLock()


def shard_jit(fun, mesh: Mesh, input_shardings: list, **opts):
    """`fun` compiled to run across `mesh`. `input_shardings[i]` maps a dimension of
    argument i (an int, or an axis name) to the mesh axes it is split over; other
    dimensions are replicated. The compiled function takes one list of arguments per
    device (the device's shard of each argument), in mesh order, and returns the
    result as one tensor. It compiles once per argument signature (as a defn: with a
    `("numbat", "compilation")` event, and a `("numbat", "cache_hit")` on each later call).

    >>> f = nbt.xla.shard_jit(lambda t: t * 2, nbt.Mesh("mesh", (1,)), input_shardings=[{0: [0]}])
    >>> f([[nbt.tensor([1, 2, 3])]])
    numbat.Tensor<
      s32[3]
      [2, 4, 6]
    >
    >>> nbt.xla.shard_jit(lambda t: t, nbt.Mesh("mesh", (1,)), input_shardings=[{0: [0], 1: [0]}])
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: input_shardings[0] splits dimensions 0 and 1 over the same mesh axis 0 of mesh 'mesh'; a mesh axis can split one dimension of an argument
    """
    if not isinstance(mesh, Mesh):
        raise ArgumentError(f"shard_jit needs an nbt.Mesh, got {mesh!r}")
    _check_shardings(input_shardings, mesh)
    target = fun if isinstance(fun, Defn) else Defn(fun, **opts)
    specs = tuple(tuple((dim, tuple(axes)) for dim, axes in spec.items()) for spec in input_shardings)

    compiled_last: list = [None]  # the signature this function compiled last: why a next compile happens

    def placed_and_compiled(shards):
        if not isinstance(shards, (list, tuple)) or len(shards) != mesh.size:
            raise ArgumentError(f"shard_jit: expected one list of arguments per device ({mesh.size}), got {shards!r}")
        count = len(input_shardings)
        if not all(isinstance(s, (list, tuple)) and len(s) == count for s in shards):
            raise ArgumentError(f"shard_jit: each device's list must hold {count} argument(s)")
        jax_mesh = mesh.jax_mesh()
        try:
            arguments = [
                _place(jax_mesh, mesh, position, spec, shards) for position, spec in enumerate(input_shardings)
            ]
            return arguments, _compile(target, mesh, specs, arguments, compiled_last)
        except (ValueError, jax.errors.JAXTypeError, DuplicateSpecError) as error:
            raise _in_numbat_terms(error, target, mesh) from None

    def run(shards):
        arguments, compiled = placed_and_compiled(shards)
        try:
            with jax.enable_x64(True):
                return compiled(*arguments)
        except (ValueError, jax.errors.JAXTypeError, DuplicateSpecError) as error:
            raise _in_numbat_terms(error, target, mesh) from None

    # What `nbt.xla.profile` reads of a sharded function: its name and, for the shards a
    # call takes, the executable the call runs (its optimized HLO names the kernels).
    run.numbat_sharded = Sharded(target.name, lambda shards: placed_and_compiled(shards)[1])
    return run


def _check_shardings(input_shardings, mesh: Mesh) -> None:
    """Raises unless `input_shardings` is a list of `{dimension: [mesh axes]}` dicts whose
    mesh axes are `mesh`'s, each splitting one dimension of its argument."""
    if not isinstance(input_shardings, (list, tuple)) or not all(isinstance(s, dict) for s in input_shardings):
        raise ArgumentError(
            f"input_shardings must be a list of {{dimension: [mesh axes]}} dicts, got {input_shardings!r}"
        )
    for position, spec in enumerate(input_shardings):
        used: dict[int, object] = {}
        for dim, axes in spec.items():
            if not isinstance(axes, (list, tuple)) or not all(
                isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(mesh.shape) for a in axes
            ):
                raise ArgumentError(f"input_shardings: mesh axes {axes!r} are not axes of mesh {mesh.shape}")
            for axis in axes:
                if axis in used:
                    raise ArgumentError(
                        f"input_shardings[{position}] splits dimensions {used[axis]} and {dim} over the same mesh "
                        f"axis {axis} of mesh {mesh.name!r}; a mesh axis can split one dimension of an argument"
                    )
                used[axis] = dim


class Sharded(typing.NamedTuple):
    """A `shard_jit` function's name, and its compiled executable for a call's shards."""

    name: str
    compiled: typing.Callable


def _in_numbat_terms(error: Exception, target, mesh: Mesh) -> Exception:
    if isinstance(error, ArgumentError):
        return error
    return ArgumentError(f"shard_jit of {target.name} on mesh {mesh.name!r}: {_in_mesh_terms(error, mesh)}")


def _place(jax_mesh, mesh: Mesh, position: int, spec: dict, shards) -> Tensor:
    """Argument `position` as one global array split over the mesh as `spec` says."""
    devices = list(jax_mesh.devices.flat)
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
            jax.device_put(np.asarray(p.to_numpy()), d) for p, d in zip(pieces, devices) if d.process_index == here
        ]
        data = jax.make_array_from_single_device_arrays(tuple(global_shape), sharding, placed)
    return Tensor(data, first.type, first.names, XLABackend(mesh.client))


def _compile(target, mesh: Mesh, specs: tuple, arguments: list, compiled_last: list):
    """The compiled sharded function for `arguments`: from the cache, counting a hit, or
    compiled now, reporting the compilation with its reason as a defn does: "first call"
    for the first compile of this sharded function, else what changed since its last
    (`compiled_last[0]`, updated here)."""
    signature, _ = flatten(tuple(arguments), {}, lambda tensor: tensor)
    try:
        options = _options.key(target.options)
        hash(options)
    except TypeError:
        options = id(target)
    cache_key = (target.fun, options, mesh.key(), specs, signature)
    key = _report.key(f"{target.name}@{mesh.name}{mesh.shape}", signature)
    with _lock:
        found = _compiled.get(cache_key)
        if found is not None:
            _compiled.move_to_end(cache_key)
            telemetry.cache_hit(target.name, key)
            return found
        start = time.perf_counter_ns()
        with target.lowering_context(True):
            lowered = jax.jit(target._traced_call).trace(*arguments).lower()
            lowered_at = time.perf_counter_ns()
            compiled = lowered.compile()
        done = time.perf_counter_ns()
        _compiled[cache_key] = compiled
        last, compiled_last[0] = compiled_last[0], signature
        while len(_compiled) > _CACHE_LIMIT:
            _compiled.popitem(last=False)
    eval_us, compile_us = (lowered_at - start) // 1000, (done - lowered_at) // 1000
    telemetry.execute(
        telemetry.COMPILATION,
        {"eval_time": eval_us, "compile_time": compile_us, "total_time": eval_us + compile_us},
        {
            "key": key,
            "function": target.name,
            "signature": signature.describe(),
            "client": mesh.client or "default",
            "device": f"mesh {mesh.name!r} {mesh.shape}",
            "cached_on_disk": False,
            "disk_saved_time": 0,
            "reason": _reason(signature, last),
        },
    )
    return compiled


def _reason(signature, last) -> str:
    if last is None:
        return "first call"
    if last == signature:  # compiled before, and pushed out of the cache by other sharded functions since
        return f"dropped from shard_jit's cache of {_CACHE_LIMIT} programs"
    return signature.difference(last)


def _in_mesh_terms(error: Exception, mesh: Mesh) -> str:
    """JAX's message with its mesh axis names ("mesh_0") as numbat names them."""
    message = str(error).split("\n-----")[0]
    for index in range(len(mesh.shape)):
        message = message.replace(f"'{mesh.name}_{index}'", f"mesh axis {index} of mesh {mesh.name!r}")
        message = message.replace(f"{mesh.name}_{index}", f"mesh axis {index}")
    return f"{type(error).__name__}: {message}"
