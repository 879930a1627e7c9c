"""`numbat demo`: a short printed tour of the public API."""

import inspect

import numbat as nbt

NOTEBOOK = "notebooks/01_tensors_and_defn.ipynb"  # where the demo sends the reader next


@nbt.defn
def softmax(t):
    return nbt.exp(t) / nbt.sum(nbt.exp(t))


def run() -> None:
    """Prints a tensor, compiles and runs a defn with telemetry attached, and its graph."""
    print("1. A tensor with named axes:\n")
    t = nbt.tensor([[1, 2], [3, 4]], names=["x", "y"])
    print(t)

    print("\n2. A numerical definition, traced and compiled with XLA on its first call:\n")
    print(inspect.getsource(softmax))

    compilations = []

    def on_compilation(event, measurements, metadata):
        compilations.append(metadata)
        compile_us = measurements["compile_time"]
        print(f"   [telemetry] compiled {metadata['function']} in {compile_us:,.0f} µs")

    nbt.telemetry.attach("demo", ("numbat", "compilation"), on_compilation)
    try:
        print(softmax(t))
        print("\n3. Called again with the same input types, it runs from the cache:\n")
        print(softmax(t))
    finally:
        nbt.telemetry.detach("demo")
    print(f"\n   {len(compilations)} compilation event(s) for 2 calls.")

    print("\n4. The expression graph numbat traced, in Nx's format:\n")
    print(nbt.debug_expr(softmax)(t))

    print(f"\nNext: open {NOTEBOOK} with the Numbat kernel (see README.md).")
