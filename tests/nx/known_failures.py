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
        "deliberate",
        (
            "eigh and svd with their options left out are XLA's (LAPACK's), as EXLA's host custom calls, which "
            "EXLA's own test suite excludes from these doctests too: eigenvalues in ascending order, and "
            "eigenvector signs (and the basis of a repeated eigenvalue) that LAPACK picks; the mathematics fixes "
            "neither, and no rule maps LAPACK's picks onto Nx's Jacobi rotations. Nx's own algorithms (Jacobi "
            "eigh, QDWH svd) run when the options are given (eigh's eps or max_iter, svd's max_iter), and then "
            "these doctests print Nx's results (test_eigh_and_svd_doctests_with_options_print_nx_results); they "
            "are accurate to about eps (1e-4 by default) of the matrix's norm in any type, and slower to compile"
        ),
        [
            "Nx.LinAlg.eigh/2#1",
            "Nx.LinAlg.eigh/2#2",
            "Nx.LinAlg.eigh/2#3",
            "Nx.LinAlg.eigh/2#4",
            "Nx.LinAlg.svd/2#1",
            "Nx.LinAlg.svd/2#2",
            "Nx.LinAlg.svd/2#3",
        ],
    ),
    (
        "deliberate",
        (
            "triangular_solve of a matrix with a 0 on its diagonal inside a defn: Nx's binary backend raises, "
            "but a traced matrix has no values to check until the compiled code runs; numbat gives XLA's "
            "infinities/NaNs there, as EXLA does (PLATFORM_DIFFERENCES in tests/_differential.py), and "
            "raises Nx's error on every eager path and in the evaluator"
        ),
        ["Nx.LinAlg.triangular_solve/3#15-jit"],
    ),
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
        "f32 linalg results differ from the digits Nx's own algorithms print (XLA's LAPACK-style algorithms, on every backend, round differently)",
        [
            "Nx.LinAlg.least_squares/3#1",
            "Nx.LinAlg.least_squares/3#3",
            "Nx.LinAlg.matrix_power/2#6",
            "Nx.LinAlg.pinv/2#5",
            "Nx.LinAlg.solve/2#4",
        ],
    ),
]


def by_test_id() -> dict[str, str]:
    """{case or test id: "kind: cause"} over every cause."""
    return {test_id: f"{kind}: {cause}" for kind, cause, ids in CAUSES for test_id in ids}
