"""Ports Nx 0.13.1's doctests to numbat: reads every `iex>` example of `Nx` (nx/lib/nx.ex,
the FFT functions included) and `Nx.LinAlg` (nx/lib/nx/lin_alg.ex; its submodules have
no doctests), translates the Elixir to numbat Python and parses the printed result into
a structured expected value, and writes `cases_nx.json` and `cases_linalg.json` beside
this file. The JSON is the reviewed test data; `test_nx_doctests.py` runs it.

Re-run after changing the translator, the hand fixes (`HAND_FIXES`) or the exception
list (`exceptions.py`):

    fetch github:elixir-nx/nx            # the session tool; or git clone it anywhere
    PYTHONPATH=. python tests/nx/translate.py /work/.mirror/elixir-nx+nx/repo

(the argument is the git directory of elixir-nx/nx; the source is read at tag v0.13.1).

A case is one ExUnit doctest (examples separated by a blank line); its steps are the
`iex>` expressions, each with the Python that ports it and, when Nx printed one, the
expected value:
    {"tensor": {"type", "shape", "names", "vectorized", "values"}}  values as printed
    {"num": "1.0"}  {"atom": "x"}  {"str": ...}  {"type": "s32"}  {"binary": hex}
    {"tuple": [...]}  {"list": [...]}  {"map": [[key, value], ...]}  null  true/false
    {"error": "ArgumentError", "message": ...}
"""

from __future__ import annotations

import json
import keyword
import math
import pathlib
import re
import statistics
import struct
import subprocess
import sys

HERE = pathlib.Path(__file__).parent
sys.path.insert(0, str(HERE))

from elixir import ElixirSyntaxError, parse
from exceptions import EXCEPTIONS, HAND_FIXES

TAG = "v0.13.1"
SOURCES = {"Nx": ("nx/lib/nx.ex", "cases_nx.json"), "Nx.LinAlg": ("nx/lib/nx/lin_alg.ex", "cases_linalg.json")}
_DEF = re.compile(r"^\s*(?:def|defn|defguard|deftransform|defmacro)\s+([a-z_][a-zA-Z0-9_]*[?!]?)(\(|\s|,|$)")
_TYPE_KINDS = {"s", "u", "f", "c", "bf"}
_FLOATS = {"nan": 'float("nan")', "infinity": 'float("inf")', "neg_infinity": 'float("-inf")'}
_FLOATS |= {"inf": 'float("inf")', "neg_inf": 'float("-inf")'}


class Untranslatable(ValueError):
    """An example uses Elixir that has no numbat form; the message says which."""


# ---------------------------------------------------------------- extraction


def _arity(lines: list[str], at: int) -> int:
    text = lines[at]
    head = text[text.index(_DEF.match(text).group(1)) :]
    if "(" not in head.split()[0]:
        return 0
    depth, count, seen = 0, 0, False
    for line in lines[at : at + 10]:
        for char in line if line is not text else head:
            if char in "([{":
                depth += 1
                if depth == 1 and char == "(":
                    continue
            elif char in ")]}":
                depth -= 1
                if depth == 0:
                    return count + (1 if seen else 0)
            elif char == "," and depth == 1:
                count += 1
            elif not char.isspace() and depth >= 1:
                seen = True
    raise ValueError(f"cannot count the parameters of {text!r}")


def _tests(doc: list[tuple[int, str]]) -> list[dict]:
    """ExUnit's doctests of one @doc: groups of iex> steps separated by blank lines."""
    tests, current, i = [], None, 0
    while i < len(doc):
        number, line = doc[i]
        stripped = line.strip()
        if not stripped.startswith("iex>"):
            if current:
                tests.append(current)
                current = None
            i += 1
            continue
        indent = len(line) - len(line.lstrip())
        current = current or {"line": number, "steps": []}
        code = [stripped[4:].removeprefix(" ")]
        i += 1
        while i < len(doc) and doc[i][1].strip().startswith("...>"):
            code.append(doc[i][1].strip()[4:].removeprefix(" "))
            i += 1
        expected = []
        while i < len(doc) and doc[i][1].strip() and not doc[i][1].strip().startswith("iex>"):
            expected.append(doc[i][1][indent:])
            i += 1
        current["steps"].append(("\n".join(code), "\n".join(expected)))
        if i >= len(doc) or not doc[i][1].strip():
            tests.append(current)
            current = None
    return tests


