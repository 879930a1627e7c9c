"""The FFTs' `eps` (Nx's clean-up, as its reference backend does it): after a transform,
real and imaginary parts with |x| <= eps become +0, each part on its own; fft2 and ifft2
clean up after each axis (the second axis first, as Nx's fft2 is two ffts). The default
is Nx's 1.0e-10. The same numbers on every path.
"""

import numpy as np
import pytest

import numbat as nbt

PATHS = ["numpy", "xla", "jit", "evaluator"]


def run(path, fun, values, type="f32"):
    backend = nbt.XLABackend() if path in ("xla", "jit") else nbt.NumPyBackend()
    with nbt.default_backend(backend):
        tensor = nbt.tensor(values, type=type)
        if path == "jit":
            result = nbt.jit(fun)(tensor)
        elif path == "evaluator":
            result = nbt.defn(fun, compiler="evaluator")(tensor)
        else:
            result = fun(tensor)
    return result.to_numpy()


def below(value: float) -> float:
    return float(np.nextafter(value, 0.0))


def above(value: float) -> float:
    return float(np.nextafter(value, 1.0))


@pytest.mark.parametrize("path", PATHS)
def test_parts_at_or_below_eps_become_zero_and_parts_above_stay(path):
    # fft([1, 0.5, 0, 0]) = [1.5, 1 - 0.5i, 0.5, 1 + 0.5i]: the 0.5s are exact.
    signal = [1.0, 0.5, 0.0, 0.0]
    kept = [1.5, 1 - 0.5j, 0.5, 1 + 0.5j]
    cleaned = [1.5, 1, 0, 1]
    assert run(path, lambda t: nbt.fft(t, eps=below(0.5)), signal).tolist() == kept  # eps just below 0.5
    assert run(path, lambda t: nbt.fft(t, eps=0.5), signal).tolist() == cleaned  # |x| == eps
    assert run(path, lambda t: nbt.fft(t, eps=above(0.5)), signal).tolist() == cleaned
    assert run(path, lambda t: nbt.rfft(t, eps=0.5), signal).tolist() == [1.5, 1, 0]
    assert run(path, lambda t: nbt.rfft(t, eps=below(0.5)), signal).tolist() == [1.5, 1 - 0.5j, 0.5]


@pytest.mark.parametrize("path", PATHS)
def test_real_and_imaginary_parts_are_cleaned_separately(path):
    # fft([a, b]) = [a + b, a - b].
    small_real = run(path, lambda t: nbt.fft(t, eps=0.25), [0.375 + 1j, -0.125 + 1j], type="c64")
    assert small_real.tolist() == [2j, 0.5]
    small_imag = run(path, lambda t: nbt.fft(t, eps=0.25), [1 + 0.375j, 1 - 0.125j], type="c64")
    assert small_imag.tolist() == [2, 0.5j]
    # ifft([a, b]) = [(a + b) / 2, (a - b) / 2]
    assert run(path, lambda t: nbt.ifft(t, eps=0.125), [0.25 + 1j, 0.25 - 1j], type="c64").tolist() == [0.25, 1j]


@pytest.mark.parametrize("path", PATHS)
def test_a_cleaned_zero_is_positive(path):
    # A one-point transform is the identity: -0 - 0i comes back +0 + 0i, as Nx writes 0.
    for value in (complex(-0.0, -0.0), complex(-0.0, 1.0), complex(1.0, -0.0)):
        (result,) = run(path, nbt.fft, [value], type="c64")
        assert (np.signbit(result.real), np.signbit(result.imag)) == (False, False)


@pytest.mark.parametrize("path", PATHS)
def test_the_default_eps_is_nxs(path):
    # f64: 1e-10 itself is cleaned, the next f64 above it is not.
    assert run(path, nbt.fft, [1e-10, 0.0], type="f64").tolist() == [0, 0]
    assert run(path, nbt.fft, [above(1e-10), 0.0], type="f64").tolist() == [above(1e-10)] * 2
    # f32: Nx compares the f32 value (as f64) with 1e-10; f32's nearest to 1e-10 is above it.
    nearest = float(np.float32(1e-10))
    assert nearest > 1e-10
    assert run(path, nbt.fft, [nearest, 0.0]).tolist() == [nearest] * 2
    just_below = float(np.nextafter(np.float32(1e-10), np.float32(0)))
    assert run(path, nbt.fft, [just_below, 0.0]).tolist() == [0, 0]
    assert run(path, lambda t: nbt.irfft(t), [just_below, 0.0]).tolist() == [0, 0]
    assert run(path, lambda t: nbt.irfft(t), [nearest * 2, 0.0]).tolist() == [nearest] * 2


@pytest.mark.parametrize("path", PATHS)
def test_fft2_cleans_up_after_each_axis_the_second_first(path):
    # Along the rows: [[1.75, 0.25], [1.75, 0.25]]; the 0.25s are cleaned at eps 0.3, so the
    # second column is 0. fftn in one go (or the columns first) would leave 0.5 there.
    signal = [[1.0, 0.75], [1.0, 0.75]]
    assert run(path, lambda t: nbt.fft2(t, eps=0.3), signal).tolist() == [[3.5, 0], [0, 0]]
    assert run(path, lambda t: nbt.fft2(t, eps=0.2), signal).tolist() == [[3.5, 0.5], [0, 0]]
    # ifft2: the same signal, divided by each axis' length.
    assert run(path, lambda t: nbt.ifft2(t, eps=0.15), signal).tolist() == [[0.875, 0], [0, 0]]
    assert run(path, lambda t: nbt.ifft2(t, eps=0.1), signal).tolist() == [[0.875, 0.125], [0, 0]]


@pytest.mark.parametrize("path", PATHS)
def test_irfft_cleans_its_real_output(path):
    # irfft([4, -2i, 0]) = [1, 2, 1, 0]
    assert run(path, lambda t: nbt.irfft(t, eps=1.0), [4.0, -2j, 0.0], type="c64").tolist() == [0, 2, 0, 0]
    assert run(path, lambda t: nbt.irfft(t, eps=below(1.0)), [4.0, -2j, 0.0], type="c64").tolist() == [1, 2, 1, 0]


def test_eps_must_be_a_positive_number():
    for eps in (0, -1.0, "1e-10", True):
        with pytest.raises(nbt.ArgumentError, match="eps must be a positive number"):
            nbt.fft(nbt.tensor([1.0]), eps=eps)
