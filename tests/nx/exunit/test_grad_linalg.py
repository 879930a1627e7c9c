"""Nx 0.13.1 nx/test/nx/defn/grad_test.exs, lines 2282-2618 and 4560-4981: "cholesky",
"qr", "lu", "svd", "invert", "determinant", "solve", "triangular_solve"."""

import numbat as nbt

from ._support import assert_all_close, assert_equal, assert_same, assert_same_rounded, run

la = nbt.linalg


def grad_with(fun):
    return lambda t: nbt.grad(fun)(t)


def batched(path, fun, t):
    return run(path, fun, t), nbt.stack([run(path, fun, t[0]), run(path, fun, t[1])])


cholesky_grad = grad_with(lambda x: nbt.sum(la.cholesky(x)))
cholesky_cos_grad = grad_with(lambda x: nbt.sum(nbt.cos(la.cholesky(x))))
exp_cholesky_grad = grad_with(lambda x: nbt.sum(la.cholesky(nbt.exp(x))))


def test_cholesky_computes_for_2x2_complex_matrix(path):
    t = nbt.tensor([[1, complex(0, -2)], [complex(0, 2), 5]])
    assert_same(run(path, cholesky_grad, t), nbt.tensor([[complex(2.5, -1), complex(0, -1)], [complex(1, +1), 0.5]]))
    assert_all_close(
        run(path, cholesky_cos_grad, t), nbt.tensor([[-5.7305, complex(0, 0.8414)], [complex(0, -4.4683), -0.4207]])
    )


def test_cholesky_computes_grad_for_2_2_tensor(path):
    t = nbt.tensor([[1.0, 2.0], [2.0, 5.0]])
    assert_same(run(path, cholesky_grad, t), nbt.tensor([[1.5, -1.0], [0.0, 0.5]]))


def test_cholesky_computes_grad_for_composed_2_2_tensor(path):
    t = nbt.tensor([[1.0, 2.0], [2.0, 5.0]])
    assert_same_rounded(
        run(path, cholesky_cos_grad, t), nbt.tensor([[-1.1943799, 0.84147096], [-0.06782645, -0.42073548]])
    )
    assert_same_rounded(
        run(path, exp_cholesky_grad, t), nbt.tensor([[-0.5299541, -0.88652998], [3.59515929, 6.550619]])
    )


def qr_sum(tensor):
    q, r = la.qr(tensor)
    return nbt.sum(nbt.add(q, r))


def qr_megapower(tensor):
    q, r = la.qr(nbt.pow(tensor, 2))
    return nbt.sum(nbt.add(nbt.cos(q), nbt.sin(r)))


def test_qr_computes_grad_for_tensor(path):
    assert_all_close(
        run(path, grad_with(qr_sum), nbt.tensor([[1.0, 2.0], [1.0, -1.0]])),
        nbt.tensor([[0.70709, 1.4142], [0.70709, 0.0]]),
    )


def test_qr_computes_qr_megapower_grad_for_tensor(path):
    assert_all_close(
        run(path, grad_with(qr_megapower), nbt.tensor([[1.0, 2.0], [1.0, -1.0]])),
        nbt.tensor([[0.1112, -4.0914], [0.3298, 0.5660]]),
    )


def test_qr_computes_qr_megapower_grad_for_complex_tensor(path):
    assert_all_close(
        run(path, grad_with(qr_megapower), nbt.tensor([[1, complex(0, 2)], [3, complex(0, 4)]])),
        nbt.tensor([[1.94476, complex(0, 2.72264)], [4.98145, complex(0, 5.87086)]]),
    )


def lu_sum(tensor):
    p, lower, upper = la.lu(tensor)
    return nbt.sum(nbt.add(nbt.add(lower, upper), p))


def lu_megapower(tensor):
    p, lower, upper = la.lu(nbt.pow(tensor, 2))
    return nbt.sum(nbt.subtract(nbt.add(nbt.cos(lower), nbt.sin(upper)), nbt.exp(p)))


def test_lu_computes_grad_for_tensor(path):
    assert_all_close(
        run(path, grad_with(lu_sum), nbt.tensor([[1.0, 2.0], [1.0, -1.0]])), nbt.tensor([[2.0, 0.0], [-1.0, 1.0]])
    )


def test_lu_computes_lu_megapower_grad_for_tensor(path):
    assert_all_close(
        run(path, grad_with(lu_megapower), nbt.tensor([[1.0, 2.0], [1.0, -1.0]])),
        nbt.tensor([[-5.1563935, 1.3453956], [6.236998, 1.979985]]),
    )


