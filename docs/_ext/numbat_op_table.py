"""`numbat-table-ops`: the public ops of the op table (`numbat/_core/_op_table.py`), one
autosummary per family, taken from the table when the site builds, so that a new op needs
no line on the API page.

    ```{numbat-table-ops} elementwise math bitwise complex
    ```

A family's list is its element-wise ops or reductions with `public` set and the public
functions of its other entries (`_op_table.STRUCTURED`, each entry's `public`); the families
are those of the table's entries (`creation`, `reduction`, `cumulative`, `window`, `shape`,
`indexing`, `sort`, `products`, `fft`, ...). It is a directive of MyST pages: it emits MyST text.

The autosummary stub pages of these ops are written at `builder-inited`, as autosummary
writes those of the lists it finds in the pages' text (it reads the files, so it cannot
see a directive's output).
"""

from __future__ import annotations

import os
import tempfile

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective


def families() -> list[str]:
    """The families of the op table's entries, in the table's order."""
    from numbat._core import _op_table

    return list(dict.fromkeys(entry.family for entry in _op_table.ENTRIES.values()))


def table_ops(family: str) -> list[str]:
    """The public functions of the table's entries in `family`, sorted: the element-wise ops' and
    reductions' names (where `public`), the other entries' `public` functions."""
    from numbat._core import _op_table

    entries = {**_op_table.OPS, **_op_table.REDUCTIONS}
    names = [name for name, op in entries.items() if op.public and op.family == family]
    names += [name for entry in _op_table.STRUCTURED.values() if entry.family == family for name in entry.public]
    return sorted(names)


def autosummary(names: list[str], toctree: str = "generated") -> list[str]:
    """The reStructuredText of an autosummary of `numbat`'s `names`, with stub pages under `toctree`."""
    head = [".. currentmodule:: numbat", "", ".. autosummary::", f"   :toctree: {toctree}", "   :nosignatures:", ""]
    return head + [f"   {name}" for name in names] + [""]


class NumbatTableOps(SphinxDirective):
    required_arguments = 1
    optional_arguments = 20  # a few families at once

    def run(self):
        known = families()
        unknown = [family for family in self.arguments if family not in known]
        if unknown:
            raise self.error(f"numbat-table-ops: unknown families {unknown}; the table's are {known}")
        self.env.note_dependency(__file__)
        lines = []
        for family in self.arguments:  # MyST (the page's parser) text, the lists in reStructuredText
            rubric = [f".. rubric:: The ``{family}`` family", ""]
            lines += ["```{eval-rst}", *rubric, *autosummary(table_ops(family)), "```", ""]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="numbat-table-ops"), self.content_offset, container)
        return container.children


def write_stub_pages(app) -> None:
    """The autosummary stub pages (`docs/api/generated/NAME.rst`) of the table's public ops."""
    from sphinx.ext.autosummary.generate import generate_autosummary_docs

    names = [name for family in families() for name in table_ops(family)]
    target = os.path.join(app.srcdir, "api", "generated")
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "table_ops.rst")
        with open(source, "w") as file:
            file.write("\n".join(autosummary(names, toctree=target)))
        generate_autosummary_docs(
            [source],
            suffix=".rst",
            app=app,
            imported_members=app.config.autosummary_imported_members,
            overwrite=app.config.autosummary_generate_overwrite,
        )


def setup(app):
    app.add_directive("numbat-table-ops", NumbatTableOps)
    app.connect("builder-inited", write_stub_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
