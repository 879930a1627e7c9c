"""`numbat bench kernels`: each op family as a numbat defn against the same computation
hand-written in `jax.numpy`/`lax` under `jax.jit`, timed interleaved in one run.

A row times both sides round-robin (`_bench_timing.samples`), checks that they agree, and
counts the instructions of both optimized HLO programs that show how an op was lowered
(fusions, custom calls, gathers, scatters, sorts, while loops), so a slower lowering is
visible as well as a slower time. Sizes scale with one number `n` (about the element
count of the largest operand; default 2**20).

A row's ratio is the median, over rounds, of the numbat call's time over the JAX call's
in the same round (`_bench_timing.paired_ratio`): on a machine shared with other work, a burst
of load moves the ratio of two medians by 10% or more between runs of equal programs,
and slows both calls of a round alike. Both sides read the very same input buffers.

The hand-written side is what a JAX user would write for Nx's semantics: where Nx
clamps out-of-range indices, it uses `mode="clip"`; where numbat traces in 64-bit mode
(a defn always does), the JAX side keeps JAX's default 32-bit mode, as a user would.
"""

from __future__ import annotations

import collections
import dataclasses
import time
import typing

import jax
import jax.extend.random
import jax.numpy as jnp
import numpy as np

import numbat as nbt
from numbat.xla import _hlo_text

from . import _bench_timing
from ._bench_programs import (
    NX_RANDOM_NOTE,
    attention_inputs,
    batched_matrices,
    cnn_inputs,
    conv_inputs,
    images,
    indexed_inputs,
    jx_attention,
    jx_cnn_step,
    jx_cond,
    jx_elementwise,
    jx_mlp_step,
    jx_nx_fft,
    jx_nx_normal,
    jx_nx_uniform,
    jx_reductions,
    jx_while,
    key_inputs,
    mlp_inputs,
    nb_attention,
    nb_cnn_step,
    nb_cond,
    nb_elementwise,
    nb_mlp_step,
    nb_random,
    nb_reductions,
    nb_while,
    put_slice_inputs,
    qr_inputs,
    rows_by,
    solve_inputs,
    spd_inputs,
    square,
    table_and_index_pairs,
    table_and_indices,
    vector,
    while_inputs,
    with_start,
)


@typing.final
@dataclasses.dataclass(frozen=True)
class Kernel:
    """One row: `numbat` and `jax` compute the same thing from the arrays `inputs(n)` makes."""

    key: str
    label: str
    numbat: typing.Callable
    jax: typing.Callable
    inputs: typing.Callable[[int], list]
    note: str = ""
    check: bool = True  # compare the two results (off where the answers legitimately differ)
    shown: int = 0  # which input's shape names the row

    def describe(self, arrays: list) -> str:
        return f"{self.label} f32[{'x'.join(map(str, arrays[self.shown].shape))}]"


# Opcodes counted in both optimized HLO programs, and how they are headed in the table.
COUNTED = {"fusion": "fus", "custom-call": "cc", "gather": "gat", "scatter": "sct", "sort": "sort", "while": "while"}


def hlo_counts(text: str) -> dict:
    """How many instructions of each `COUNTED` opcode an optimized HLO module holds, in
    every computation (a gather inside a fusion counts).

    >>> hlo_counts("ENTRY %main {\\n  %g = f32[2]{0} gather(%a, %b)\\n  ROOT %f = (f32[1]{0}, s32[1]{0}) custom-call(%g)\\n}")
    {'fusion': 0, 'custom-call': 1, 'gather': 1, 'scatter': 0, 'sort': 0, 'while': 0}
    """
    found = collections.Counter(one.opcode for body in _hlo_text.computations(text).values() for one in body)
    return {opcode: found[opcode] for opcode in COUNTED}


# XLA's CPU max/min reductions lose NaNs (`backends/_families/reduction.keeping_nan`).
NAN_NOTE = "Nx's max keeps a NaN, which XLA's CPU reduction loses: numbat sums the data first to know"


def _kernel(key, label, make, numbat, jax_fun, note="", check=True, index=0):
    return Kernel(key, label, numbat, jax_fun, make, note, check, index)


