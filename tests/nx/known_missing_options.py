"""The option gaps test_nx_options.py finds today, grouped by cause. Each entry runs as a
strict xfail: when the gap is closed its test XPASSes and the suite fails until the entry
leaves this list, so the list only shrinks.

An entry is a test id of test_nx_options.py:

* `accepts Nx.sort:stable`: numbat's function has no keyword of Nx's name ("missing");
* `defaults Nx.sort:direction`: numbat's default differs from Nx's ("default");
* `honours Nx.LinAlg.qr:eps`: the keyword is there but does not do what Nx's does ("ignored");
* `refuses nbt.serialize`: an unknown keyword gives Python's TypeError, not numbat's
  ArgumentError naming the op and its options ("unguarded").
"""

_UNGUARDED_OUTSIDE_OPS = (
    "numbat/__init__.py guards the functions of numbat._ops, numbat.linalg and numbat.random "
    "(_keywords.guard_namespace); these public functions live elsewhere, so an unknown keyword "
    "is Python's bare TypeError"
)

CAUSES: list[tuple[str, str, list[str]]] = [
    (
        "ignored",
        (
            "linalg.eigh validates eps and max_iter and does not use them: they steer Nx's own Jacobi "
            "iteration (nx/lib/nx/lin_alg/block_eigh.ex), which numbat does not run: a port of it "
            "(measured this session) was accurate to only ~1e-4 of the matrix's norm even in f64 and "
            "took 5.4 s against LAPACK's 16 ms at 256x256, so numbat keeps XLA's (LAPACK's) eigh, as "
            "EXLA's host custom call does, which ignores both options too"
        ),
        ["honours Nx.LinAlg.eigh:eps", "honours Nx.LinAlg.eigh:max_iter"],
    ),
    (
        "ignored",
        (
            "linalg.svd validates max_iter and does not use it: it bounds Nx's own QDWH iteration "
            "(nx/lib/nx/lin_alg/svd.ex), which numbat does not run (see eigh's entry: the port was "
            "measured, and LAPACK's SVD, EXLA's too, converges without an iteration count)"
        ),
        ["honours Nx.LinAlg.svd:max_iter"],
    ),
]


def by_test_id() -> dict[str, str]:
    """{test id: "kind: cause"} over every cause."""
    return {test_id: f"{kind}: {cause}" for kind, cause, ids in CAUSES for test_id in ids}