def extract(source: str, module: str) -> list[dict]:
    """Every doctest of `source`, named `Module.fun/arity` as ExUnit names them."""
    lines = source.splitlines()
    found, doc, kind, i = [], None, None, 0
    pending: list[tuple[str, list]] = []
    while i < len(lines):
        line = lines[i]
        if doc is None and re.match(r'^\s*@(moduledoc|doc)\s+"""\s*$', line):
            kind, doc = ("moduledoc" if "moduledoc" in line else "doc"), []
        elif doc is not None:
            if line.strip() == '"""':
                if kind == "moduledoc":
                    found.append((f"{module} (moduledoc)", _tests(doc)))
                else:
                    pending.append(_tests(doc))
                doc = None
            else:
                doc.append((i + 1, line))
        elif pending and _DEF.match(line):
            name = f"{module}.{_DEF.match(line).group(1)}/{_arity(lines, i)}"
            if not name.startswith(f"{module}.unquote/"):  # generated by a `for`: see generated()
                for tests in pending:
                    found.append((name, tests))
            pending = []
        i += 1
    cases = []
    counter: dict[str, int] = {}
    for name, tests in found:
        for test in tests:
            counter[name] = counter.get(name, 0) + 1
            cases.append({"id": f"{name}#{counter[name]}", "function": name, **test})
    return cases


# ---------------------------------------------------------------- the generated doctests

# Nx writes the doctests of its unary math functions and of floor/ceil/round with a `for`
# over Nx.Shared.unary_math_funs(), interpolating `Nx.#{name}` and outputs it computes at
# compile time from Complex/:math (C libm) on Elixir floats (f64). These are the same
# formulas on Python floats (also C libm), printed as Elixir prints them (shortest
# round-trip); expm1, log1p, sigmoid and rsqrt are composed as Nx composes them.
_UNARY = {
    "exp": math.exp,
    "expm1": lambda x: math.exp(x) - 1,
    "log": math.log,
    "log1p": lambda x: math.log(x + 1),
    "sigmoid": lambda x: 1 / (math.exp(-x) + 1),
    "cos": math.cos,
    "sin": math.sin,
    "tan": math.tan,
    "cosh": math.cosh,
    "sinh": math.sinh,
    "tanh": math.tanh,
    "acos": math.acos,
    "asin": math.asin,
    "atan": math.atan,
    "acosh": math.acosh,
    "asinh": math.asinh,
    "atanh": math.atanh,
    "sqrt": math.sqrt,
    "rsqrt": lambda x: 1 / math.sqrt(x),
    "cbrt": lambda x: x ** (1 / 3),
    "erf": math.erf,
    "erfc": math.erfc,
    "erf_inv": lambda x: statistics.NormalDist().inv_cdf((1 + x) / 2) / math.sqrt(2),
}
_ROUNDING = {"floor": math.floor, "ceil": math.ceil, "round": lambda x: math.copysign(math.floor(abs(x) + 0.5), x)}


def _printed(type_: str, values) -> str:
    return f"#Nx.Tensor<\n  {type_}\n  {values}\n>"