KERNELS: tuple[Kernel, ...] = (
    _kernel("elementwise", "tanh/exp/sigmoid chain", vector(), nb_elementwise, jx_elementwise),
    _kernel("reductions", "sum axis 1, reduce_max axis 0", rows_by(256), nb_reductions, jx_reductions, note=NAN_NOTE),
    _kernel(
        "logsumexp",
        "logsumexp axis 1",
        rows_by(1024),
        lambda x: nbt.logsumexp(x, axes=[1]),
        lambda x: jax.nn.logsumexp(x, axis=1),
    ),
    _kernel(
        "argmax",
        "argmax axis 1",
        rows_by(1024),
        lambda x: nbt.argmax(x, axis=1),
        lambda x: jnp.argmax(x, 1),
    ),
    _kernel(
        "cumulative_sum",
        "cumulative_sum axis 1",
        rows_by(1024),
        lambda x: nbt.cumulative_sum(x, axis=1),
        lambda x: jnp.cumsum(x, axis=1),
    ),
    _kernel(
        "cumulative_max",
        "cumulative_max axis 1",
        rows_by(1024),
        lambda x: nbt.cumulative_max(x, axis=1),
        lambda x: jax.lax.cummax(x, axis=1),
    ),
    _kernel("sort", "sort", vector(4), nbt.sort, jnp.sort),
    _kernel(
        "sort_desc",
        "sort desc",
        vector(4),
        lambda x: nbt.sort(x, direction="desc"),
        lambda x: jnp.sort(x, descending=True),
        note="equal elements keep their order (Nx): one more reverse than jnp.sort(descending=True)",
    ),
    _kernel("argsort", "argsort", vector(4), nbt.argsort, lambda x: jnp.argsort(x, stable=True)),
    _kernel(
        "top_k",
        "top_k k=10",
        vector(),
        lambda x: nbt.top_k(x, k=10),
        lambda x: jax.lax.top_k(x, 10),
        note="Nx's order (every NaN largest, -0.0 == 0.0): a sum of the data says whether lax.top_k "
        "runs again on a canonical copy (the second cc, in a branch)",
    ),
    _kernel(
        "take",
        "take rows",
        table_and_indices,
        lambda t, i: nbt.take(t, i),
        lambda t, i: jnp.take(t, i, axis=0, mode="clip"),
    ),
    _kernel(
        "gather",
        "gather rows",
        table_and_index_pairs,
        lambda t, i: nbt.gather(t, i),
        lambda t, i: t.at[i[:, 0]].get(mode="clip", wrap_negative_indices=False),
    ),
    _kernel(
        "indexed_add",
        "indexed_add rows",
        indexed_inputs,
        lambda t, i, u: nbt.indexed_add(t, i, u),
        lambda t, i, u: t.at[i[:, 0]].add(u, mode="drop", wrap_negative_indices=False),
        check=False,  # scatter-add order of repeated indices differs in the last bits
    ),
    _kernel(
        "put_slice",
        "put_slice at a tensor start",
        put_slice_inputs,
        lambda x, u, s: nbt.put_slice(x, [s], u),
        lambda x, u, s: jax.lax.dynamic_update_slice(x, u, (s,)),
    ),
    _kernel(
        "slice",
        "slice at a tensor start",
        with_start,
        lambda x, s: nbt.slice(x, [s], [x.shape[0] // 2]),
        lambda x, s: jax.lax.dynamic_slice(x, (s,), (x.shape[0] // 2,)),
    ),
    _kernel(
        "window_sum",
        "window_sum 1x3x3",
        images,
        lambda x: nbt.window_sum(x, (1, 3, 3)),
        lambda x: jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, 3, 3), (1, 1, 1), "VALID"),
    ),
    _kernel(
        "window_max",
        "window_max 1x2x2 stride 2",
        images,
        lambda x: nbt.window_max(x, (1, 2, 2), strides=(1, 2, 2)),
        lambda x: jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2), (1, 2, 2), "VALID"),
        note=NAN_NOTE,
    ),
    _kernel(
        "conv",
        "conv 3x3 same, 16->32 channels",
        conv_inputs,
        lambda x, k: nbt.conv(x, k, padding="same"),
        lambda x, k: jax.lax.conv_general_dilated(x, k, (1, 1), "SAME"),
    ),
    _kernel(
        "dot_batch",
        "dot, batch axis 0",
        batched_matrices,
        lambda a, b: nbt.dot(a, b, contract_axes=([2], [1]), batch_axes=([0], [0])),
        lambda a, b: jnp.einsum("bij,bjk->bik", a, b),
    ),
    _kernel("solve", "linalg.solve", solve_inputs, nbt.linalg.solve, jnp.linalg.solve),
    _kernel(
        "qr",
        "linalg.qr",
        qr_inputs,
        nbt.linalg.qr,
        jnp.linalg.qr,
        "numbat computes Nx's Householder reflectors (for Nx's signs) blocked as geqrf does, in one XLA "
        "loop over panels of 16 rank-1 updates, compact WY products for the rest, q from LAPACK's orgqr; "
        "JAX calls LAPACK's geqrf, whose reflectors differ from Nx's in sign",
        check=False,  # the factors' signs differ
    ),
    _kernel(
        "svd",
        "linalg.svd",
        square(8, 128),
        lambda m: nbt.linalg.svd(m, full_matrices=False)[1],
        lambda m: jnp.linalg.svd(m, full_matrices=False, compute_uv=True)[1],
    ),
    _kernel("cholesky", "linalg.cholesky", spd_inputs, nbt.linalg.cholesky, jnp.linalg.cholesky),
    _kernel(
        "fft",
        "fft axis 1",
        rows_by(1024),
        lambda x: nbt.fft(x),
        jx_nx_fft,
        "Nx's fft cleans up its result (parts with |x| <= eps, 1e-10, become 0): the JAX side does too",
    ),
    _kernel(
        "random_uniform",
        "random.uniform",
        key_inputs,
        nb_random(nbt.random.uniform),
        jx_nx_uniform,
        NX_RANDOM_NOTE,
        index=1,
    ),
    _kernel(
        "random_normal",
        "random.normal",
        key_inputs,
        nb_random(nbt.random.normal),
        jx_nx_normal,
        NX_RANDOM_NOTE,
        index=1,
    ),
    _kernel("cond", "cond on sum > 0", vector(), nb_cond, jx_cond),
    _kernel("while_loop", "while_loop 100 steps", while_inputs, nb_while, jx_while, index=1),
    _kernel("mlp_step", "MLP step (value_and_grad), batch", mlp_inputs, nb_mlp_step, jx_mlp_step, index=4),
    _kernel(
        "cnn_step", "CNN step (conv, pool, dense), images", cnn_inputs, nb_cnn_step, jx_cnn_step, NAN_NOTE, index=2
    ),
    _kernel("attention", "attention", attention_inputs, nb_attention, jx_attention),
)

