"""One answer on every path (docs/design.md, decision 13) for the public ops that
test_differential.py (element-wise, cast, reduction, window) and
test_differential_structure.py (sort, indexing, structure) do not run: creation, shape,
indexing and cumulative ops, dot and conv, fft, linear algebra, statistics on matrices,
vectorization and random numbers. Each recipe below builds its op's inputs from the
type's edge values (`_differential.edge_values`: NaN, +-Inf, -0.0, subnormals, min and
max, 0, +-1), for every type of the run; eager NumPy, eager XLA, `nbt.defn` on XLA and
the evaluator give the same outcome (`_differential.same`, with PLATFORM_DIFFERENCES),
or the same numbat error (an op refusing a type refuses it on every path).

`test_every_public_op_is_compared_or_listed` holds the coverage: every public function of
`numbat`, `numbat.linalg` and `numbat.random` is run by one of the differential tests or
is in `_differential.NOT_COMPARED` with the reason.

Budget: in CI one type a day, rotating through the nineteen (`_differential.one_type_a_day`,
the test id names it; about 30 s); NUMBAT_DIFFERENTIAL=full checks all nineteen,
NUMBAT_DIFFERENTIAL=bf16,u64 the types named.
"""

from __future__ import annotations

import inspect

import _differential as d
import pytest

import numbat as nbt

BITS_TWIN = {2: "s2", 4: "u4", 8: "u8", 16: "s16", 32: "u32", 64: "s64", 128: "c128"}


def _head(x, n):
    return nbt.slice(x, [0], [n])


def _finite(x):
    """x's first six values with NaN, Inf and the type's extremes replaced by small ones
    (for ops whose sums would otherwise overflow in an order-dependent way)."""
    head = _head(x, 6)
    if x.type.is_integer:
        return nbt.remainder(head, nbt.tensor(5, type=x.type))
    small = nbt.select(nbt.is_nan(head), 2, head)
    magnitude = nbt.abs(small)
    return nbt.select(nbt.greater(magnitude, 100), 3, small)


def _matrix(x):
    """A 2x2 matrix of x's type, of x's (finite) values plus a diagonal (6 for integers, whose
    products in `_spd` must not wrap around in s8)."""
    m = nbt.reshape(_head(_finite(x), 4), (2, 2))
    return nbt.add(m, nbt.multiply(nbt.eye(2, type=x.type), nbt.tensor(6 if x.type.is_integer else 50, type=x.type)))


def _spd(x):
    m = _matrix(x)
    return nbt.add(nbt.dot(m, nbt.linalg.adjoint(m)), nbt.eye(2, type=m.type))


def _complex(x):
    return x if x.type.is_complex else nbt.as_type(x, "c128" if x.type.bits == 64 else "c64")


def _key(x):
    return nbt.random.key(7)


