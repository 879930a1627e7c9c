"""A traced tensor asked for its values (inside a defn) says what to do instead, for the
call that asked; `%numbat graph FUN` without its arguments prints its usage."""

import numpy as np
import pytest
from _shell import run

import numbat as nbt

KEEP = "to see its value, use nbt.print_value(t) or nbt.hook(t, fun) inside, or return it from the defn"

CASES = [
    ("float(t)", lambda t: float(t[0]), r"cannot take float\(\) of a traced tensor \(f32\) inside a defn", KEEP),
    ("int(x[0])", lambda t: int(t[0]), r"cannot take int\(\) of a traced tensor", "nbt.fori_loop or nbt.while_loop"),
    (
        "range(x[0])",
        lambda t: sum(range(nbt.as_type(t[0], "s32"))),
        r"cannot take a Python int for range\(\) or a list index from a traced tensor \(s32\)",
        "For a loop whose count is a tensor use nbt.fori_loop or nbt.while_loop",
    ),
    ("bool", lambda t: t if t[0] > 0 else -t, r"cannot branch on a traced tensor \(u8\)", "use nbt.cond"),
    ("to_number", lambda t: nbt.to_number(t[0]), r"cannot read the value \(nbt.to_number\) of a traced tensor", KEEP),
    (
        "to_numpy",
        lambda t: t.to_numpy(),
        r"cannot read the values \(t.to_numpy\(\)\) of a traced tensor \(f32\[2\]\)",
        KEEP,
    ),
    ("np.exp", lambda t: np.exp(t), r"cannot make a NumPy array \(np.asarray, a NumPy function\) of", "is nbt.exp(t)"),
]


@pytest.mark.parametrize(("call", "fun", "says", "fix"), CASES, ids=[case[0] for case in CASES])
def test_a_traced_tensor_error_names_the_fix_for_its_call(call, fun, says, fix):
    with pytest.raises(nbt.ArgumentError, match=says) as info:
        nbt.defn(fun)(nbt.tensor([1.0, 2.0]))
    message = str(info.value)
    assert fix in message, message
    if call != "bool":  # only a branch is about `and`, `or`, `not` and `if`
        assert "nbt.logical_not" not in message and "nbt.cond" not in message, message
    if call != "np.exp":  # only a NumPy function is about NumPy functions
        assert "nbt.stack" not in message, message


def test_a_numpy_function_outside_a_defn_returns_a_numpy_array_without_the_names():
    # what docs/guides/defn.md says: np.exp(t) leaves numbat; nbt.exp(t) keeps the tensor
    t = nbt.tensor([0.0, 1.0], names=["x"])
    assert type(np.exp(t)) is np.ndarray
    assert nbt.exp(t).names == ("x",)


def test_graph_magic_with_a_function_and_no_arguments_prints_its_usage(ip):
    run(ip, "import numbat as nbt\n_sq = nbt.defn(lambda a: a * a)\n_none = nbt.defn(lambda: nbt.iota((2,)))")
    for magic in ("graph", "profile"):
        cell = run(ip, f"%numbat {magic} _sq")
        assert cell.result.error_in_exec is None and not cell.displays
        assert f"`%numbat {magic} _sq` names no arguments for _sq; usage: %numbat {magic} FUN ARGS..." in cell.stderr
        assert "missing" not in cell.stderr, cell.stderr
    drawn = run(ip, "%numbat graph _none")  # a function of no arguments is drawn
    assert drawn.result.error_in_exec is None and "iota" in drawn.displays[0]["text/plain"], drawn.stderr
