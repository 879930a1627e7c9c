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


# nx_test.exs, non_finite_test.exs, complex_test.exs, tensor_test.exs, type_test.exs, floating_test.exs
# (branch exunit-ops). Ported in test_nx_*.py, test_non_finite.py, test_complex.py, test_tensor.py,
# test_type.py, test_floating.py; a DELIBERATE entry's test asserts numbat's answer beside Nx's.
UNTRANSLATABLE.update(
    {
        "nx/test/nx_test.exs": [
            ("defines doc metadata", "Code.fetch_docs: Elixir's @doc metadata of the Nx module"),
            ("inspect limit", "inspect's :limit is Elixir's Inspect.Opts; numbat's repr takes no per-call limit"),
            (
                "infinity and nan for f32/f64, more nan for f32/f64 (the `for <<x::float ...>>` asserts)",
                "Elixir bitstring comprehensions refusing non-finite floats; the inspect asserts are ported",
            ),
            ("access raises on duplicated axis", "a keyword list with a repeated key; a Python dict cannot hold one"),
            ("tensor/2 raises with tensor and different backends", "ProcessBackend, a test backend of Nx's suite"),
            ("serialize/deserialize v1 regression", "Erlang's external term format of Nx 0.1's serialize"),
            ("sigils (5 tests)", "~MAT and ~VEC are Elixir sigils"),
            ("with_default_backend/2", "Nx.Defn.Expr used as a backend; numbat's defn traces with JAX"),
        ],
        "nx/test/nx/tensor_test.exs": [
            (
                "backend_transfer, backend_copy, backend_deallocate (to ProcessBackend), default backend (4 tests)",
                "ProcessBackend stores data in the process dictionary: a test backend of Nx's suite",
            ),
        ],
        "nx/test/nx/type_test.exs": [("doctest Nx.Type", "Nx.Type's doctests; numbat's types are strings")],
        "nx/test/nx/floating_test.exs": [("doctest Nx.Floating", "Nx.Floating's doctests; no numbat module")],
    }
)

_XLA_COMPLEX = (
    "Nx.BinaryBackend's answer comes from the Complex library's formulas; numbat gives XLA's (EXLA's) "
    "answer at complex infinities on every path, the limits of C99 Annex G"
)
_TRACED = (
    "a defn cannot raise on the values it traces: numbat raises where they are known (eager, constants) "
    "and gives NaN inside nbt.jit (tests/_differential.py PLATFORM_DIFFERENCES)"
)
DELIBERATE.update(
    {
        "nx/test/nx_test.exs": [
            (
                "access raises on invalid ranges",
                "numbat indexes with Python slices: slice(2, 1) is an empty axis (as NumPy), Elixir's 2..1//1 raises",
            ),
            (
                "indexed_add/indexed_put raises when out of bounds; gather raises when out of bounds",
                (
                    "numbat drops out-of-range scatter updates and clamps gather indices on every path, as EXLA "
                    "(XLA's scatter and gather) does; Nx.BinaryBackend raises"
                ),
            ),
            (
                "computes window scatter min with same padding",
                (
                    "XLA's select_and_scatter (EXLA) never selects padding; Nx.BinaryBackend pads with the init "
                    "value and lets it win"
                ),
            ),
            (
                "argmin/argmax works with non finites ([NaN, NaN, 1])",
                "the first NaN, as EXLA's argmin/argmax (and NumPy); Nx.BinaryBackend picks the second",
            ),
            (
                "variance, standard_deviation, covariance (== on f32)",
                "Nx's values are rounded in Nx.BinaryBackend's summation order; compared within an f32 ulp or two",
            ),
            (
                "fft/ifft Bluestein clause (atol 1e-9, 1e-8)",
                "XLA computes the 2400-point FFT in f32 (EXLA too): zeros within 1e-3, the round trip within 1e-5",
            ),
        ],
        "nx/test/nx/non_finite_test.exs": [
            ("acosh, asinh, tanh, acos, asin, atan, atanh of Inf+3i", _XLA_COMPLEX),
            (
                "remainder(-Inf, Inf) raises",
                "Erlang's :math.fmod refusing non-finite floats in Nx.BinaryBackend; numbat gives NaN (IEEE, EXLA)",
            ),
            ("atan2 raises for a non-zero imaginary part (inside nbt.jit)", _TRACED),
        ],
        "nx/test/nx/complex_test.exs": [
            ("LinAlg svd not yet implemented for complex inputs", "numbat computes the complex SVD (XLA's)"),
            ("atan2 raises for a non-zero imaginary part (inside nbt.jit)", _TRACED),
            ("triangular_solve fails with singular complex matrix (inside nbt.jit)", _TRACED),
        ],
        "nx/test/nx/tensor_test.exs": [
            (
                "access raises for negative steps",
                "numbat indexes with Python slices, whose negative steps walk backwards (as NumPy)",
            ),
        ],
    }
)