def generated(source: str) -> list[dict]:
    """The doctests Nx generates with `for` (named as ExUnit names them, `Nx.exp/1#1`)."""
    line = next(i + 1 for i, text in enumerate(source.splitlines()) if "iex> Nx.#{name}(Nx.tensor(#{hd" in text)
    cases = []
    for name, fun in _UNARY.items():
        inputs = [0.1, 0.5, 0.9] if name in ("acos", "asin", "atan", "atanh", "erf_inv") else [1, 2, 3]
        outputs = ", ".join(repr(float(fun(x))) for x in inputs)
        steps = [
            [(f"Nx.{name}(Nx.tensor({inputs[0]}, type: :f64))", _printed("f64", repr(float(fun(inputs[0])))))],
            [(f"Nx.{name}(Nx.tensor({inputs}, names: [:x], type: :f64))", _printed("f64[x: 3]", f"[{outputs}]"))],
        ]
        cases += [
            {"id": f"Nx.{name}/1#{n + 1}", "function": f"Nx.{name}/1", "line": line, "steps": s}
            for n, s in enumerate(steps)
        ]
    line = next(i + 1 for i, text in enumerate(source.splitlines()) if "iex> Nx.#{name}(Nx.tensor([-1, 0, 1]" in text)
    for name, fun in _ROUNDING.items():
        outputs = ", ".join(repr(float(fun(x)) * 1.0) for x in [-1.5, -0.5, 0.5, 1.5])
        steps = [
            [(f"Nx.{name}(Nx.tensor([-1, 0, 1], names: [:x]))", _printed("s32[x: 3]", "[-1, 0, 1]"))],
            [(f"Nx.{name}(Nx.tensor([-1.5, -0.5, 0.5, 1.5], names: [:x]))", _printed("f32[x: 4]", f"[{outputs}]"))],
        ]
        cases += [
            {"id": f"Nx.{name}/1#{n + 1}", "function": f"Nx.{name}/1", "line": line, "steps": s}
            for n, s in enumerate(steps)
        ]
    return cases


# ---------------------------------------------------------------- Elixir -> Python


def _type_tuple(node) -> str | None:
    if node[0] != "tuple" or len(node[1]) not in (2, 3):
        return None
    items = node[1]
    if items[0][0] == "atom" and items[0][1] in _TYPE_KINDS and items[1][0] == "num":
        suffix = f"_{items[2][1]}" if len(items) == 3 and items[2][0] == "atom" else ""
        return f"{items[0][1]}{items[1][1]}{suffix}"
    return None


def _is_keywords(node) -> bool:
    return node[0] == "list" and not node[1] and bool(node[2])


def _name(var: str) -> str:
    return var + "_" if keyword.iskeyword(var) or var in ("nbt", "lambda") else var