def test_lu_computes_lu_megapower_grad_for_complex_tensor(path):
    assert_all_close(
        run(path, grad_with(lu_megapower), nbt.tensor([[complex(0, 1), 2], [1, complex(0, 4)]])),
        nbt.tensor([[complex(0, 6.1484942), 0.76084137], [5.0678897, complex(0, 6.7508316)]]),
    )


def test_lu_computes_grad_for_batched_tensor(path):
    assert_equal(*batched(path, grad_with(lu_sum), nbt.tensor([[[1.0, 2.0], [1.0, -1.0]], [[3.0, 1.0], [2.0, 4.0]]])))


# Nx's SVD is its QDWH algorithm; numbat's default is LAPACK's, whose signs differ (and
# sum(u) depends on them): max_iter=100 (Nx's default) asks for Nx's algorithm.


def svd_sum(tensor):
    u, s, vt = la.svd(tensor, max_iter=100)
    return nbt.sum(nbt.add(nbt.add(nbt.make_diagonal(s), u), vt))


def svd_composed(tensor):
    u, s, vt = la.svd(tensor, max_iter=100)
    total = nbt.sum(nbt.exp(nbt.make_diagonal(s)))
    return nbt.add(nbt.add(total, nbt.sum(nbt.cos(u))), nbt.sum(nbt.sin(vt)))


def test_svd_computes_grad_for_tensor(path):
    assert_all_close(
        run(path, grad_with(svd_sum), nbt.tensor([[3, 0], [1, 2]])),
        nbt.tensor([[1.368404507637024, -0.5419228672981262], [-0.2197188436985016, 0.6067624092102051]]),
    )


def test_svd_computes_the_composed_grad_for_tensor(path):
    assert_all_close(
        run(path, grad_with(svd_composed), nbt.tensor([[3, 0], [1, 2]])),
        nbt.tensor([[22.86724090576172, 3.655829906463623], [10.035255432128906, 8.769235610961914]]),
    )


def test_svd_computes_the_composed_grad_for_tall_tensor(path):
    # In f32 numbat's QDWH leaves this gradient 4e-4 off Nx's (Nx's tolerance is 1e-4); in
    # f64 it matches: a deliberate difference (untranslatable.DELIBERATE).
    t = nbt.tensor([[3, 0], [1, 2], [1, 1]], type="f64")
    assert_all_close(
        run(path, grad_with(svd_composed), t),
        nbt.tensor(
            [
                [25.911056518554688, 6.1099162101745605],
                [12.69705581665039, 10.84456729888916],
                [10.668402671813965, 6.426826477050781],
            ]
        ),
    )


invert_grad = grad_with(lambda t: nbt.sum(la.invert(t)))
composed_invert_grad = grad_with(lambda t: nbt.sum(nbt.log(nbt.cos(la.invert(nbt.sin(nbt.exp(t)))))))
INVERT_INPUT = nbt.tensor([[1.0, 2.0, 3.0], [0, 4, 5], [0, 0, -6]])


def test_invert_computes_grad_for_tensor(path):
    assert_all_close(
        run(path, invert_grad, INVERT_INPUT),
        nbt.tensor([[-0.5833, -0.4583, 0.1667], [0.14583, 0.1146, -0.0417], [-0.0729, -0.0573, 0.0208]]),
    )


def test_invert_computes_grad_for_complex_tensor(path):
    assert_all_close(
        run(path, invert_grad, nbt.tensor([[complex(0, 1), complex(0, 1)], [0, 1]])),
        nbt.tensor([[complex(1, 1), complex(0, -1)], [0, 0]]),
    )


def test_invert_computes_composed_function_grad_for_tensor(path):
    assert_all_close(
        run(path, composed_invert_grad, INVERT_INPUT),
        nbt.tensor([[-8.2713, -21.8449, 72.5134], [0.9508, 69.7985, -524.3346], [-1.2254, 3.1769, -0.0230]]),
    )


def test_invert_computes_grad_for_batched_tensor(path):
    assert_equal(
        *batched(
            path,
            invert_grad,
            nbt.tensor(
                [
                    [[1.0, 2.0, 3.0], [0.0, 4.0, 5.0], [0.0, 0.0, -6.0]],
                    [[2.0, 0.0, 1.0], [1.0, 3.0, 0.0], [0.0, 1.0, 4.0]],
                ]
            ),
        )
    )