# grad_test.exs (branch exunit-grad), ported in test_grad_*.py. An entry citing f32 rounding uses
# assert_same_rounded where Nx compares a computed f32 value exactly.
UNTRANSLATABLE.update(
    {
        "nx/test/nx/defn/grad_test.exs": [
            (
                "metadata / ignores unknown metadata",
                "Nx.Defn.Expr.metadata with unknown keys: Elixir expression metadata, which numbat's graph does not have",
            ),
            (
                "vectorization / grad/2 raises on Kernel unary minus in anonymous functions",
                "Elixir's Kernel.-/1 on a tensor outside defn; Python's unary minus is numbat's negate",
            ),
            (
                "closure backend error / raises a helpful error when closure tensor is on a non-default backend",
                "Nx's ProcessBackend and Expr backend mixing; numbat's grad accepts captured tensors of any backend",
            ),
        ],
    }
)

DELIBERATE.update(
    {
        "nx/test/nx/defn/grad_test.exs": [
            (
                "value and grad / computes value and grad",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "product rule / computes gradient for scalars",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "division rule / computes gradient",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "remainder rule / computes gradient",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "atan2 rule / computes gradient",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "chain rule / computes gradient",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "concatenate / computes grad for powers of a {2, 2}-tensor",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5) (complex pow)",
            ),
            (
                "concatenate / computes grad for composed functions on a multidim tensor",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "concatenate / computes grad for composed functions applied to concatenate",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "pad / computes with pad value from tensor",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "reverse / computes gradient",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "cholesky / computes grad for composed {2,2}-tensor",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "while / computes gradient for unrelated param loop",
                "Nx expects 5461.0; the loop computes x**7 * t, whose derivative at x = 2 is 448.0: numbat's answer, checked against finite differences",
            ),
            (
                "sort / computes gradient",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5) (the fourth assertion)",
            ),
            (
                "sort / computes gradient with slicing and chain rule",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "sort / computes gradient along axis",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "take_along_axis / computes gradient",
                "the complex input's gradient is f32 (no complex value meets the cotangent, as for Nx's pad, slice and broadcast) where Nx's take_along_axis rule builds c64; values equal (assert_equal). The fourth assertion: exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "take / computes gradient",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5) (complex pow, log of cos)",
            ),
            (
                "gather / computes gradient",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5)",
            ),
            (
                "window_scatter_min/max / window_scatter_max",
                "the input's gradient is f32 zeros where Nx's is Nx.broadcast(0, t), s32 zeros; values equal (assert_equal)",
            ),
            ("window_scatter_min/max / window_scatter_min", "as window_scatter_max"),
            (
                "window_min_max rule / works with window_min, same padding, large kernel",
                (
                    "Nx's binary backend pads window_scatter_min's operand with the init value 0, which wins the "
                    "windows reaching into the padding (Nx: 1.0 at [1][1] alone); XLA's select_and_scatter (EXLA) "
                    "never selects padding, so each window's minimum gets its gradient: the true derivative"
                ),
            ),
            (
                "window_scatter_min/max / grad_composed_window_scatter_max",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5) (the init value's gradient)",
            ),
            (
                "window_scatter_min/max / grad_composed_window_scatter_min",
                "exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5) (the init value's gradient)",
            ),
            (
                "not implemented / raises on reduce",
                "numbat computes the gradient of nbt.reduce with a Python function (JAX differentiates it); Nx refuses. Ported as the gradient's value",
            ),
            (
                "not implemented / raises on quotient",
                'the ArgumentError says "quotient expects integer tensors" (numbat differentiates the integer input as a float) where Nx says "cannot compute gradient for Nx.quotient/2"',
            ),
            (
                "svd / computes the composed grad for tall tensor",
                "numbat's f32 QDWH SVD leaves this gradient 4e-4 (relative) off Nx's f32 answer, past Nx's 1e-4; ported in f64, where it matches Nx's values to 1e-6",
            ),
            (
                "vectorization / supports combination of vectorized and non-vectorized tensors over composed function",
                "the second assertion compares grad with Nx.cos(x) exactly: exact f32 equality of a computed value: numbat's f32 kernels (XLA) round differently from Nx's binary backend (f64 arithmetic rounded per op); ported with assert_same_rounded (type, shape, names equal; values within 1e-5) (assert_all_close)",
            ),
        ],
    }
)


