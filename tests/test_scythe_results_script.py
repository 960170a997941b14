"""bench/scythe_results.py refuses a combination the rule file does not have, before any search."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_unknown_combination_is_a_usage_error():
    r = subprocess.run([sys.executable, "bench/scythe_results.py", "--only", "innovative/togawa", "--only", "gears/none"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2
    assert "--only gears/none: not a MAT/FACTION of rules/scythe.rules" in r.stderr
    assert r.stdout == ""
