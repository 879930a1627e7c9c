"""A reader for the subset of Elixir that Nx's doctests use: a tokenizer and a Pratt
parser that turn an `iex>` expression, or a printed result such as `#Nx.Tensor<...>`,
into a small tuple AST that `translate.py` emits as Python or as an expected value.

AST nodes (tuples, the first item names the kind):
    ("num", text)  ("str", text)  ("atom", name)  ("var", name)  ("nil",)  ("bool", b)
    ("list", items, keywords)  ("tuple", items)  ("map", [(key, value), ...])
    ("call", module, name, args, keywords)      module is "Nx.LinAlg", "" for a local call
    ("dotcall", fun_expr, args)                 fun.(args)
    ("access", expr, index)  ("field", expr, name)
    ("range", first, last, step)  ("fullrange",)
    ("binop", op, left, right)  ("unop", op, operand)  ("match", pattern, expr)
    ("fn", params, body)  ("capture", module, name, arity)  ("binary", [(value, spec)])
    ("tensor", text)       a printed #Nx.Tensor<...> block, body text unparsed
    ("sigil", text)        ~VEC/~MAT (Elixir-only syntax)

>>> parse("Nx.sum(t, axes: [:x])")
('call', 'Nx', 'sum', [('var', 't')], [('axes', ('list', [('atom', 'x')], []))])
>>> parse("1..-1//1")
('range', ('num', '1'), ('unop', '-', ('num', '1')), ('num', '1'))
"""

from __future__ import annotations

