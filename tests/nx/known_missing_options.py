"""The option gaps test_nx_options.py finds today, grouped by cause. Each entry runs as a
strict xfail: when the gap is closed its test XPASSes and the suite fails until the entry
leaves this list, so the list only shrinks.

An entry is a test id of test_nx_options.py:

* `accepts Nx.sort:stable`: numbat's function has no keyword of Nx's name ("missing");
* `defaults Nx.sort:direction`: numbat's default differs from Nx's ("default");
* `honours Nx.LinAlg.qr:eps`: the keyword is there but does not do what Nx's does ("ignored");
* `refuses nbt.serialize`: an unknown keyword gives Python's TypeError, not numbat's
  ArgumentError naming the op and its options ("unguarded").
"""

CAUSES: list[tuple[str, str, list[str]]] = []


def by_test_id() -> dict[str, str]:
    """{test id: "kind: cause"} over every cause."""
    return {test_id: f"{kind}: {cause}" for kind, cause, ids in CAUSES for test_id in ids}