class _Emitter:
    """Emits one step; `hoist` lifts nested nbt.tensor(...) calls out as jit arguments."""

    def __init__(self, keyword_vars: set[str], hoist: bool = False):
        self.keyword_vars = keyword_vars
        self.hoist = hoist
        self.hoisted: list[str] = []
        self.depth = 0

    def __call__(self, node) -> str:
        self.depth += 1
        try:
            return getattr(self, "emit_" + node[0])(*node[1:])
        finally:
            self.depth -= 1

    def emit_num(self, text):
        return str(int(text, 16)) if text.startswith("0x") else text

    def emit_str(self, text):
        return json.dumps(text)

    def emit_atom(self, name):
        return _FLOATS.get(name, json.dumps(name))

    def emit_nil(self):
        return "None"

    def emit_bool(self, value):
        return repr(value)

    def emit_var(self, name):
        return _name(name)

    def emit_list(self, items, keywords):
        if keywords and not items:
            return "{" + ", ".join(f"{json.dumps(k)}: {self(v)}" for k, v in keywords) + "}"
        parts = [self(item) for item in items] + [f"({json.dumps(k)}, {self(v)})" for k, v in keywords]
        return "[" + ", ".join(parts) + "]"

    def emit_tuple(self, items):
        type_ = _type_tuple(("tuple", items))
        if type_:
            return json.dumps(type_)
        parts = [self(item) for item in items]
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"

    def emit_map(self, pairs):
        return "{" + ", ".join(f"{self(k)}: {self(v)}" for k, v in pairs) + "}"

    def emit_binary(self, segments):
        return repr(_encode(segments))

    def emit_fn(self, params, body):
        return f"(lambda {', '.join(_name(p) for p in params)}: {self(body)})"

    def emit_capture(self, module, name, arity):
        return self._function(module, name)

    def emit_dotcall(self, fun, args):
        return f"{self(fun)}({', '.join(self(a) for a in args)})"

    def emit_field(self, node, name):
        if name not in ("shape", "names", "type", "vectorized_axes"):
            raise Untranslatable(f"struct field access .{name}")
        return f"{self(node)}.{name}"

    def emit_module(self, name):
        raise Untranslatable(f"module {name} as a value")

    def emit_sigil(self, text):
        raise Untranslatable("Elixir sigil (~VEC/~MAT)")

    def emit_tensor(self, text):
        raise Untranslatable("a printed tensor inside an expression")

    def emit_fullrange(self):
        raise Untranslatable("`..` outside an access")

    def emit_range(self, first, last, step):
        stop = f"{self(last)} + 1" if step is None or _literal(step) > 0 else f"{self(last)} - 1"
        return f"range({self(first)}, {stop}" + (f", {self(step)})" if step else ")")

    def emit_unop(self, op, operand):
        return f"(not {self(operand)})" if op in ("!", "not") else f"{op}{self(operand)}"

    def emit_binop(self, op, left, right):
        if op == "|>":
            if right[0] != "call":
                raise Untranslatable("a pipe into something other than a call")
            return self.emit_call(right[1], right[2], [left, *right[3]], right[4])
        python = {"and": "and", "or": "or", "&&": "and", "||": "or", "<>": "+", "++": "+"}.get(op, op)
        if op in ("in", "::"):
            raise Untranslatable(f"operator {op}")
        return f"({self(left)} {python} {self(right)})"

    def emit_match(self, pattern, value):
        raise Untranslatable("a match inside an expression")

    def emit_access(self, node, index):
        return f"{self(node)}[{self._index(index)}]"

    def _index(self, index, named: bool = False) -> str:
        if index[0] == "list":
            if index[2]:
                if index[1]:
                    raise Untranslatable("an access mixing positions and names")
                return "{" + ", ".join(f"{json.dumps(k)}: {self._index(v, True)}" for k, v in index[2]) + "}"
            return ", ".join(self._index(item) for item in index[1]) or "()"
        if index[0] == "fullrange":
            return "slice(None)" if named else ":"
        if index[0] == "range" and named:
            text = self._index(index).split(":")
            return f"slice({', '.join(part or 'None' for part in text)})"
        if index[0] == "range":
            first, last, step = index[1:]
            if step is not None and _literal(step) < 0:
                raise Untranslatable("a range with a negative step in an access")
            stop = _literal(last) if last[0] in ("num", "unop") else None
            if stop is None:
                stop_text = f"{self(last)} + 1"
            else:
                stop_text = "" if stop == -1 else str(stop + 1)
            return f"{self(first)}:{stop_text}" + (f":{self(step)}" if step else "")
        return self(index)

    def _function(self, module, name) -> str:
        python = name.rstrip("?!")
        if module == "Nx":
            return f"nbt.{python}"
        if module == "Nx.LinAlg":
            return f"nbt.linalg.{python}"
        if module == "Nx.Constants":
            return f"nbt.constants.{python}"
        raise Untranslatable(f"{module}.{name}")

    def emit_call(self, module, name, args, keywords):
        if module == "Complex" and name == "new":
            return f"complex({', '.join(self(a) for a in args)})"
        if module == "Enum" and name == "to_list" and len(args) == 1:
            return f"list({self(args[0])})"
        if module == "" and name in ("div", "rem") and len(args) == 2:
            return f"({self(args[0])} {'//' if name == 'div' else '%'} {self(args[1])})"
        if module == "":
            raise Untranslatable(f"local call {name}/{len(args)}")
        function = self._function(module, name)
        if (module, name) == ("Nx", "dot") and len(args) in (4, 6):  # Nx.dot(a, ca, [ba,] b, cb, [bb])
            half = len(args) // 2
            left, right = args[0], args[half]
            pairs = [("contract_axes", ("tuple", [args[1], args[half + 1]]))]
            if half == 3:
                pairs.append(("batch_axes", ("tuple", [args[2], args[half + 2]])))
            args, keywords = [left, right], pairs + list(keywords)
        positional, named = [], list(keywords)
        axes_data = module == "Nx" and name in ("vectorize", "revectorize")
        if axes_data and any(k not in ("target_shape", "target_names") for k, _ in named):
            # Nx.vectorize(t, x: 2), Nx.revectorize(t, x: 2, y: :auto): the axes, not options
            axes = [(k, v) for k, v in named if k not in ("target_shape", "target_names")]
            positional_args = [*args, ("list", [], axes)]
            named = [(k, v) for k, v in named if (k, v) not in axes]
        else:
            positional_args = args
        extra = []
        for arg in positional_args:
            if _is_keywords(arg) and not axes_data:
                named.extend(arg[2])
            elif arg[0] == "var" and arg[1] in self.keyword_vars:
                extra.append(f"**{_name(arg[1])}")
            else:
                positional.append(self(arg))
        parts = positional + [f"{k.rstrip('?')}={self(v)}" for k, v in named] + extra
        call = f"{function}({', '.join(parts)})"
        if self.hoist and function == "nbt.tensor" and self.depth > 1:
            self.hoisted.append(call)
            return f"_h{len(self.hoisted) - 1}"
        return call


