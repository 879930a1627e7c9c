"""Composite ops: defined from the primitive ones, as Nx defines them (see `numbat._ops`)."""

from . import (
    construct as construct,
    shape as shape,
    statistics as statistics,
    vectorization as vectorization,
    vmap as vmap,
)
