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
    """`numbat PATH... --help`, as argparse prints it (80 columns)."""
    from numbat import cli

    os.environ["COLUMNS"] = "88"
    parser = cli._parser()
    for name in path:
        actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        parser = actions[0].choices[name]
    return parser.format_help()


def magic_help() -> str:
    """`%numbat?`: the magic's docstring with its declared arguments, as IPython shows it."""
    from numbat.notebook._magics import NumbatMagics

    return NumbatMagics.numbat.__doc__.replace("::\n\n", "", 1)


class NumbatHelp(SphinxDirective):
    required_arguments = 1
    optional_arguments = 3

    def run(self):
        kind, *path = self.arguments
        text = magic_help() if kind == "magic" else cli_help(path)
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app):
    app.add_directive("numbat-help", NumbatHelp)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
