"""The calculator: correct answers, bounded refusals that come back fast, and no way out of arithmetic."""
from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.base import ToolError, ToolRegistry
from tools.calculator import MAX_INT_DIGITS, calculator

GOOD = [
    ("15^2", "225"),            # ^ means power, as models write it
    ("15**2", "225"),
    ("15^2 =", "225"),
    ("`2 + 2`", "4"),
    ("sqrt(225)", "15"),        # integral float printed without .0
    ("sqrt(2)", "1.41421356237"),
    ("2 x 3", "6"),
    ("(2 + 3) x (4 - 1)", "15"),
    ("1,000,000 / 4", "250000"),
    ("1,234.5 + 0.5", "1235"),
    ("2026 - 1847", "179"),
    ("10/2", "5"),
    ("10/4", "2.5"),
    ("7 // 2", "3"),
    ("-7 % 3", "2"),
    ("2 ** -2", "0.25"),
    ("2 ** 0.5 * 2 ** 0.5", "2"),
    ("0.1 + 0.2", "0.3"),
    ("+-+3", "-3"),
    ("-(2 ** 2)", "-4"),
    ("-2 ** 2", "-4"),          # Python precedence: -(2**2)
    ("2 ** 3 ** 2", "512"),     # right-associative
    ("factorial(20)", "2432902008176640000"),
    ("log(8, 2)", "3"),
    ("log10(1000)", "3"),
    ("ln(e)", "1"),
    ("exp(0)", "1"),
    ("floor(-2.5)", "-3"),
    ("ceil(2.1)", "3"),
    ("round(3.14159, 2)", "3.14"),
    ("abs(-5)", "5"),
    ("pi", "3.14159265359"),
    ("tau / 2 - pi", "0"),
    ("cos(0) + sin(0)", "1"),
    ("degrees(pi)", "180"),
    ("max(3, 7, 2) - min(3, 7, 2)", "5"),
    ("comb(5, 2) + perm(5, 2)", "30"),
    ("gcd(12, 18) * lcm(4, 6)", "72"),
    ("pow(2, 10)", "1024"),
    ("sum(8665, 3900, 6020)", "18585"),   # held-out omh-210's lead wrote sum() and got an error
    ("mean(1970, 1980)", "1975"),
    ("max(700)", "700"),                  # held-out omh-225: one value left, max() of it is no error
    ("min(3, 1.5, 2)", "1.5"),
    ("round(mean(1, 2, 4), 2)", "2.33"),
    ("1.5e3", "1500"),
    ("0x1F", "31"),
    ("2 ** 64", "18446744073709551616"),                   # exact, not 1.84467440737e+19
    ("10 ** 20 + 1", "100000000000000000001"),
    ("1e20", "1e+20"),
]


@pytest.mark.parametrize("expression, expected", GOOD)
def test_good_expressions(expression, expected):
    assert calculator(expression) == expected


def test_big_exact_integers_within_the_limit():
    assert calculator("2 ** 3000") == str(2 ** 3000)            # 904 digits: allowed, exact
    assert calculator("factorial(449)") == str(__import__("math").factorial(449))


BOUNDED = [
    "9**9**9",
    "10**10**10",
    "factorial(10**6)",
    "factorial(450)",
    "2 ** 10 ** 100",
    "(10**999) * (10**999)",
    "10**999 * 10**999 * 10**999",
    "comb(10**6, 5 * 10**5)",
    "perm(10**5, 10**5)",
    "1 << 10**9",
    "1 >> 10**9",
    "round(10**999, -10**9)",
    "1.0001 ** 10**10",
    "exp(10**6)",
    "1e999",
    "9" * 5000,
    "(" * 400 + "1" + ")" * 400,
    "-" * 999 + "1",
]


@pytest.mark.parametrize("expression", BOUNDED, ids=lambda e: e[:30])
def test_huge_work_is_refused_fast(expression):
    start = time.perf_counter()
    with pytest.raises(ToolError) as refused:
        calculator(expression)
    elapsed = time.perf_counter() - start
    print(f"{expression[:30]!r}: refused in {elapsed * 1000:.2f} ms: {refused.value}")
    assert elapsed < 1.0, f"refusal took {elapsed:.3f} s"
    assert str(refused.value)


