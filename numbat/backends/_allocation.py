"""The allocation guard: an op, a creation, a defn output or a random sample is
checked against its device's capacity before anything is allocated.

XLA aborts the process when a shape's byte size overflows 64 bits, and a tensor
larger than memory ends in RESOURCE_EXHAUSTED or in the kernel being killed.
`check` computes the bytes a template needs with exact Python integers (so a
product that overflows int64 is caught too), and raises `numbat.AllocationError`
naming the op, the shape, the type, the bytes and the device's capacity when they
do not fit, or when a dimension is 2**63 or more, or, whatever the element count, when
the nonzero dimensions multiply out past 64 bits in bytes (`_shape.extent`: XLA aborts on
`(2**33, 2**33, 0)` as on any overflow). The capacity is the host's
physical memory for the NumPy backend and CPU devices, and the allocator's
`bytes_limit` for accelerators that report one; it is looked up once per device.

The guard's cost on the eager fast path is one set lookup: `FINE` holds the
shapes `check` found small (non-empty, at most `SMALL` elements, which no device
is too small for in any type), and callers call `check` only for other shapes.

A vectorized tensor is checked whole, its vectorized axes included (`vectorized`).
The message names the public function the user called (`nbt.linspace`, not the
`iota` it runs): on the error path only, the stack is read up to the first frame
outside numbat (and the JAX frames a defn or vmap traces through), and the
outermost public numbat function there names the call.

>>> check("iota", Template((2**62,), _types.Type("s", 32), (None,)), NumPyBackend())
Traceback (most recent call last):
...
numbat.AllocationError: iota needs 16 EiB (18446744073709551616 bytes) for s32[4611686018427387904], more than the host has (... of physical memory)
"""

from __future__ import annotations

import inspect
import math
import os
import sys

from .._core import _shape, _types
from .._core._errors import AllocationError
from .._core._format import header, vectorized_header
from .._tensor._tensor import Template
from .numpy_backend import NumPyBackend

SMALL = 1 << 22  # elements (at most 64 MiB of c128): below this no device is too small
_DIMENSION_LIMIT = 1 << 63  # XLA's dimensions are int64
_capacities: dict = {}  # device (or "host") -> (bytes or None, what the number is)
FINE: set = set()  # shapes known small; callers test membership before calling `check`
_FINE_LIMIT = 4096
PER_TENSOR = 8192  # bytes charged a tensor beside its elements (measured: 4.2 KB on XLA, 0.3 KB on NumPy)


def _remember(shape: tuple) -> None:
    if len(FINE) >= _FINE_LIMIT:
        FINE.clear()  # in place: callers hold this set
    FINE.add(shape)


def nbytes(shape, type_: _types.Type) -> int:
    """The exact bytes a tensor of `shape` and `type_` takes in memory (a Python int, never
    overflowing); a sub-byte element (s2, s4, u2, u4) takes a whole byte, as in NumPy and XLA.

    >>> nbytes((2**32, 2**32), _types.Type("s", 32)), nbytes((1024,), _types.Type("u", 2))
    (73786976294838206464, 1024)
    """
    return math.prod(int(d) for d in shape) * max(type_.bits, 8) // 8


def check(op: str, out: Template, backend, vectorized: tuple = (), public: bool = True) -> None:
    """Raises `numbat.AllocationError` when `out` cannot be allocated on `backend`'s device;
    `vectorized` are the `(name, size)` axes a vectorized tensor holds besides `out`'s shape.
    With `public`, the message names the public call that runs op `op` (see above)."""
    sizes = tuple(size for _, size in vectorized)
    shape = tuple(out.shape)
    whole = sizes + shape
    if 0 < math.prod(whole) <= SMALL:
        if not sizes and shape.__class__ is out.shape.__class__:
            _remember(shape)
        return
    for size in whole:
        if size >= _DIMENSION_LIMIT:
            raise AllocationError(
                f"{_named(op, public)}: dimension {size} of {_describe(out, vectorized)} does not fit in 64 bits "
                f"(at most {_DIMENSION_LIMIT - 1})"
            )
    if any(size < 0 for size in whole):
        return  # a malformed shape: the op's own checks name it
    needed = nbytes(whole, out.type)
    capacity, what = capacity_of(backend)
    if capacity is not None and needed > capacity:
        raise AllocationError(
            f"{_named(op, public)} needs {_human(needed)} ({needed} bytes) for {_describe(out, vectorized)}, more "
            f"than {what} has ({_human(capacity)} of {'physical memory' if what == 'the host' else 'device memory'})"
        )
    if math.prod(whole) >= _DIMENSION_LIMIT:  # no known capacity: XLA still cannot count the elements
        raise AllocationError(
            f"{_named(op, public)}: {_describe(out, vectorized)} has {math.prod(whole)} elements, more than "
            f"64 bits can count (at most {_DIMENSION_LIMIT - 1})"
        )
    if needed >= _DIMENSION_LIMIT:  # no known capacity: XLA still cannot size it
        raise AllocationError(
            f"{_named(op, public)} needs {_human(needed)} ({needed} bytes) for {_describe(out, vectorized)}, "
            "more than 64 bits"
        )
    _check_extent(op, out, vectorized, public)


