"""`numbat-help`: the help text of the `numbat` command or of the `%numbat` magic, taken
from the code when the site builds (so the page cannot drift from what `--help` prints).

    ```{numbat-help} cli kernel install
    ```
    ```{numbat-help} magic
    ```
"""

from __future__ import annotations

import argparse
import os

from docutils import nodes
from sphinx.util.docutils import SphinxDirective


def cli_help(path: list[str]) -> str:
    """`numbat PATH... --help`, as argparse prints it in a 72-column terminal, with the
    building machine's environment path replaced by words."""
    import sys

    from numbat import cli

    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "72"
    try:
        parser = cli._parser()
        for name in path:
            actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
            parser = actions[0].choices[name]
        text = parser.format_help()
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return text.replace(f"({sys.prefix})", "(sys.prefix)")


def magic_help() -> str:
    """`%numbat?`: the magic's docstring with its declared arguments, as IPython shows it."""
    from numbat.notebook._magics import NumbatMagics

    return NumbatMagics.numbat.__doc__.replace("::\n\n", "", 1)


class NumbatHelp(SphinxDirective):
    required_arguments = 1
    optional_arguments = 3

    def run(self):
        kind, *path = self.arguments
        self.env.note_dependency(__file__)
        text = magic_help() if kind == "magic" else cli_help(path)
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


# Nx functions numbat does not have, and why (the Nx-to-numbat page shows the reason).
NOT_IN_NUMBAT = {
    "block": "Nx's extension point for backend-specific blocks; numbat's backends implement ops directly",
    "from_pointer": "shares device memory by raw pointer; use `nbt.tensor(jax_array)` or DLPack through JAX",
    "to_pointer": "see `from_pointer`",
}
# Nx names spelt differently in numbat (Elixir's `?`/`!` suffixes are not Python names).
RENAMED = {"compatible?": "compatible", "load_numpy!": "load_numpy", "load_numpy_archive!": "load_numpy_archive"}


def nx_functions() -> list[str]:
    path = os.path.join(os.path.dirname(__file__), "nx_functions.txt")
    with open(path) as file:
        return [line.strip() for line in file if line.strip() and not line.startswith("#")]


def _markdown_table(header: list[str], rows: list[list[str]]) -> str:
    """A MyST (GitHub-style) table; the pages that use these tables are Markdown."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def nx_table() -> str:
    """Each Nx function, numbat's name and numbat's parameters (from the code)."""
    import inspect

    import numbat

    rows = []
    for name in nx_functions():
        spelling = RENAMED.get(name, name)
        if name in NOT_IN_NUMBAT:
            rows.append([f"`Nx.{name}`: none", NOT_IN_NUMBAT[name]])
            continue
        function = getattr(numbat, spelling)
        plain = (p.replace(annotation=inspect.Parameter.empty) for p in inspect.signature(function).parameters.values())
        link = f"{{py:func}}`nbt.{spelling} <numbat.{spelling}>`"
        rows.append([link if spelling == name else f"`Nx.{name}`: {link}", f"`({', '.join(str(p) for p in plain)})`"])
    return _markdown_table(["numbat (for Nx's function of the same name)", "numbat's parameters"], rows)


def promotion_table() -> str:
    """`nbt.add`'s result type for every pair of types, computed by numbat."""
    from numbat._core import _types

    names = ["u2", "u4", "u8", "u16", "u32", "u64", "s2", "s4", "s8", "s16", "s32", "s64"]
    names += ["f16", "bf16", "f32", "f64", "c64", "c128"]
    rows = [
        [f"**{left}**"] + [str(_types.merge(_types.parse(left), _types.parse(right))) for right in names]
        for left in names
    ]
    return _markdown_table(["+", *names], rows)


class NumbatTable(SphinxDirective):
    """`numbat-table nx` or `numbat-table promotion`: a table computed from numbat itself."""

    required_arguments = 1

    def run(self):
        self.env.note_dependency(__file__)  # the page is rebuilt when this file changes
        text = {"nx": nx_table, "promotion": promotion_table}[self.arguments[0]]()
        return self.parse_text_to_nodes(text)


def setup(app):
    app.add_directive("numbat-help", NumbatHelp)
    app.add_directive("numbat-table", NumbatTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
