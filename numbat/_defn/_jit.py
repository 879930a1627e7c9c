"""The ways to make and call a numerical definition: `defn`, `jit`, `jit_apply`,
`compile` (ahead of time, for templates), and `debug_expr`/`debug_expr_apply`,
which trace without running and return the expression graph."""

from __future__ import annotations

import collections
import functools
import threading

import jax

from .._core import _types
from .._core._errors import ArgumentError
from .._tensor import _check, _expr
from .._tensor._tensor import Template, Tensor
from . import _options, _signature
from ._definition import Defn


def defn(fun=None, *, compiler: str | None = None, **opts):
    """Turns `fun` into a numerical definition compiled with XLA per input signature.

    Use as `@nbt.defn` or `@nbt.defn(compiler="evaluator", client="host")`. Options:
    `compiler` (`"xla"` or `"evaluator"`), `client`, `device_id`, `precision`
    (`"default"`, `"high"`, `"highest"`: the matmul precision while tracing and
    compiling), `cache` (True, False to compile every call, or a directory for the
    disk cache), `debug` (logs compilations and hits on the `numbat.defn` logger),
    `hooks` (`{name: function}` for named `nbt.hook`s) and `lazy_transfers`
    (EXLA's `"opt_in"` or `"never"`: arguments move to the device when the call
    starts, as JAX does; `"always"`, EXLA's transfer-when-first-needed, is refused).
    `device_id` left out means the client's configured `default_device_id`.
    Tensors, numbers (which become tensors) and containers of them are traced;
    any other argument is static: part of the cache key, passed as it is.

    >>> @nbt.defn
    ... def softmax(t):
    ...     return nbt.exp(t) / nbt.sum(nbt.exp(t))
    >>> softmax(nbt.tensor([1.0, 2.0, 3.0]))
    numbat.Tensor<
      f32[3]
      [0.09003057, 0.24472848, 0.66524094]
    >
    """
    if fun is None:
        return functools.partial(defn, compiler=compiler, **opts)
    if not callable(fun):
        raise ArgumentError(f"defn needs a function, got {fun!r}")
    return Defn(fun, compiler, **opts)


# The defns `jit` made, so that `nbt.jit(f)(x)` or `jit_apply` in a loop compiles once, as in Nx
# (whose cache is keyed by the function). Bounded: it keeps its functions alive.
_JITTED_LIMIT = 256
_jitted: collections.OrderedDict = collections.OrderedDict()
_jitted_lock = threading.Lock()


def jit(fun, **opts) -> Defn:
    """`fun` as a defn, without decorating it (`nbt.jit(fun, client="host")`). The same
    function with the same options gives the same defn, and so the same cache; a defn
    given to `jit` runs with the new options over its own.

    >>> nbt.jit(lambda a, b: a * b)(nbt.tensor([1, 2]), 3)
    numbat.Tensor<
      s32[2]
      [3, 6]
    >
    """
    if not callable(fun):
        raise ArgumentError(f"jit needs a function, got {fun!r}")
    try:
        key = (fun, _options.key(_options.effective(opts)))
        hash(key)
    except TypeError:  # an unhashable function or option: no sharing
        return defn(fun, **opts)
    with _jitted_lock:
        found = _jitted.get(key)
        if found is not None:
            _jitted.move_to_end(key)
            return found
    made = defn(fun, **opts)
    with _jitted_lock:
        found = _jitted.setdefault(key, made)
        while len(_jitted) > _JITTED_LIMIT:
            _jitted.popitem(last=False)
    return found


def jit_apply(fun, args, **opts):
    """Compiles and calls `fun` on `args` (a list) in one step.

    >>> nbt.jit_apply(nbt.negate, [nbt.tensor([1, -2])])
    numbat.Tensor<
      s32[2]
      [-1, 2]
    >
    """
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"jit_apply: args must be a list of arguments, got {args!r}")
    return jit(fun, **opts)(*args)


