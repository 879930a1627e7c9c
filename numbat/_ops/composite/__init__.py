"""Composite ops: defined from the primitive ones, as Nx defines them (see `numbat._ops`)."""

from . import construct as construct
from . import math as math
from . import shape as shape
from . import statistics as statistics
from . import vectorization as vectorization
from . import vmap as vmap
