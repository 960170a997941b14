"""Benchmark: `engine solve` wall time, tic-tac-toe random playouts per second versus OpenSpiel, and the
parse and check of the largest rule file versus Lark's parse of it alone."""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOLVE_CMD = ["-m", "engine", "solve", "rules/nidavellir.rules", "--set", "variant=blog", "--json"]
SOLVE_RUNS = 3
SOLVE_TIMEOUT = 120.0
ROUNDS = 4
TTT_RULES = ROOT / "rules" / "tictactoe.rules"
# Exact values for uniformly random tic-tac-toe play (full game-tree enumeration).
EXACT_P0_WINS = 0.5849
EXACT_PLIES = 7.626
INSTALL_HINT = "pip install open_spiel  (or: pip install -e .[bench])"


def table(rows: list[list[str]], left: tuple[int, ...] = (0,), indent: str = "  ") -> str:
    """Align rows of strings: columns listed in `left` left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(max(map(len, rows)))]
    lines = []
    for r in rows:
        cells = [c.ljust(widths[i]) if i in left else c.rjust(widths[i]) for i, c in enumerate(r)]
        lines.append((indent + "   ".join(cells)).rstrip())
    return "\n".join(lines)


def time_command(args: list[str], runs: int) -> tuple[list[float], str, str | None]:
    """Run `sys.executable *args` from the repository root `runs` times; return wall times, last stdout, error."""
    times, out = [], ""
    for _ in range(runs):
        start = time.perf_counter()
        try:
            proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True,
                                  timeout=SOLVE_TIMEOUT)
        except subprocess.TimeoutExpired:
            return times, out, f"timed out after {SOLVE_TIMEOUT:.0f} s"
        times.append(time.perf_counter() - start)
        out = proc.stdout
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["(no stderr)"])[-1]
            return times, out, f"exit code {proc.returncode}: {tail}"
    return times, out, None


def bench_solve() -> None:
    """Print the whole-command wall time of `engine solve` next to bare interpreter start-up."""
    print(f"1. whole-command wall time, {SOLVE_RUNS} runs each, cwd = repository root")
    print(f"   solve = python {' '.join(SOLVE_CMD)}")
    rows = [["command", "best", "median", "target"]]
    notes = []
    for label, args, target in [("python -c pass  (interpreter start-up)", ["-c", "pass"], ""),
                                ("solve", SOLVE_CMD, "well under 1 s")]:
        times, out, err = time_command(args, SOLVE_RUNS)
        if err is None and args is SOLVE_CMD:
            try:
                json.loads(out)
            except ValueError:
                err = "ran, but stdout is not valid JSON"
        if err:
            notes.append(f"  ! {label}: {err}")
            rows.append([label, "failed", "", target])
        else:
            rows.append([label, f"{min(times):.3f} s", f"{statistics.median(times):.3f} s", target])
    print(table(rows, left=(0, 3)))
    for n in notes:
        print(n)


CHECK_RUNS = 10


def bench_check(runs: int = CHECK_RUNS) -> None:
    """Print the time to parse and check the largest rule file, in this process, next to the time
    Lark alone takes to parse it (the grammar built once beforehand for both)."""
    sys.path.insert(0, str(ROOT))
    from engine.load import check_file
    from engine.parse import parser

    path = max((ROOT / "rules").glob("*.rules"), key=lambda p: p.stat().st_size)
    text = path.read_text(encoding="utf-8")
    lark = parser()
    check_file(str(path))  # the first run also builds the grammar and warms the caches
    rel = path.relative_to(ROOT)
    print(f"3. parse and check of the largest rule file, {rel} ({len(text.splitlines()):,} lines), "
          f"{runs} runs each in this process")
    rows = [["step", "best", "median", "target"]]
    timed = {}
    for label, work, target in [("Lark's parse alone  (baseline)", lambda: lark.parse(text, start="start"), ""),
                                ("parse and check", lambda: check_file(str(path)), "well under 1 s")]:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            work()
            times.append(time.perf_counter() - start)
        timed[label] = statistics.median(times)
        rows.append([label, f"{min(times):.3f} s", f"{statistics.median(times):.3f} s", target])
    print(table(rows, left=(0, 3)))
    base, ours = timed.values()
    print(f"  ratio parse and check / Lark's parse alone (medians): {ours / base:.2f}")


def ours_batch(game, rng: random.Random, budget: float) -> tuple[int, int, int]:
    """Random playouts with our engine for `budget` seconds; return (playouts, plies, first-player wins)."""
    new, legal, apply, terminal, returns = (game.initial_state, game.legal_moves, game.apply,
                                            game.is_terminal, game.returns)
    choice, clock = rng.choice, time.perf_counter
    n = plies = wins = 0
    end = clock() + budget
    while clock() < end:
        s = new()
        while not terminal(s):
            s = apply(s, choice(legal(s)))
            plies += 1
        wins += returns(s)[0] > 0
        n += 1
    return n, plies, wins


def openspiel_batch(game, rng: random.Random, budget: float) -> tuple[int, int, int]:
    """Random playouts with OpenSpiel for `budget` seconds; return (playouts, plies, first-player wins)."""
    new = game.new_initial_state
    choice, clock = rng.choice, time.perf_counter
    n = plies = wins = 0
    end = clock() + budget
    while clock() < end:
        state = new()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            plies += 1
        wins += state.returns()[0] > 0
        n += 1
    return n, plies, wins


def load_ours(memo: bool = True):
    """Return (game, None) for rules/tictactoe.rules, or (None, reason) if our engine cannot load it yet."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    try:
        from engine import load_game
        game = load_game(str(TTT_RULES))
        if not memo:
            game.memo_limit = 0
        return game, None
    except Exception as e:  # the engine is still being written: report, don't crash
        return None, f"{type(e).__name__}: {e}"