KEYS = tuple(kernel.key for kernel in KERNELS)


def select(rows: str | None) -> tuple[Kernel, ...]:
    """The kernels named in `rows` (comma-separated keys; None: all of them)."""
    if rows is None:
        return KERNELS
    wanted = [key.strip() for key in rows.split(",") if key.strip()]
    unknown = [key for key in wanted if key not in KEYS]
    if unknown or not wanted:
        raise ValueError(
            f"unknown kernel row(s) {', '.join(map(repr, unknown)) or repr(rows)}; rows are {', '.join(KEYS)}"
        )
    return tuple(kernel for kernel in KERNELS if kernel.key in wanted)


def _ready(result):
    """Waits for `result`; a numbat tensor through its array, as the JAX side's, not through
    its pytree flattening (a Python call that `jax.block_until_ready` makes per tensor)."""
    return jax.block_until_ready(result.data if result.__class__ is nbt.Tensor else result)


def _leaves(result) -> list[np.ndarray]:
    return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(result)]


def _agree(kernel: Kernel, ours, theirs) -> None:
    if not kernel.check:
        return
    ours, theirs = _leaves(ours), _leaves(theirs)
    if len(ours) != len(theirs):
        raise AssertionError(f"{kernel.key}: numbat gave {len(ours)} results, JAX {len(theirs)}")
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=2e-3, atol=2e-3, err_msg=f"kernel row {kernel.key}")


