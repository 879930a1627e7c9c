"""One function run on one of the four paths (eager NumPy, eager XLA, `nbt.jit`, the
evaluator), for tests that compare the paths' NumPy results or printed tensors.

Paths compared with each other promise one answer, so they compute at the precision the NumPy
path has: `promised_precision()`, f32 products in f32 ("highest"), where XLA's default on NVIDIA
GPUs since Ampere is TF32 (docs/guides/xla.md, "Precision on each platform")."""

import jax

import numbat as nbt

PROMISED_PRECISION = "highest"


def promised_precision():
    """The context in which compared paths run: JAX's matmul precision at PROMISED_PRECISION."""
    return jax.default_matmul_precision(PROMISED_PRECISION)


PATHS = ["numpy", "xla", "jit", "evaluator"]


def run_on_path(path: str, fun, *arrays, type="f64"):
    """`fun` of tensors of `type` built from `arrays`, on `path`: its result as a NumPy
    array, or a list of them for a tuple of results."""
    tensors = [nbt.tensor(a, type=type) for a in arrays]
    with promised_precision():
        if path == "jit":
            result = nbt.jit(fun)(*tensors)
        elif path == "evaluator":
            result = nbt.defn(fun, compiler="evaluator")(*tensors)
        else:
            with nbt.default_backend(nbt.NumPyBackend() if path == "numpy" else nbt.XLABackend()):
                result = fun(*[nbt.tensor(a, type=type) for a in arrays])
    return [t.to_numpy() for t in result] if isinstance(result, tuple) else result.to_numpy()


def run_on(path, fun, make_args):
    """`fun(*make_args())` on `path`."""
    backend = nbt.XLABackend() if path in ("xla", "jit") else nbt.NumPyBackend()
    with nbt.default_backend(backend), promised_precision():
        args = make_args()
        if path == "jit":
            return nbt.jit(fun)(*args)
        if path == "evaluator":
            return nbt.defn(fun, compiler="evaluator")(*args)
        result = fun(*args)
    for tensor in result if isinstance(result, tuple) else (result,):
        assert isinstance(tensor.backend, type(backend))
    return result