def load_openspiel():
    """Return (game, version, None) for OpenSpiel's python_tic_tac_toe, or (None, None, reason)."""
    try:
        import pyspiel
        import open_spiel.python.games.tic_tac_toe  # noqa: F401  (registers python_tic_tac_toe)
    except ImportError:
        return None, None, f"OpenSpiel is not installed, so no comparison; to add it: {INSTALL_HINT}"
    from importlib.metadata import PackageNotFoundError, version
    try:
        ver = version("open_spiel")
    except PackageNotFoundError:
        ver = "unknown version"
    return pyspiel.load_game("python_tic_tac_toe"), ver, None


def bench_playouts(seconds: float, seed: int) -> None:
    """Print random playouts per second on tic-tac-toe, ours versus OpenSpiel, alternating in rounds."""
    impls = []  # [label, batch function, game, rng, [playouts, plies, wins, elapsed]]
    ours, why = load_ours()
    if ours is not None:
        impls.append(["ours  (rules/tictactoe.rules)", ours_batch, ours, random.Random(seed), [0, 0, 0, 0.0]])
        bare, _ = load_ours(memo=False)
        impls.append(["ours, memo tables off", ours_batch, bare, random.Random(seed), [0, 0, 0, 0.0]])
    spiel, ver, why_spiel = load_openspiel()
    if spiel is not None:
        impls.append([f"OpenSpiel {ver}  (python_tic_tac_toe)", openspiel_batch, spiel, random.Random(seed),
                      [0, 0, 0, 0.0]])
    print(f"2. random playouts on tic-tac-toe, {seconds:g} s each in {ROUNDS} alternating rounds, seed {seed}")
    if why:
        print(f"  ! our engine could not load {TTT_RULES.relative_to(ROOT)}: {why}")
    if why_spiel:
        print(f"  ! {why_spiel}")
    if not impls:
        return
    for _, batch, game, _, _ in impls:  # warm-up, untimed, own RNG so the timed sequences are unaffected
        batch(game, random.Random(seed + 1), min(0.05, seconds / 10))
    for r in range(ROUNDS):
        for _, batch, game, rng, acc in (impls if r % 2 == 0 else impls[::-1]):
            start = time.perf_counter()
            n, plies, wins = batch(game, rng, seconds / ROUNDS)
            acc[3] += time.perf_counter() - start
            acc[0] += n
            acc[1] += plies
            acc[2] += wins
    rows = [["implementation", "playouts", "playouts/s", "plies/playout", "first player wins"]]
    rates = []
    for label, _, _, _, (n, plies, wins, elapsed) in impls:
        rates.append(n / elapsed if elapsed else 0.0)
        rows.append([label, f"{n:,}", f"{rates[-1]:,.0f}", f"{plies / n:.3f}" if n else "-",
                     f"{100 * wins / n:.1f} %" if n else "-"])
    rows.append(["exact, uniform random play", "", "", f"{EXACT_PLIES:.3f}", f"{100 * EXACT_P0_WINS:.1f} %"])
    print(table(rows))
    if len(rates) == 3 and rates[2]:
        ratio = rates[0] / rates[2]
        verdict = "met" if ratio >= 3 else "NOT met"
        print(f"  ratio ours/OpenSpiel: {ratio:.2f}x   (target: at least 3x, {verdict})")
        print(f"  ratio ours with memo tables off/OpenSpiel: {rates[1] / rates[2]:.2f}x"
              "   (the engine memoises legal moves and terminal tests per state by default)")
    else:
        print("  ratio ours/OpenSpiel: n/a (needs both implementations)")


def main(argv: list[str] | None = None) -> None:
    """Parse options and run the selected measurements."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--seconds", type=float, default=2.0, help="playout wall budget per implementation (default 2)")
    p.add_argument("--seed", type=int, default=0, help="seed of each implementation's random.Random (default 0)")
    p.add_argument("--skip-solve", action="store_true", help="skip the `engine solve` wall-time measurement")
    p.add_argument("--skip-playouts", action="store_true", help="skip the tic-tac-toe playout measurement")
    p.add_argument("--skip-check", action="store_true", help="skip the parse-and-check measurement")
    args = p.parse_args(argv)
    if args.seconds <= 0:
        p.error("--seconds must be positive")
    print(f"bench: Python {platform.python_version()} ({sys.executable}), {platform.machine()}")
    if not args.skip_solve:
        print()
        bench_solve()
    if not args.skip_playouts:
        print()
        bench_playouts(args.seconds, args.seed)
    if not args.skip_check:
        print()
        bench_check()


if __name__ == "__main__":
    main()
