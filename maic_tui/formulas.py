"""A small safe expression language for the formulas of classroom files and models' answers (an interactive scene's
computed values and plots): numbers, named values, + - * / % ^, comparisons, parentheses and the usual math
functions. Formula text is never run as Python: it is read by the recursive-descent parser below into closures over
floats, within limits on its size and its work, so a hostile formula is one line (``FormulaError``) in a bounded
time. A result that is not a finite number (a division by zero, a root of a negative, an overflow) is NaN, which
the caller shows as undefined."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from maic_tui.bad_input import BadInput
from maic_tui.i18n import N_
from maic_tui.i18n.said import said
from maic_tui.text_safety import one_line

MAX_TEXT = 400  # characters of one formula
MAX_DEPTH = 24  # nesting of parentheses, calls and signs
MAX_NODES = 160  # numbers, names and operations in one formula
MAX_NUMBER = 1e15  # the largest number a formula may write
NAN = math.nan

Compiled = Callable[[Mapping[str, float]], float]


class FormulaError(BadInput):
    """A formula that cannot be read, as one line saying what and where (its column): in English (what a model is
    told of its formula), and ``shown`` in the interface's language (a classroom file's problem)."""

    def __init__(self, message: str, **fields: object) -> None:
        line = said(message, **fields)
        super().__init__(line)
        self.shown = one_line(line.shown)


def _column(column: int) -> object:
    return column if column > 0 else said(N_("end"))


def _safe(function: Callable[..., float]) -> Callable[..., float]:
    def call(*args: float) -> float:
        try:
            value = float(function(*args))
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):
            return NAN
        return value if math.isfinite(value) else NAN
    return call


def _power(base: float, exponent: float) -> float:
    if abs(exponent) > 1e4 and abs(base) > 1:  # an overflow, known without doing the work
        return NAN
    return math.pow(base, exponent)


def _round(value: float, digits: float = 0) -> float:
    return round(value, max(-15, min(15, int(digits))))


# name: (function, least arguments, most arguments)
FUNCTIONS: dict[str, tuple[Callable[..., float], int, int]] = {
    "sin": (_safe(math.sin), 1, 1), "cos": (_safe(math.cos), 1, 1), "tan": (_safe(math.tan), 1, 1),
    "asin": (_safe(math.asin), 1, 1), "acos": (_safe(math.acos), 1, 1), "atan": (_safe(math.atan), 1, 1),
    "sinh": (_safe(math.sinh), 1, 1), "cosh": (_safe(math.cosh), 1, 1), "tanh": (_safe(math.tanh), 1, 1),
    "sqrt": (_safe(math.sqrt), 1, 1), "exp": (_safe(math.exp), 1, 1), "ln": (_safe(math.log), 1, 1),
    "log": (_safe(math.log10), 1, 1), "log10": (_safe(math.log10), 1, 1), "log2": (_safe(math.log2), 1, 1),
    "abs": (_safe(abs), 1, 1), "floor": (_safe(math.floor), 1, 1), "ceil": (_safe(math.ceil), 1, 1),
    "round": (_safe(_round), 1, 2), "min": (_safe(min), 2, 8), "max": (_safe(max), 2, 8),
    "pow": (_safe(_power), 2, 2), "hypot": (_safe(math.hypot), 2, 2), "atan2": (_safe(math.atan2), 2, 2),
}
CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau}
RESERVED = frozenset(FUNCTIONS) | frozenset(CONSTANTS)

_BINARY: dict[str, Callable[[float, float], float]] = {
    "+": _safe(lambda a, b: a + b), "-": _safe(lambda a, b: a - b), "*": _safe(lambda a, b: a * b),
    "/": _safe(lambda a, b: a / b), "%": _safe(math.fmod), "^": _safe(_power),
    "<": lambda a, b: float(a < b), "<=": lambda a, b: float(a <= b), ">": lambda a, b: float(a > b),
    ">=": lambda a, b: float(a >= b), "==": lambda a, b: float(a == b), "!=": lambda a, b: float(a != b),
}
_TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)"
                    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<op>\*\*|<=|>=|==|!=|[-+*/%^(),<>]))")
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,31}")  # a name a formula may use (no leading underscore)


@dataclass(frozen=True, slots=True)
class Formula:
    """A formula read: its text, the names it uses, and the function that works it out."""

    text: str
    names: frozenset[str]
    run: Compiled

    def __call__(self, values: Mapping[str, float]) -> float:
        value = self.run(values)
        return value if math.isfinite(value) else NAN


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    at = 0
    while at < len(text):
        if text[at:].strip() == "":
            break
        match = _TOKEN.match(text, at)
        if match is None:
            shown = text[at:].lstrip()[:1]
            raise FormulaError(N_("column {column}: unexpected {what}"), column=at + 1, what=repr(shown))
        kind = match.lastgroup or "op"
        out.append((kind, match.group(kind), match.start(kind) + 1))
        at = match.end()
        if len(out) > MAX_NODES * 2:
            raise FormulaError(N_("more than {count} parts: too long a formula"), count=MAX_NODES)
    return out


class _Parser:
    def __init__(self, text: str, known: frozenset[str] | None) -> None:
        self.tokens = _tokens(text)
        self.at = 0
        self.depth = 0
        self.nodes = 0
        self.known = known
        self.names: set[str] = set()

    def peek(self) -> tuple[str, str, int]:
        return self.tokens[self.at] if self.at < len(self.tokens) else ("end", "", -1)

    def take(self, value: str) -> bool:
        if self.peek()[0] == "op" and self.peek()[1] == value:
            self.at += 1
            return True
        return False

    def count(self) -> None:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise FormulaError(N_("more than {count} parts: too long a formula"), count=MAX_NODES)

    def nested(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise FormulaError(N_("nested more than {count} deep"), count=MAX_DEPTH)

    def formula(self) -> Compiled:
        run = self.comparison()
        kind, value, column = self.peek()
        if kind != "end":
            raise FormulaError(N_("column {column}: unexpected {what}"), column=column, what=repr(value))
        return run

    def comparison(self) -> Compiled:
        left = self.sum()
        kind, op, _ = self.peek()
        if kind == "op" and op in ("<", "<=", ">", ">=", "==", "!="):
            self.at += 1
            self.count()
            return _binary(op, left, self.sum())
        return left

    def sum(self) -> Compiled:
        run = self.product()
        while (op := self.peek())[0] == "op" and op[1] in "+-" and op[1]:
            self.at += 1
            self.count()
            run = _binary(op[1], run, self.product())
        return run

    def product(self) -> Compiled:
        run = self.unary()
        while (op := self.peek())[0] == "op" and op[1] in ("*", "/", "%"):
            self.at += 1
            self.count()
            run = _binary(op[1], run, self.unary())
        return run

    def unary(self) -> Compiled:
        if self.take("-") or self.take("+"):
            negative = self.tokens[self.at - 1][1] == "-"
            self.nested()
            self.count()
            inner = self.unary()
            self.depth -= 1
            return (lambda v: -inner(v)) if negative else inner
        return self.power()

    def power(self) -> Compiled:
        base = self.atom()
        if self.take("^") or self.take("**"):
            self.nested()
            self.count()
            exponent = self.unary()  # right-associative: 2^3^2 is 2^(3^2)
            self.depth -= 1
            return _binary("^", base, exponent)
        return base

    def atom(self) -> Compiled:
        kind, value, column = self.peek()
        self.count()
        if kind == "number":
            self.at += 1
            number = float(value)
            if not math.isfinite(number) or abs(number) > MAX_NUMBER:
                raise FormulaError(N_("column {column}: the number {number} is too large (at most {most})"),
                                   column=column, number=value[:20], most=f"{MAX_NUMBER:g}")
            return lambda v: number
        if kind == "name":
            self.at += 1
            if self.take("("):
                return self.call(value, column)
            return self.name(value, column)
        if self.take("("):
            self.nested()
            inner = self.comparison()
            self.depth -= 1
            if not self.take(")"):
                raise FormulaError(N_("column {column}: ')' expected"), column=_column(self.peek()[2]))
            return inner
        if kind == "end":
            raise FormulaError(N_("the formula ends too soon"))
        raise FormulaError(N_("column {column}: unexpected {what}"), column=column, what=repr(value))

    def name(self, name: str, column: int) -> Compiled:
        if name in CONSTANTS:
            constant = CONSTANTS[name]
            return lambda v: constant
        if name in FUNCTIONS:
            raise FormulaError(N_("column {column}: {name} is a function: write {name}(...)"), column=column, name=name)
        if not NAME.fullmatch(name) or (self.known is not None and name not in self.known):
            if self.known:
                raise FormulaError(N_("column {column}: unknown name {name} (known: {known})"), column=column,
                                   name=repr(name[:32]), known=", ".join(sorted(self.known)))
            raise FormulaError(N_("column {column}: unknown name {name}"), column=column, name=repr(name[:32]))
        self.names.add(name)
        return lambda v: v.get(name, NAN)

    def call(self, name: str, column: int) -> Compiled:
        if name not in FUNCTIONS:
            raise FormulaError(N_("column {column}: unknown function {name}"), column=column, name=repr(name[:32]))
        function, least, most = FUNCTIONS[name]
        self.nested()
        args: list[Compiled] = []
        if not self.take(")"):
            while True:
                args.append(self.comparison())
                if self.take(")"):
                    break
                if not self.take(","):
                    raise FormulaError(N_("column {column}: ',' or ')' expected in {name}(...)"),
                                       column=_column(self.peek()[2]), name=name)
        self.depth -= 1
        if not least <= len(args) <= most:
            if most == 1:
                raise FormulaError(N_("column {column}: {name} takes 1 argument"), column=column, name=name)
            wanted = str(least) if least == most else said(N_("{least} to {most}"), least=least, most=most)
            raise FormulaError(N_("column {column}: {name} takes {count} arguments"), column=column, name=name,
                               count=wanted)
        if len(args) == 1:
            only = args[0]
            return lambda v: function(only(v))
        return lambda v: function(*(arg(v) for arg in args))


def _binary(op: str, left: Compiled, right: Compiled) -> Compiled:
    # + - * on floats never raise (an overflow is inf, which the result's check makes NaN): they run bare, as
    # most of a plot's work is theirs
    if op == "+":
        return lambda v: left(v) + right(v)
    if op == "-":
        return lambda v: left(v) - right(v)
    if op == "*":
        return lambda v: left(v) * right(v)
    function = _BINARY[op]
    return lambda v: function(left(v), right(v))


def parse(text: str, known: frozenset[str] | None = None) -> Formula:
    """``text`` read as a formula whose names are among ``known`` (None: any name); raises FormulaError."""
    if not isinstance(text, str):
        raise FormulaError(N_("a formula must be text"))
    if len(text) > MAX_TEXT:
        raise FormulaError(N_("{count} characters: a formula has at most {most}"), count=len(text), most=MAX_TEXT)
    if not text.strip():
        raise FormulaError(N_("the formula is empty"))
    parser = _Parser(text, known)
    run = parser.formula()
    return Formula(text, frozenset(parser.names), run)


def number_text(value: float, digits: int = 4) -> str:
    """A value as a person reads it: ``0.1``, ``2.5e+06``, ``undefined`` for NaN."""
    if not math.isfinite(value):
        return "undefined"
    if value == 0:
        return "0"
    text = f"{value:.{digits}g}"
    return text
