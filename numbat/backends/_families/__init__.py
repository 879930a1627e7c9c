"""The backend interface and its array implementation, one module per op family.

Each family module holds `Interface` (the abstract methods a backend must
implement for that family; every method takes the output template `out`
first) and `Array` (the implementation over `self.xp`, NumPy or jax.numpy,
shared by `NumPyBackend` and `XLABackend`). `AbstractBackend` and
`ArrayBackend` combine the families.

The families are the front-end's (`numbat/_ops/primitive/<family>.py` calls the ops
of `<family>.py` here), each with one rule, in its module's docstring: creation,
elementwise (two or more broadcast tensors), math (functions of one tensor), bitwise
and complex (by value domain), reduction, cumulative, window, shape, indexing, sort,
products (dot, dot_general, conv), linalg (Nx.LinAlg) and fft. The private modules
are helpers: `_base` (operand conversion), `_tables` (the element-wise families'
op tables), `_linalg_qr`, `_linalg_eigh_svd` and `_linalg_cholesky` (Nx's own
algorithms, over JAX).
"""