def compile(fun, args, **opts):
    """Compiles `fun` ahead of time for `args` (templates, tensors, or
    containers of them); the result only accepts that signature.

    >>> double = nbt.compile(lambda t: t * 2, [nbt.template((3,), "s32")])
    >>> double(nbt.tensor([1, 2, 3]))
    numbat.Tensor<
      s32[3]
      [2, 4, 6]
    >
    >>> double(nbt.tensor([1.0, 2.0]))
    Traceback (most recent call last):
    ...
    numbat.ArgumentError: <lambda> was compiled for (s32[3]) and cannot take (f32[2]): input 0 changed from s32[3] to f32[2]
    """
    target = Defn(fun, **opts)
    is_leaf = lambda value: isinstance(value, (Template, Tensor))
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"compile(fun, args): args must be a list of templates or tensors, got {args!r}")
    for position, arg in enumerate(args):
        _check.nesting(f"argument {position} of compile", arg)
    leaves, treedef = jax.tree_util.tree_flatten(tuple(args), is_leaf=is_leaf)
    if any(isinstance(leaf, Tensor) and leaf.vectorized_axes for leaf in leaves):
        return _compiled_vectorized(target, leaves, treedef)
    templates = []
    for position, leaf in enumerate(leaves):
        if _types.is_number(leaf):  # a number stands for a scalar tensor of its type, as in Nx
            leaf = target._convert(leaf)
        if not is_leaf(leaf):
            raise ArgumentError(
                f"compile takes templates, tensors or numbers (nbt.template(shape, type)); leaf {position} is {leaf!r}"
            )
        templates.append(Template(tuple(leaf.shape), leaf.type, leaf.names))
    expected = _signature.Signature(treedef, tuple(templates), (), ())
    entry = target._compile(expected)

    def compiled(*call_args):
        got, tensors = _signature.flatten(call_args, {}, target._convert)
        if got != expected:
            raise ArgumentError(
                f"{target.name} was compiled for {expected.describe()} and cannot take {got.describe()}: "
                f"{got.difference(expected)}"
            )
        return target.run(entry, tensors)

    return compiled


def _vectorized_signature(leaves: list) -> tuple:
    return tuple(
        (tuple(leaf.shape), str(leaf.type), leaf.names, leaf.vectorized_axes)
        if isinstance(leaf, (Template, Tensor))
        else ((), str(_types.infer(leaf)), (), ())
        for leaf in leaves
    )


def _compiled_vectorized(target, leaves: list, treedef):
    """`compile` for arguments with vectorized tensors: their vectorized axes join the
    signature a call must match; the defn compiles them on the first call, as a vectorized
    call of the defn does."""
    expected = _vectorized_signature(leaves)

    def compiled(*call_args):
        got_leaves, got_treedef = jax.tree_util.tree_flatten(
            tuple(call_args), is_leaf=lambda value: isinstance(value, (Template, Tensor))
        )
        got = _vectorized_signature(got_leaves)
        if got_treedef != treedef or got != expected:
            raise ArgumentError(f"{target.name} was compiled for {expected} and cannot take {got}")
        return target(*call_args)

    return compiled


def debug_expr(fun, *, limit: int | None = None, **opts):
    """A function that traces `fun` on its arguments and returns the expression
    graph (an `Expr`) instead of running it. Control flow and grad nodes carry
    their sub-graphs, printed indented under them; with `limit`, the text form
    shows only the last `limit` rows (the Expr keeps every node).

    >>> nbt.debug_expr(lambda t: nbt.sum(t * 2, axes=["x"]))(nbt.tensor([[1, 2]], names=["x", "y"]))
    numbat.Expr<
      s32[y: 2]
    <BLANKLINE>
      parameter a:0                               s32[x: 1][y: 2]
      b = multiply [ a, 2 ]                       s32[x: 1][y: 2]
      c = sum [ b, axes: [0], keep_axes: False ]  s32[y: 2]
    >
    """
    target = fun if isinstance(fun, Defn) else Defn(fun, **opts)

    def traced(*args, **options):
        signature, _ = _signature.flatten(args, options, target._convert, templates_only=True)
        recorder = _expr.Recorder()
        flat, result = target.trace(signature, recorder)
        avals = [jax.ShapeDtypeStruct(t.shape, t.type.dtype) for t in signature.templates]
        with jax.enable_x64(True):
            jax.eval_shape(flat, *avals)
        expr = recorder.expr(result["outputs"])
        expr.limit = limit
        return expr

    return traced


def debug_expr_apply(fun, args, *, limit: int | None = None, **opts):
    """The expression graph of `fun` traced on `args` (a list), without running it.

    >>> nbt.debug_expr_apply(lambda a, b: a + b, [nbt.tensor([1]), 2])
    numbat.Expr<
      s32[1]
    <BLANKLINE>
      parameter a:0                             s32[1]
      parameter b:1                             s32
      c = add [ a, b ]                          s32[1]
    >
    """
    if not isinstance(args, (list, tuple)):
        raise ArgumentError(f"debug_expr_apply: args must be a list of arguments, got {args!r}")
    return debug_expr(fun, limit=limit, **opts)(*args)