def _literal(node) -> int:
    if node[0] == "num":
        return int(node[1])
    if node[0] == "unop" and node[1] == "-" and node[2][0] == "num":
        return -int(node[2][1])
    raise Untranslatable("a non-literal range step")


def _pattern(node, after: list[str]) -> str:
    """The Python target of an Elixir pattern; a map pattern binds through a temporary
    whose keys are read in the statements appended to `after`."""
    kind = node[0]
    if kind == "var":
        return _name(node[1])
    if kind == "tuple":
        return "(" + ", ".join(_pattern(n, after) for n in node[1]) + ("," if len(node[1]) == 1 else "") + ")"
    if kind == "list" and not node[2]:
        return "[" + ", ".join(_pattern(n, after) for n in node[1]) + "]"
    if kind == "map" and all(key[0] == "atom" and value[0] == "var" for key, value in node[1]):
        temporary = f"_map{len(after)}"
        after.extend(f"{_name(value[1])} = {temporary}[{json.dumps(key[1])}]" for key, value in node[1])
        return temporary
    raise Untranslatable(f"a {kind} pattern")


def translate_step(code: str, keyword_vars: set[str]) -> dict:
    """The Python of one iex> expression: `python` (statement or expression), and for an
    expression the jit form (`jit`: a body over free names and hoisted `_hN` tensors)."""
    try:
        node = parse(code)
    except ElixirSyntaxError as error:
        raise Untranslatable(f"Elixir syntax outside the supported subset ({error})") from None
    if node[0] == "match":
        pattern, value = node[1], node[2]
        if _is_keywords(value) and pattern[0] == "var":
            keyword_vars.add(pattern[1])
        after: list[str] = []
        target = _pattern(pattern, after)
        python = "\n".join([f"{target} = {_Emitter(keyword_vars)(value)}", *after])
        return {"python": python, "assign": True, "result": target}
    python = _Emitter(keyword_vars)(node)
    hoisting = _Emitter(keyword_vars, hoist=True)
    body = hoisting(node)
    return {"python": python, "jit": {"body": body, "hoisted": hoisting.hoisted}}


# ---------------------------------------------------------------- printed results


