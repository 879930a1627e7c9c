"""Front-end ops: infer the output template once, then call the backend.

The layout says which ops a backend implements and which are built from others:

- `primitive/`: each op is one call into the backend (`_dispatch.run`) with the output
  template, after checking and converting its arguments; the modules import the layers
  below (`_tensor`, `backends`, `_expr`) and each other in one order, at module top.
- `composite/`: ops defined from the primitive ones, as Nx defines them from its own
  (`mean` from a sum, `log` with a base from two logarithms, `standard_deviation` from
  `variance`, `median` from `sort`, `linspace` from `iota`);
  they import primitives (and earlier composites) at module top, never in a function.
- `_convert` (numbers and arrays into tensors: `nbt.tensor`), `_dispatch` (choosing the
  backend and running one op), `_vectorized` (running one op over vectorized axes) and
  `_keywords` (the unknown-option guard) are the machinery under both.
- `tensor_methods` installs Python's operators on `Tensor` from the ops.
"""

from .composite import tensor_methods as tensor_methods