def check_extent(op: str, out: Template) -> None:
    """Raises `numbat.AllocationError` when `out` has a dimension of 2**63 or more, or when its
    nonzero dimensions (`_shape.extent`) multiply out to 2**63 bytes or more, empty or not:
    what XLA aborts on when it compiles a program over `out` (`nbt.template` checks it), with
    no look at the device's capacity.

    >>> check_extent("template", Template((2**62, 0, 4), _types.Type("f", 32), (None,) * 3))
    Traceback (most recent call last):
    ...
    numbat.AllocationError: template: the nonzero dimensions of f32[4611686018427387904][0][4] take 73786976294838206464 bytes multiplied out, more than 64 bits can count (at most 9223372036854775807); XLA refuses such a shape even when it holds no elements
    """
    for size in out.shape:
        if size >= _DIMENSION_LIMIT:
            raise AllocationError(
                f"{_named(op, True)}: dimension {size} of {_describe(out)} does not fit in 64 bits "
                f"(at most {_DIMENSION_LIMIT - 1})"
            )
    _check_extent(op, out, (), True)


def _check_extent(op: str, out: Template, vectorized: tuple, public: bool) -> None:
    whole = tuple(size for _, size in vectorized) + tuple(out.shape)
    spanned = _shape.extent(whole) * (max(out.type.bits, 8) // 8)
    if spanned >= _DIMENSION_LIMIT:  # an empty tensor: XLA (and NumPy) still multiply out the rest
        raise AllocationError(
            f"{_named(op, public)}: the nonzero dimensions of {_describe(out, vectorized)} take {spanned} bytes "
            f"multiplied out, more than 64 bits can count (at most {_DIMENSION_LIMIT - 1}); XLA refuses such a "
            "shape even when it holds no elements"
        )


def check_all(op: str, what: str, outs, backend, per_item: int = 0) -> None:
    """Raises `numbat.AllocationError` when the templates `outs` (`what` they are), each
    checked by `check`, cannot be allocated together on `backend`'s device (bytes summed,
    with `per_item` bytes more for each: what making a tensor costs beside its elements).

    >>> half = Template((host_memory() // 2 + 1,), _types.U8, (None,))
    >>> check_all("deserialize", "the outputs of f", [half, half], NumPyBackend())
    Traceback (most recent call last):
    ...
    numbat.AllocationError: deserialize needs ... for the outputs of f together (u8[...] and u8[...]), more than the host has (...)
    """
    outs = tuple(outs)
    for out in outs:
        check(op, out, backend, public=False)
    needed = sum(nbytes(out.shape, out.type) for out in outs) + per_item * len(outs)
    capacity, where = capacity_of(backend)
    if capacity is not None and needed > capacity:
        shapes = " and ".join(_describe(out) for out in outs) if len(outs) <= 4 else f"{len(outs)} tensors"
        if per_item:
            shapes += f", counting {_human(per_item)} for each tensor beside its elements"
        raise AllocationError(
            f"{op} needs {_human(needed)} ({needed} bytes) for {what} together ({shapes}), more than {where} has "
            f"({_human(capacity)} of {'physical memory' if where == 'the host' else 'device memory'})"
        )


_PASS_THROUGH = ("numbat.", "jax.", "jaxlib.", "contextlib", "functools")


def _named(op: str, public: bool) -> str:
    """The public function on the stack that runs op `op` (the outermost one called from
    outside numbat), else `op`."""
    if not public:
        return op
    functions = _public_functions()
    found, frame = None, sys._getframe(2)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module != "numbat" and not module.startswith(_PASS_THROUGH):
            break
        found = functions.get(frame.f_code, found)
        frame = frame.f_back
    return found or op


def _public_functions() -> dict:
    """The code of each public numbat function, by its public name (`random.choice`), read
    from the loaded package on the error path (this layer imports nothing above it)."""
    package = sys.modules.get("numbat")
    xla = getattr(package, "xla", None)
    exported = set(getattr(xla, "__all__", ()))
    namespaces = [("", package)] + [(f"{name}.", getattr(package, name, None)) for name in ("random", "linalg")]
    namespaces += [("xla.", module) for name, module in list(sys.modules.items()) if name.startswith("numbat.xla")]
    found: dict = {}
    for prefix, namespace in namespaces:
        for name, value in list(vars(namespace).items()) if namespace is not None else ():
            if name.startswith("_") or not inspect.isfunction(value) or (prefix == "xla." and name not in exported):
                continue
            found.setdefault(inspect.unwrap(value).__code__, prefix + name)
    return found


def capacity_of(backend) -> tuple[int | None, str]:
    """The bytes `backend`'s device can hold (None when it reports nothing), and its name.

    >>> capacity_of(NumPyBackend()) == (host_memory(), "the host")
    True
    """
    device = None if backend is None or isinstance(backend, NumPyBackend) else backend.device
    key = "host" if device is None or device.platform == "cpu" else device
    found = _capacities.get(key)
    if found is None:
        if key == "host":
            found = (host_memory(), "the host")
        else:
            try:
                stats = device.memory_stats() or {}
            except Exception:  # noqa: BLE001 -- a device without statistics: no known limit
                stats = {}
            found = (stats.get("bytes_limit"), f"device {device.platform}:{device.id} ({device.device_kind})")
        _capacities[key] = found
    return found


def host_memory() -> int | None:
    """The host's physical memory in bytes (None where the system does not say).

    >>> host_memory() > 0
    True
    """
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _describe(out: Template, vectorized: tuple = ()) -> str:
    names = tuple(out.names) if out.names and len(out.names) == len(out.shape) else (None,) * len(out.shape)
    text = header(out.type, tuple(out.shape), names)
    return f"{vectorized_header(vectorized)} {text}" if vectorized else text


def _human(count: int) -> str:
    """`count` bytes in binary units, e.g. `16 EiB`.

    >>> _human(3 * 2**30), _human(2**64), _human(10**30)
    ('3 GiB', '16 EiB', '867361737988 EiB')
    """
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if count < 1024:
            return f"{count:.3g} {unit}" if isinstance(count, float) else f"{count} {unit}"
        count /= 1024
    return f"{count:.12g} EiB" if count >= 1e3 else f"{count:.3g} EiB"
