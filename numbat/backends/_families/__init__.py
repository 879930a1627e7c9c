"""The backend interface and its array implementation, one module per op family.

Each family module holds `Interface` (the abstract methods a backend must
implement for that family; every method takes the output template `out`
first) and `Array` (the implementation over `self.xp`, NumPy or jax.numpy,
shared by `NumPyBackend` and `XLABackend`). `AbstractBackend` and
`ArrayBackend` combine the families.
"""