def test_determinant_computes_grad_for_batched_tensor(path):
    assert_equal(
        *batched(
            path,
            grad_with(lambda t: nbt.sum(la.determinant(t))),
            nbt.tensor(
                [
                    [[5.0, 1.0, 2.0, 3.0], [4.0, 10.0, 6.0, 7.0], [8.0, 9.0, 15.0, 11.0], [12.0, 13.0, 14.0, 20.0]],
                    [[2.0, 0.0, 1.0, 0.0], [1.0, 3.0, 0.0, 1.0], [0.0, 1.0, 4.0, 0.0], [1.0, 0.0, 0.0, 5.0]],
                ]
            ),
        )
    )


# describe "solve"

SOLVE_A = nbt.tensor([[1, 0, 1], [0, 1, 0], [-1, 0, 1]])
SOLVE_B = nbt.tensor([4, 3, 2])
SOLVE_EXPECTED = nbt.tensor([[-1.0, -3.0, -3.0], [-1.0, -3.0, -3.0], [0.0, 0.0, 0.0]])


def solve_grad_wrt_a(a, b):
    return nbt.grad(lambda a: nbt.sum(la.solve(a, b)))(a)


def solve_grad_wrt_add(w, a, b):
    return nbt.grad(lambda a: nbt.sum(la.solve(nbt.add(w, a), b)))(a)


def test_solve_computes_the_grad(path):
    assert_all_close(run(path, solve_grad_wrt_a, SOLVE_A, SOLVE_B), SOLVE_EXPECTED)


def test_solve_computes_the_grad_with_operations_before_solve(path):
    assert_all_close(run(path, solve_grad_wrt_add, nbt.tensor([0, 0, 0]), SOLVE_A, SOLVE_B), SOLVE_EXPECTED)


# describe "triangular_solve"

UPPER = nbt.tensor([[1, 1, 1], [0, 1, 1], [0, 0, 1]])
LOWER = nbt.tensor([[1, 0, 0], [1, 1, 0], [1, 1, 1]])
B_432 = nbt.tensor([4, 3, 2])
B_234 = nbt.tensor([2, 3, 4])


def wrt_a(composed=False, **opts):
    if composed:
        return lambda a, b: nbt.grad(lambda a: nbt.sum(nbt.sin(la.triangular_solve(nbt.sin(a), nbt.cos(b), **opts))))(a)
    return lambda a, b: nbt.grad(lambda a: nbt.sum(la.triangular_solve(a, b, **opts)))(a)


def wrt_b(composed=False, **opts):
    if composed:
        return lambda a, b: nbt.grad(lambda b: nbt.sum(nbt.sin(la.triangular_solve(nbt.sin(a), nbt.cos(b), **opts))))(b)
    return lambda a, b: nbt.grad(lambda b: nbt.sum(la.triangular_solve(a, b, **opts)))(b)


def test_triangular_solve_computes_the_simple_grad_for_tensor_wrt_a(path):
    assert_all_close(run(path, wrt_a(lower=False), UPPER, B_432), nbt.tensor([[-1, -1, -2], [0, 0, 0], [0, 0, 0]]))


def test_triangular_solve_computes_the_simple_grad_for_tensor_wrt_b(path):
    assert_all_close(run(path, wrt_b(lower=False), UPPER, B_432), nbt.tensor([1, 0, 0]))


def test_triangular_solve_computes_the_composed_grad_for_tensor_wrt_a(path):
    assert_all_close(
        run(path, wrt_a(True, lower=False), UPPER, B_432),
        nbt.tensor([[-0.23642, 0.40336, 0.29251], [0.0, -0.06342, -0.04599], [0.0, 0.0, 0.03297]]),
    )


def test_triangular_solve_computes_the_composed_grad_for_tensor_wrt_a_lower_true(path):
    assert_all_close(
        run(path, wrt_a(True, lower=True), LOWER, B_234),
        nbt.tensor([[0.03297454, 0.0, 0.0], [-0.04599008, -0.06341801, 0.0], [0.29251346, 0.40336132, -0.23642266]]),
    )


def test_triangular_solve_computes_the_grad_for_tensor_wrt_a_lower_true_transform_a_transpose(path):
    fun = wrt_a(transform_a="transpose", lower=True)
    assert_all_close(run(path, fun, LOWER, B_234), nbt.tensor([[1, 0, 0], [1, 0, 0], [-4, 0, 0]]))


