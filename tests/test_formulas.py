"""The formula language of classroom files (issue 51): read, never run as Python, within limits."""

from __future__ import annotations

import math

import pytest

from maic_tui.formulas import FormulaError, number_text, parse


@pytest.mark.parametrize(("text", "value"), [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("2^3^2", 512), ("-2^2", -4), ("2 ** 3", 8), ("7 % 4", 3),
    ("sqrt(16) + abs(-2)", 6), ("max(1, 5, 3)", 5), ("round(2.567, 2)", 2.57), ("ln(e)", 1), ("log(1000)", 3),
    ("pi > 3", 1), ("1 == 2", 0), ("x * y - 1", 5), ("sin(0) + cos(0)", 1), (".5e1", 5),
])
def test_formulas_are_worked_out(text: str, value: float) -> None:
    assert parse(text)({"x": 2, "y": 3}) == pytest.approx(value)


@pytest.mark.parametrize("text", ["1 / 0", "sqrt(-1)", "10 ^ 400", "exp(1000)", "ln(0)", "x / y"])
def test_what_is_no_number_is_nan_never_an_error(text: str) -> None:
    assert math.isnan(parse(text)({"x": 1, "y": 0}))
    assert number_text(parse(text)({"x": 1, "y": 0})) == "undefined"


@pytest.mark.parametrize(("text", "said"), [
    ("", "the formula is empty"), ("1 +", "the formula ends too soon"), ("(1", "')' expected"),
    ("foo(1)", "unknown function 'foo'"), ("__import__(1)", "unknown function '__import__'"),
    ("exec", "unknown name 'exec'"), ("x.y", "unexpected '.'"), ("1e400", "too large"),
    ("max(1)", "max takes 2 to 8 arguments"), ("sin", "sin is a function"), ("1 2", "unexpected '2'"),
    ("-" * 30 + "1", "nested more than 24 deep"), ("x" + "+x" * 199, "too long a formula"),
])
def test_a_bad_formula_is_one_line(text: str, said: str) -> None:
    with pytest.raises(FormulaError, match=said.replace("(", r"\(").replace(")", r"\)")):
        parse(text, frozenset({"x", "y"}) if "exec" in text else None)


def test_names_are_checked_against_those_known() -> None:
    assert parse("h * 2", frozenset({"h"})).names == {"h"}
    with pytest.raises(FormulaError, match=r"unknown name 'q' \(known: h\)"):
        parse("q * 2", frozenset({"h"}))