def run_row(kernel: Kernel, n: int, rounds: int, budget_s: float = 1.0) -> dict:
    """Times one row (at most `rounds` rounds, fewer when a round is slow) and counts its
    HLO. A row whose numbat side fails is kept, with the error as its note and no times."""
    arrays = kernel.inputs(n)
    try:
        return _run_row(kernel, arrays, rounds, budget_s)
    except Exception as error:  # noqa: BLE001 - one broken op must not hide the other rows
        message = f"FAILED: {type(error).__name__}: {str(error).splitlines()[0][:300]}"
        empty = dict.fromkeys(COUNTED, 0)
        return {
            "key": kernel.key,
            "kernel": kernel.describe(arrays),
            "numbat_us": None,
            "jax_us": None,
            "ratio": None,
            "hlo": {"numbat": empty, "jax": empty},
            "note": message,
            "stats": {},
        }


def _run_row(kernel: Kernel, arrays: list, rounds: int, budget_s: float) -> dict:
    tensors = [nbt.tensor(a) for a in arrays]
    # Both sides read the very same device buffers: where an input lies in memory moves a
    # memory-bound kernel's time by more than 10% (an array `jnp.asarray` made from NumPy
    # gathers slower or faster than a copy), which would show as a gap between equal programs.
    device = [t.data for t in tensors]
    assert all(d.dtype == a.dtype for d, a in zip(device, arrays)), "numbat kept each input's dtype"
    ours, theirs = nbt.defn(kernel.numbat), jax.jit(kernel.jax)
    _agree(kernel, ours(*tensors), theirs(*device))
    start = time.perf_counter()
    _ready(ours(*tensors)), _ready(theirs(*device))
    once = time.perf_counter() - start
    cases = {"numbat": lambda: _ready(ours(*tensors)), "jax": lambda: _ready(theirs(*device))}
    times = _bench_timing.samples(cases, max(3, min(rounds, int(budget_s / max(once, 1e-6)))), warmup=1)
    stats = _bench_timing.summarize(times)
    hlo = {
        "numbat": hlo_counts(nbt.xla.hlo(ours, tensors)),
        "jax": hlo_counts(theirs.lower(*device).compile().as_text()),
    }
    return {
        "key": kernel.key,
        "kernel": kernel.describe(arrays),
        "numbat_us": stats["numbat"]["median_us"],
        "jax_us": stats["jax"]["median_us"],
        "ratio": _bench_timing.paired_ratio(times, "numbat", "jax"),
        "hlo": hlo,
        "note": kernel.note,
        "stats": stats,
    }


def kernels_suite(size: int, rounds: int, rows: str | None = None) -> list[dict]:
    """Every selected kernel row, as one comparison whose `rows` hold the table."""
    table = [run_row(kernel, size, rounds) for kernel in select(rows)]
    stats = {f"{row['key']} {side}": stats for row in table for side, stats in row["stats"].items()}
    ratios = [
        {"numbat": f"{row['key']} numbat", "reference": f"{row['key']} jax", "ratio": row["ratio"]}
        for row in table
        if row["ratio"] is not None
    ]
    for row in table:
        del row["stats"]
    return [
        {"title": f"kernels: numbat defn / jax.jit (n = {size:,})", "stats": stats, "ratios": ratios, "rows": table}
    ]


RATIO_NOTE = (
    "numbat and jax.jit: median times; ratio: the median over rounds of the two calls' times "
    "in the same round (paired), so a burst of load on the machine cancels."
)


def _counts(counts: dict) -> str:
    return " ".join(f"{COUNTED[opcode]}{value}" for opcode, value in counts.items() if value) or "-"


def table_lines(rows: list[dict], markdown: bool = False) -> list[str]:
    """The kernel table: each row's times, ratio and HLO counts of both sides."""
    header = ("kernel", "numbat", "jax.jit", "ratio", "HLO numbat", "HLO jax", "note")
    body = [
        (
            row["kernel"],
            _bench_timing.format_time(row["numbat_us"]) if row["ratio"] is not None else "-",
            _bench_timing.format_time(row["jax_us"]) if row["ratio"] is not None else "-",
            f"{row['ratio']:.2f}x" if row["ratio"] is not None else "-",
            _counts(row["hlo"]["numbat"]),
            _counts(row["hlo"]["jax"]),
            row["note"],
        )
        for row in rows
    ]
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return lines + ["| " + " | ".join(cells) + " |" for cells in body]
    widths = [max(len(cells[i]) for cells in [header, *body]) for i in range(len(header) - 1)]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(cells, widths)) + "  " + cells[-1]
        for cells in [header, *body]
    ]
