"""Run one fixed beam-search configuration on every allowed mat x faction combination of
rules/scythe.rules and write docs/scythe-results.md: turns to the sixth star and final fortune.

Each run is the command line printed in the document (the file's `agent beam` settings, a
filter that keeps only lines ending at six stars). Combinations the rule file refuses are
listed as refused. Progress goes to stderr; a partly written table is never left behind:
the document is written once, at the end.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import functools
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = "rules/scythe.rules"
OUT = ROOT / "docs" / "scythe-results.md"
SEARCH = ["--algo", "beam", "--budget", "3000000", "--seed", "1",
          "--filter", "len(stars) == 6 or turn < max_turns"]


@functools.lru_cache(maxsize=None)
def _decls() -> tuple:
    """The rule file's declarations, checked once."""
    sys.path.insert(0, str(ROOT))
    from engine.load import check_file
    ck, _ = check_file(str(ROOT / RULES))
    return tuple(ck.decls)


def domain(name: str) -> list[str]:
    """The values of a parameter, in the order the rule file lists them."""
    from engine import model as m
    (d,) = [d for d in _decls() if isinstance(d, m.Param) and d.name.name == name]
    return [item.id for item in d.domain.items]


def beam_settings() -> dict:
    """The rule file's `agent beam` options, as written."""
    from engine import model as m
    (d,) = [d for d in _decls() if isinstance(d, m.AgentDecl) and d.name.name == "beam"]
    return {o.name.name: o.value if isinstance(o.value, int) else o.value.name for o in d.options}


def run(mat: str, faction: str) -> dict:
    """One search; its JSON result, or {"refused": message} when the setting is refused."""
    cmd = [sys.executable, "-m", "engine", "search", RULES, "--set", f"mat={mat}", "--set", f"faction={faction}",
           *SEARCH, "--json"]
    start = time.perf_counter()
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode == 2:
        return {"refused": r.stderr.strip().splitlines()[0]}
    if r.returncode != 0:
        raise SystemExit(f"{mat}/{faction}: exit {r.returncode}\n{r.stderr}")
    out = json.loads(r.stdout)
    out["wall"] = time.perf_counter() - start
    return out


def row(mat: str, faction: str, out: dict) -> str:
    if "refused" in out:
        return f"| {mat} | {faction} | refused (banned combination) | | | |"
    line = out["best_line"]
    if len(line) <= 1:  # the start alone: no line ended at six stars
        return f"| {mat} | {faction} | not reached | | {out['seconds']:.0f} | {out['fm_calls']:,} |"
    end = line[-1]["state"]
    assert len(end["stars"]) == 6, "the filter keeps only lines ending at six stars"
    return (f"| {mat} | {faction} | {end['turn']} | {out['best_score']} | {out['seconds']:.0f} | "
            f"{out['fm_calls']:,} |")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--only", metavar="MAT/FACTION", action="append", help="run these combinations only (repeatable)")
    p.add_argument("--jobs", type=int, default=1, help="searches run side by side (default 1)")
    args = p.parse_args(argv)
    combos = [(m_, f) for m_ in domain("mat") for f in domain("faction")]
    if args.only:
        unknown = sorted(set(args.only) - {"/".join(c) for c in combos})
        if unknown:
            p.error(f"--only {unknown[0]}: not a MAT/FACTION of {RULES} (for example innovative/togawa)")
        combos = [c for c in combos if "/".join(c) in args.only]
    rows = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        running = {pool.submit(run, *c): c for c in combos}
        for fut in concurrent.futures.as_completed(running):
            rows[running[fut]] = row(*running[fut], fut.result())
            print(f"[{len(rows)}/{len(combos)}] {rows[running[fut]]}", file=sys.stderr, flush=True)
    command = " ".join(["python -m engine search", RULES, "--set mat=M --set faction=F",
                        *(f'"{a}"' if " " in a else a for a in SEARCH)])
    b = beam_settings()
    text = "\n".join([
        "# Scythe solo economy: beam search on every mat and faction",
        "",
        "For each mat and faction: the turns and final fortune of the best line found (the",
        "highest fortune among the lines that end at the sixth star) by one fixed configuration:",
        f"the rule file's `agent beam` settings (width {b['width']} plus {b['extra']} random survivors a layer;",
        f"a state with more than {b['sample']:,} moves gives {b['sample']:,} drawn at random), seed 1, and a filter",
        "that keeps only lines that end at six stars",
        "(not at the turn limit, `max_turns` = 40). The",
        "fortune is the rule file's score with its default structure bonus tile",
        "(`bonus_tile=tunnels_adjacent`). Each row is the command",
        "",
        f"    {command}",
        "",
        "run on a 2-core machine, two searches side by side (seconds: the search alone). Written by",
        "`python bench/scythe_results.py`; a greedy beam is no optimum, so these are lines the",
        "search found, not the fewest turns possible.",
        "",
        "| mat | faction | turns to six stars | fortune | seconds | forward-model calls |",
        "|---|---|---|---|---|---|",
        *(rows[c] for c in combos),
        "",
    ])
    if args.only:
        print(text)
        return
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
