"""Tracing a defn: its body run on traced parameters, with the expression graph recorded
beside it.

`trace` gives JAX a flat function of the parameters' arrays; when JAX traces it, the
body runs under a `Recorder` (the graph `debug_expr` and the views show), with the
defn's backend as the default, its hooks and its interrupt setting, and the dict it
returns receives the outputs' structure and templates. `run_body` is that one run of
the body, shared by the call's lowering and by whole-defn JAX transformations
(`traced_call`, which `shard_jit` uses).
"""

from __future__ import annotations

import jax

from .._core._errors import ArgumentError
from .._core._scoped import scoped
from .._core._types import is_number
from .._ops import _dispatch
from .._tensor import _check, _expr
from .._tensor._tensor import Template, Tensor, is_tensor
from ..backends import _default
from . import _effects, _interrupt, _signature, _vectorized_call

# What calling a defn with the wrong arguments typically raises inside it (a different container
# structure, a missing key, JAX's concretization errors): reported as numbat.ArgumentError.
_MISUSE = (TypeError, ValueError, KeyError, IndexError, AttributeError)
SINGLE = jax.tree_util.tree_structure(Tensor(0, None, (), None), is_leaf=is_tensor)  # one tensor out


def trace(defn, signature: _signature.Signature, recorder: _expr.Recorder | None = None):
    """A flat function of the parameters' data for JAX, and a dict that receives the
    output structure (`treedef`), tensors (`outputs`) and templates once it has traced.
    The function returns one array for a single tensor output, else a tuple.

    >>> f = nbt.defn(lambda t: t + 1)
    >>> signature, _ = nbt._defn._signature.flatten((nbt.tensor([1, 2]),), {}, f._convert)
    >>> flat, traced = trace(f, signature)
    >>> flat(np.array([1, 2], np.int32)).tolist(), traced["single"], traced["templates"][0].shape
    ([2, 3], True, (2,))
    """
    traced = {}

    def flat(*datas):
        params = [Tensor(d, t.type, t.names, defn.backend) for d, t in zip(datas, signature.templates)]
        callbacks, checks = _effects.traced_callbacks, _interrupt.traced_checks[0]
        treedef, outputs = run_body(defn, signature, params, recorder or _expr.Recorder())
        traced["treedef"], traced["outputs"] = treedef, outputs
        traced["templates"] = tuple(Template(t.shape, t.type, t.names) for t in outputs)
        traced["single"] = treedef == SINGLE
        traced["effectful"] = _effects.traced_callbacks != callbacks
        traced["interruptible"] = _interrupt.traced_checks[0] != checks
        return outputs[0].data if traced["single"] else tuple(t.data for t in outputs)

    flat.__name__ = getattr(defn.fun, "__name__", "defn")  # HLO op names read jit(<name>)/<op>/...
    return flat, traced


def run_body(defn, signature: _signature.Signature, params: list[Tensor], recorder: _expr.Recorder):
    """Runs the defn's function on traced `params` under `recorder`; returns the output
    structure and tensors. Misuse while tracing becomes a numbat error naming the defn and
    its inputs."""
    for position, tensor in enumerate(params):
        recorder.parameter(tensor, position)
    args = _signature.unflatten(signature, params)
    inputs = signature.describe()
    with (
        _expr.recording(recorder),
        _default.default_backend(defn.backend),
        scoped(_effects.active_hooks, defn.hooks),
        scoped(_interrupt.tracing, (defn.name, defn.interruptible)),
    ):
        try:
            result = defn.fun(*args, **dict(signature.options))
        except ArgumentError as error:
            if "(in defn " in str(error):  # a nested defn's error already says where
                raise
            raise ArgumentError(f"{error} (in defn {defn.name}, traced for inputs {inputs})") from error
        except _MISUSE as error:
            message = str(error).split("\n-----")[0]  # without JAX's note on its filtered traceback
            raise ArgumentError(
                f"defn {defn.name} failed while tracing inputs {inputs}: {type(error).__name__}: {message}"
            ) from error
        except Exception as error:
            error.add_note(f"(while numbat traced defn {defn.name} for inputs {inputs})")
            raise
        _check.nesting(f"the result of defn {defn.name}", result)
        result = jax.tree_util.tree_map(_tensor_output(defn.backend), result, is_leaf=is_tensor)
        return _signature.flatten_outputs(_vectorized_call.devectorized_outputs(result))


def traced_call(defn, *tensors):
    """The defn's body as a function of tensors, returning its output structure (for JAX
    transformations of the whole defn, such as `shard_jit`)."""
    signature, _ = _signature.flatten(tensors, {}, _same)
    treedef, outputs = run_body(defn, signature, list(tensors), _expr.Recorder())
    return _vectorized_call.unflatten_outputs(treedef, outputs)


def _same(tensor: Tensor) -> Tensor:
    return tensor


def _tensor_output(backend):
    """Numbers and JAX arrays a defn returns become tensors (a `jax.numpy` result is a
    tracer: an unnamed tensor of its dtype's Nx type), as the Evaluator makes them."""

    def convert(value):
        return _dispatch.to_tensor(value, backend) if is_number(value) or isinstance(value, jax.Array) else value

    return convert
