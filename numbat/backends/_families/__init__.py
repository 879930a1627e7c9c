"""The array implementation of the backend contract, one module per op family.

Each family module holds `Array`: its family's methods of the contract
(`backends/_contract.py`, where every method is declared with its signature)
implemented over `self.xp`, NumPy or jax.numpy, and shared by `NumPyBackend`
and `XLABackend`. `ArrayBackend` (`backends/_array.py`) combines the families.

The families are the front-end's (`numbat/_ops/primitive/<family>.py` calls the ops
of `<family>.py` here), each with one rule, in its module's docstring: creation,
elementwise (two or more broadcast tensors), math (functions of one tensor), bitwise
and complex (by value domain), reduction, cumulative, window, shape, indexing, sort,
products (dot, dot_general, conv), linalg (Nx.LinAlg) and fft. The private modules
are helpers: `_base` (operand conversion, and `fill`: the methods the op table's other
families compute in their entries), `_tables` (the element-wise families'
op tables), `_linalg_qr`, `_linalg_eigh_svd` and `_linalg_cholesky` (Nx's own
algorithms, over JAX).
"""
