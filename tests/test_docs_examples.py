"""Every code block on the documentation pages (docs/**/*.md) and in the README runs, and every
output a page shows is what its code printed. A small collector of our own (markdown-it-py,
which MyST already uses, finds the blocks): the pages mix Python, its printed output and
shell commands, and each kind needs its own check.

- A ```python block runs, in page order, in one namespace per page that starts with `nbt`,
  `np`, `jax` and `jnp` imported (as the pages assume). A block written with `>>>` prompts
  is a doctest: each output under a prompt is compared (ELLIPSIS, NORMALIZE_WHITESPACE).
- A ```text block right after a python block (blank lines between, nothing else) is what
  that block printed: compared after notebooks/sanitize.cfg's patterns (times, rates) and
  with runs of spaces read as one.
- Any other ```text block is not a printed output of the page's code: the line before it
  must be `<!-- evidence: tests/FILE.py::test_NAME -->`, naming the test that checks it.
- A ```bash block's `numbat ...` commands parse with the CLI's own parser, and its `pip
  install` names the distribution pyproject.toml declares.
"""

import contextlib
import doctest
import io
import re
import shlex
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted(
    str(path.relative_to(ROOT))
    for path in [*ROOT.joinpath("docs").rglob("*.md"), ROOT / "README.md"]
    if "_build" not in path.parts and "generated" not in path.parts
)
EVIDENCE = re.compile(r"<!-- evidence: (tests/[\w/]+\.py)::(test_\w+) -->")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _sanitize(text: str) -> str:
    config = (ROOT / "notebooks" / "sanitize.cfg").read_text()
    for regex, replace in re.findall(r"^regex: (.*)$\n^replace: (.*)$", config, flags=re.MULTILINE):
        text = re.sub(regex, replace, text)
    return re.sub(r"[ \t]+", " ", text).strip()


def _blocks(page: str):
    """(info, content, first line, lines before it since the previous block) of each fence."""
    lines = (ROOT / page).read_text().splitlines()
    previous_end = 0
    for token in MarkdownIt("commonmark").parse("\n".join(lines)):
        if token.type == "fence":
            start, end = token.map
            yield token.info.strip(), token.content, start, lines[previous_end:start]
            previous_end = end


def _run_python(content: str, namespace: dict, name: str, line: int) -> str:
    out = io.StringIO()
    if content.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(content, namespace, name, name, line)
        runner = doctest.DocTestRunner(optionflags=FLAGS)
        runner.run(test, out=out.write, clear_globs=False)
        assert not runner.failures, f"{name}, line {line}:\n{out.getvalue()}"
        return ""
    with contextlib.redirect_stdout(out):
        # The page's own code, run as a reader would run it.
        exec(compile(content, f"{name}:{line}", "exec"), namespace)  # noqa: S102
    return out.getvalue()


def _check_bash(content: str, page: str, line: int):
    import tomllib

    from numbat import cli

    distribution = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]
    for command in content.split("&&") if "&&" in content else content.splitlines():
        words = shlex.split(command, comments=True)
        if not words:
            continue
        program = Path(words[0]).name
        if program == "numbat":
            try:
                cli._parser().parse_args(words[1:])
            except SystemExit as exit:
                pytest.fail(f"{page}, line {line}: `{command.strip()}` does not parse ({exit})")
        if program == "pip" and "install" in words and "-e" not in words and "-r" not in words:
            packages = [w for w in words[words.index("install") + 1 :] if not w.startswith("-")]
            assert packages in (["."], [distribution]), f"{page}, line {line}: installs {packages}, not {distribution}"


def _check_page(page: str):
    import jax
    import jax.numpy as jnp
    import numpy as np

    import numbat as nbt

    namespace = {"nbt": nbt, "np": np, "jax": jax, "jnp": jnp, "__name__": "__docs__"}
    printed = None
    for info, content, line, before in _blocks(page):
        language = info.split()[0] if info else ""
        follows_code = printed is not None and not "".join(before).strip()
        if language in ("python", "pycon"):
            printed = _run_python(content, namespace, page, line + 1)
            continue
        if language == "text" and follows_code:
            assert _sanitize(printed) == _sanitize(content), (
                f"{page}, line {line + 1}: the page shows\n{content}\nthe code printed\n{printed}"
            )
        elif language == "text":
            evidence = EVIDENCE.search(before[-1] if before else "")
            assert evidence, f"{page}, line {line + 1}: a text block that is no block's output names no test"
            path, test = evidence.groups()
            assert f"def {test}(" in (ROOT / path).read_text(), f"{page}: {path} has no {test}"
        elif language == "bash":
            _check_bash(content, page, line + 1)
        printed = None


@pytest.mark.parametrize("page", PAGES)
def test_every_block_runs_and_shows_what_it_printed(page):
    _check_page(page)
