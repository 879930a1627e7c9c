"""Every doctest of Nx.Random (Nx 0.13.1, `nx/lib/nx/random.ex`) with Nx's printed result,
on every path: eager on the NumPy backend, eager on the XLA backend, inside `nbt.jit`, and
in the evaluator compiler on the NumPy backend. The printed tensor must be Nx's text, digit
for digit (numbat prints floats as Nx does: the shortest text that reads back).

Each case is a function of tensors (keys, seeds, data) built outside, so that under `jit`
the random functions trace; its result must print as Nx printed it.
"""

import textwrap

import numpy as np
import pytest
from _paths import PATHS, run_on

import numbat as nbt

R = nbt.random


def nx(text: str) -> str:
    """Nx's printed tensor, as numbat prints it (only the header's module differs)."""
    return textwrap.dedent(text).strip().replace("#Nx.Tensor<", "numbat.Tensor<")


def first(pair):
    return pair[0]


def _mean_in_f64(sample):
    # Nx's reference backend accumulates an f32 sum in f64 (see DIFFERENCES).
    return nbt.as_type(nbt.mean(nbt.as_type(sample, "f64")), "f32")


def _deviation_in_f64(sample):
    return nbt.as_type(nbt.standard_deviation(nbt.as_type(sample, "f64")), "f32")


# Where numbat's printed result differs from Nx's, and why. The random numbers themselves
# never differ; this only concerns an op applied to them afterwards.
DIFFERENCES = {
    "normal_mean": "Nx's reference backend sums f32 in f64; numbat's f32 mean sums in f32 and prints "
    "9.700223 (Nx: 9.700222), so the mean is taken in f64 and rounded to f32",
    "normal_standard_deviation": "as normal_mean: numbat's f32 standard_deviation prints 5.051417 "
    "(Nx: 5.0514164), so it is taken in f64 and rounded to f32",
}

