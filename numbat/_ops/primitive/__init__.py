"""Primitive ops: one call into the backend with the output template (see `numbat._ops`)."""

from . import (
    bitwise as bitwise,
    complex as complex,
    creation as creation,
    cumulative as cumulative,
    elementwise as elementwise,
    fft as fft,
    indexing as indexing,
    linalg as linalg,
    math as math,
    reduction as reduction,
    shape as shape,
    sort as sort,
    window as window,
)
