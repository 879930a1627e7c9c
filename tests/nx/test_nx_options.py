"""Every option Nx 0.13.1 has, with Nx's name and meaning (issue 16, item 3).

`options_nx.json` (written by `extract_options.py` from Nx's source) lists, for each public
function of Nx, Nx.LinAlg and Nx.Random that takes options, the option names and the Nx
source lines they come from. Three tests read it:

* `test_accepts`: numbat's function (`nbt.X`, `nbt.linalg.X`, `nbt.random.X`) takes a
  keyword of Nx's name (checked with `inspect.signature`: no call, no compile).
* `test_honours`: for a sample of options, the option changes the result the way Nx's
  does (cheap eager calls on the NumPy backend), since an option accepted and ignored is
  worse than a missing one.
* `test_refuses`: every public function of numbat raises numbat's `ArgumentError`, naming
  the op and the options it takes, for a keyword it does not take (not Python's TypeError).

Gaps found today are strict xfails listed in `known_missing_options.py`.
"""

from __future__ import annotations

import inspect
import json
import pathlib

import numpy as np
import pytest

import numbat as nbt

from . import extract_options, known_missing_options

HERE = pathlib.Path(__file__).parent
NX_OPTIONS: dict[str, dict[str, list[str]]] = json.loads((HERE / "options_nx.json").read_text())
KNOWN = known_missing_options.by_test_id()
NAMESPACES = {"Nx": ("", nbt), "Nx.LinAlg": ("linalg.", nbt.linalg), "Nx.Random": ("random.", nbt.random)}

# Nx functions with options that numbat does not have at all, and why.
NOT_IN_NUMBAT = {
    "Nx.from_pointer": "IPC/device pointers to another process's memory: no numbat form (see exceptions.py)",
    "Nx.to_pointer": "IPC/device pointers to another process's memory: no numbat form (see exceptions.py)",
}

# Public functions of numbat left out of test_refuses: IPython's extension hooks (not ops), and
# runtime_call, whose options are its callback's (as Nx's `fun.(tensor, opts)`): see
# test_runtime_call_passes_its_options.
NOT_OPS = {"load_ipython_extension", "unload_ipython_extension", "runtime_call"}


def _numbat(nx_name: str):
    """numbat's function for an Nx name ("Nx.LinAlg.qr" -> nbt.linalg.qr), or None."""
    module, name = nx_name.rsplit(".", 1)
    return getattr(NAMESPACES[module][1], name, None)


def _marked(test_id: str, *values):
    reason = KNOWN.get(test_id)
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(*values, id=test_id, marks=marks)


def _pairs():
    for function, options in NX_OPTIONS.items():
        if function in NOT_IN_NUMBAT:
            continue
        for option in options:
            yield _marked(f"accepts {function}:{option}", function, option)


_KEYWORD = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)


@pytest.mark.parametrize(("function", "option"), list(_pairs()))
def test_accepts(function, option):
    """numbat's function takes Nx's option under Nx's name, as a keyword."""
    fun = _numbat(function)
    assert fun is not None, f"numbat has no {function}; add it or list it in NOT_IN_NUMBAT with the reason"
    parameter = inspect.signature(fun).parameters.get(option)
    assert parameter is not None, f"{function}: numbat takes no {option}= (Nx: {NX_OPTIONS[function][option]})"
    assert parameter.kind in _KEYWORD, f"{function}: {option} cannot be passed by keyword ({parameter.kind})"


def test_not_in_numbat_is_exact():
    """The Nx functions listed as absent from numbat are absent (when one arrives, its options get checked)."""
    assert set(NOT_IN_NUMBAT) <= set(NX_OPTIONS)
    assert [name for name in NOT_IN_NUMBAT if _numbat(name) is not None] == []


