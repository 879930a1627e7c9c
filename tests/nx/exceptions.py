"""The doctests of Nx 0.13.1 that have no numbat form, each with the reason, and the
translations the translator cannot do, fixed by hand. `translate.py` reads both when it
writes the cases; `test_nx_doctests.py` checks that every excepted case is named here.

EXCEPTIONS maps a case id (`Nx.sum/2#1`) or a whole function (`Nx.sum/2`) to the reason
the example cannot be expressed in numbat. HAND_FIXES maps a case id to {step index:
{"python": ..., "jit": {"body": ..., "hoisted": [...]}}} for steps translated by hand.
"""

EXCEPTIONS: dict[str, str] = {}

HAND_FIXES: dict[str, dict[int, dict]] = {}
