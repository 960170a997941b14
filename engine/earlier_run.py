"""`play --against FILE.json`: an earlier run's scores, game by game, to pair a new run with."""
from __future__ import annotations

import json
from typing import Optional

import attrs

from .diagnostics import UsageError


@attrs.frozen
class EarlierRun:
    """The first agent of a saved `play --json` output, its scores by game number."""

    path: str
    agent: str
    budget: int
    agent_seed: int
    scores: dict  # game number -> score


def load_earlier_run(path: str, *, title: str, seed: int, settings: list, first: int, games: int) -> EarlierRun:
    """The run saved in path, checked to hold games first .. first + games - 1 of the same game,
    settings and seed (so the same chance outcomes); other budgets and agent seeds are allowed."""
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
    if first not in numbers or first + games - 1 not in numbers:
        raise UsageError(f"{flag}: holds games {numbers[0]}-{numbers[-1]}; this run plays games "
                         f"{first}-{first + games - 1}")
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
