"""Primitive ops: one call into the backend with the output template (see `numbat._ops`)."""

from . import bitwise as bitwise
from . import complex as complex
from . import creation as creation
from . import cumulative as cumulative
from . import elementwise as elementwise
from . import fft as fft
from . import indexing as indexing
from . import linalg as linalg
from . import math as math
from . import products as products
from . import reduction as reduction
from . import shape as shape
from . import sort as sort
from . import window as window
