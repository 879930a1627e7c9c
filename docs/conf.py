"""Sphinx configuration of numbat's documentation site (`docs/`).

Build: `.venv/bin/sphinx-build -W -b html docs docs/_build/html` (the README's command).
The tutorials are `notebooks/` itself (the `tutorials` symlink), rendered with their stored
outputs (no execution: the pages show what nbval checks). Nothing in the build touches the
network: no intersphinx, no link check, no CDN script.
"""

import os
import sys

import sphinx.search
import sphinx.search.en

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, ROOT)  # the checkout's numbat, also when it is not installed
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "_ext"))


project = "numbat"
author = "the numbat authors"
copyright = "the numbat authors"
release = version = "0.1.0"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "myst_nb",
    "numbat_help",
    "numbat_op_table",
]

# Tutorials: stored outputs only, in the order of notebooks/.
nb_execution_mode = "off"
nb_ipywidgets_js = {}  # no widget JavaScript from a CDN: a widget shows its stored text/html or text/plain fallback
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_merge_streams = True
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "tutorials/.ipynb_checkpoints", "**/.ipynb_checkpoints"]

# API: one page per public name, from the docstrings (generated into api/generated/, not committed).
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
add_module_names = False
default_role = "code"  # the docstrings' `name` is code, as in Markdown
napoleon_google_docstring = False
napoleon_numpy_docstring = False

html_theme = "pydata_sphinx_theme"
html_title = "numbat"
html_static_path = ["_static"]
html_css_files = ["numbat.css"]
html_theme_options = {
    "navbar_end": ["navbar-icon-links"],
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
    "search_bar_text": "Search the docs (e.g. argmax)",
}
# Pages of the top-level toctree with no pages under them: the theme's "Section Navigation"
# would be an empty heading there; the page's own sections are in the right-hand sidebar.
html_sidebars = {page: [] for page in ("guides/install", "nx_to_numbat", "design", "changelog")}
html_show_sourcelink = False
html_copy_source = False
templates_path = ["_templates"]

# No network: no intersphinx inventories are fetched, and MathJax (a CDN script) is never needed.


def _markdown_stars(app, what, name, obj, options, lines):
    """The docstrings are written for `help()` and Markdown readers: a bare `*` (as in
    `[batch, channels, *spatial]`) is text, not reST emphasis. Escapes it outside `code`
    and doctest blocks; the examples themselves are left exactly as the doctests run them."""
    in_example = False
    for index, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            in_example = True
        elif not stripped:
            in_example = False
        if in_example:
            continue
        parts = line.split("`")
        lines[index] = "`".join(part.replace("*", "\\*") if i % 2 == 0 else part for i, part in enumerate(parts))


SEARCHABLE_STOPWORDS = frozenset({"where", "all", "any"})


class _SearchEnglishWithCode(sphinx.search.en.SearchEnglish):
    """English search that keeps the words that are also API names: NumPy's `where` (which
    finds `nbt.select` on the Nx to numbat page and in its docstring), `nbt.all`, `nbt.any`.
    Sphinx drops English stopwords from the index and from the query
    (tests/test_docs.py::test_search_keeps_the_api_words_that_are_english_stopwords)."""

    stopwords = sphinx.search.en.SearchEnglish.stopwords - SEARCHABLE_STOPWORDS


sphinx.search.languages["en"] = _SearchEnglishWithCode


def setup(app):
    app.connect("autodoc-process-docstring", _markdown_stars)
