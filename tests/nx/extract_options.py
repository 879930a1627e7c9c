"""Extracts the options of every public function of Nx, Nx.LinAlg and Nx.Random (Nx 0.13.1)
from Nx's Elixir source, into `options_nx.json` beside this file.

Run it from a clone (or a bare mirror) of elixir-nx/nx:

    python tests/nx/extract_options.py --git-dir /path/to/nx/.git        # reads tag v0.13.1
    python tests/nx/extract_options.py --source /path/to/nx/nx/lib       # a checked-out tree

An option of a function is a key named in one of three places:

* `keyword!(opts, [...])` or `Keyword.validate!(opts, [...])` in its body ("validate"),
* `opts[:key]` or `Keyword.get/fetch/pop(opts, :key)` in its body ("read"),
* a bullet of the form ``* `:key` `` under `## Options` in its `@doc` ("doc"),

where "its body" also takes in, transitively, the functions of the same module that it passes
`opts` to as a bare argument (`argmax` passes its `opts` to a private helper that validates
them; `Nx.Random.uniform/2` passes them to `uniform/4`). Clauses of one name are merged over
every arity, since numbat names do not carry an arity (`uniform/2` and `uniform/4` are both
`nbt.random.uniform`). Nx's `full_matrices?` is spelled `full_matrices` in Python.

The output maps "Nx.sort" to {"direction": ["nx/lib/nx.ex:15582 validate, default :asc", ...], ...}:
every option with the Nx source lines it came from (and, where keyword! gives one, its
default as an Elixir literal). The fft functions are in `nx/lib/nx.ex`.
"""

from __future__ import annotations

import argparse
import functools
import json
import pathlib
import re
import subprocess

TAG = "v0.13.1"
MODULES = {"Nx": "nx/lib/nx.ex", "Nx.LinAlg": "nx/lib/nx/lin_alg.ex", "Nx.Random": "nx/lib/nx/random.ex"}

_CLAUSE = re.compile(r"^  (def|defp|defn|defnp|deftransform|deftransformp) ([a-z_][a-zA-Z0-9_]*[?!]?)\b")
_PUBLIC = {"def", "defn", "deftransform"}
_VALIDATE = re.compile(r"(?:keyword!|Keyword\.validate!)\(")
_READ = re.compile(r"\bopts\[:([a-z_][a-zA-Z0-9_]*\??)\]|Keyword\.(?:get|fetch!?|pop)\(opts, :([a-z_][a-zA-Z0-9_]*\??)")
_ITEM = re.compile(r"^(?::([a-z_][a-zA-Z0-9_]*\??)$|([a-z_][a-zA-Z0-9_]*\??):\s)", re.DOTALL)
_BULLET = re.compile(r"^\s*\* `:([a-z_][a-zA-Z0-9_]*\??)`")
_HEREDOC = re.compile(r'^  @([a-z_]+) """$')
_INTERPOLATED = re.compile(r"#\{@([a-z_]+)\}")
_CALL = re.compile(r"(?<![\w.:&])((?:Nx(?:\.LinAlg|\.Random)?\.)?)([a-z_][a-zA-Z0-9_]*[?!]?)\(")


def _balanced(text: str, start: int) -> str:
    """The text between the parenthesis opened at `text[start - 1]` and the one closing it."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return text[start:i]
    return text[start:]


def _top_level_args(args: str) -> list[str]:
    """`args` split at the commas outside any bracket."""
    parts, depth, current = [], 0, ""
    for ch in args:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    return [*parts, current.strip()]


def _clauses(lines: list[str]) -> list[dict]:
    """Every function clause: kind, name, first line (1-based), body lines, doc lines."""
    starts = [(i, m) for i, line in enumerate(lines) if (m := _CLAUSE.match(line))]
    clauses = []
    for n, (i, m) in enumerate(starts):
        end = starts[n + 1][0] if n + 1 < len(starts) else len(lines)
        # The body stops at the next module attribute (the next function's @doc or @spec).
        stop = next((j for j in range(i + 1, end) if lines[j].startswith("  @")), end)
        previous_end = starts[n - 1][0] + 1 if n else 0
        doc_start = next((j for j in range(i - 1, previous_end - 1, -1) if lines[j].startswith('  @doc """')), None)
        clauses.append(
            {
                "kind": m.group(1),
                "name": m.group(2),
                "line": i + 1,
                "body": (i, stop),
                "doc": (doc_start, i) if doc_start is not None else None,
            }
        )
    return clauses


def _attributes(lines: list[str]) -> dict[str, tuple[int, int]]:
    """{name: (first, stop) line indexes} of the heredoc module attributes (`@choice_options \"\"\"`)."""
    found = {}
    for i, line in enumerate(lines):
        if (m := _HEREDOC.match(line)) and m.group(1) not in ("doc", "moduledoc"):
            stop = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == '"""')
            found[m.group(1)] = (i + 1, stop)
    return found


