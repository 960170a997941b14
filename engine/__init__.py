"""The rules language: parse, check and compile rule files into forward models."""
from .diagnostics import RuleErrors, RuleRuntimeError, UsageError
from .load import load_game

__all__ = ["load_game", "RuleErrors", "RuleRuntimeError", "UsageError"]