# kernel_test.exs and the rest of defn_test.exs (branch exunit-rest), ported in test_defn_kernel.py and
# test_defn_rest.py.
_ELIXIR_MACROS = (
    "Elixir's macros, imports, aliases and module attributes (defmacro, require, alias, Kernel.+ by its module, "
    "unquote'd names, @attributes): Python functions and closures play their part, with nothing of numbat's to test"
)
_TOKENS = (
    "Nx's tokens (create_token, hook_token, attach_token) and the %Expr{op: :hook} struct with its inspect text; "
    "numbat has no tokens (its hooks are ordered effects of the computation): test_defn_kernel.py runs hook/2,3 "
    "with a name, a function and both, and checks what the hook returns and what its function sees"
)
_ELIXIR_COMPILE_ERRORS = (
    "a CompileError, FunctionClauseError or UndefinedFunctionError Elixir raises while compiling or dispatching "
    "the defn's Elixir code (an undefined or non-defn function, a literal or repeated variable in a pattern, "
    "guards on outside variables, no matching deftransform clause); in Python these are Python's own errors "
    "(NameError, SyntaxError, TypeError) before numbat sees anything"
)
UNTRANSLATABLE.update(
    {
        "nx/test/nx/defn/kernel_test.exs": [
            ("with numbers: ..", "Elixir's Range 1..2; Python's range and slices are Python's"),
            ("tokens: hook/2,3 (the %Expr{op: :hook} matches and inspect)", _TOKENS),
            ("tokens: hook_token/3,4", _TOKENS),
            (
                "macros: raise outside of defn",
                (
                    "Nx.Defn.Kernel.if is a macro that exists only inside defn; numbat's nbt.cond is a function "
                    "that works inside and outside a defn"
                ),
            ),
            (
                "doctest Nx.Defn.Kernel: keyword!, assert_keys, elem",
                "Elixir keyword lists and tuples; the access doctests (t[..], t[1..2], t[1..2//1]) are ported",
            ),
        ],
    }
)

_PARAMETER_MATCHES = (
    "the %Expr{op: :parameter, args: [i]} matches of the operands (which parameter each is): numbat's expression "
    "graph is JAX's trace; the port asserts the result's shape, type and value"
)
_ELIXIR_FUNCTION_HEADS = (
    "Elixir function heads: multi-clause deftransforms with guards, bodiless heads declaring defaults, pattern "
    "matches on literals (-2, +2) and on structs (%URI{}, %Regex{}); Python has one body per function and plain "
    "conditionals, with nothing of numbat's to test (the single-clause defaults and guards are ported)"
)
UNTRANSLATABLE["nx/test/nx/defn_test.exs"] += [
    ("doctest Nx.Defn", "Nx.Defn's doctests; numbat's defn, jit and grad carry their own (tests/test_doctests.py)"),
    (
        "Nx.tensor: warns if not constant; private definitions: warns when unused, are not exported",
        "Elixir compile-time warnings and module exports (function_exported?); a Python function has neither",
    ),
    (
        (
            "tuple: pattern matching on signature, with alias, inside body (2 asserts each); map: on signature, with "
            "alias, inside body, access (2 each), dot on maps (3: Elixir's map.key); updates a map (1); anonymous "
            "functions args: calls directly (2), receives multiple in tuple (4)"
        ),
        _PARAMETER_MATCHES,
    ),
    ("macros: external, internal, aliases, kernel alias, dynamic name", _ELIXIR_MACROS),
    (
        (
            "remote functions: undefined remote; case/2: raises on outside variables in guards, raises if not tuple, "
            "atom, integer, or struct; compilation errors (5 tests); deftransform: multi-clause raises for no clause "
            "matching args"
        ),
        _ELIXIR_COMPILE_ERRORS,
    ),
    (
        (
            "unary ops: unary + and - with hard matches (2); case/2: matches struct names (4); deftransform: "
            "bodiless head (6), multi-clause + multi-arity (5)"
        ),
        _ELIXIR_FUNCTION_HEADS,
    ),
    (
        (
            "deftransform: can call deftransform functions from within defn (inspect); metadata: supports vectorization "
            "(4 inspects)"
        ),
        _INSPECT_EXPR,
    ),
]
DELIBERATE.setdefault("nx/test/nx/defn_test.exs", []).extend(
    [
        (
            "remote functions: not defn remote, IO remote",
            (
                "Nx raises for a function not defined with defn, and for IO.inspect, inside a defn; numbat traces any "
                "Python function of numbat ops (Python has no defn/def split), and print shows the traced tensor. "
                "Ported as the result of such a defn"
            ),
        ),
        (
            "raise/2: raises ArgumentError, raises RuntimeError (the exact message)",
            (
                "numbat re-raises an exception from the traced function with the same class and message, followed by "
                "the defn's name and input types: the port asserts the message's start"
            ),
        ),
    ]
)