RECIPES = {
    # creation and casts
    "bitcast": lambda x: nbt.bitcast(x, BITS_TWIN[x.type.bits]),
    "broadcast": lambda x: nbt.broadcast(_head(x, 3), (2, 3)),
    "eye": lambda x: nbt.eye(3, type=x.type),
    "iota": lambda x: nbt.iota((2, 3), axis=1, type=x.type),
    "linspace": lambda x: nbt.linspace(0, 10, n=5, type=x.type),
    "fill": lambda x: nbt.fill(x, 7),
    "tri": lambda x: nbt.multiply(nbt.tri(3, 2, k=0), _head(x, 2)),
    "tril": lambda x: nbt.tril(nbt.reshape(_head(x, 6), (2, 3))),
    "triu": lambda x: nbt.triu(nbt.reshape(_head(x, 6), (2, 3)), k=1),
    "make_diagonal": lambda x: nbt.make_diagonal(_head(x, 3), offset=1),
    "take_diagonal": lambda x: nbt.take_diagonal(nbt.reshape(_head(x, 6), (2, 3))),
    "put_diagonal": lambda x: nbt.put_diagonal(nbt.reshape(_head(x, 6), (2, 3)), _head(x, 2)),
    "outer": lambda x: nbt.outer(_head(x, 3), _head(x, 2)),
    "diff": lambda x: nbt.diff(x),
    # shape
    "reshape": lambda x: nbt.reshape(_head(x, 6), (3, 2), names=["a", "b"]),
    "new_axis": lambda x: nbt.new_axis(x, 0, name="n"),
    "squeeze": lambda x: nbt.squeeze(nbt.reshape(x, (1, -1))),
    "flatten": lambda x: nbt.flatten(nbt.reshape(_head(x, 6), (2, 3))),
    "rename": lambda x: nbt.rename(x, ["r"]),
    "pad": lambda x: nbt.pad(_head(x, 4), nbt.tensor(1, type=x.type), [(1, -1, 1)]),
    "pad_outer": lambda x: nbt.pad_outer(_head(x, 4), "mirror", [(2, 1)]),
    "reflect": lambda x: nbt.reflect(_head(x, 4), padding_config=[(2, 3)]),
    "stack": lambda x: nbt.stack([x, nbt.reverse(x)], axis=1, name="s"),
    "slice_along_axis": lambda x: nbt.slice_along_axis(x, 1, 4, strides=2),
    "to_batched": lambda x: nbt.stack(list(nbt.to_batched(_head(x, 5), 2))),
    # indexing
    "slice": lambda x: nbt.slice(x, [1], [4], strides=2),
    "put_slice": lambda x: nbt.put_slice(x, [1], nbt.reverse(_head(x, 2))),
    "take_along_axis": lambda x: nbt.take_along_axis(x, nbt.tensor([2, 0, 1, 1, 0])),
    "top_k": lambda x: nbt.top_k(x, k=3),
    # cumulative, products and sums (finite values: no order-dependent overflow)
    "cumulative_sum": lambda x: nbt.cumulative_sum(_finite(x)),
    "cumulative_product": lambda x: nbt.cumulative_product(_finite(x), reverse=True),
    "dot": lambda x: nbt.dot(nbt.reshape(_finite(x), (2, 3)), nbt.reshape(nbt.reverse(_finite(x)), (3, 2))),
    "conv": lambda x: nbt.conv(nbt.reshape(_finite(x), (1, 1, 6)), nbt.reshape(_head(_finite(x), 2), (1, 1, 2))),
    "median": lambda x: nbt.median(x),
    "mode": lambda x: nbt.mode(x),
    "covariance": lambda x: nbt.covariance(nbt.reshape(_finite(x), (3, 2))),
    # fft (complex data of finite values)
    "fft": lambda x: nbt.fft(_complex(_head(_finite(x), 4))),
    "ifft": lambda x: nbt.ifft(_complex(_head(_finite(x), 4))),
    "fft2": lambda x: nbt.fft2(_complex(nbt.reshape(_head(_finite(x), 4), (2, 2)))),
    "ifft2": lambda x: nbt.ifft2(_complex(nbt.reshape(_head(_finite(x), 4), (2, 2)))),
    "rfft": lambda x: nbt.rfft(_head(_finite(x), 4)),
    "irfft": lambda x: nbt.irfft(_complex(_head(_finite(x), 3))),
    # vectorization
    "vectorize": lambda x: nbt.devectorize(nbt.multiply(nbt.vectorize(nbt.reshape(_head(x, 6), (2, 3)), "v"), 2)),
    "devectorize": lambda x: nbt.devectorize(nbt.vectorize(nbt.reshape(_head(x, 6), (2, 3)), "v"), keep_names=False),
    "revectorize": lambda x: nbt.devectorize(
        nbt.revectorize(nbt.vectorize(nbt.reshape(_head(x, 6), (2, 3)), "v"), [("w", 6)], target_shape=())
    ),
    "broadcast_vectors": lambda x: tuple(
        nbt.devectorize(t)
        for t in nbt.broadcast_vectors(
            [nbt.vectorize(_head(x, 2), "a"), nbt.vectorize(_head(x, 3), "b")], align_ranks=True
        )
    ),
    "reshape_vectors": lambda x: tuple(
        nbt.devectorize(t)
        for t in nbt.reshape_vectors([nbt.vectorize(_head(x, 2), "a"), nbt.vectorize(_head(x, 3), "b")])
    ),
    # linear algebra (well-conditioned matrices of the type's finite values)
    "linalg.adjoint": lambda x: nbt.linalg.adjoint(nbt.reshape(_head(x, 6), (2, 3))),
    "linalg.cholesky": lambda x: nbt.linalg.cholesky(_spd(x)),
    "linalg.determinant": lambda x: nbt.linalg.determinant(_matrix(x)),
    "linalg.eigh": lambda x: nbt.linalg.eigh(_spd(x)),
    "linalg.invert": lambda x: nbt.linalg.invert(_matrix(x)),
    "linalg.least_squares": lambda x: nbt.linalg.least_squares(_matrix(x), _head(_finite(x), 2)),
    "linalg.lu": lambda x: nbt.linalg.lu(_matrix(x)),
    "linalg.matrix_power": lambda x: nbt.linalg.matrix_power(_matrix(x), 3),
    "linalg.matrix_rank": lambda x: nbt.linalg.matrix_rank(_matrix(x)),
    "linalg.norm": lambda x: nbt.linalg.norm(_matrix(x)),
    "linalg.pinv": lambda x: nbt.linalg.pinv(_matrix(x)),
    "linalg.qr": lambda x: nbt.linalg.qr(_matrix(x)),
    "linalg.solve": lambda x: nbt.linalg.solve(_matrix(x), _head(_finite(x), 2)),
    "linalg.svd": lambda x: nbt.linalg.svd(_matrix(x)),
    "linalg.triangular_solve": lambda x: nbt.linalg.triangular_solve(nbt.tril(_matrix(x)), _head(_finite(x), 2)),
    # random numbers in x's type, from one key
    "random.key": lambda x: nbt.random.key(7),
    "random.split": lambda x: nbt.random.split(_key(x), parts=3),
    "random.fold_in": lambda x: nbt.random.fold_in(_key(x), 5),
    "random.uniform": lambda x: nbt.random.uniform(_key(x), shape=(4,), type=x.type),
    "random.uniform_split": lambda x: nbt.random.uniform_split(_key(x), shape=(4,), type=x.type),
    "random.normal": lambda x: nbt.random.normal(_key(x), shape=(4,), type=x.type),
    "random.normal_split": lambda x: nbt.random.normal_split(_key(x), shape=(4,), type=x.type),
    "random.randint": lambda x: nbt.random.randint(_key(x), 0, 5, shape=(4,), type=x.type),
    "random.randint_split": lambda x: nbt.random.randint_split(_key(x), 0, 5, shape=(4,), type=x.type),
    "random.gumbel": lambda x: nbt.random.gumbel(_key(x), shape=(4,), type=x.type),
    "random.gumbel_split": lambda x: nbt.random.gumbel_split(_key(x), shape=(4,), type=x.type),
    "random.choice": lambda x: nbt.random.choice(_key(x), x, samples=3, replace=False),
    "random.shuffle": lambda x: nbt.random.shuffle(_key(x), x),
    "random.multivariate_normal": lambda x: nbt.random.multivariate_normal(
        _key(x), nbt.tensor([0.0, 1.0], type=x.type), _spd(x), shape=(3,)
    ),
    "random.multivariate_normal_split": lambda x: nbt.random.multivariate_normal_split(
        _key(x), nbt.tensor([0.0, 1.0], type=x.type), _spd(x), shape=(3,)
    ),
}
# Recipes whose results are sums of their inputs' terms (PLATFORM_DIFFERENCES["summation order"]).
SUMS = {"cumulative_sum", "cumulative_product", "dot", "conv", "covariance", "fft", "ifft", "fft2", "ifft2"}
SUMS |= {"rfft", "irfft"} | {name for name in RECIPES if name.startswith(("linalg.", "random.multivariate"))}