def test_triangular_solve_computes_the_composed_grad_for_tensor_wrt_b(path):
    fun = wrt_b(True, lower=False)
    assert_all_close(run(path, fun, UPPER, B_432), nbt.tensor([0.8284839, 0.02428892, -0.11221229]))


def test_triangular_solve_computes_the_composed_grad_for_tensor_wrt_a_left_side_false(path):
    assert_all_close(
        run(path, wrt_a(True, left_side=False, lower=False), UPPER, B_234),
        nbt.tensor([[0.03297454, -0.04599008, 0.29251346], [0.0, -0.06341801, 0.40336132], [0.0, 0.0, -0.23642266]]),
    )


def test_triangular_solve_computes_the_composed_grad_for_tensor_wrt_b_left_side_false(path):
    fun = wrt_b(True, left_side=False, lower=False)
    assert_all_close(run(path, fun, UPPER, B_234), nbt.tensor([-0.11221229, 0.02428893, 0.82848394]))


def test_triangular_solve_grad_with_transform_a_conjugate(path):
    conjugate = run(path, wrt_a(transform_a="conjugate", lower=True), LOWER, B_234)
    assert_all_close(conjugate, run(path, wrt_a(transform_a="none", lower=True), LOWER, B_234))


def test_triangular_solve_grad_wrt_b_with_transform_a_conjugate(path):
    conjugate = run(path, wrt_b(transform_a="conjugate", lower=True), LOWER, B_234)
    assert_all_close(conjugate, run(path, wrt_b(transform_a="none", lower=True), LOWER, B_234))


def test_triangular_solve_grad_with_transform_a_conjugate_upper_triangular(path):
    for wrt in (wrt_a, wrt_b):
        conjugate = run(path, wrt(transform_a="conjugate", lower=False), UPPER, B_432)
        assert_all_close(conjugate, run(path, wrt(transform_a="none", lower=False), UPPER, B_432))


def test_triangular_solve_grad_with_transform_a_conjugate_left_side_false(path):
    for wrt in (wrt_a, wrt_b):
        conjugate = run(path, wrt(transform_a="conjugate", left_side=False, lower=False), UPPER, B_234)
        assert_all_close(conjugate, run(path, wrt(transform_a="none", left_side=False, lower=False), UPPER, B_234))


# EXLA 0.13 exla/test/exla/defn/expr_test.exs, lines 3804-3970: the gradients of a complex
# triangular_solve with transform_a: :conjugate. Nx's rule pulls back through adjoint(a) where
# JAX's pulls back through transpose(a), so for complex matrices numbat gives Nx's, the conjugate of JAX's.
C_LOWER = nbt.tensor([[2, 0, 0], [complex(1, 1), 3, 0], [complex(0, 2), complex(1, -1), 1]], type="c64")
C_UPPER = nbt.tensor([[1, complex(1, 1), complex(0, 2)], [0, 3, complex(1, -1)], [0, 0, 1]], type="c64")


def test_triangular_solve_conjugate_complex_grads_lower(path):
    b = nbt.tensor([1, complex(2, 1), 3], type="c64")
    da = run(path, wrt_a(transform_a="conjugate", lower=True), C_LOWER, b)
    expected_da = [
        [complex(-0.33333334, -0.5833333), 0, 0],
        [complex(0, 0.16666667), complex(-0.16666667, 0.16666667), 0],
        [-0.5, complex(-0.5, -0.5), -3],
    ]
    assert_all_close(da, nbt.tensor(expected_da, type="c64"), atol=1.0e-5)
    db = run(path, wrt_b(transform_a="conjugate", lower=True), C_LOWER, b)
    assert_all_close(
        db, nbt.tensor([complex(0.6666667, -1.1666666), complex(0, 0.33333334), 1], type="c64"), atol=1.0e-5
    )
    composed = run(path, wrt_a(True, transform_a="conjugate", lower=True), C_LOWER, b)
    assert (composed.shape, str(composed.type)) == ((3, 3), "c64")


def test_triangular_solve_conjugate_complex_grads_upper(path):
    b = nbt.tensor([4, complex(3, 1), 2], type="c64")
    db = run(path, wrt_b(transform_a="conjugate", lower=False), C_UPPER, b)
    expected_db = [1, complex(0, -0.33333334), complex(1.3333334, -1.6666666)]
    assert_all_close(db, nbt.tensor(expected_db, type="c64"), atol=1.0e-5)
    da = run(path, wrt_a(transform_a="conjugate", lower=False), C_UPPER, b)
    expected_da = [
        [complex(-4.0, -4.6666665), complex(-0.33333334, 0.33333334), -2],
        [0, complex(-0.11111112, -0.11111112), complex(0, -0.6666667)],
        [0, 0, complex(-2.6666667, -3.3333333)],
    ]
    assert_all_close(da, nbt.tensor(expected_da, type="c64"), atol=1.0e-5)


