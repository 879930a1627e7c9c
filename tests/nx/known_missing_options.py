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
            "linalg.qr validates eps and does not use it: Nx's qr sets every entry of q and r "
            "with |x| <= eps to 0 (nx/lib/nx/lin_alg/qr.ex:68); EXLA's custom-call QR ignores it too"
        ),
        ["honours Nx.LinAlg.qr:eps"],
    ),
    (
        "ignored",
        (
            "linalg.eigh validates eps and does not use it: Nx's eigh sets eigenvalues and "
            "eigenvector entries with |x| <= eps to 0 (nx/lib/nx/lin_alg/block_eigh.ex:103); "
            "max_iter is validated and unused as well (LAPACK's eigh does not iterate a fixed count)"
        ),
        ["honours Nx.LinAlg.eigh:eps"],
    ),
    (
        "ignored",
        (
            "fft/ifft/fft2/ifft2/rfft/irfft validate eps and do not use it: Nx's binary backend "
            "sets real and imaginary parts with |x| <= eps to 0 (nx/lib/nx/binary_backend.ex:2259); "
            "Nx documents it as a threshold 'which backends can use', and XLA's FFT ignores it"
        ),
        ["honours Nx.fft:eps"],
    ),
    (
        "unguarded",
        _UNGUARDED_OUTSIDE_OPS + " (numbat.backends: Nx.backend_* and default_backend)",
        [
            "refuses nbt.backend_copy",
            "refuses nbt.backend_deallocate",
            "refuses nbt.backend_transfer",
            "refuses nbt.default_backend",
            "refuses nbt.global_default_backend",
            "refuses nbt.with_default_backend",
        ],
    ),
    (
        "unguarded",
        _UNGUARDED_OUTSIDE_OPS + " (numbat._serialize and numbat._heatmap: Nx.serialize, deserialize, to_heatmap)",
        [
            "refuses nbt.serialize",
            "refuses nbt.deserialize",
            "refuses nbt.load_numpy",
            "refuses nbt.load_numpy_archive",
            "refuses nbt.to_heatmap",
        ],
    ),
    (
        "unguarded",
        _UNGUARDED_OUTSIDE_OPS + " (numbat._defn: Nx.Defn.Kernel's transforms, control flow and hooks)",
        [
            "refuses nbt.cond",
            "refuses nbt.custom_grad",
            "refuses nbt.fori_loop",
            "refuses nbt.grad",
            "refuses nbt.hook",
            "refuses nbt.inspect_value",
            "refuses nbt.io_call",
            "refuses nbt.jacobian",
            "refuses nbt.print_value",
            "refuses nbt.stop_grad",
            "refuses nbt.value_and_grad",
            "refuses nbt.while_loop",
        ],
    ),
    (
        "unguarded",
        _UNGUARDED_OUTSIDE_OPS + " (numbat._expr: the expression graph's inspect_expr and print_expr)",
        ["refuses nbt.inspect_expr", "refuses nbt.print_expr"],
    ),
    (
        "unguarded",
        (
            "is_cached(fun, args, **options) takes any keyword and passes it to the signature "
            "(numbat/_defn/_cache.py): an unknown option answers False instead of raising"
        ),
        ["refuses nbt.is_cached"],
    ),
]


def by_test_id() -> dict[str, str]:
    """{test id: "kind: cause"} over every cause."""
    return {test_id: f"{kind}: {cause}" for kind, cause, ids in CAUSES for test_id in ids}
