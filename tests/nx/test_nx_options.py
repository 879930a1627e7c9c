"""Every option Nx 0.13.1 has, with Nx's name and meaning (issue 16, item 3).

`options_nx.json` (written by `extract_options.py` from Nx's source) lists, for each public
function of Nx, Nx.LinAlg and Nx.Random that takes options, the option names and the Nx
source lines they come from. Three tests read it:

* `test_accepts`: numbat's function (`nbt.X`, `nbt.linalg.X`, `nbt.random.X`) takes a
  keyword of Nx's name (checked with `inspect.signature`: no call, no compile).
* `test_defaults`: where Nx's `keyword!` gives a default, numbat's is the same, except
  for the options that select an algorithm (`ALGORITHM_OPTIONS`): their default is None.
* `test_honours`: for a sample of options, the option changes the result the way Nx's
  does (cheap eager calls on the NumPy and the XLA backend), since an option accepted and
  ignored is worse than a missing one.
* `test_refuses`: every public function of numbat raises numbat's `ArgumentError`, naming
  the op and the options it takes, for a keyword it does not take (not Python's TypeError).

Gaps found today are strict xfails listed in `known_missing_options.py`.
"""

from __future__ import annotations

import inspect
import json
import pathlib
import re

import pytest

import numbat as nbt

from . import extract_options, known_missing_options, option_behaviours_ops, option_behaviours_rest
from .option_behaviours import BEHAVIOURS, as_lists

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


def _elixir(literal: str):
    """An Elixir default as Python: `:asc` -> "asc", `{:s, 32}` -> "s32", `[-2, -1]` -> (-2, -1), `{}` -> ()."""
    scalars = {"true": True, "false": False, "nil": None}
    if literal in scalars:
        return scalars[literal]
    if literal.startswith(":"):
        return literal[1:]
    if literal == "{}":
        return ()
    if match := re.fullmatch(r"\{:([a-z]+), (\d+)\}", literal):
        return match[1] + match[2]
    if literal.startswith("["):
        return tuple(_elixir(item.strip()) for item in literal[1:-1].split(","))
    number = literal.replace("_", "")
    return float(number) if "." in number else int(number)


# Options whose numbat default is None, and why: left out, numbat runs LAPACK's algorithm (as
# EXLA's host custom call, which has no use for them); given, Nx's own algorithm, honoured as
# Nx's, and an option of the pair left out takes Nx's default
# (test_algorithm_options_take_nx_defaults_when_one_is_given).
ALGORITHM_OPTIONS = {
    "Nx.LinAlg.eigh:eps": "given, eps or max_iter selects Nx's Jacobi eigh; left out, LAPACK's",
    "Nx.LinAlg.eigh:max_iter": "given, eps or max_iter selects Nx's Jacobi eigh; left out, LAPACK's",
    "Nx.LinAlg.svd:max_iter": "given, max_iter selects Nx's QDWH svd; left out, LAPACK's",
}


def _defaults():
    for function, options in NX_OPTIONS.items():
        if function in NOT_IN_NUMBAT:
            continue
        for option, sources in options.items():
            given = [source.split(", default ", 1)[1] for source in sources if ", default " in source]
            if given:
                yield _marked(f"defaults {function}:{option}", function, option, given[0])


@pytest.mark.parametrize(("function", "option", "literal"), list(_defaults()))
def test_defaults(function, option, literal):
    """numbat's default for an option is Nx's (the one Nx's keyword! call gives)."""
    parameter = inspect.signature(_numbat(function)).parameters[option]
    default = parameter.default
    if f"{function}:{option}" in ALGORITHM_OPTIONS:
        assert default is None, f"{function}: {ALGORITHM_OPTIONS[f'{function}:{option}']}, so its default is None"
        return
    default = tuple(default) if isinstance(default, list) else default
    default = str(default) if isinstance(default, nbt.Type) else default
    assert default == _elixir(literal), f"{function}: numbat's {option}={parameter.default!r}, Nx's {literal}"


def test_algorithm_options_take_nx_defaults_when_one_is_given():
    """eigh's eps given alone runs Nx's Jacobi with Nx's max_iter (1_000), and max_iter alone
    with Nx's eps (1.0e-4): the same numbers as both given."""
    assert set(ALGORITHM_OPTIONS) <= {f"{f}:{o}" for f, options in NX_OPTIONS.items() for o in options}
    m = nbt.tensor([[4.0, 1.0, 2.0], [1.0, 3.0, 0.3], [2.0, 0.3, 5.0]])
    both = nbt.linalg.eigh(m, max_iter=1_000, eps=1.0e-4)
    for alone in (nbt.linalg.eigh(m, eps=1.0e-4), nbt.linalg.eigh(m, max_iter=1_000)):
        assert [as_lists(t) for t in alone] == [as_lists(t) for t in both]


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
    assert found["Nx.sort"]["offset"] == ["nx.ex:32 validate, default 0"]
    assert found["Nx.sort"]["type"] == ["nx.ex:22 validate, default {:s, 32}"]
    assert found["Nx.sort"]["read_only"] == ["nx.ex:33 read"]
    assert found["Nx.pick"]["samples"] == ["nx.ex:5 doc"]


# ---------------------------------------------------------------------------------------
# test_honours: the option does what Nx's does.


def _behaviours():
    for test_id, check in BEHAVIOURS.items():
        yield _marked(f"honours {test_id}", check)


@pytest.mark.parametrize("check", list(_behaviours()))
@pytest.mark.parametrize("backend", ["numpy", "xla"])
def test_honours(check, backend):
    with nbt.default_backend(nbt.NumPyBackend() if backend == "numpy" else nbt.XLABackend()):
        check()


def test_behaviours_register_every_module():
    """option_behaviours_ops.py's and option_behaviours_rest.py's checks are in BEHAVIOURS (their
    imports register them)."""
    assert "Nx.conv:output_permutation" in BEHAVIOURS and option_behaviours_ops.M
    assert "Nx.irfft:eps" in BEHAVIOURS and option_behaviours_rest.R


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
    assert as_lists(out) == 6.0


def test_known_missing_options_name_tests():
    """Every entry of known_missing_options.py names a test of this module."""
    ids = {f"accepts {f}:{o}" for f, options in NX_OPTIONS.items() for o in options}
    ids |= {f"honours {key}" for key in BEHAVIOURS}
    ids |= {f"defaults {f}:{o}" for f, options in NX_OPTIONS.items() for o in options}
    ids |= {f"refuses nbt.{name}" for name, _ in _public()}
    assert sorted(set(KNOWN) - ids) == []