def test_triangular_solve_conjugate_complex_grads_left_side_false(path):
    b = nbt.tensor([[1, complex(2, 1), 3], [complex(0, 1), 1, complex(2, -1)]], type="c64")
    da = run(path, wrt_a(transform_a="conjugate", left_side=False, lower=True), C_LOWER, b)
    expected_da = [
        [complex(-1.25, -2.75), 0, 0],
        [complex(0.5, 0.5), complex(0, 0.33333334), 0],
        [complex(-2.5, 0.5), complex(-1.0, -0.6666667), complex(-5.6666665, -2.3333333)],
    ]
    assert_all_close(da, nbt.tensor(expected_da, type="c64"), atol=1.0e-5)
    db = run(path, wrt_b(transform_a="conjugate", left_side=False, lower=True), C_LOWER, b)
    row = [0.5, complex(0.16666667, -0.16666667), complex(1.0, -0.6666666)]
    assert_all_close(db, nbt.tensor([row, row], type="c64"), atol=1.0e-5)


def test_triangular_solve_conjugate_grads_equal_those_through_an_explicit_conjugate(path):
    """Nx's rule is its own: transform_a: :conjugate pulls back as Nx.conjugate then a solve."""
    b = nbt.tensor([[1, complex(2, 1), 3], [complex(0, 1), 1, complex(2, -1)]], type="c64")
    for left_side, operand in ((True, nbt.transpose(b)), (False, b)):
        for wrt in (wrt_a, wrt_b):
            conjugate = run(path, wrt(True, transform_a="conjugate", left_side=left_side), C_LOWER, operand)
            through_conjugate = wrt(True, left_side=left_side)
            explicit = run(path, lambda a, b, f=through_conjugate: f(nbt.conjugate(a), b), C_LOWER, operand)
            explicit = nbt.conjugate(explicit) if wrt is wrt_a else explicit
            assert_all_close(conjugate, explicit, atol=1.0e-4)


def batched_pair(path, fun, a, b):
    return run(path, fun, a, b), nbt.stack([run(path, fun, a[0], b[0]), run(path, fun, a[1], b[1])])


def test_triangular_solve_computes_grad_for_batched_tensor_with_matrix_b(path):
    a, b = (
        nbt.tensor(
            [[[1.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 0.0, 1.0]], [[2.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 0.0, 3.0]]]
        ),
        nbt.tensor([[[4.0], [3.0], [2.0]], [[1.0], [2.0], [6.0]]]),
    )
    assert_equal(*batched_pair(path, wrt_a(lower=False), a, b))
    assert_equal(*batched_pair(path, wrt_b(lower=False), a, b))


def test_triangular_solve_computes_grad_for_batched_tensor_with_vector_b(path):
    a, b = nbt.tensor([[[4.0, 0.0], [2.0, 5.0]], [[9.0, 0.0], [3.0, 10.0]]]), nbt.tensor([[1.0, 1.0], [1.0, 1.0]])
    assert_equal(*batched_pair(path, wrt_a(), a, b))
    assert_equal(*batched_pair(path, wrt_b(), a, b))


def test_triangular_solve_computes_grad_for_batched_tensor_with_vector_b_left_side_false(path):
    a, b = nbt.tensor([[[2.0, 1.0], [0.0, 4.0]], [[3.0, 2.0], [0.0, 1.0]]]), nbt.tensor([[1.0, 2.0], [3.0, 1.0]])
    assert_equal(*batched_pair(path, wrt_a(left_side=False, lower=False), a, b))
    assert_equal(*batched_pair(path, wrt_b(left_side=False, lower=False), a, b))


def test_triangular_solve_computes_grad_for_batched_tensor_with_transform_a_transpose(path):
    a, b = nbt.tensor([[[4.0, 0.0], [2.0, 5.0]], [[9.0, 0.0], [3.0, 10.0]]]), nbt.tensor([[1.0, 1.0], [1.0, 1.0]])
    assert_equal(*batched_pair(path, wrt_a(transform_a="transpose"), a, b))
