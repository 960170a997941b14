"""Shared fixtures: paths of the repository and its rule files."""
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted((ROOT / "rules").glob("*.rules"))


def run_engine(*args, timeout=120):
    """Run `python -m engine ARGS` from the repository root; returns the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "engine", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def engine_cli():
    return run_engine