# (name, function of the arguments, arguments (built on the path's backend), Nx's printed result)
CASES = [
    (
        "moduledoc_key",
        R.key,
        lambda: (nbt.tensor(12, type="s64"),),
        """
        #Nx.Tensor<
          u32[2]
          [0, 12]
        >
        """,
    ),
    (
        "moduledoc_uniform",
        lambda k: first(R.uniform(k)),
        lambda: (R.key(12),),
        """
        #Nx.Tensor<
          f32
          0.7691127
        >
        """,
    ),
    (
        "key_12",
        R.key,
        lambda: (nbt.tensor(12, type="s64"),),
        """
        #Nx.Tensor<
          u32[2]
          [0, 12]
        >
        """,
    ),
    (
        "key_999999999999",
        R.key,
        lambda: (nbt.tensor(999999999999, type="s64"),),
        """
        #Nx.Tensor<
          u32[2]
          [232, 3567587327]
        >
        """,
    ),
    (
        "split",
        R.split,
        lambda: (R.key(1701),),
        """
        #Nx.Tensor<
          u32[2][2]
          [
            [56197195, 1801093307],
            [961309823, 1704866707]
          ]
        >
        """,
    ),
    (
        "split_parts_4",
        lambda k: R.split(k, parts=4),
        lambda: (R.key(1701),),
        """
        #Nx.Tensor<
          u32[4][2]
          [
            [4000152724, 2030591747],
            [2287976877, 2598630646],
            [2426625787, 580268518],
            [3136765380, 433355682]
          ]
        >
        """,
    ),
    (
        "fold_in_99",
        lambda k: R.fold_in(k, 99),
        lambda: (R.key(42),),
        """
        #Nx.Tensor<
          u32[2]
          [2015327502, 1351855566]
        >
        """,
    ),
    (
        "fold_in_1234",
        lambda k: R.fold_in(k, 1234),
        lambda: (R.key(42),),
        """
        #Nx.Tensor<
          u32[2]
          [1356445167, 2917756949]
        >
        """,
    ),
    (
        "fold_in_tensor",
        R.fold_in,
        lambda: (R.key(42), nbt.tensor([[1, 99], [1234, 13]])),
        """
        #Nx.Tensor<
          u32[2][2][2]
          [
            [
              [64467757, 2916123636],
              [2015327502, 1351855566]
            ],
            [
              [1356445167, 2917756949],
              [3514951389, 229662949]
            ]
          ]
        >
        """,
    ),
    (
        "randint",
        lambda k: first(R.randint(k, 1, 100)),
        lambda: (R.key(1701),),
        """
        #Nx.Tensor<
          s32
          91
        >
        """,
    ),
    (
        "randint_u32",
        lambda k: first(R.randint(k, 1, 100, shape=(3, 2), type="u32")),
        lambda: (R.key(1701),),
        """
        #Nx.Tensor<
          u32[3][2]
          [
            [9, 20],
            [19, 6],
            [71, 15]
          ]
        >
        """,
    ),
    (
        "uniform",
        lambda k: first(R.uniform(k)),
        lambda: (R.key(1701),),
        """
        #Nx.Tensor<
          f32
          0.9728644
        >
        """,
    ),
    (
        "uniform_f16",
        lambda k: first(R.uniform(k, shape=(3, 2), type="f16")),
        lambda: (R.key(1701),),
        """
        #Nx.Tensor<
          f16[3][2]
          [
            [0.754, 0.6484],
            [0.7295, 0.2148],
            [0.09766, 0.06934]
          ]
        >
        """,
    ),
    (
        "uniform_c64",
        lambda k: first(R.uniform(k, shape=(2, 2), type="c64")),
        lambda: (R.key(1701),),
        """
        #Nx.Tensor<
          c64[2][2]
          [
            [0.18404806+0.65464616i, 0.55259156+0.11568141i],
            [0.6074585+0.81043756i, 0.2476865+0.2197547i]
          ]
        >
        """,
    ),
    (
        "normal",
        lambda k: first(R.normal(k)),
        lambda: (R.key(42),),
        """
        #Nx.Tensor<
          f32
          1.3694695
        >
        """,
    ),
    (
        "normal_f16",
        lambda k: first(R.normal(k, 0, 1, shape=(3, 2), type="f16")),
        lambda: (R.key(42),),
        """
        #Nx.Tensor<
          f16[3][2]
          [
            [-0.3257, -0.772],
            [0.392, 0.534],
            [0.2708, -2.08]
          ]
        >
        """,
    ),
    (
        "normal_c64",
        lambda k: first(R.normal(k, 0, 1, shape=(2, 2), type="c64")),
        lambda: (R.key(42),),
        """
        #Nx.Tensor<
          c64[2][2]
          [
            [-0.7632761+0.86611277i, -0.1428289-0.7384796i],
            [0.6784615+0.41183108i, -2.2695384-0.3689095i]
          ]
        >
        """,
    ),
    (
        "normal_mean",
        lambda k: _mean_in_f64(first(R.normal(k, 10, 5, shape=(1000,)))),
        lambda: (R.key(1337),),
        """
        #Nx.Tensor<
          f32
          9.700222
        >
        """,
    ),
    (
        "normal_standard_deviation",
        lambda k: _deviation_in_f64(first(R.normal(k, 10, 5, shape=(1000,)))),
        lambda: (R.key(1337),),
        """
        #Nx.Tensor<
          f32
          5.0514164
        >
        """,
    ),
    (
        "multivariate_normal_1",
        lambda k, m, c: first(R.multivariate_normal(k, m, c)),
        lambda: (R.key(12), nbt.tensor([0]), nbt.tensor([[1]])),
        """
        #Nx.Tensor<
          f32[1]
          [0.73592794]
        >
        """,
    ),
    (
        "multivariate_normal_2",
        lambda k, m, c: first(R.multivariate_normal(k, m, c)),
        lambda: (R.key(12), nbt.tensor([0, 0]), nbt.tensor([[1, 0], [0, 1]])),
        """
        #Nx.Tensor<
          f32[2]
          [-1.3425945, -0.4081206]
        >
        """,
    ),
    (
        "multivariate_normal_f16",
        lambda k, m, c: first(R.multivariate_normal(k, m, c, shape=(3, 2), type="f16")),
        lambda: (R.key(12), nbt.tensor([0]), nbt.tensor([[1]])),
        """
        #Nx.Tensor<
          f16[3][2][1]
          [
            [
              [0.327],
              [0.2177]
            ],
            [
              [0.3167],
              [0.11096]
            ],
            [
              [0.5396],
              [-0.8857]
            ]
          ]
        >
        """,
    ),
    (
        "multivariate_normal_batch",
        lambda k, m, c: first(R.multivariate_normal(k, m, c, shape=(3, 2))),
        lambda: (R.key(12), nbt.tensor([0, 0]), nbt.tensor([[1, 0], [0, 1]])),
        """
        #Nx.Tensor<
          f32[3][2][2]
          [
            [
              [0.989145, 1.0795186],
              [-0.9467806, 1.4781388]
            ],
            [
              [2.2095864, -1.5294564],
              [-0.79339206, 1.1211957]
            ],
            [
              [0.10976296, -0.9959557],
              [0.4754556, 1.1413804]
            ]
          ]
        >
        """,
    ),
    (
        "shuffle",
        lambda k, t: first(R.shuffle(k, t)),
        lambda: (R.key(42), nbt.iota((3, 4), axis=0)),
        """
        #Nx.Tensor<
          s32[3][4]
          [
            [2, 2, 2, 2],
            [0, 0, 0, 0],
            [1, 1, 1, 1]
          ]
        >
        """,
    ),
    (
        "shuffle_independent",
        lambda k, t: first(R.shuffle(k, t, independent=True, axis=1)),
        lambda: (R.key(10), nbt.iota((3, 4), axis=1)),
        """
        #Nx.Tensor<
          s32[3][4]
          [
            [2, 1, 3, 0],
            [3, 0, 1, 2],
            [2, 3, 0, 1]
          ]
        >
        """,
    ),
    (
        "choice_axis",
        lambda k, t: first(R.choice(k, t, samples=4, axis=0)),
        lambda: (R.key(1), nbt.iota((4, 3))),
        """
        #Nx.Tensor<
          s32[4][3]
          [
            [6, 7, 8],
            [9, 10, 11],
            [6, 7, 8],
            [0, 1, 2]
          ]
        >
        """,
    ),
    (
        "choice_axis_no_replace",
        lambda k, t: first(R.choice(k, t, samples=4, axis=0, replace=False)),
        lambda: (R.key(1), nbt.iota((4, 3))),
        """
        #Nx.Tensor<
          s32[4][3]
          [
            [3, 4, 5],
            [9, 10, 11],
            [6, 7, 8],
            [0, 1, 2]
          ]
        >
        """,
    ),
    (
        "choice_flattened",
        lambda k, t: first(R.choice(k, t)),
        lambda: (R.key(2), nbt.iota((3, 2))),
        """
        #Nx.Tensor<
          s32[1]
          [4]
        >
        """,
    ),
    (
        "choice_flattened_no_replace",
        lambda k, t: first(R.choice(k, t, samples=6, replace=False)),
        lambda: (R.key(2), nbt.iota((3, 2))),
        """
        #Nx.Tensor<
          s32[6]
          [2, 0, 4, 5, 1, 3]
        >
        """,
    ),
    (
        "choice_p_axis",
        lambda k, t, p: first(R.choice(k, t, p, samples=3, axis=1)),
        lambda: (R.key(1), nbt.iota((4, 3)), nbt.tensor([0.1, 0.7, 0.2])),
        """
        #Nx.Tensor<
          s32[4][3]
          [
            [1, 0, 1],
            [4, 3, 4],
            [7, 6, 7],
            [10, 9, 10]
          ]
        >
        """,
    ),
    (
        "choice_p_axis_no_replace",
        lambda k, t, p: first(R.choice(k, t, p, samples=3, axis=1, replace=False)),
        lambda: (R.key(1), nbt.iota((4, 3)), nbt.tensor([0.1, 0.7, 0.2])),
        """
        #Nx.Tensor<
          s32[4][3]
          [
            [1, 2, 0],
            [4, 5, 3],
            [7, 8, 6],
            [10, 11, 9]
          ]
        >
        """,
    ),
    (
        "choice_p_flattened",
        lambda k, t, p: first(R.choice(k, t, p)),
        lambda: (R.key(2), nbt.iota((2, 3)), nbt.tensor([0.01, 0.1, 0.19, 0.6, 0.05, 0.05])),
        """
        #Nx.Tensor<
          s32[1]
          [3]
        >
        """,
    ),
    (
        "choice_p_flattened_6",
        lambda k, t, p: first(R.choice(k, t, p, samples=6)),
        lambda: (R.key(2), nbt.iota((2, 3)), nbt.tensor([0.01, 0.1, 0.19, 0.6, 0.05, 0.05])),
        """
        #Nx.Tensor<
          s32[6]
          [3, 3, 3, 0, 3, 3]
        >
        """,
    ),
    (
        "choice_p_flattened_no_replace",
        lambda k, t, p: first(R.choice(k, t, p, samples=6, replace=False)),
        lambda: (R.key(2), nbt.iota((2, 3)), nbt.tensor([0.01, 0.1, 0.19, 0.6, 0.05, 0.05])),
        """
        #Nx.Tensor<
          s32[6]
          [3, 1, 2, 5, 4, 0]
        >
        """,
    ),
    (
        "gumbel",
        lambda k: first(R.gumbel(k)),
        lambda: (R.key(1),),
        """
        #Nx.Tensor<
          f32
          -0.729461
        >
        """,
    ),
    (
        "gumbel_shape",
        lambda k: first(R.gumbel(k, shape=(2, 3))),
        lambda: (R.key(1),),
        """
        #Nx.Tensor<
          f32[2][3]
          [
            [0.6247938, -0.21740718, 0.76783276],
            [0.77784044, 4.0895305, 0.30290902]
          ]
        >
        """,
    ),
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("name, fun, make_args, printed", CASES, ids=[case[0] for case in CASES])
def test_nx_random_doctest(name, fun, make_args, printed, path):
    result = run_on(path, fun, make_args)
    assert str(result) == nx(printed)


def test_every_nx_random_doctest_is_ported():
    # 36 examples with a printed result in Nx 0.13.1's Nx.Random (the moduledoc's key and
    # uniform, and each function's examples) and the moduledoc's `key(System.os_time())`.
    assert len(CASES) == 36
    assert set(DIFFERENCES) <= {case[0] for case in CASES}


def test_the_f32_mean_named_in_differences_is_within_an_ulp():
    sample, _ = R.normal(R.key(1337), 10, 5, shape=(1000,))
    np.testing.assert_allclose(nbt.to_number(nbt.mean(sample)), 9.700222, rtol=2e-7)
    np.testing.assert_allclose(nbt.to_number(nbt.standard_deviation(sample)), 5.0514164, rtol=2e-7)
