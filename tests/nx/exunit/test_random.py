"""Nx 0.13.1 `nx/test/nx/random_test.exs`, ported (its `doctest Nx.Random` is the doctest
port's): numbat follows Nx's threefry algorithms, so a seed gives Nx's numbers. Nx's
`Nx.Random.key(:rand.uniform(10_000))` seeds are fixed seeds here."""

import zlib

import pytest

import numbat as nbt

from ._support import assert_all_close, assert_same, run

R = nbt.random


def test_key_transforms_given_integer_into_prng_key(path):
    assert_same(run(path, lambda: R.key(44)), nbt.tensor([0, 44], type="u32"))


def test_split_splits_key_into_multiple_keys(path):
    key = R.key(33)
    two_keys = run(path, R.split, key)
    multiple_keys = run(path, lambda k: R.split(k, parts=12), key)
    assert_same(two_keys, nbt.tensor([[671_281_441, 790_285_293], [234_515_160, 3_878_582_434]], type="u32"))
    expected = [
        [966_561_810, 334_783_285],
        [1_262_072_629, 1_899_563_600],
        [3_750_833_143, 3_406_870_597],
        [2_539_864_401, 3_552_854_032],
        [201_687_315, 590_048_257],
        [3_348_546_826, 4_091_268_549],
        [1_610_907_819, 3_073_378_539],
        [3_054_273_782, 2_286_163_366],
        [4_120_769_120, 1_468_859_077],
        [2_405_343_452, 1_650_615_538],
        [4_063_810_472, 2_490_879_298],
        [259_087_434, 3_260_250_733],
    ]
    assert_same(multiple_keys, nbt.tensor(expected, type="u32"))


def test_shuffle_tensor_for_axis_other_that_0(path):
    result, _ = run(path, lambda k, t: R.shuffle(k, t, axis=1), R.key(42), nbt.iota((3, 4), axis=1))
    assert_same(result, nbt.tensor([[2, 0, 1, 3]] * 3))


# describe "distributions"


def distribution_case(path, name, args, options, expected):
    key = R.key(zlib.adler32(f"{name}threefry2x32".encode()))
    actual = run(path, lambda k: getattr(R, name)(k, *args, **options), key)
    assert_all_close(actual, expected)


def test_distributions_randint(path):
    distribution_case(path, "randint_split", [0, 10], {"shape": (5,)}, nbt.tensor([1, 1, 4, 1, 9], type="s64"))


def test_distributions_uniform(path):
    expected = nbt.tensor([0.40235483, 0.86897706, 0.87899947, 0.98497891, 0.83098864], type="f32")
    distribution_case(path, "uniform_split", [0.0, 1.0], {"shape": (5,)}, expected)


# describe "types"


def test_types_randint(path):
    key = R.key(44)
    u8 = lambda value: nbt.tensor(value, type="u8")
    assert_same(run(path, lambda k, lo, hi: R.randint_split(k, lo, hi), key, u8(0), u8(100)), u8(12))
    assert_same(run(path, lambda k: R.randint_split(k, 0, 100, type="u8"), key), u8(12))
    assert_same(run(path, lambda k: R.randint_split(k, 0, 100, type="u64"), key), nbt.tensor(10, type="u64"))
    assert_same(run(path, lambda k: R.randint_split(k, 0, 100, type="s64"), key), nbt.tensor(10, type="s64"))


# Nx's binary backend writes bf16 by truncating an f32 (Nx.Floating.dump_bf16), numbat
# rounds to nearest as XLA (and EXLA) do: Nx's 42.75 is 0.4296875 * 100 = 42.96875
# truncated, numbat's 43.0 (untranslatable.DELIBERATE).
BF16_UNIFORM = 43.0


def test_types_uniform(path):
    key = R.key(44)
    bf16 = lambda value: nbt.tensor(value, type="bf16")
    assert_same(run(path, lambda k: R.uniform_split(k, 0, 100), key), nbt.tensor(0.9405970573425293, type="f32"))
    assert_same(run(path, lambda k, lo, hi: R.uniform_split(k, lo, hi), key, bf16(0), bf16(100)), bf16(BF16_UNIFORM))
    assert_same(run(path, lambda k: R.uniform_split(k, 0, 100, type="bf16"), key), bf16(BF16_UNIFORM))
    assert_same(run(path, lambda k: R.uniform_split(k, 0.0, 100.0, type="bf16"), key), bf16(BF16_UNIFORM))
    expected = nbt.tensor(49.70372348385783, type="f64")
    assert_same(run(path, lambda k: R.uniform_split(k, 0.0, 100.0, type="f64"), key), expected)


def test_types_f8_e4m3fn(path):
    result, _key = run(path, lambda k: R.uniform(k, type="f8_e4m3fn"), R.key(44))
    assert str(result.type) == "f8_e4m3fn"


def test_types_normal(path):
    key = R.key(44)
    bf16 = lambda value: nbt.tensor(value, type="bf16")
    assert_same(run(path, lambda k, m, s: R.normal_split(k, m, s), key, bf16(0), bf16(100)), bf16(-17.625))
    assert_same(run(path, lambda k: R.normal_split(k, 0, 100, type="bf16"), key), bf16(-17.625))
    assert_same(run(path, lambda k: R.normal_split(k, 0.0, 100.0, type="bf16"), key), bf16(-17.625))
    assert_same(run(path, lambda k: R.normal_split(k, 0.0, 100.0, type="f16"), key), nbt.tensor(-17.15625, type="f16"))


