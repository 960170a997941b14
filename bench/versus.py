"""Time one engine command in the working tree and at a git commit, side by side.

    python bench/versus.py [--base REF] [--rounds N] [-- ENGINE ARGS...]

The commit (default HEAD) is exported with `git archive` to a temporary directory, and the
command `python -m engine ENGINE ARGS` runs there and in the repository root in turn, N rounds
(default 3), so both sides see the same machine at the same moments. Printed: each side's best
and median wall time, the ratio of the medians (working tree / commit), and whether the two
sides printed the same output (a `--json` object is compared without its "seconds", text with
its times in seconds masked). The default command plays two Railroad Ink games with mcts at
1,000 calls a decision.
"""
from __future__ import annotations

import argparse
import io
import json
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECONDS = re.compile(r"\b\d[\d,]*(\.\d+)? s\b")
DEFAULT = ["play", "rules/railroad-ink.rules", "--agents", "mcts", "--games", "2", "--budget", "1000",
           "--seed", "1", "--json"]


def export(ref: str, where: Path) -> str:
    """Write the tree of commit `ref` into `where`; return its short hash."""
    try:
        short = subprocess.run(["git", "rev-parse", "--short", "--verify", ref + "^{commit}"], cwd=ROOT,
                               capture_output=True, text=True, check=True).stdout.strip()
        tar = subprocess.run(["git", "archive", short], cwd=ROOT, capture_output=True, check=True).stdout
    except FileNotFoundError:
        raise SystemExit("versus: git is not installed; it is needed to export the commit to compare with")
    except subprocess.CalledProcessError as e:
        detail = (e.stderr.decode() if isinstance(e.stderr, bytes) else e.stderr or "").strip()
        raise SystemExit(f"versus: cannot export {ref!r}: {detail or 'git failed'}")
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(where, filter="data")
    return short


def run(where: Path, args: list) -> tuple:
    """(wall seconds, stdout) of `python -m engine args` run in `where`; exits on failure."""
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "engine", *args], cwd=where, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        tail = "\n".join(proc.stderr.strip().splitlines()[-3:]) or "(no output on stderr)"
        raise SystemExit(f"versus: the command failed in {where} (exit code {proc.returncode}):\n{tail}")
    return seconds, proc.stdout


def comparable(out: str):
    """The output as compared between the sides: a JSON object without its "seconds", else the
    text with every time in seconds ("0.34 s") masked."""
    try:
        data = json.loads(out)
    except ValueError:
        return SECONDS.sub("_ s", out)
    if isinstance(data, dict):
        data.pop("seconds", None)
    return data


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base", default="HEAD", help="the commit to compare with (default HEAD)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each side, taken in turn (default 3)")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="after --: the engine's arguments")
    a = ap.parse_args(argv)
    if a.rounds < 1:
        ap.error("--rounds must be at least 1")
    args = a.command[1:] if a.command[:1] == ["--"] else a.command
    args = args or DEFAULT
    with tempfile.TemporaryDirectory(prefix="versus-") as tmp:
        short = export(a.base, Path(tmp))
        sides = {f"commit {short}": Path(tmp), "working tree": ROOT}
        times = {name: [] for name in sides}
        outputs = {}
        print(f"python -m engine {' '.join(args)}: {a.rounds} rounds, the two sides in turn", flush=True)
        for i in range(a.rounds):
            for name, where in sides.items():
                seconds, out = run(where, args)
                times[name].append(seconds)
                outputs.setdefault(name, comparable(out))
                print(f"  round {i + 1}: {name:<16} {seconds:8.2f} s", flush=True)
    width = max(map(len, times))
    for name, ts in times.items():
        print(f"{name:<{width}}  best {min(ts):8.2f} s   median {statistics.median(ts):8.2f} s")
    base, new = (statistics.median(ts) for ts in times.values())
    print(f"ratio of medians, working tree / commit: {new / base:.3f}")
    same = len({json.dumps(v, sort_keys=True) for v in outputs.values()}) == 1
    print("outputs: the same" if same else "outputs: DIFFERENT (the two sides did not do the same work)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
