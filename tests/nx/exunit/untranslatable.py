"""The assertions of Nx 0.13.1's ExUnit suite that have no numbat form, and the
deliberate differences, each with its reason, per Nx test file.

An entry is `(Nx test name, reason)`. `UNTRANSLATABLE` holds assertions about Elixir
machinery (processes, protocols, macros, backends numbat does not have); `DELIBERATE`
holds numbat answers that differ from Nx on purpose. Nothing here is a bug: a bug is fixed.
"""

UNTRANSLATABLE: dict[str, list[tuple[str, str]]] = {}

DELIBERATE: dict[str, list[tuple[str, str]]] = {}

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