# Disagreements found and not fixed here, as "op[type]" -> the cause. Strict: an entry whose
# type runs and which no longer fails fails the test, so the table only shrinks.
KNOWN_DISAGREEMENTS: dict[str, str] = {}


@pytest.mark.parametrize("type_name", d.TYPES_OF_THE_DAY)
def test_other_ops_agree_on_edge_values(type_name):
    x, failures = d.edge_values(type_name), []
    terms = 200.0**3  # the finite values' magnitudes (at most 100, squared and cubed by the linalg recipes)
    d.compare_paths(RECIPES, [x], type_name, failures, terms, summed=SUMS)
    known = [key for key in KNOWN_DISAGREEMENTS if key.endswith(f"[{type_name}]")]
    stale = [key for key in known if not any(line.startswith(key) for line in failures)]
    failures = [line for line in failures if not any(line.startswith(key) for key in known)]
    assert not failures and not stale, "\n".join(
        failures + [f"{key}: agrees now, leave KNOWN_DISAGREEMENTS" for key in stale]
    )


@pytest.mark.parametrize("backend", [nbt.NumPyBackend, nbt.XLABackend])
@pytest.mark.parametrize("type_name", ["bf16", "f8_e4m3fn"])
def test_batched_dot_of_narrow_floats(backend, type_name):
    """NumPy's einsum has no bf16 or f8 loop: a dot with batch axes computes them in f32, as XLA."""
    x = nbt.tensor([[[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]]], type=type_name, backend=backend())
    result = nbt.dot(x, x, contract_axes=([1], [1]), batch_axes=([0], [0]))
    assert str(result.type) == type_name
    rounded = {"bf16": [[[35.0, 49.0], [49.0, 69.0]]], "f8_e4m3fn": [[[36.0, 48.0], [48.0, 72.0]]]}
    assert result.to_numpy().astype(float).tolist() == rounded[type_name]


def test_the_ci_budget_rotates_one_type_a_day_through_all_nineteen():
    assert {d.one_type_a_day(None, day) for day in range(len(d.ALL_TYPES))} == {(t,) for t in d.ALL_TYPES}
    assert d.one_type_a_day("full", 0) == d.ALL_TYPES and d.one_type_a_day("s8", 3) == ("s8",)


def _public():
    """The public functions: `numbat`'s, `numbat.linalg`'s (as "linalg.X") and `numbat.random`'s."""
    names = set()
    for prefix, module in (("", nbt), ("linalg.", nbt.linalg), ("random.", nbt.random)):
        names |= {prefix + n for n in module.__all__ if inspect.isfunction(getattr(module, n))}
    return names


def test_every_public_op_is_compared_or_listed():
    compared = set(d.discover()) | {"as_type"} | set(d.STRUCTURE_OPS) | set(RECIPES)
    listed = set(d.NOT_COMPARED)
    public = _public()
    assert sorted(public - compared - listed) == [], "add a recipe or list the op in NOT_COMPARED"
    assert sorted((compared | listed) - public) == []
    assert sorted(compared & listed) == []
    print(
        f"differential coverage: {len(public)} public functions, {len(public & compared)} compared, {len(listed)} listed"
    )
