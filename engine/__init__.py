"""The rules language: parse, check and compile rule files into forward models."""
import sys
from importlib.util import find_spec

if find_spec("lark") is None:  # the parser: without it nothing below can load
    print("error: the engine needs the Python package 'lark', which is not installed for this Python; "
          "install the project first (README, quick start): pip install -e .", file=sys.stderr)
    raise SystemExit(2)  # the design's usage error: the command cannot run here as given

from .diagnostics import RuleErrors, RuleRuntimeError, UsageError  # noqa: E402
from .load import load_game  # noqa: E402

__all__ = ["load_game", "RuleErrors", "RuleRuntimeError", "UsageError"]