def test_extraction_covers_nx():
    """The committed extraction holds what Nx's source says for a few well-known functions
    (a regenerated file that lost them fails here)."""
    assert len(NX_OPTIONS) >= 100
    assert sorted(NX_OPTIONS["Nx.sort"]) == ["axis", "direction", "stable"]
    assert sorted(NX_OPTIONS["Nx.argsort"]) == ["axis", "direction", "stable", "type"]
    assert sorted(NX_OPTIONS["Nx.LinAlg.svd"]) == ["full_matrices", "max_iter"]
    assert sorted(NX_OPTIONS["Nx.Random.choice"]) == ["axis", "replace", "samples"]
    assert sorted(NX_OPTIONS["Nx.conv"]) == [
        "batch_group_size",
        "feature_group_size",
        "input_dilation",
        "input_permutation",
        "kernel_dilation",
        "kernel_permutation",
        "output_permutation",
        "padding",
        "strides",
    ]
    assert all(
        source.startswith("nx/lib/") for options in NX_OPTIONS.values() for s in options.values() for source in s
    )


# The extractor's parsing, on Elixir snippets shaped like Nx's source.
_SNIPPET = '''
  @shared_options """
  ## Options

    * `:samples` - how many
  """
  @doc """
  Sorts.

  ## Options

    * `:axis` - the axis
    * `:mode` - one of:
      * `:reduced` - a value, not an option
    * `:full?` - a boolean

  ## Examples

    * `:not_an_option` - under another heading
  """
  def sort(tensor, opts \\\\ []) do
    opts = keyword!(opts, [:axis, type: {:s, 32}, padding: :valid])
    helper(tensor, opts)
  end

  @doc """
  #{@shared_options}
  """
  def pick(tensor, opts \\\\ []), do: Nx.other(tensor, opts)

  defp helper(tensor, opts) do
    offset = opts |> keyword!(offset: 0) |> Keyword.fetch!(:offset)
    opts[:read_only]
  end

  def other(tensor, opts) do
    Keyword.validate!(opts, [:length, eps: 1.0e-10])
  end
'''


def test_extractor_reads_validations_docs_and_helpers():
    found = extract_options.extract("Nx", "nx.ex", _SNIPPET)
    assert sorted(found["Nx.sort"]) == ["axis", "full", "mode", "offset", "padding", "read_only", "type"]
    assert sorted(found["Nx.pick"]) == ["eps", "length", "samples"]
    assert found["Nx.sort"]["axis"] == ["nx.ex:12 doc", "nx.ex:22 validate"]  # the snippet's line 1 is empty
    assert found["Nx.sort"]["offset"] == ["nx.ex:32 validate"]
    assert found["Nx.sort"]["read_only"] == ["nx.ex:33 read"]
    assert found["Nx.pick"]["samples"] == ["nx.ex:5 doc"]


# ---------------------------------------------------------------------------------------
# test_honours: the option does what Nx's does.

BEHAVIOURS = {}


def behaviour(function: str, option: str):
    def register(check):
        BEHAVIOURS[f"{function}:{option}"] = check
        return check

    return register


def _values(tensor):
    """The tensor's values as nested lists (a number for a scalar)."""
    return np.asarray(tensor).tolist()


def _summary(tensor):
    return str(tensor.type), tensor.shape, tensor.names, _values(tensor)


@behaviour("Nx.argmax", "type")
def _():
    assert str(nbt.argmax(nbt.tensor([1, 3, 2]), type="s64").type) == "s64"


@behaviour("Nx.argmax", "tie_break")
def _():
    t = nbt.tensor([3, 1, 3])
    assert _values(nbt.argmax(t)) == 0
    assert _values(nbt.argmax(t, tie_break="high")) == 2


@behaviour("Nx.argmin", "keep_axis")
def _():
    assert nbt.argmin(nbt.tensor([[1, 0], [0, 1]]), axis=1, keep_axis=True).shape == (2, 1)


@behaviour("Nx.argsort", "direction")
def _():
    assert _values(nbt.argsort(nbt.tensor([2, 3, 1]), direction="desc")) == [1, 0, 2]


@behaviour("Nx.argsort", "stable")
def _():
    assert _values(nbt.argsort(nbt.tensor([1, 0, 1, 0]), stable=True)) == [1, 3, 0, 2]
    assert _values(nbt.argsort(nbt.tensor([1, 0, 1, 0]), direction="desc", stable=True)) == [0, 2, 1, 3]


