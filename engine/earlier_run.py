"""`play --against FILE.json`: an earlier run's scores, game by game, to pair a new run with (a run
saved in parts: several files)."""
from __future__ import annotations

import json
from typing import Optional, Sequence

import attrs

from .diagnostics import UsageError


@attrs.frozen
class EarlierRun:
    """The first agent of a saved `play --json` output, its scores by game number."""

    path: str  # the file, or the files of a run saved in parts joined by ", "
    agent: str
    budget: int
    agent_seed: int
    scores: dict  # game number -> score


def load_earlier_run(paths: Sequence[str], *, title: str, seed: int, settings: list, first: int,
                     games: int) -> EarlierRun:
    """The run saved in paths (one file, or the parts of one run), checked to hold games first ..
    first + games - 1 of the same game, settings and seed (so the same chance outcomes); other
    budgets and agent seeds are allowed. Parts must agree on the agent, its budget and agent seed,
    and on the score of a game two of them hold."""
    runs = [_load_part(path, title=title, seed=seed, settings=settings) for path in paths]
    scores, held_by = {}, {}
    one = runs[0]
    for run in runs:
        if (run.agent, run.budget, run.agent_seed) != (one.agent, one.budget, one.agent_seed):
            raise UsageError(f"--against {run.path}: {_who(run)}, but --against {one.path}: {_who(one)}; the parts "
                             "of one run have the same agent, budget and agent seed")
        for g, x in run.scores.items():
            if g in scores and scores[g] != x:
                raise UsageError(f"--against {run.path}: game {g} scored {x}, but {scores[g]} in --against "
                                 f"{held_by[g]}: not parts of one run")
            scores[g], held_by[g] = x, run.path
    wanted = range(first, first + games)
    if any(g not in scores for g in wanted):
        raise UsageError(f"--against {', '.join(paths)}: holds games {_spans(sorted(scores))}; this run plays games "
                         f"{first}-{wanted[-1]}")
    return attrs.evolve(runs[0], path=", ".join(paths), scores=scores)


def _who(run: EarlierRun) -> str:
    seed = f", agent seed {run.agent_seed}" if run.agent_seed else ""
    return f"{run.agent} at {run.budget:,} calls per decision{seed}"


def _spans(numbers: list) -> str:
    """1, 2, 3, 7, 8 -> '1-3, 7-8'."""
    spans: list = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(f"{a}-{b}" for a, b in spans)


def _load_part(path: str, *, title: str, seed: int, settings: list) -> EarlierRun:
    """The run saved in one file, checked to be of the same game, settings and seed."""
    flag = f"--against {path}"
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise UsageError(f"{flag}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{flag}: cannot be read ({e})") from None
    try:
        run = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"{flag}:{e.lineno}:{e.colno}: not JSON ({e.msg}); expected what `play --json` "
                         "prints") from None
    agent = _first_agent(run)
    if agent is None:
        raise UsageError(f"{flag}: not the output of `play --json` (no game, seed, budget and agents with their "
                         "scores in it)")
    if run["game"] != title:
        raise UsageError(f"{flag}: a run of '{run['game']}', not of '{title}'")
    if run["seed"] != seed:
        raise UsageError(f"{flag}: played with --seed {run['seed']}, this run with --seed {seed}: the games would "
                         f"not meet the same chance (give --seed {run['seed']})")
    theirs = sorted(run.get("set", []))
    if theirs != sorted(settings):
        def given(pairs):
            return " ".join(f"--set {s}" for s in pairs) or "no --set"
        raise UsageError(f"{flag}: played with {given(theirs)}, this run with {given(settings)}")
    start = run.get("first_game", 1)
    numbers = range(start, start + len(agent["scores"]))
    return EarlierRun(path, agent["name"], run["budget"], run.get("agent_seed", 0),
                      dict(zip(numbers, agent["scores"])))


def _first_agent(run) -> Optional[dict]:
    """The first agent's entry of a `play --json` output, or None when run is not one."""
    if not isinstance(run, dict) or not all(k in run for k in ("game", "seed", "budget", "agents")):
        return None
    if not all(_whole(run.get(k, 1)) for k in ("seed", "budget", "first_game", "agent_seed")):
        return None
    settings = run.get("set", [])
    if not isinstance(run["game"], str) or not isinstance(settings, list) or not all(
            isinstance(x, str) for x in settings):
        return None
    agents = run["agents"]
    if not isinstance(agents, list) or not agents or not isinstance(agents[0], dict):
        return None
    agent = agents[0]
    scores = agent.get("scores")
    if not isinstance(agent.get("name"), str) or not isinstance(scores, list) or not scores:
        return None
    if not all(_whole(x) or isinstance(x, float) for x in scores):
        return None
    return agent


def _whole(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)
