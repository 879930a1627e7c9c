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
        "complex-to-real as_type leaks NumPy's ComplexWarning / JAX's DeprecationWarning (errors under pytest)",
        ["Nx.as_type/2#5", "Nx.as_type/2#6"],
    ),
    (
        "bug",
        "eigh returns eigenvalues (and vectors) in LAPACK's ascending order, not Nx's order",
        ["Nx.LinAlg.eigh/2#1", "Nx.LinAlg.eigh/2#2", "Nx.LinAlg.eigh/2#3", "Nx.LinAlg.eigh/2#4"],
    ),
    (
        "bug",
        "lu's permutation is f32 (Nx: s32)",
        ["Nx.LinAlg.lu/1#1", "Nx.LinAlg.lu/1#2", "Nx.LinAlg.lu/1#3", "Nx.LinAlg.lu/1#4"],
    ),
    (
        "bug",
        "matrix_rank returns s32 (Nx: u32) and accepts complex input (Nx raises)",
        [
            "Nx.LinAlg.matrix_rank/2#1",
            "Nx.LinAlg.matrix_rank/2#2",
            "Nx.LinAlg.matrix_rank/2#3",
            "Nx.LinAlg.matrix_rank/2#5",
        ],
    ),
    (
        "bug",
        "pinv refuses scalars and vectors (Nx: their pseudo-inverse)",
        ["Nx.LinAlg.pinv/2#1", "Nx.LinAlg.pinv/2#2", "Nx.LinAlg.pinv/2#3", "Nx.LinAlg.pinv/2#4"],
    ),
    (
        "bug",
        "all_close: infinities (inf vs inf, inf vs 1e30) and s8 -128",
        ["Nx.all_close/3#6", "Nx.all_close/3#7", "Nx.all_close/3#8", "Nx.all_close/3#9"],
    ),
    (
        "bug",
        "svd's singular vectors have other signs than Nx's",
        ["Nx.LinAlg.svd/2#1", "Nx.LinAlg.svd/2#2", "Nx.LinAlg.svd/2#3"],
    ),
    (
        "bug",
        "weighted_mean: weights are not broadcast over the tensor's axes as in Nx",
        ["Nx.weighted_mean/3#4", "Nx.weighted_mean/3#5", "Nx.weighted_mean/3#6"],
    ),
    (
        "bug",
        "least_squares accepts what Nx refuses (a 2-D b; mismatched shapes)",
        ["Nx.LinAlg.least_squares/3#5", "Nx.LinAlg.least_squares/3#6"],
    ),
    ("bug", "norm of a complex tensor drops the imaginary parts", ["Nx.LinAlg.norm/2#15", "Nx.LinAlg.norm/2#16"]),
    (
        "bug",
        "as_type: a Python float loses precision on its way to f64; NaN/Inf to integers differ by backend",
        ["Nx.as_type/2#7-numpy", "Nx.as_type/2#9"],
    ),
    ("bug", "invert of a singular matrix raises on the NumPy backend (Nx: NaN/Inf)", ["Nx.LinAlg.invert/1#3-numpy"]),
    ("bug", "qr's factors have other signs than Nx's", ["Nx.LinAlg.qr/2#4"]),
    ("missing", '"power_of_two" lengths', ["Nx.fft/2#5", "Nx.fft2/2#4", "Nx.ifft/2#5", "Nx.ifft2/2#4", "Nx.rfft/2#5"]),
    (
        "missing",
        "triangular_solve: transform_a 'conjugate' and the singular-matrix error (numbat/linalg.py, SEMANTICS-B's area)",
        [
            "Nx.LinAlg.triangular_solve/3#15-jit",
            "Nx.LinAlg.triangular_solve/3#15-xla",
            "Nx.LinAlg.triangular_solve/3#16",
        ],
    ),
    (
        "missing",
        "log's second argument, the base (Nx's log/2; numbat/_ops/elementwise.py, SEMANTICS-B's area)",
        ["Nx.log/2#1", "Nx.log/2#2"],
    ),
    ("missing", "logsumexp option exp_scaling_factor", ["Nx.logsumexp/2#2", "Nx.logsumexp/2#3"]),
    (
        "missing",
        "Nx's sub-byte types (u2, u4, s2, s4): JAX has no 2-bit types and few ops take int4, so each would need packing on every backend",
        ["Nx.bit_size/1#1"],
    ),
    ("missing", "covariance option mean (a tensor second argument)", ["Nx.covariance/3#4"]),
    (
        "deliberate",
        (
            "Nx writes an integer literal beyond s32 into s32 by wrapping it (0xF0000000 becomes -268435456); "
            "numbat infers s64 so that a Python int keeps its value (issue 16 item 4); the same bits as s32 give Nx's [0, 4]"
        ),
        ["Nx.count_leading_zeros/1#4"],
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
]


def by_test_id() -> dict[str, str]:
    """{case or test id: "kind: cause"} over every cause."""
    return {test_id: f"{kind}: {cause}" for kind, cause, ids in CAUSES for test_id in ids}