@behaviour("Nx.argsort", "type")
def _():
    assert str(nbt.argsort(nbt.tensor([2, 1]), type="u8").type) == "u8"


@behaviour("Nx.sort", "direction")
def _():
    assert _values(nbt.sort(nbt.tensor([0, 127, -128, 5], type="s8"), direction="desc")) == [127, 5, 0, -128]


@behaviour("Nx.cumulative_sum", "reverse")
def _():
    assert _values(nbt.cumulative_sum(nbt.tensor([1, 2, 3]), reverse=True)) == [6, 5, 3]


@behaviour("Nx.diff", "order")
def _():
    assert _values(nbt.diff(nbt.tensor([1, 3, 6, 10]), order=2)) == [1, 1]


@behaviour("Nx.fill", "type")
def _():
    assert str(nbt.fill(nbt.tensor([1, 2]), 5, type="f64").type) == "f64"


@behaviour("Nx.iota", "type")
def _():
    assert _summary(nbt.iota((3,), type="u8")) == ("u8", (3,), (None,), [0, 1, 2])


@behaviour("Nx.iota", "axis")
def _():
    assert _values(nbt.iota((2, 2), axis=1)) == [[0, 1], [0, 1]]


@behaviour("Nx.iota", "names")
def _():
    assert nbt.iota((2,), names=["x"]).names == ("x",)


@behaviour("Nx.iota", "backend")
def _():
    assert isinstance(nbt.iota((2,), backend=nbt.NumPyBackend()).backend, nbt.NumPyBackend)


@behaviour("Nx.iota", "vectorized_axes")
def _():
    t = nbt.iota((2,), vectorized_axes=[("v", 3)])
    assert t.shape == (2,)
    assert nbt.devectorize(t).shape == (3, 2)


@behaviour("Nx.eye", "type")
def _():
    assert _summary(nbt.eye(2, type="f32")) == ("f32", (2, 2), (None, None), [[1.0, 0.0], [0.0, 1.0]])


@behaviour("Nx.linspace", "type")
def _():
    assert str(nbt.linspace(0, 1, n=3, type="f64").type) == "f64"


@behaviour("Nx.linspace", "endpoint")
def _():
    assert _values(nbt.linspace(0, 1, n=4, endpoint=False)) == [0.0, 0.25, 0.5, 0.75]


@behaviour("Nx.linspace", "name")
def _():
    assert nbt.linspace(0, 1, n=2, name="x").names == ("x",)


@behaviour("Nx.logsumexp", "exp_scaling_factor")
def _():
    got = _values(nbt.logsumexp(nbt.tensor([0.0, 0.0]), exp_scaling_factor=nbt.tensor([1.0, 3.0])))
    assert got == pytest.approx(np.log(4.0), rel=1e-6)


@behaviour("Nx.all_close", "equal_nan")
def _():
    nan = nbt.tensor([float("nan")])
    assert _values(nbt.all_close(nan, nan)) == 0
    assert _values(nbt.all_close(nan, nan, equal_nan=True)) == 1


@behaviour("Nx.all_close", "atol")
def _():
    assert _values(nbt.all_close(nbt.tensor([1.0]), nbt.tensor([1.1]), atol=0.2)) == 1


@behaviour("Nx.all_close", "rtol")
def _():
    assert _values(nbt.all_close(nbt.tensor([100.0]), nbt.tensor([110.0]), rtol=0.2)) == 1


@behaviour("Nx.covariance", "ddof")
def _():
    t = nbt.tensor([[1.0], [3.0]])
    assert _values(nbt.covariance(t)) == [[1.0]]
    assert _values(nbt.covariance(t, ddof=1)) == [[2.0]]


@behaviour("Nx.standard_deviation", "ddof")
def _():
    assert _values(nbt.standard_deviation(nbt.tensor([1.0, 3.0]), ddof=1)) == pytest.approx(np.sqrt(2.0), rel=1e-6)


