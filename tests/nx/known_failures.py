"""The ported Nx doctests that fail today, grouped by cause. Each one runs as a strict
xfail: when an op is fixed its cases XPASS and the suite fails until the entry leaves this
list, so the list only shrinks.

An entry is a case id (`Nx.take/3#2`: every path) or a test id (`Nx.take/3#2-numpy`:
that path only). Causes are "bug" (numbat gives a different answer or the wrong error),
"missing" (an Nx function or option numbat lacks) or "deliberate" (a documented
difference; aim for none).
"""

CAUSES: list[tuple[str, str, list[str]]] = []


def by_test_id() -> dict[str, str]:
    """{case or test id: "kind: cause"} over every cause."""
    return {test_id: f"{kind}: {cause}" for kind, cause, ids in CAUSES for test_id in ids}