def _doc_lines(lines: list[str], start: int, stop: int, attributes: dict) -> list[int]:
    """Indexes of a @doc's lines, with the lines of an interpolated attribute (`#{@choice_options}`) in its place."""
    indexes = []
    for j in range(start, stop):
        m = _INTERPOLATED.search(lines[j])
        if m and m.group(1) in attributes:
            indexes += range(*attributes[m.group(1)])
        else:
            indexes.append(j)
    return indexes


def _add(options: dict, path: str, key: str, line: int, how: str) -> None:
    """Records that option `key` (Nx's `full_matrices?` as `full_matrices`) comes from `path:line`."""
    sources = options.setdefault(key.rstrip("?"), [])
    if f"{path}:{line} {how}" not in sources:
        sources.append(f"{path}:{line} {how}")


def _validated(text: str, first_line: int) -> list[tuple[str, int, str | None]]:
    """(key, line, default) for every key in the keyword!/Keyword.validate! calls of `text`;
    the default is the Elixir literal (`:asc`, `{:s, 32}`), None for a bare key."""
    found = []
    for m in _VALIDATE.finditer(text):
        args = _balanced(text, m.end())
        line = first_line + text.count("\n", 0, m.start())
        parts = _top_level_args(args)
        piped = text[: m.start()].rstrip().endswith("|>")  # `opts |> keyword!(k: 0)`
        keys = ", ".join(parts if piped else parts[1:]).strip()
        if keys.startswith("[") and keys.endswith("]"):
            keys = keys[1:-1]
        for item in _top_level_args(keys):
            if item and (key := _ITEM.match(item)):
                default = None if key.group(1) else " ".join(item[key.end() :].split())
                found.append((key.group(1) or key.group(2), line, default))
    return found


def _callees(text: str, module: str) -> set[str]:
    """Names of same-module functions that `text` passes a bare `opts` to."""
    names = set()
    for m in _CALL.finditer(text):
        qualifier, name = m.group(1).rstrip("."), m.group(2)
        if qualifier and qualifier != module:
            continue
        if "opts" in _top_level_args(_balanced(text, m.end())):
            names.add(name)
    return names


def extract(module: str, path: str, source: str) -> dict[str, dict[str, list[str]]]:
    """{"Module.fun": {option: [source lines]}} for the public functions of one module that take options."""
    lines = source.splitlines()
    clauses = _clauses(lines)
    attributes = _attributes(lines)
    by_name: dict[str, list[dict]] = {}
    for clause in clauses:
        by_name.setdefault(clause["name"], []).append(clause)

    def body(clause) -> str:
        return "\n".join(lines[slice(*clause["body"])])

    result = {}
    for name, group in by_name.items():
        if not any(c["kind"] in _PUBLIC for c in group):
            continue
        options: dict[str, list[str]] = {}
        add = functools.partial(_add, options, path)
        for clause in group:
            if clause["doc"] is not None:
                start, stop = clause["doc"]
                in_options, indent = False, None
                for j in _doc_lines(lines, start, stop, attributes):
                    text = lines[j].strip()
                    if text.startswith("##"):
                        in_options, indent = text == "## Options", None
                    elif in_options and (m := _BULLET.match(lines[j])):
                        # Option bullets share the section's first indentation; deeper ones
                        # list an option's values (`:reduced` under `:mode`).
                        indent = indent if indent is not None else m.start(1)
                        if m.start(1) == indent:
                            add(m.group(1), j + 1, "doc")
        seen, todo = set(), [c for c in group if c["kind"] in _PUBLIC]
        while todo:
            clause = todo.pop()
            if id(clause) in seen:
                continue
            seen.add(id(clause))
            text = body(clause)
            for key, line, default in _validated(text, clause["line"]):
                add(key, line, "validate" if default is None else f"validate, default {default}")
            for m in _READ.finditer(text):
                add(m.group(1) or m.group(2), clause["line"] + text.count("\n", 0, m.start()), "read")
            for callee in _callees(text, module):
                todo += by_name.get(callee, [])
        if options:
            result[f"{module}.{name}"] = options
    return result


def _read(args, path: str) -> str:
    if args.source:
        return (pathlib.Path(args.source).parent.parent / path).read_text()
    return subprocess.run(
        ["git", f"--git-dir={args.git_dir}", "show", f"{TAG}:{path}"], check=True, capture_output=True, text=True
    ).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--git-dir", help=f"an elixir-nx/nx git directory holding tag {TAG}")
    where.add_argument("--source", help="a checked-out nx/lib directory")
    parser.add_argument("--out", default=str(pathlib.Path(__file__).with_name("options_nx.json")))
    args = parser.parse_args()
    result = {}
    for module, path in MODULES.items():
        result.update(extract(module, path, _read(args, path)))
    pathlib.Path(args.out).write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"{len(result)} functions, {sum(map(len, result.values()))} options -> {args.out}")


if __name__ == "__main__":
    main()