@behaviour("Nx.variance", "ddof")
def _():
    assert _values(nbt.variance(nbt.tensor([1.0, 3.0]), ddof=1)) == 2.0


@behaviour("Nx.mean", "keep_axes")
def _():
    assert nbt.mean(nbt.tensor([[1.0, 2.0]]), axes=[1], keep_axes=True).shape == (1, 1)


@behaviour("Nx.sum", "axes")
def _():
    assert _values(nbt.sum(nbt.tensor([[1, 2], [3, 4]]), axes=[0])) == [4, 6]


@behaviour("Nx.median", "keep_axis")
def _():
    assert nbt.median(nbt.tensor([[1, 2, 3]]), axis=1, keep_axis=True).shape == (1, 1)


@behaviour("Nx.mode", "keep_axis")
def _():
    assert nbt.mode(nbt.tensor([[1, 2, 2]]), axis=1, keep_axis=True).shape == (1, 1)


@behaviour("Nx.reduce", "type")
def _():
    assert str(nbt.reduce(nbt.tensor([1, 2]), 0, nbt.add, type="f32").type) == "f32"


@behaviour("Nx.reshape", "names")
def _():
    assert nbt.reshape(nbt.tensor([1, 2]), (1, 2), names=["a", "b"]).names == ("a", "b")


@behaviour("Nx.broadcast", "axes")
def _():
    assert _values(nbt.broadcast(nbt.tensor([1, 2]), (2, 2), axes=[0])) == [[1, 1], [2, 2]]


@behaviour("Nx.tensor", "type")
def _():
    assert _summary(nbt.tensor([1, 2], type="f16")) == ("f16", (2,), (None,), [1.0, 2.0])


@behaviour("Nx.tensor", "backend")
def _():
    assert isinstance(nbt.tensor([1], backend=nbt.NumPyBackend()).backend, nbt.NumPyBackend)


@behaviour("Nx.to_flat_list", "limit")
def _():
    assert nbt.to_flat_list(nbt.tensor([1, 2, 3]), limit=2) == [1, 2]


@behaviour("Nx.to_binary", "limit")
def _():
    assert len(nbt.to_binary(nbt.tensor([1, 2, 3]), limit=2)) == 8


@behaviour("Nx.to_batched", "leftover")
def _():
    assert len(list(nbt.to_batched(nbt.iota((5,)), 2, leftover="discard"))) == 2


@behaviour("Nx.top_k", "k")
def _():
    values, _ = nbt.top_k(nbt.tensor([1, 3, 2]), k=2)
    assert _values(values) == [3, 2]


@behaviour("Nx.triu", "k")
def _():
    assert _values(nbt.triu(nbt.tensor([[1, 2], [3, 4]]), k=1)) == [[0, 2], [0, 0]]


@behaviour("Nx.take_diagonal", "offset")
def _():
    assert _values(nbt.take_diagonal(nbt.tensor([[1, 2], [3, 4]]), offset=1)) == [2]


@behaviour("Nx.make_diagonal", "offset")
def _():
    assert nbt.make_diagonal(nbt.tensor([1, 2]), offset=1).shape == (3, 3)


@behaviour("Nx.slice", "strides")
def _():
    assert _values(nbt.slice(nbt.iota((5,)), [0], [5], strides=2)) == [0, 2, 4]


@behaviour("Nx.stack", "name")
def _():
    assert nbt.stack([nbt.tensor([1]), nbt.tensor([2])], name="s").names == ("s", None)


@behaviour("Nx.fft", "length")
def _():
    assert nbt.fft(nbt.tensor([1.0, 2.0]), length=4).shape == (4,)


@behaviour("Nx.fft", "eps")
def _():
    # Nx's binary backend: parts with |x| <= eps become 0, so fft([1, 0.999]) = [1.999, 0.001] -> [1.999, 0].
    got = _values(nbt.fft(nbt.tensor([1.0, 0.999]), eps=0.01))
    assert got[1] == 0


