"""The ported Nx doctests that fail today, grouped by cause. Each one runs as a strict
xfail: when an op is fixed its cases XPASS and the suite fails until the entry leaves this
list, so the list only shrinks.

An entry is a case id (`Nx.take/3#2`: every path) or a test id (`Nx.take/3#2-numpy`:
that path only). Causes are "bug" (numbat gives a different answer or the wrong error),
"missing" (an Nx function or option numbat lacks) or "deliberate" (a documented
difference; aim for none).
"""

CAUSES: list[tuple[str, str, list[str]]] = [
    (
        "bug",
        "a jit returning a vectorized tensor fails (VectorizedData is not a valid JAX type)",
        [
            "Nx.cumulative_max/2#6-jit",
            "Nx.cumulative_min/2#6-jit",
            "Nx.cumulative_product/2#6-jit",
            "Nx.cumulative_sum/2#6-jit",
            "Nx.median/2#10-jit",
            "Nx.standard_deviation/2#8-jit",
            "Nx.variance/2#8-jit",
        ],
    ),
    (
        "bug",
        "compatible?: names make tensors incompatible (Nx ignores them); containers and vectorized sizes",
        [
            "Nx.compatible?/2#10",
            "Nx.compatible?/2#2",
            "Nx.compatible?/2#3",
            "Nx.compatible?/2#7",
            "Nx.compatible?/2#8",
            "Nx.compatible?/2#9",
        ],
    ),
    (
        "bug",
        "dot does not refuse an axis both batched and contracted (NumPy: no error; XLA: JAX's bare TypeError)",
        [
            "Nx.dot/6#10-numpy",
            "Nx.dot/6#10-xla",
            "Nx.dot/6#11-numpy",
            "Nx.dot/6#11-xla",
            "Nx.dot/6#9-numpy",
            "Nx.dot/6#9-xla",
        ],
    ),
    (
        "bug",
        "linspace: type is ignored and tensor start/stop are refused",
        [
            "Nx.linspace/3#3",
            "Nx.linspace/3#4",
            "Nx.linspace/3#5",
            "Nx.linspace/3#6",
            "Nx.linspace/3#7",
            "Nx.linspace/3#8",
        ],
    ),
    (
        "bug",
        "eigh returns eigenvalues (and vectors) in LAPACK's ascending order, not Nx's order",
        ["Nx.LinAlg.eigh/2#1", "Nx.LinAlg.eigh/2#2", "Nx.LinAlg.eigh/2#3", "Nx.LinAlg.eigh/2#4"],
    ),
    (
        "bug",
        "broadcast: a tensor as the shape is refused; a plain shape keeps the names (Nx drops them)",
        ["Nx.broadcast/3#2", "Nx.broadcast/3#3", "Nx.broadcast/3#4", "Nx.broadcast/3#9"],
    ),
    (
        "bug",
        "to_batched of a vectorized tensor",
        ["Nx.to_batched/3#4", "Nx.to_batched/3#5", "Nx.to_batched/3#6", "Nx.to_batched/3#7"],
    ),
    (
        "bug",
        "svd's singular vectors have other signs than Nx's",
        ["Nx.LinAlg.svd/2#1", "Nx.LinAlg.svd/2#2", "Nx.LinAlg.svd/2#3"],
    ),
    (
        "bug",
        "select: differently named branches (Nx takes the predicate's names); vectorized broadcast on NumPy",
        ["Nx.select/3#11-numpy", "Nx.select/3#4", "Nx.select/3#5"],
    ),
    (
        "bug",
        "a scalar-tensor index is not clamped (t[nbt.tensor(2)]): IndexError on NumPy, a wrong value on XLA",
        ["Nx (moduledoc)#13", "Nx (moduledoc)#14"],
    ),
    (
        "bug",
        "concatenate/stack of nested containers",
        ["Nx.concatenate/2#5", "Nx.stack/2#5"],
    ),
    (
        "bug",
        "fill of a vectorized tensor loses the vectorized axes / the float type",
        ["Nx.fill/3#2", "Nx.fill/3#4"],
    ),
    (
        "bug",
        "rename to a vectorized axis's name is not refused",
        ["Nx.rename/2#2-numpy", "Nx.rename/2#2-xla"],
    ),
    (
        "bug",
        "to_list of a scalar does not raise",
        ["Nx.to_list/1#2-numpy", "Nx.to_list/1#2-xla"],
    ),
    (
        "bug",
        "qr's factors have other signs than Nx's",
        ["Nx.LinAlg.qr/2#4"],
    ),
    (
        "bug",
        "a list of ints beyond s32 is inferred as another type than Nx's s64",
        ["Nx.count_leading_zeros/1#4"],
    ),
    (
        "bug",
        "take drops the names",
        ["Nx.take/3#3"],
    ),
    (
        "bug",
        "tile with fewer repetitions than axes",
        ["Nx.tile/2#2"],
    ),
    (
        "bug",
        "to_template of a tuple container treats the tuple as tensor data",
        ["Nx.to_template/1#2"],
    ),
    (
        "bug",
        "vectorize does not refuse what Nx refuses",
        ["Nx.vectorize/2#10"],
    ),
    (
        "missing",
        "iota/eye option vectorized_axes",
        [
            "Nx.devectorize/2#2",
            "Nx.eye/2#5",
            "Nx.eye/2#6",
            "Nx.iota/2#8",
            "Nx.mean/2#9",
            "Nx.revectorize/3#1",
            "Nx.revectorize/3#2",
            "Nx.slice/4#11",
            "Nx.slice_along_axis/4#6",
        ],
    ),
    (
        "missing",
        "diff option order",
        ["Nx.diff/2#2", "Nx.diff/2#5", "Nx.diff/2#6-numpy", "Nx.diff/2#6-xla"],
    ),
    (
        "missing",
        "to_binary/to_flat_list option limit",
        ["Nx.to_binary/2#3", "Nx.to_binary/2#5", "Nx.to_flat_list/2#3", "Nx.to_flat_list/2#5"],
    ),
    (
        "missing",
        'triangular_solve: transform_a "conjugate" and the singular-matrix error',
        [
            "Nx.LinAlg.triangular_solve/3#15-jit",
            "Nx.LinAlg.triangular_solve/3#15-xla",
            "Nx.LinAlg.triangular_solve/3#16",
        ],
    ),
    (
        "missing",
        "argmax/argmin option type",
        ["Nx.argmax/2#9", "Nx.argmin/2#9"],
    ),
    (
        "missing",
        "log's second argument (the base)",
        ["Nx.log/2#1", "Nx.log/2#2"],
    ),
    (
        "missing",
        "take_diagonal of a batch of matrices (rank > 2)",
        ["Nx.take_diagonal/2#4", "Nx.take_diagonal/2#5"],
    ),
    (
        "missing",
        "sort/argsort option stable",
        ["Nx.argsort/2#5"],
    ),
    (
        "missing",
        "Nx's sub-byte types (u2, u4, s2, s4)",
        ["Nx.bit_size/1#1"],
    ),
    (
        "missing",
        "fill option type",
        ["Nx.fill/3#3"],
    ),
    (
        "deliberate",
        "f32 linalg results differ from the digits Nx's own algorithms print (LAPACK/XLA round differently)",
        [
            "Nx.LinAlg.cholesky/1#1-numpy",
            "Nx.LinAlg.cholesky/1#2-jit",
            "Nx.LinAlg.cholesky/1#2-xla",
            "Nx.LinAlg.cholesky/1#5-jit",
            "Nx.LinAlg.cholesky/1#5-xla",
            "Nx.LinAlg.least_squares/3#1",
            "Nx.LinAlg.least_squares/3#3-jit",
            "Nx.LinAlg.least_squares/3#3-xla",
            "Nx.LinAlg.matrix_power/2#6",
            "Nx.LinAlg.pinv/2#5",
            "Nx.LinAlg.solve/2#4-jit",
            "Nx.LinAlg.solve/2#4-xla",
        ],
    ),
    (
        "deliberate",
        "a Python tuple is tensor data (NumPy's convention), so shape/rank/size/axes of (1, 2, 3) describe a rank-1 tensor, not Nx's shape tuple",
        ["Nx.axes/1#3", "Nx.rank/1#4", "Nx.shape/1#4", "Nx.size/1#3"],
    ),
]


def by_test_id() -> dict[str, str]:
    """{case or test id: "kind: cause"} over every cause."""
    return {test_id: f"{kind}: {cause}" for kind, cause, ids in CAUSES for test_id in ids}