import re

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>\#(?!Nx\.)[^\n]*)
  | (?P<tensor>\#Nx\.Tensor<)
  | (?P<sigil>~[A-Z]+(?:\[[^\]]*\]|'''.*?'''|"[^"]*")[a-z0-9]*)
  | (?P<num>0x[0-9a-fA-F_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][-+]?\d+)?)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<kwq>"(?:[^"\\]|\\.)*":(?=\s))
  | (?P<atom>:"[^"]*"|:[a-zA-Z_][a-zA-Z0-9_]*[?!]?)
  | (?P<kw>[a-zA-Z_][a-zA-Z0-9_]*[?!]?:(?=\s))
  | (?P<name>[a-zA-Z_][a-zA-Z0-9_]*[?!]?)
  | (?P<op>\|>|\.\.|//|==|!=|<=|>=|->|=>|<<|>>|::|&&|\|\||<>|\+\+|--|%\{|&\d|[-+*/=<>(){}\[\],.&|%!^])
    """,
    re.VERBOSE | re.DOTALL,
)

# Binding power of the binary operators (Elixir's precedence, the ones doctests use).
_BINARY = {
    "=": 1,
    "||": 2,
    "or": 2,
    "&&": 3,
    "and": 3,
    "==": 4,
    "!=": 4,
    "<": 5,
    ">": 5,
    "<=": 5,
    ">=": 5,
    "|>": 6,
    "in": 7,
    "..": 8,
    "++": 8,
    "<>": 8,
    "+": 9,
    "-": 9,
    "*": 10,
    "/": 10,
    "::": 0,
}


class ElixirSyntaxError(ValueError):
    """The text is outside the Elixir subset this reader knows."""


def tokenize(text: str) -> list[tuple[str, str]]:
    tokens, at = [], 0
    while at < len(text):
        match = _TOKEN.match(text, at)
        if not match:
            raise ElixirSyntaxError(f"cannot read {text[at : at + 30]!r}")
        kind, value = match.lastgroup, match.group()
        at = match.end()
        if kind == "tensor":
            depth, end = 1, at
            while depth:  # the block ends at the `>` that closes `#Nx.Tensor<`
                nxt = re.search(r"#Nx\.Tensor<|^\s*>", text[end:], re.MULTILINE)
                if not nxt:
                    raise ElixirSyntaxError("unterminated #Nx.Tensor<")
                depth += 1 if nxt.group().startswith("#") else -1
                end += nxt.end()
            tokens.append(("tensor", text[at : end - 1]))
            at = end
        elif kind not in ("ws", "comment"):
            tokens.append((kind, value))
    tokens.append(("eof", ""))
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.tokens = tokenize(text)
        self.at = 0

    def peek(self, ahead: int = 0):
        return self.tokens[min(self.at + ahead, len(self.tokens) - 1)]

    def next(self):
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expect(self, value: str):
        token = self.next()
        if token[1] != value:
            raise ElixirSyntaxError(f"expected {value!r}, found {token[1]!r}")

    def accept(self, value: str) -> bool:
        if self.peek()[1] == value and self.peek()[0] in ("op", "name"):
            self.at += 1
            return True
        return False

    def expression(self, power: int = 0):
        left = self.unary()
        while True:
            kind, op = self.peek()
            if (
                kind not in ("op", "name")
                or op not in _BINARY
                or _BINARY[op] < power
                or (kind == "name" and op not in ("and", "or", "in"))
            ):
                return left
            self.next()
            if op == "..":
                if self.peek()[1] in (")", "]", ",", "}") or self.peek()[0] == "eof":
                    raise ElixirSyntaxError("open-ended range")
                right = self.expression(_BINARY[op] + 1)
                step = self.expression(_BINARY[op] + 1) if self.accept("//") else None
                left = ("range", left, right, step)
            elif op == "=":
                left = ("match", left, self.expression(_BINARY[op]))
            else:
                left = ("binop", op, left, self.expression(_BINARY[op] + 1))

    def unary(self):
        kind, value = self.peek()
        if kind == "op" and value in ("-", "+", "!"):
            self.next()
            return ("unop", value, self.unary())
        if kind == "name" and value == "not":
            self.next()
            return ("unop", "not", self.unary())
        return self.postfix(self.primary())

    def postfix(self, node):
        while True:
            kind, value = self.peek()
            if value == "[" and kind == "op":
                self.next()
                index = self.sequence("]")
                node = ("access", node, index)
            elif value == "." and self.peek(1)[1] == "(":
                self.next()
                self.next()
                args, keywords = self.arguments(")")
                node = ("dotcall", node, args + ([("list", [], keywords)] if keywords else []))
            elif value == "." and self.peek(1)[0] == "name":
                self.next()
                name = self.next()[1]
                node = ("field", node, name)
            else:
                return node

    def sequence(self, close: str):
        """`[...]` contents: a list, with trailing keyword pairs."""
        items, keywords = self.arguments(close)
        if len(items) == 1 and not keywords:
            return items[0]
        return ("list", items, keywords)

    def arguments(self, close: str):
        items, keywords = [], []
        while not self.accept(close):
            kind, value = self.peek()
            if kind in ("kw", "kwq"):
                self.next()
                key = value[:-1].strip('"')
                keywords.append((key, self.expression()))
            else:
                items.append(self.expression())
            if not self.accept(","):
                self.expect(close)
                break
        return items, keywords

    def primary(self):
        kind, value = self.next()
        if kind == "num":
            return ("num", value.replace("_", ""))
        if kind == "str":
            return ("str", value[1:-1])
        if kind == "atom":
            return ("atom", value[1:].strip('"'))
        if kind == "tensor":
            return ("tensor", value)
        if kind == "sigil":
            return ("sigil", value)
        if kind == "op":
            if value == "(":
                node = self.expression()
                self.expect(")")
                return node
            if value == "[":
                items, keywords = self.arguments("]")
                return ("list", items, keywords)
            if value == "{":
                items, keywords = self.arguments("}")
                if keywords:
                    items.append(("list", [], keywords))
                return ("tuple", items)
            if value == "%{":
                return ("map", self.map_pairs())
            if value == "..":
                return ("fullrange",)
            if value == "<<":
                return self.binary()
            if value == "&":
                return self.capture()
        if kind == "name":
            if value == "nil":
                return ("nil",)
            if value in ("true", "false"):
                return ("bool", value == "true")
            if value == "fn":
                return self.function()
            if value[0].isupper():
                return self.remote(value)
            if self.peek()[1] == "(" and self.peek()[0] == "op":
                self.next()
                args, keywords = self.arguments(")")
                return ("call", "", value, args, keywords)
            return ("var", value)
        raise ElixirSyntaxError(f"unexpected {value!r}")

    def remote(self, first: str):
        parts = [first]
        while self.peek()[1] == "." and self.peek(1)[0] == "name":
            self.next()
            parts.append(self.next()[1])
        if not parts[-1][0].islower():
            return ("module", ".".join(parts))
        module, name = ".".join(parts[:-1]), parts[-1]
        args, keywords = [], []
        if self.accept("("):
            args, keywords = self.arguments(")")
        return ("call", module, name, args, keywords)

    def map_pairs(self):
        pairs = []
        while not self.accept("}"):
            kind, value = self.peek()
            if kind in ("kw", "kwq"):
                self.next()
                pairs.append((("atom", value[:-1].strip('"')), self.expression()))
            else:
                key = self.expression(2)
                self.expect("=>")
                pairs.append((key, self.expression()))
            if not self.accept(","):
                self.expect("}")
                break
        return pairs

    def function(self):
        params = []
        while not self.accept("->"):
            params.append(self.next()[1])
            self.accept(",")
        body = self.expression()
        self.expect("end")
        return ("fn", params, body)

    def capture(self):
        kind, value = self.next()
        if kind != "name" or not value[0].isupper():
            raise ElixirSyntaxError("only &Module.fun/arity captures are supported")
        node = self.remote(value)
        self.expect("/")
        return ("capture", node[1], node[2], int(self.next()[1]))

    def binary(self):
        segments = []
        while not self.accept(">>"):
            value = self.expression(1)
            spec = ""
            if self.accept("::"):
                spec_tokens = []
                while self.peek()[1] not in (",", ">>"):
                    spec_tokens.append(self.next()[1])
                spec = "".join(spec_tokens)
            segments.append((value, spec))
            self.accept(",")
        return ("binary", segments)


def parse(text: str):
    """The AST of one Elixir expression (or a printed result)."""
    parser = _Parser(text)
    node = parser.expression()
    if parser.peek()[0] != "eof":
        raise ElixirSyntaxError(f"unexpected {parser.peek()[1]!r} after the expression")
    return node