@behaviour("Nx.window_sum", "strides")
def _():
    assert _values(nbt.window_sum(nbt.iota((4,)), (2,), strides=2)) == [1, 5]


@behaviour("Nx.window_sum", "padding")
def _():
    assert _values(nbt.window_sum(nbt.iota((3,)), (2,), padding="same")) == [1, 3, 2]


@behaviour("Nx.window_sum", "window_dilations")
def _():
    assert _values(nbt.window_sum(nbt.iota((4,)), (2,), window_dilations=2)) == [2, 4]


@behaviour("Nx.conv", "padding")
def _():
    assert nbt.conv(nbt.iota((1, 1, 4), type="f32"), nbt.tensor([[[1.0, 1.0]]]), padding="same").shape == (1, 1, 4)


@behaviour("Nx.conv", "strides")
def _():
    assert nbt.conv(nbt.iota((1, 1, 4), type="f32"), nbt.tensor([[[1.0, 1.0]]]), strides=2).shape == (1, 1, 2)


@behaviour("Nx.devectorize", "keep_names")
def _():
    t = nbt.vectorize(nbt.tensor([[1, 2]]), "v")
    assert nbt.devectorize(t).names == ("v", None)
    assert nbt.devectorize(t, keep_names=False).names == (None, None)


@behaviour("Nx.take", "axis")
def _():
    assert _values(nbt.take(nbt.tensor([[1, 2], [3, 4]]), nbt.tensor([1]), axis=1)) == [[2], [4]]


@behaviour("Nx.LinAlg.norm", "ord")
def _():
    assert _values(nbt.linalg.norm(nbt.tensor([3.0, -4.0]), ord=1)) == 7.0


@behaviour("Nx.LinAlg.norm", "keep_axes")
def _():
    assert nbt.linalg.norm(nbt.tensor([[3.0, 4.0]]), axes=[1], keep_axes=True).shape == (1, 1)


@behaviour("Nx.LinAlg.pinv", "eps")
def _():
    # Singular values <= eps count as zero: pinv(diag(1, 0.001)) is diag(1, 1000), or diag(1, 0) with eps=0.01.
    t = nbt.tensor([[1.0, 0.0], [0.0, 0.001]])
    assert _values(nbt.linalg.pinv(t))[1][1] == pytest.approx(1000.0)
    assert _values(nbt.linalg.pinv(t, eps=0.01)) == [[1.0, 0.0], [0.0, 0.0]]


@behaviour("Nx.LinAlg.matrix_rank", "eps")
def _():
    t = nbt.tensor([[1.0, 0.0], [0.0, 0.001]])
    assert _values(nbt.linalg.matrix_rank(t)) == 2
    assert _values(nbt.linalg.matrix_rank(t, eps=0.01)) == 1


@behaviour("Nx.LinAlg.qr", "mode")
def _():
    q, r = nbt.linalg.qr(nbt.iota((3, 2), type="f32"), mode="complete")
    assert (q.shape, r.shape) == ((3, 3), (3, 2))


@behaviour("Nx.LinAlg.qr", "eps")
def _():
    # Nx's qr sets entries with |x| <= eps to 0: r's 0.001 above the diagonal goes with eps=0.01.
    _, r = nbt.linalg.qr(nbt.tensor([[1.0, 0.001], [0.0, 1.0]]), eps=0.01)
    assert _values(r)[0][1] == 0


@behaviour("Nx.LinAlg.eigh", "eps")
def _():
    # Nx's eigh sets eigenvalues with |x| <= eps to 0.
    values, _ = nbt.linalg.eigh(nbt.tensor([[1.0, 0.0], [0.0, 0.001]]), eps=0.01)
    assert sorted(_values(values)) == [0.0, 1.0]


@behaviour("Nx.LinAlg.svd", "full_matrices")
def _():
    u, _, vt = nbt.linalg.svd(nbt.iota((3, 2), type="f32"), full_matrices=False)
    assert (u.shape, vt.shape) == ((3, 2), (2, 2))


