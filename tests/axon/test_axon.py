"""A real Nx client's suite: the doctests of Axon's `Axon.Activations` and `Axon.Losses`
(elixir-nx/axon at dfec027d, lib/axon/activations.ex and losses.ex; extracted into
cases.json by extract.py, their expected values Axon's own), run on numbat's ports of the
modules (activations.py, losses.py) in defn style, on three paths:

- numpy: the defns under the Evaluator on the NumPy backend (set with
  `nbt.global_default_defn_options(compiler="evaluator")`, which reaches defns that already
  exist, as Nx's global defaults do);
- xla: the Evaluator on the XLA backend (eager XLA ops);
- jit: the defns compiled by XLA (their default).

Each case checks Nx's printed header exactly (type, shape, names) and the values: f32
within 4 ulps, bf16 within 4 bf16 ulps (DELIBERATE below: the rounding of each op).
"""

from __future__ import annotations

import ast
import json
import pathlib
import re

import numpy as np
import pytest

import numbat as nbt

from . import activations, losses

CASES = json.loads(pathlib.Path(__file__).with_name("cases.json").read_text())["cases"]
ACTIVATIONS = [case for case in CASES if case["id"].startswith("Axon.Activations")]
LOSSES = [case for case in CASES if case["id"].startswith("Axon.Losses")]
PATHS = ["numpy", "xla", "jit"]
# Axon's doctests call one loss with several static options (reduction: :mean, :sum), and
# each compiles anew, as in Nx: numbat's warning about repeated compilations is expected.
pytestmark = pytest.mark.filterwarnings("ignore::numbat.RecompilationWarning")

# What Axon's module does that has no Python form, and what numbat does differently on purpose.
UNTRANSLATABLE = {
    "cache_logits": "Nx.Defn.Expr.metadata(output, %{logits: input}) attaches the logits to the expression for "
    "Axon's losses to read back; numbat's graph has no metadata node, so sigmoid and softmax return the value alone",
    "keyword!": "keyword!(opts, alpha: 1.0) is a Python function's keyword arguments with defaults",
    "deftransformp": "a deftransformp is a plain Python function, run while the defn traces",
    "logits?": "binary_cross_entropy and categorical_cross_entropy read the logits metadata that sigmoid and "
    "softmax attach (cache_logits); without it they take the from_logits and probability branches only",
    "deftransform defaults": "categorical_cross_entropy is a deftransform (Keyword.validate!, Keyword.pop): a "
    "Python function calling the defn with its options; a defn's option cannot share a positional argument's "
    "name, so the impl's `weights?` option is `weighted`",
}
DELIBERATE = {
    "f32 ulps": "Nx's BinaryBackend computes each element-wise function in f64 and rounds once to f32; numbat "
    "computes f32 in f32 (XLA's and NumPy's kernels): every f32 case agrees within 4 ulps (of the 24 f32 activations, 13 exactly on "
    "the numpy path, 18 on xla and jit)",
    "bf16 truncation": "Nx's BinaryBackend writes each bf16 result by truncating the f32 bits (round toward zero, "
    "as Nx.tensor(0.2, type: :bf16) is 0.19921875); numbat rounds every bf16 result to nearest even, as XLA's "
    "convert and ml_dtypes do, on every path. Axon's bf16 doctests chain up to 5 ops, each a truncation in Nx: "
    "the results agree within 4 bf16 ulps (6 of the 21 bf16 cases differ by more than one)",
}

TOLERANCE = {"f32": 4 * 2.0**-23, "bf16": 4 * 2.0**-7}


def _expected(case: dict) -> tuple[str, np.ndarray]:
    values = ast.literal_eval(case["expected"]["values"].replace("Inf", "1e999").replace("NaN", "None"))
    return case["expected"]["header"], np.asarray(values, dtype=np.float64)


def _header(tensor: nbt.Tensor) -> str:
    return str(tensor).splitlines()[1].strip()


def _run(case: dict, path: str, module=activations):
    namespace = {"nbt": nbt, "axon": module}
    backend = nbt.NumPyBackend() if path == "numpy" else nbt.XLABackend()
    previous = nbt.global_default_defn_options(compiler="evaluator") if path != "jit" else None
    try:
        with nbt.default_backend(backend):
            for step in case["python"][:-1]:
                exec(step, namespace)  # noqa: S102 -- a doctest's assignment, from cases.json
            return eval(case["python"][-1], namespace)  # the doctest's call
    finally:
        if previous is not None:
            nbt.global_default_defn_options(previous)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", ACTIVATIONS, ids=[case["id"] for case in ACTIVATIONS])
def test_axon_activations(case, path):
    _check(case, path, activations)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("case", LOSSES, ids=[case["id"] for case in LOSSES])
def test_axon_losses(case, path):
    _check(case, path, losses)


def _check(case: dict, path: str, module) -> None:
    expected = case["expected"]
    if "raises" in expected:
        with pytest.raises(nbt.ArgumentError, match=re.escape(expected["message"])):
            _run(case, path, module)
        return
    out = _run(case, path, module)
    header, values = _expected(case)
    assert _header(out) == header
    if path != "jit":
        backend = nbt.NumPyBackend if path == "numpy" else nbt.XLABackend
        assert isinstance(out.backend, backend)
    actual = out.to_numpy().astype(np.float64)
    tolerance = TOLERANCE[str(out.type)]
    np.testing.assert_allclose(actual, values, rtol=tolerance, atol=tolerance * 1e-2)


def test_the_suite_is_axons_whole_activations_module():
    # 45 results (24 f32, 21 bf16) and one error case: every doctest of lib/axon/activations.ex at dfec027d.
    assert len(ACTIVATIONS) == 46
    names = {re.match(r"axon\.(\w+)\(", case["python"][-1]).group(1) for case in ACTIVATIONS}
    assert names == {name for name in dir(activations) if isinstance(getattr(activations, name), nbt.Defn)}


def test_the_losses_are_every_axon_loss_with_a_doctest():
    # 39 cases: every doctest of lib/axon/losses.ex at dfec027d (connectionist_temporal_classification
    # and label_smoothing have none, and are not ported).
    assert len(LOSSES) == 39
    names = {re.match(r"axon\.(\w+)\(", case["python"][-1]).group(1) for case in LOSSES}
    public = {name for name in dir(losses) if not name.startswith("_") and callable(getattr(losses, name))}
    assert names == public - {"annotations"}