def test_refusals_say_why():
    with pytest.raises(ToolError, match="at least one number"):
        calculator("mean()")
    with pytest.raises(ToolError, match="at least one number"):
        calculator("max()")
    with pytest.raises(ToolError, match="too large"):
        calculator("9**9**9")
    with pytest.raises(ToolError, match=f"{MAX_INT_DIGITS:,} digits"):
        calculator("factorial(10**6)")
    with pytest.raises(ToolError, match="not supported"):
        calculator("1 << 10**9")


ATTACKS = [
    "__import__('os')",
    "__import__('os').system('echo hi')",
    "().__class__",
    "().__class__.__bases__[0].__subclasses__()",
    "open('/etc/passwd')",
    "eval('1+1')",
    "exec('x=1')",
    "globals()",
    "x",
    "x + 1",
    "math.sqrt(4)",
    "sqrt.__name__",
    "(1).real",
    "[1, 2][0]",
    "'abc'[0]",
    "lambda: 1",
    "(lambda x: x)(1)",
    "[x for x in range(3)]",
    "{x for x in range(3)}",
    "(x for x in range(3))",
    "{'a': 1}",
    "'hello'",
    "b'bytes'",
    "True + 1",
    "None",
    "1 if 1 else 2",
    "1 < 2",
    "not 1",
    "~1",
    "1 & 3",
    "(y := 2)",
    "f'{1}'",
    "sqrt(x=4)",
    "max(*[1, 2])",
    "2(3)",
    "1j",
]


@pytest.mark.parametrize("expression", ATTACKS)
def test_anything_beyond_arithmetic_is_refused(expression):
    with pytest.raises(ToolError):
        calculator(expression)


@pytest.mark.parametrize("expression, fragment", [
    ("", "give a math expression"),
    ("1/0", "division by zero"),
    ("5 % 0", "division by zero"),
    ("sqrt(-1)", "math error"),
    ("log(0)", "math error"),
    ("(-8) ** (1/3)", "complex"),
    ("2 +", "cannot parse"),
    ("round(1,000)", "ambiguous comma"),
    ("1, 2", "commas"),
    ("factorial(2.5)", "whole number"),
    ("sqrt(1, 2)", "sqrt()"),
    ("foo(2)", "only these functions"),
    ("x" * 2000, "too long"),
])
def test_errors_are_actionable(expression, fragment):
    with pytest.raises(ToolError) as err:
        calculator(expression)
    assert fragment in str(err.value)


def test_through_the_registry_errors_become_observations():
    registry = ToolRegistry([calculator])
    assert registry.run("calculator", "15^2").observation == "225"
    assert registry.run("calculator", '{"expression": "2 x 3"}').observation == "6"
    observation = registry.run("calculator", "__import__('os')").observation
    assert observation.startswith("Error: only these functions can be called")


_TOKENS = list("0123456789+-*/%^()., xe") + ["**", "//", "sqrt(", "factorial(", "log(", "comb(", "round(",
                                             "pi", "9**9", "10**", "1e308", "__", "lambda", "[", "'"]


@settings(max_examples=300, deadline=1000)
@given(st.one_of(st.text(max_size=200), st.lists(st.sampled_from(_TOKENS), max_size=40).map("".join)))
def test_arbitrary_text_only_ever_raises_tool_error(text):
    try:
        result = calculator(text)
    except ToolError as exc:
        assert str(exc)
    else:
        assert isinstance(result, str) and result


def test_a_date_in_an_expression_points_to_date_diff():
    with pytest.raises(ToolError) as err:
        calculator("2026-12-03 - 1847")
    assert "date_diff" in str(err.value) and "2026 - 1847" in str(err.value)
    with pytest.raises(ToolError) as err:
        calculator("2 +* 3")
    assert "date_diff" not in str(err.value)