@behaviour("Nx.LinAlg.triangular_solve", "lower")
def _():
    a = nbt.tensor([[1.0, 1.0], [0.0, 1.0]])
    assert _values(nbt.linalg.triangular_solve(a, nbt.tensor([2.0, 1.0]), lower=False)) == [1.0, 1.0]


@behaviour("Nx.LinAlg.triangular_solve", "transform_a")
def _():
    a = nbt.tensor([[1.0, 0.0], [1.0, 1.0]])
    assert _values(nbt.linalg.triangular_solve(a, nbt.tensor([2.0, 1.0]), transform_a="transpose")) == [1.0, 1.0]


@behaviour("Nx.Random.uniform", "type")
def _():
    sample, _ = nbt.random.uniform(nbt.random.key(1), shape=(2,), type="f64", names=["x"])
    assert (str(sample.type), sample.shape, sample.names) == ("f64", (2,), ("x",))


@behaviour("Nx.Random.randint", "type")
def _():
    sample, _ = nbt.random.randint(nbt.random.key(1), 0, 5, shape=(3,), type="u8")
    assert (str(sample.type), sample.shape) == ("u8", (3,))


@behaviour("Nx.Random.normal", "type")
def _():
    sample, _ = nbt.random.normal(nbt.random.key(1), type="f16")
    assert str(sample.type) == "f16"


@behaviour("Nx.Random.gumbel", "shape")
def _():
    sample, _ = nbt.random.gumbel(nbt.random.key(1), shape=(2, 3))
    assert sample.shape == (2, 3)


@behaviour("Nx.Random.split", "parts")
def _():
    assert nbt.random.split(nbt.random.key(1), parts=3).shape == (3, 2)


@behaviour("Nx.Random.shuffle", "independent")
def _():
    # Shuffling each column on its own: every column keeps its own values, and for some key
    # the columns come out in different orders (a whole-row shuffle keeps them aligned).
    t = nbt.tensor([[0, 10, 20], [1, 11, 21], [2, 12, 22], [3, 13, 23]])
    orders = set()
    for seed in range(4):
        shuffled, _ = nbt.random.shuffle(nbt.random.key(seed), t, independent=True)
        columns = np.asarray(shuffled).T.tolist()
        assert [sorted(c) for c in columns] == np.asarray(t).T.tolist()
        orders |= {tuple(v % 10 for v in c) for c in columns}
    assert len(orders) > 4


@behaviour("Nx.Random.choice", "samples")
def _():
    sample, _ = nbt.random.choice(nbt.random.key(1), nbt.iota((5,)), samples=3, replace=False)
    assert sample.shape == (3,)
    assert len(set(_values(sample))) == 3


@behaviour("Nx.Random.choice", "axis")
def _():
    sample, _ = nbt.random.choice(nbt.random.key(1), nbt.iota((2, 3)), samples=2, axis=1)
    assert sample.shape == (2, 2)


@behaviour("Nx.Random.multivariate_normal", "method")
def _():
    mean, cov = nbt.tensor([0.0, 0.0]), nbt.tensor([[2.0, 1.0], [1.0, 2.0]])
    key = nbt.random.key(3)
    draws = {m: _values(nbt.random.multivariate_normal(key, mean, cov, method=m)[0]) for m in ("cholesky", "svd")}
    assert draws["cholesky"] != draws["svd"]
    with pytest.raises(nbt.ArgumentError):
        nbt.random.multivariate_normal(key, mean, cov, method="qr")


def _behaviours():
    for test_id, check in BEHAVIOURS.items():
        yield _marked(f"honours {test_id}", check)


@pytest.mark.parametrize("check", list(_behaviours()))
def test_honours(check):
    with nbt.default_backend(nbt.NumPyBackend()):
        check()


def test_behaviours_name_extracted_options():
    """Every behaviour checked is an (Nx function, option) pair of the extraction."""
    pairs = {f"{function}:{option}" for function, options in NX_OPTIONS.items() for option in options}
    assert sorted(set(BEHAVIOURS) - pairs) == []


