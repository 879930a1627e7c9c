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
