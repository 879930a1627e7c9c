"""Extracts the doctests of Axon's `Axon.Activations` and `Axon.Losses` (their `iex>` lines
and the `#Nx.Tensor<...>` or `** (ArgumentError)` they expect) into cases.json, with each
call spelled in Python. Run once against an Axon checkout:

    python tests/axon/extract.py /path/to/axon <commit>

The expected values in cases.json are Axon's own, printed by Nx; nothing here runs numbat.
"""

from __future__ import annotations

import json
import pathlib
import re
import sys

MODULES = {"Axon.Activations": "lib/axon/activations.ex", "Axon.Losses": "lib/axon/losses.ex"}
TYPES = {"f": "f", "bf": "bf", "s": "s", "u": "u", "c": "c"}


def to_python(expression: str) -> str:
    """An Elixir call from the doctests as Python: Nx.tensor stays, modules become `axon`."""
    text = re.sub(r"\{:(\w+), (\d+)\}", lambda m: f'"{TYPES[m.group(1)]}{m.group(2)}"', expression)
    text = re.sub(r"type: :(\w+)", r'type="\1"', text)
    text = re.sub(r"Axon\.(Activations|Losses)\.", "axon.", text)
    text = text.replace("Nx.tensor(", "nbt.tensor(")
    text = re.sub(r"(\w+): ", r"\1=", text)  # keyword options (after the type tuples are gone)
    text = re.sub(r":(\w+)", r'"\1"', text)  # atoms
    text = text.replace("{", "(").replace("}", ")")  # tuples (the type tuples are gone)
    for elixir, python in (("true", "True"), ("false", "False"), ("nil", "None")):
        text = re.sub(rf"\b{elixir}\b", python, text)
    return text


def expected(lines: list[str]) -> dict:
    first = lines[0].strip()
    if first.startswith("** ("):
        kind, message = re.match(r"\*\* \((\w+)\) (.*)", first).groups()
        return {"raises": kind, "message": message}
    header = lines[1].strip()
    body = " ".join(line.strip() for line in lines[2:-1])
    return {"header": header, "values": body}


def cases(module: str, source: str) -> list[dict]:
    found, lines, i = [], source.splitlines(), 0
    while i < len(lines):
        if "iex>" not in lines[i]:
            i += 1
            continue
        steps, start = [], i + 1
        while i < len(lines) and ("iex>" in lines[i] or "...>" in lines[i]):
            code = lines[i].split("iex>" if "iex>" in lines[i] else "...>", 1)[1].strip()
            if "...>" in lines[i]:
                steps[-1] += " " + code
            else:
                steps.append(code)
            i += 1
        out = []
        while i < len(lines) and lines[i].strip():
            out.append(lines[i])
            if lines[i].strip() == ">" or lines[i].strip().startswith("** ("):
                i += 1
                break
            i += 1
        if out:
            found.append(
                {
                    "id": f"{module} line {start}",
                    "elixir": steps,
                    "python": [to_python(step) for step in steps],
                    "expected": expected(out),
                }
            )
    return found


def main(root: str, commit: str) -> None:
    all_cases = []
    for module, path in MODULES.items():
        all_cases += cases(module, (pathlib.Path(root) / path).read_text())
    document = {"source": f"github.com/elixir-nx/axon at {commit}", "files": list(MODULES.values()), "cases": all_cases}
    out = pathlib.Path(__file__).with_name("cases.json")
    out.write_text(json.dumps(document, indent=1) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])
