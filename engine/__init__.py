"""The rules language: parse, check and compile rule files into forward models."""
from importlib.util import find_spec

if find_spec("lark") is None:  # the parser: without it nothing below can load
    raise SystemExit("error: the engine needs the Python package 'lark', which is not installed for "
                     "this Python; install the project first (README, quick start): pip install -e .")

from .diagnostics import RuleErrors, RuleRuntimeError, UsageError  # noqa: E402
from .load import load_game  # noqa: E402

__all__ = ["load_game", "RuleErrors", "RuleRuntimeError", "UsageError"]