# ---------------------------------------------------------------------------------------
# test_refuses: an unknown keyword is numbat's ArgumentError naming the op and its options.


def _public():
    """(qualified name, function) for every public function of nbt, nbt.linalg, nbt.random."""
    for prefix, module in (("", nbt), ("linalg.", nbt.linalg), ("random.", nbt.random)):
        names = getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]
        for name in names:
            value = getattr(module, name)
            if inspect.isfunction(value) and name not in NOT_OPS:
                yield prefix + name, value


def _F(x):
    """The function the defn family's calls take."""
    return x


# Functions that take `**options` (the defn family forwards them as defn options): a real call.
FORWARDING = {
    "compile": lambda fun, **kw: fun(_F, [nbt.tensor(1.0)], **kw),
    "debug_expr": lambda fun, **kw: fun(_F, **kw),
    "debug_expr_apply": lambda fun, **kw: fun(_F, [nbt.tensor(1.0)], **kw),
    "defn": lambda fun, **kw: fun(_F, **kw),
    "default_defn_options": lambda fun, **kw: fun(**kw),
    "global_default_defn_options": lambda fun, **kw: fun(**kw),
    "is_cached": lambda fun, **kw: fun(nbt.jit(_F), [nbt.tensor(1.0)], **kw),
    "jit": lambda fun, **kw: fun(_F, **kw),
    "jit_apply": lambda fun, **kw: fun(_F, [nbt.tensor(1.0)], **kw),
    "vectorize": lambda fun, **kw: fun(nbt.tensor([1.0]), **kw),
}
# The defn family's options are defn's: its error names them as "defn option(s)".
DEFN_OPTIONS = {"compile", "debug_expr", "debug_expr_apply", "defn", "default_defn_options"}
DEFN_OPTIONS |= {"global_default_defn_options", "is_cached", "jit", "jit_apply"}


def _refusals():
    for name, fun in _public():
        yield _marked(f"refuses nbt.{name}", name, fun)


@pytest.mark.parametrize(("name", "fun"), list(_refusals()))
def test_refuses(name, fun):
    """`fun(..., zzbogus=1)` raises numbat's ArgumentError naming the op, the keyword and the
    options the op takes. The required positional arguments are None: the guard raises
    before the op's body runs."""
    parameters = inspect.signature(fun).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        assert name in FORWARDING, f"{name} takes **options: add a real call to FORWARDING"
        with pytest.raises(nbt.ArgumentError) as error:
            FORWARDING[name](fun, zzbogus=1)
        message = str(error.value)
        assert "zzbogus" in message
        assert f"{name}:" in message or (name in DEFN_OPTIONS and "defn option" in message), message
        return
    required = [p for p in parameters if p.default is p.empty and p.kind is not inspect.Parameter.VAR_POSITIONAL]
    positional = [None for p in required if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    keywords = {p.name: None for p in required if p.kind is inspect.Parameter.KEYWORD_ONLY}
    with pytest.raises(nbt.ArgumentError) as error:
        fun(*positional, **keywords, zzbogus=1)
    message = str(error.value)
    assert message.startswith(f"{name}: unknown option 'zzbogus'; "), message
    takes = message.split("; ", 1)[1]
    options = [p.name for p in parameters if p.kind in _KEYWORD and p.default is not p.empty]
    assert [option for option in options if option not in takes] == [], message


def test_runtime_call_passes_its_options():
    """runtime_call takes any keyword because it hands them to its function, as Nx does."""
    out = nbt.runtime_call(nbt.template((), "f32"), nbt.tensor(2.0), lambda t, scale: t * scale, scale=3.0)
    assert _values(out) == 6.0


def test_known_missing_options_name_tests():
    """Every entry of known_missing_options.py names a test of this module."""
    ids = {f"accepts {f}:{o}" for f, options in NX_OPTIONS.items() for o in options}
    ids |= {f"honours {key}" for key in BEHAVIOURS}
    ids |= {f"refuses nbt.{name}" for name, _ in _public()}
    assert sorted(set(KNOWN) - ids) == []