# expr_test.exs (ported in test_expr.py) and the last of defn_test.exs (branch expr-port).
_NO_FOLDING = (
    "Nx's Expr folds constants as it builds (1.0 + 2 is the constant 3.0, x + 0 is as_type x, x - 0 and x ** 1 "
    "are x, constants commute to the front, a broadcast 0 or 1 is a broadcast of x) and the test matches the "
    "%Expr{} it leaves; numbat's graph records the ops as the defn calls them (XLA folds constants when it "
    "compiles): ported as the result's type, shape, names and values on each path, and for broadcast and add the "
    "graph's rows as recorded"
)
_OWN_PRINT = (
    "Nx's inspect text letter for letter; numbat prints its own form (numbat.Expr<, an op's arguments in brackets, "
    "Python reprs, parameters lettered in call order among the other nodes, axes resolved (axes: [0, 1] for nil), "
    "a weak scalar shown in the result's type (2.0), nothing commuted): ported as numbat's rows, op for op, with "
    "Nx's ops, order and types"
)
UNTRANSLATABLE["nx/test/nx/defn/expr_test.exs"] = [
    ("doctest Nx.Defn.Expr", "Nx.Defn.Expr has no doctests (the line runs none)"),
    (
        "inspect: with metadata (2)",
        (
            "Expr.metadata/2 with a map (%{inspect: :foo}) is Nx's internal API; numbat has no user metadata node "
            "(its metadata ops are stop_grad and hook, printed as such)"
        ),
    ),
    ("inspect: with token hooks", _TOKENS),
]
DELIBERATE["nx/test/nx/defn/expr_test.exs"] = [
    (
        "constant optimizations: broadcast, as_type, add, subtract, multiply, divide, pow, commute (the matches)",
        _NO_FOLDING,
    ),
    (
        "constant optimizations: upcast float constants when operating against higher precision types",
        (
            "the multiply's %Expr{} args (the constant first) are Nx's struct; the result types (f64, f64, c64, c128) "
            "are ported"
        ),
    ),
    (
        "constant optimizations: logsumexp",
        (
            "Nx stops the gradient on reduce_max's result (c = metadata b, :stop_grad) before replacing an infinite max "
            "by 0; numbat stops it after the select (the same gradient: none flows through the shift either way). "
            "Ported: the parameter, the reduce_max row and a stop_grad after it"
        ),
    ),
    (
        "inspect: with scalar, with parameters, with tensors, with fun, with tuple and cond, with while, with hooks",
        _OWN_PRINT,
    ),
    (
        "inspect: with tuple output (2)",
        (
            "Nx records qr as one block node (%Nx.Block.LinAlg.QR{}) and an elem per output; numbat as one decompose "
            "node per output (part 0, part 1): ported as those rows"
        ),
    ),
    (
        "inspect: with limit option (7)",
        (
            "numbat's limit keeps the last rows after a '... N earlier rows left out ...' line and keeps the letters; "
            "Nx puts '...' among its parameters and re-letters (limit: 1 shows c = multiply a, b): ported as the rows "
            "shown for each limit (infinity, 8, 7, 6, 3, 1, 0)"
        ),
    ),
    (
        "raises on captured tensor in while return tuple",
        (
            "Nx raises (its issue 1716: the captured value came back as 0); numbat's loop body closes over the outer "
            "value as JAX's while_loop does, and returns it (42.0): ported as that value"
        ),
    ),
]
UNTRANSLATABLE["nx/test/nx/defn_test.exs"] += [
    (
        (
            "while/3: tensor generator unrolled (1), tensor generator unrolled integer expression exact (4: the "
            "expression, counter, parameter and body) and left-over (2), range generator unrolled (1: Nx folds "
            "1 + 2 + 3 into add 6, a), range generator unrolled integer expression exact (3) and left-over (3); "
            "their values are ported (test_defn.py's generator tests)"
        ),
        _INSPECT_EXPR,
    ),
    ("while/3: raises if non-variable is given as pattern, raises if non-block is given", _ELIXIR_COMPILE_ERRORS),
]
DELIBERATE["nx/test/nx/defn_test.exs"] += [
    (
        "while/3: raises on mixed context",
        (
            "Nx raises for an outer value used inside the loop body; numbat's body closes over it as JAX's while_loop "
            "does: ported as the loop's value (test_while_closes_over_an_outer_value)"
        ),
    ),
    (
        "while/3: raises on options given to condition",
        (
            "Nx's unroll: is for generators only; numbat's while_loop takes unroll with any condition (XLA unrolls the "
            "body), as test_defn.py's range generators use"
        ),
    ),
    (
        "jit: raises on nested JIT unless forcing (2); compile: raises when nested on JIT",
        (
            "Nx raises for a jit or compiled function called while a jit compiles, unless on_conflict: :force; numbat "
            "inlines it into the enclosing defn (as Nx's on_conflict: :reuse): ported as the value, 121, for both"
        ),
    ),
    (
        "jit: uses the default backend on iota (2)",
        (
            "Nx's test backend (ProcessBackend) raises from iota to show the evaluator used it; the port checks that "
            "the evaluator's iota lands on the default backend (NumPyBackend)"
        ),
    ),
]
