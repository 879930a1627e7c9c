"""`%numbat graph FUN ARGS... [--fused] [--all] [--mlir | --hlo] [--locations]`: a defn's
expression graph (`--all`: every node of a large one), the kernels XLA fused it into, or
its IR with syntax highlighting. The IR leaves out source locations (file paths, stack
frames: they differ between machines and drown a small graph) unless `--locations`.

`FUN` and `ARGS` are names in the notebook's namespace (ARGS may also be Python
literals such as `3` or `2.5`)."""

from __future__ import annotations

import ast
import functools
import re
import typing

from .. import _defn
from .._core._errors import ArgumentError
from ..xla import _ir, _profile
from . import _profile_view, _svg
from ._tables import Section, bundle


def _resolve(namespace: dict, name: str, magic: str = "graph"):
    if name in namespace:
        return namespace[name]
    try:
        return ast.literal_eval(name)
    except (ValueError, SyntaxError):
        raise ArgumentError(f"%numbat {magic}: {name!r} is not defined in the notebook") from None


def _function_and_args(namespace: dict, names: list[str], magic: str):
    if not names:
        raise ArgumentError(f"%numbat {magic} needs a function and its arguments: %numbat {magic} FUN ARGS...")
    fun = _resolve(namespace, names[0], magic)
    if not callable(fun):
        raise ArgumentError(f"%numbat {magic}: {names[0]!r} is a {type(fun).__name__}, not a function")
    return fun, [_resolve(namespace, name, magic) for name in names[1:]]


def profile(namespace: dict, names: list[str], runs: int) -> dict:
    """The mimebundle `%numbat profile FUN ARGS... --runs N` displays: the profile's table,
    its graph shaded by time and its roofline."""
    fun, args = _function_and_args(namespace, names, "profile")
    return _profile_view.profile_bundle(_profile.profile(fun, args, runs=runs))


def graph(
    namespace: dict, names: list[str], fused: bool, ir: str | None, everything: bool = False, locations: bool = False
) -> dict:
    """The mimebundle `%numbat graph` displays; `everything` draws every node of a large graph,
    `locations` keeps the IR's source locations."""
    fun, args = _function_and_args(namespace, names, "graph")
    if ir == "mlir":
        text = _ir.to_mlir_module(fun, args)
        return _highlighted(text if locations else without_locations(text))
    if ir == "hlo":
        text = _ir.hlo(fun, args)
        return _highlighted(text if locations else without_locations(text))
    expr = _defn.debug_expr(fun)(*args)
    limit = len(expr.nodes) if everything else None
    if not fused:
        return _svg.expr_bundle(expr, limit)
    report = _ir.fusion_report(fun, args)
    letters = expr.naming().get(id(expr))
    rows = [
        (
            k.name,
            f"{k.opcode} {k.kind}".strip(),
            k.shape,
            ", ".join(k.numbat_ops) or "-",
            ", ".join(letters(node) for node in k.nodes if node in expr._by_id) or "-",
        )
        for k in report.kernels
    ]
    note = f"{len(report.kernels)} kernel(s); flops {report.flops:g}; bytes accessed {report.bytes_accessed:g}"
    why = [f"{k.name}: {k.note}" for k in report.kernels if k.note]  # kernels the ops alone do not explain
    note = "\n  ".join([note, *why])
    header = ("kernel", "kind", "shape", "numbat ops", "nodes")
    table = bundle([Section(f"kernels of {report.function}", header, rows, note)])
    drawing = _svg.expr_bundle(expr, limit, report.kernel_of_nodes())  # each box names its kernel
    return {
        "text/plain": table["text/plain"] + "\n\n" + drawing["text/plain"],
        "text/html": table["text/html"] + drawing["image/svg+xml"],
    }


_LOCATION_TABLES = re.compile(r"^(FileNames|FunctionNames|FileLocations|StackFrames)\n(?:.+\n)*\n*", re.MULTILINE)
_LOCATION_FIELDS = re.compile(
    r'\s*\b(stack_frame_id=\d+|source_file="[^"]*"|source_line=\d+|source_end_line=\d+|source_column=\d+|source_end_column=\d+)'
)
_MLIR_LOCATIONS = re.compile(r'\s*loc\((?:[^()"]|"[^"]*"|\((?:[^()"]|"[^"]*")*\))*\)|^#loc.*\n', re.MULTILINE)


def without_locations(text: str) -> str:
    """HLO or MLIR text without its source locations: HLO's file, function, location and
    stack-frame tables and each op's `stack_frame_id`/`source_file`/`source_line`, MLIR's
    `loc(...)` attributes and `#loc` aliases.

    >>> without_locations('FileNames\\n1 "/home/me/a.py"\\n\\n%add = f32[] add(%a, %b), metadata={op_name="add" stack_frame_id=3}\\n')
    '%add = f32[] add(%a, %b), metadata={op_name="add"}\\n'
    """
    text = _LOCATION_TABLES.sub("", text)
    text = _LOCATION_FIELDS.sub("", text)
    return _MLIR_LOCATIONS.sub("", text)


@functools.cache
def ir_lexer():
    """A pygments lexer for MLIR's and HLO's text (pygments has none; LLVM IR's splits
    `tensor` into letters and the keyword `or`): values, types, ops, attributes.

    >>> tokens = [str(kind) for kind, _ in ir_lexer().get_tokens("%0 = stablehlo.add %a, %b : tensor<3xf32>")]
    >>> "Token.Error" in tokens, tokens.count("Token.Keyword.Type")
    (False, 2)
    """
    from pygments.lexer import RegexLexer
    from pygments.token import Comment, Keyword, Name, Number, Punctuation, String, Text, Whitespace

    class IRLexer(RegexLexer):
        name = "XLA IR"
        tokens: typing.ClassVar[dict] = {
            "root": [
                (r"\s+", Whitespace),
                (r"//.*?$", Comment.Single),
                (r'"(?:\\.|[^"\\])*"', String),
                (r"[%^][\w.$-]+", Name.Variable),  # %0, %arg0, %reduce.1, ^bb0
                (r"@[\w.$-]+", Name.Function),  # @main
                (r"#[\w.$-]+", Name.Decorator),  # #loc3, attribute aliases
                (r"\b(?:ROOT|ENTRY|HloModule|module|func\.func|func\.return|stablehlo\.return|return)\b", Keyword),
                (r"\b(?:tensor|tuple|token|complex|memref|vector)\b", Keyword.Type),
                (r"(?:\d+x)+", Number),  # the dimensions of tensor<2x3xf32>
                (r"(?:(?<=\dx)|(?<![\w.]))(?:pred|bf16|[suif]\d+|c64|c128|f8\w*|index)\b", Keyword.Type),
                (r"\b[a-z_]\w*(?:\.[a-z_]\w*)+", Name.Builtin),  # dialect.op: stablehlo.add
                (r"\b[a-z][\w-]*(?=\()", Name.Builtin),  # an HLO op: add(
                (r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?", Number),
                (r"[\w.-]+", Text),
                (r".", Punctuation),
            ]
        }

    return IRLexer()


def _highlighted(text: str) -> dict:
    """The IR as text, and as HTML with inline-styled syntax highlighting (pygments ships with IPython)."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter

    html = highlight(text, ir_lexer(), HtmlFormatter(noclasses=True, nowrap=True))
    style = "font-size:12px;max-height:480px;overflow:auto;margin:2px 0;"
    return {"text/plain": text, "text/html": f"<pre class='numbat-ir' style='{style}'>{html}</pre>"}
