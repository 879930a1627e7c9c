"""The doctests of Nx 0.13.1 that have no numbat form, each with the reason, and the
translations the translator cannot do, fixed by hand. `translate.py` reads both when it
writes the cases; `test_nx_doctests.py` checks that every excepted case is named here.

EXCEPTIONS maps a case id (`Nx.sum/2#1`) or a whole function (`Nx.sum/2`) to the reason
the example cannot be expressed in numbat. HAND_FIXES maps a case id to {step index:
step}, a step being {"python": ...} plus, for a checked expression, {"jit": {"body": ...,
"hoisted": [...]}}, or {"assign": True, "result": ...} for a binding.
"""

_SIGILS = (
    "Elixir's ~VEC/~MAT sigils (`import Nx, only: :sigils`) are Elixir syntax for nbt.tensor; "
    "numbat has no sigils, and the tensors they build are covered by Nx.tensor's own doctests"
)

EXCEPTIONS: dict[str, str] = {
    "Nx (moduledoc)#5": _SIGILS,
    "Nx (moduledoc)#6": _SIGILS,
    "Nx.sigil_MAT/2#1": _SIGILS,
    "Nx.sigil_VEC/2#1": _SIGILS,
}

_RUNTIME_CALL_SETUP = """sums = []
def callback(t, pid):
    sums.append((pid, sum(nbt.to_flat_list(t))))
    return t"""

HAND_FIXES: dict[str, dict[int, dict]] = {
    # `%{shape: {}} = t = ...` asserts a struct field while binding t.
    "Nx.to_list/1#3": {
        0: {
            "python": 't = nbt.vectorize(nbt.tensor([1, 2, 3]), "x")\nassert t.shape == ()',
            "assign": True,
            "result": "t",
        }
    },
    # ~VEC[1+2i -2+1i] (a sigil inside an example about phase, which is ported).
    "Nx.phase/1#3": {
        0: {"python": "pass", "assign": True, "result": "None"},
        1: {
            "python": "nbt.phase(nbt.tensor([complex(1, 2), complex(-2, 1)]))",
            "jit": {"body": "nbt.phase(_h0)", "hoisted": ["nbt.tensor([complex(1, 2), complex(-2, 1)])"]},
        },
    },
    # Elixir's == on two tensors compares the structs (Python's == is element-wise).
    "Nx.vectorize/2#2": {
        3: {
            "python": "v1.vectorized_axes == v2.vectorized_axes and v1.shape == v2.shape"
            " and nbt.to_number(nbt.all(nbt.equal(nbt.devectorize(v1), nbt.devectorize(v2)))) == 1"
        }
    },
    # Nx refuses the string "y" where an atom names an axis; numbat's names are strings, so
    # the port refuses a name that is not a string (an integer) instead.
    "Nx.vectorize/2#10": {
        0: {
            "python": 'nbt.vectorize(nbt.tensor([[1]]), ["x", 1])',
            "jit": {"body": 'nbt.vectorize(_h0, ["x", 1])', "hoisted": ["nbt.tensor([[1]])"]},
        }
    },
    # An Elixir module whose callback sends the sum to the test process: a Python
    # function appending to a list; `receive` reads the list.
    "Nx.runtime_call/4#1": {
        0: {"python": _RUNTIME_CALL_SETUP, "assign": True, "result": "None"},
        1: {"python": "pid = 'self'", "assign": True, "result": "pid"},
        4: {
            "python": "nbt.runtime_call(out, x, callback, pid=pid)",
            "jit": {"body": "nbt.runtime_call(out, x, callback, pid=pid)", "hoisted": []},
        },
        5: {"python": "sums[-1][1]"},
    },
}
