"""The base layer: errors, the Nx type system, named axes, shape inference, printing,
Nx's bit packing of sub-byte types. It imports no other numbat module."""