def _encode(segments) -> bytes:
    out = b""
    for value, spec in segments:
        number = _number(value)
        parts = spec.split("-") if spec else []
        size = next((int(p) for p in parts if p.isdigit()), 64 if "float" in parts else 8)
        order = ">" if "big" in parts else "<"
        if "float" in parts:
            out += struct.pack(order + {16: "e", 32: "f", 64: "d"}[size], float(number))
        else:
            out += int(number % (1 << size)).to_bytes(size // 8, "little" if order == "<" else "big")
    return out


def _number(node):
    if node[0] == "num":
        return float(node[1]) if re.search(r"[.eE]", node[1]) else int(node[1], 0)
    if node[0] == "unop" and node[1] == "-":
        return -_number(node[2])
    raise Untranslatable("a non-literal binary segment")


_VALUE_TOKEN = re.compile(r"\[|\]|,|[^\s\[\],]+")


def parse_tensor(text: str) -> dict:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    vectorized = []
    if lines[0].startswith("vectorized"):
        vectorized = [[n, int(s)] for n, s in re.findall(r"\[(\w+): (\d+)\]", lines.pop(0))]
    header = lines.pop(0)
    type_ = re.match(r"[a-z0-9_]+", header).group()
    dims = re.findall(r"\[(?:(\w+): )?(\d+)\]", header)
    values = " ".join(lines)
    if values == "Nx.TemplateBackend":
        parsed = "template"
    else:
        stack = [[]]
        for token in _VALUE_TOKEN.findall(values):
            if token == "[":
                stack.append([])
            elif token == "]":
                done = stack.pop()
                stack[-1].append(done)
            elif token != ",":
                stack[-1].append(token)
        parsed = stack[0][0]
    return {
        "type": type_,
        "shape": [int(size) for _, size in dims],
        "names": [name or None for name, _ in dims],
        "vectorized": vectorized,
        "values": parsed,
    }


def expected_value(text: str):
    error = re.match(r"^\*\* \((\w+(?:\.\w+)*)\) (.*)", text, re.DOTALL)
    if error:
        return {"error": error.group(1), "message": error.group(2)}
    try:
        return _term(parse(text))
    except ElixirSyntaxError as error:
        raise Untranslatable(f"a printed result outside the supported subset ({error})") from None


def _term(node):
    kind = node[0]
    if kind == "tensor":
        return {"tensor": parse_tensor(node[1])}
    if kind == "num" or (kind == "unop" and node[1] == "-" and node[2][0] == "num"):
        return {"num": node[1] if kind == "num" else "-" + node[2][1]}
    if kind == "tuple":
        type_ = _type_tuple(node)
        return {"type": type_} if type_ else {"tuple": [_term(n) for n in node[1]]}
    if kind == "list":
        return {"list": [_term(n) for n in node[1]] + [{"tuple": [{"atom": k}, _term(v)]} for k, v in node[2]]}
    if kind == "map":
        return {"map": [[k[1], _term(v)] for k, v in node[1]]}
    if kind == "atom":
        return {"atom": node[1]}
    if kind == "nil":
        return None
    if kind == "bool":
        return node[1]
    if kind == "str":
        return {"str": node[1]}
    if kind == "binary":
        return {"binary": _encode(node[1]).hex()}
    raise Untranslatable(f"a printed {kind}")


# ---------------------------------------------------------------- the whole port


def port(case: dict) -> dict:
    """The case with its steps translated, or with `exception` set to the reason."""
    keyword_vars: set[str] = set()
    steps = []
    reason = EXCEPTIONS.get(case["id"]) or EXCEPTIONS.get(case["function"])
    fixes = HAND_FIXES.get(case["id"], {})
    for number, (code, printed) in enumerate(case["steps"]):
        step = {"elixir": code}
        try:
            if number in fixes:
                step.update(fixes[number])
                step["hand_fixed"] = True
            else:
                step.update(translate_step(code, keyword_vars))
            if printed:
                step["expected"] = expected_value(printed)
            elif "assign" not in step:
                step["expected_unprinted"] = True
        except Untranslatable as error:
            reason = reason or f"untranslated: {error}"
        if printed and "expected" not in step:
            step["printed"] = printed
        steps.append(step)
    ported = {"id": case["id"], "function": case["function"], "line": case["line"], "steps": steps}
    if reason:
        ported["exception"] = reason
    return ported


def main(git_dir: str) -> None:
    for module, (path, output) in SOURCES.items():
        source = subprocess.run(
            ["git", "--git-dir", git_dir, "show", f"{TAG}:{path}"], capture_output=True, text=True, check=True
        ).stdout
        raw = extract(source, module) + (generated(source) if module == "Nx" else [])
        cases = [port(case) for case in raw]
        (HERE / output).write_text(json.dumps(cases, indent=1) + "\n")
        skipped = sum("exception" in case for case in cases)
        print(f"{module}: {len(cases)} doctests, {len(cases) - skipped} ported, {skipped} in the exception list")


if __name__ == "__main__":
    main(sys.argv[1])
