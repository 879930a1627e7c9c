"""Nx 0.13.1 `nx/test/nx/defn/kernel_test.exs`, ported.

`Nx.Defn.Kernel` is the Elixir kernel a defn sees: its operators on numbers compute
what Nx's ops compute, and numbat spells them as the ops (`Nx.Defn.Kernel.and` is
`nbt.logical_and`, `&&&` is `nbt.bitwise_and`, `div` is `nbt.quotient`, ...), or as
Python's operators on tensors. Nx returns Elixir numbers for arithmetic on numbers;
numbat's ops return scalar tensors of the number's type (s32 for an integer, f32 for a
float), which the port asserts. The comparisons and logical ops return u8 tensors, as
in Nx. The token and `%Expr{}` asserts are untranslatable (untranslatable.py).
"""

import pytest

import numbat as nbt

from ._support import assert_same, run, run_defn


def zero():
    return nbt.tensor(0, type="u8")


def one():
    return nbt.tensor(1, type="u8")


# describe "with numbers": Nx.Defn.Kernel's operators on numbers, as numbat's ops.


@pytest.mark.parametrize(
    "op, left, right, expected",
    [
        (nbt.add, 1, 2, nbt.tensor(3)),
        (nbt.subtract, 1, 2, nbt.tensor(-1)),
        (nbt.multiply, 1, 2, nbt.tensor(2)),
        (nbt.pow, 1, 2, nbt.tensor(1)),
        (nbt.divide, 1, 2, nbt.tensor(0.5)),
        (nbt.bitwise_and, 1, 2, nbt.tensor(0)),
        (nbt.bitwise_or, 1, 2, nbt.tensor(3)),
        (nbt.left_shift, 1, 2, nbt.tensor(4)),
        (nbt.right_shift, 1, 2, nbt.tensor(0)),
        (nbt.min, 0, 1, nbt.tensor(0)),
        (nbt.max, 0, 1, nbt.tensor(1)),
        (nbt.quotient, 11, 5, nbt.tensor(2)),
        (nbt.remainder, 1, 5, nbt.tensor(1)),
    ],
    ids=["+", "-", "*", "**", "/", "&&&", "|||", "<<<", ">>>", "min", "max", "div", "rem"],
)
def test_arithmetic_and_bitwise_on_numbers(path, op, left, right, expected):
    assert_same(run(path, op, left, right), expected)


def test_comparison(path):
    assert_same(run(path, nbt.equal, 0, 0), one())
    assert_same(run(path, nbt.not_equal, 0, 0), zero())
    assert_same(run(path, nbt.greater, 0, 0), zero())
    assert_same(run(path, nbt.greater_equal, 0, 0), one())
    assert_same(run(path, nbt.less, 0, 0), zero())
    assert_same(run(path, nbt.less_equal, 0, 0), one())


@pytest.mark.parametrize(
    "left, right, expected_and, expected_or",
    [
        (0, 0, 0, 0),
        (1, 0, 0, 1),
        (0, 2, 0, 1),
        (1, 1, 1, 1),
        (0, 0.0, 0, 0),
        (1, 0.0, 0, 1),
        (0, 2.0, 0, 1),
        (1, 1.0, 1, 1),
    ],
)
def test_and_or(path, left, right, expected_and, expected_or):
    assert_same(run(path, nbt.logical_and, left, right), nbt.tensor(expected_and, type="u8"))
    assert_same(run(path, nbt.logical_or, left, right), nbt.tensor(expected_or, type="u8"))


@pytest.mark.parametrize("value, expected", [(0, 1), (1, 0), (2, 0), (0.0, 1), (1.0, 0), (2.0, 0)])
def test_not(path, value, expected):
    assert_same(run(path, nbt.logical_not, value), nbt.tensor(expected, type="u8"))


def test_unary_plus_minus(path):
    assert_same(run(path, lambda t: +t, nbt.tensor(1)), nbt.tensor(1))
    assert_same(run(path, nbt.negate, 1), nbt.tensor(-1))


def test_operators_on_tensors_are_the_kernel_ops(path):
    # Inside a defn Nx's operators are Nx.Defn.Kernel's; numbat's Tensor operators are the same ops.
    def operators(a, b):
        return (a + b, a - b, a * b, a**b, a / b, a & b, a | b, a << b, a >> b, a == b, a < b, -a)

    expected = (3, -1, 2, 1, 0.5, 0, 3, 4, 0, 0, 1, -1)
    results = run_defn(path, operators, nbt.tensor(1), nbt.tensor(2))
    types = ("s32",) * 4 + ("f32",) + ("s32",) * 4 + ("u8", "u8", "s32")
    assert_same(results, tuple(nbt.tensor(value, type=type_) for value, type_ in zip(expected, types)))


# describe "inside defn"


def test_tap_and_then(path):
    # Elixir's tap/then inside a defn: a Python function called while the defn traces sees the
    # tensor of the expression (traced under "jit"), and the defn goes on with its result.
    seen = []

    def send_up(tensor):
        seen.append(tensor)
        return tensor

    def then(value, fun):
        return fun(value)

    def tap_and_then(a, b, c):
        return then(send_up(nbt.add(a, b)), lambda x: nbt.subtract(c, x))

    assert_same(run_defn(path, tap_and_then, 1, 2, 3), nbt.tensor(0))
    assert len(seen) == 1 and isinstance(seen[0], nbt.Tensor)
    assert (seen[0].shape, str(seen[0].type)) == ((), "s32")


def test_defn_after_import_works(path):
    assert_same(run_defn(path, lambda tensor: -tensor, 1), nbt.tensor(-1))


# describe "tokens": hook/2,3 (Nx matches the %Expr{op: :hook} and its inspect; the port runs
# the hook and checks what it returns and what its function sees).


def test_hook_with_a_name_a_function_or_both(path):
    seen = []
    by_name = lambda t: nbt.hook(t, "a")
    assert_same(run_defn(path, by_name, zero(), hooks={"a": lambda v: seen.append(("a", v))}), zero())
    assert_same(run_defn(path, lambda t: nbt.hook(t, lambda v: seen.append(("fun", v))), zero()), zero())
    # Nx's hook/3: a name and its default function, which the defn's hooks= option overrides.
    named = lambda t: nbt.hook(t, "a", lambda v: seen.append(("default", v)))
    assert_same(run_defn(path, named, one()), one())
    assert_same(run_defn(path, named, one(), hooks={"a": lambda v: seen.append(("override", v))}), one())
    assert [label for label, _ in seen] == ["a", "fun", "default", "override"]
    for _, value in seen:
        assert str(value.type) == "u8" and value.shape == ()


def test_hook_refuses_a_name_given_twice(path):
    with pytest.raises(nbt.ArgumentError, match="hook"):
        run_defn(path, lambda t: nbt.hook(t, "a", "b"), zero())


# doctest Nx.Defn.Kernel: the access doctests (t[..], t[1..2], t[1..2//1]) as Python slices.


def test_kernel_access_doctests(path):
    t = nbt.tensor([1, 2, 3])
    assert_same(run_defn(path, lambda t: t[:], t), nbt.tensor([1, 2, 3]))
    assert_same(run_defn(path, lambda t: t[1:3], t), nbt.tensor([2, 3]))
    assert_same(run_defn(path, lambda t: t[1:3:1], t), nbt.tensor([2, 3]))