def test_types_normal_f32_c64_f64(path):
    # Nx's defn moves the constant sqrt(2) of `100 * (sqrt(2) * erf_inv(u))` to the left:
    # `sqrt(2) * (100 * erf_inv(u))` rounds differently in the last bit.
    key = R.key(44)
    assert_same(run(path, lambda k: R.normal_split(k, 0, 100), key), nbt.tensor(-234.9235382080078, type="f32"))
    expected = nbt.complex(nbt.tensor(-0.7426699995994568), nbt.tensor(6.513391971588135))
    assert_same(run(path, lambda k: R.normal_split(k, 0.0, 100.0, type="c64"), key), expected)
    expected = nbt.tensor(-0.7426618728545261, type="f64")
    assert_same(run(path, lambda k: R.normal_split(k, 0, 100, type="f64"), key), expected)


def test_types_multivariate_normal(path):
    key = R.key(12)
    mvn = R.multivariate_normal_split
    zeros = lambda n, type="f32": nbt.tensor([0.0] * n, type=type)
    result = run(path, lambda k, m, c: mvn(k, m, c), key, zeros(1), nbt.eye(1, type="f32"))
    assert_same(result, nbt.tensor([-0.5135871767997742], type="f32"))
    expected = nbt.tensor([0.37033146619796753, -0.9389335513114929], type="f32")
    assert_same(run(path, lambda k, m, c: mvn(k, m, c), key, zeros(2), nbt.eye(2, type="f32")), expected)
    assert_same(run(path, lambda k, m, c: mvn(k, m, c), key, nbt.tensor([0, 0]), nbt.eye(2)), expected)
    for type, values in [
        # Nx's bf16 [0.0146484375, 0.1318359375] is truncated from f32 (see BF16_UNIFORM); numbat rounds.
        ("bf16", [0.01953125, 0.1376953125]),
        ("f16", [0.037322998046875, 0.1455078125]),
        ("f64", [-1.3117988877107423, -0.708217598850204]),
    ]:
        result = run(path, lambda k, m, c, type=type: mvn(k, m, c, type=type), key, zeros(2), nbt.eye(2, type="f32"))
        assert_same(result, nbt.tensor(values, type=type))


# describe "shapes"


@pytest.mark.parametrize("name", ["randint_split", "uniform_split", "normal_split"])
def test_shapes(path, name):
    tensor = run(path, lambda k: getattr(R, name)(k, 0, 100, names=["foo", "bar"], shape=(10, 10)), R.key(44))
    assert tensor.names == ("foo", "bar")
    assert tensor.shape == (10, 10)


def test_shapes_multivariate_normal(path):
    fun = lambda k, m, c: R.multivariate_normal_split(k, m, c, names=["foo", "bar", "baz"], shape=(10, 10))
    tensor = run(path, fun, R.key(12), nbt.tensor([0, 0]), nbt.eye(2))
    assert tensor.names == ("foo", "bar", "baz")
    assert tensor.shape == (10, 10, 2)


# describe "properties"

SEED = zlib.adler32(b"uniformthreefry2x32")


@pytest.mark.parametrize(
    "name, args, moment, expected",
    [
        ("uniform_split", (10, 15), nbt.mean, 12.5),
        ("randint_split", (10, 95), nbt.mean, 52.5),
        ("uniform_split", (nbt.tensor(10), nbt.tensor(15)), nbt.variance, (15 - 10) ** 2 / 12),
        ("randint_split", (nbt.tensor(10), nbt.tensor(95)), nbt.variance, (85 - 1) * (85 + 1) / 12),
    ],
    ids=["uniform mean", "randint mean", "uniform variance", "randint variance"],
)
def test_property(path, name, args, moment, expected):
    for key in [R.key(nbt.tensor(SEED, type="s64")), R.key(SEED)]:
        t = run(path, lambda k: getattr(R, name)(k, *args, shape=(10000,)), key)
        assert_all_close(moment(t), nbt.tensor(expected), rtol=0.1)


@pytest.mark.parametrize("seed", [1, 4242, 10_000])
def test_normal_properties(path, seed):
    normal = run(path, lambda k: R.normal_split(k, 10, 5, shape=(1_000,)), R.key(seed))
    assert_all_close(nbt.mean(normal), 10, rtol=0.1)
    assert_all_close(nbt.standard_deviation(normal), 5, rtol=0.1)


@pytest.mark.parametrize("seed", [1, 4242, 10_000])
def test_multivariate_normal_properties(path, seed):
    mean, covariance = nbt.tensor([10, 10]), nbt.tensor([[25, 25], [25, 25]])
    samples = run(
        path, lambda k, m, c: R.multivariate_normal_split(k, m, c, shape=(10_000,)), R.key(seed), mean, covariance
    )
    assert_all_close(nbt.mean(samples, axes=[0]), mean, rtol=0.1)
    assert_all_close(nbt.covariance(samples, mean), covariance, rtol=0.1)
