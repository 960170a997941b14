"""`solve --policy FILE.jsonl`: the best move in every state where a player moves, one JSON line each."""
from __future__ import annotations

import json
from typing import Optional

from .diagnostics import UsageError, clip
from .load import setting_text
from .outputs import NewFile
from .runtime import plain_number


class PolicyFile:
    """Lines written to a hidden file beside the target, which takes its name only once the
    solve is done: a solve that fails or is stopped leaves nothing, and no file is overwritten
    (engine/outputs.py)."""

    def __init__(self, path: str, game, places: int, about: dict, may_set_aside: Optional[str] = None):
        self.file = NewFile("--policy", path, (".jsonl",), "solve")
        self.path, self.game, self.states, self.places, self.about = path, game, 0, places, about
        self.may_set_aside = may_set_aside  # the scored field it may leave out, where the game comes round
        self.aside: Optional[str] = None  # the scored field it leaves out
        self.aside_why: Optional[str] = None  # why, as the text says it
        self._out = self.file.open()
        self.file.write(json.dumps(about) + "\n")

    def set_aside(self, why: str) -> None:
        """Leave the scored field out of the states from now on (the first line names it), and give the
        values of what is still to come: a game that comes round back to a state with another total
        has then a state to come back to, and one whose totals make too many states fewer. `why`:
        what the text says of it."""
        self.aside, self.aside_why = self.may_set_aside, why
        self.about = {**self.about, "scored_aside": self.aside}

    def decided(self, s, move, values, depth: Optional[int]) -> None:
        """One line: the state, its best move and the values it leads to (and its depth, with --depth)."""
        state = self.game.state_json(s)
        state.pop(self.aside, None)
        line = {"state": state, "move": self.game.describe(move),
                "value": [plain_number(v, self.places) for v in values]}
        if depth is not None:
            line["depth"] = depth
        self.file.write(json.dumps(line) + "\n")
        self.states += 1

    def restart(self, places: int) -> None:
        """Forget the lines so far: the solve starts again another way, its values shown to `places`."""
        self._out.seek(0)
        self._out.truncate()
        self.file.write(json.dumps(self.about) + "\n")
        self.states, self.places = 0, places

    def finish(self) -> None:
        """Give the lines the target's name, unless a file took that name meanwhile."""
        self.file.finish()

    def abandon(self) -> None:
        """Remove the hidden file of a solve that did not finish (none once the file is named)."""
        self.file.abandon()


POLICY_AGENT = "policy:"
"""How an --agents entry names a policy file: `policy:FILE.jsonl`."""


def policy_agent(spec: str, game, params: dict, start: Optional[str] = None, flag: str = "--agents"):
    """The agent that plays the move a `solve --policy` file gives for each state (no forward-model
    calls). The file must hold every state the games reach: one of a whole solve of this game
    with the same parameter values (`params`, as parameter_values gives them; its first line says
    what it was solved for), not one cut short by --depth (its moves are a depth's, not a
    state's). Its errors name the option it was given with, `flag`."""
    path, who = spec[len(POLICY_AGENT):], f"{flag} {spec}"
    try:
        with open(path, encoding="utf-8") as f:
            rows = f.readlines()
    except OSError as e:
        raise UsageError(f"{who}: cannot read {path} ({e.strerror})") from None
    moves: dict = {}
    aside = None  # the scored field its states leave out
    for n, row in enumerate(rows, 1):
        if n == 1 and (about := _solved_for(who, path, row, game, params)) is not None:
            aside = about.get("scored_aside")
            if about.get("from") is not None and start is None:
                raise UsageError(f"{who}: {path} was solved from --from {about['from']}, so it holds the states "
                                 f"reached from there: give the games that start too, --from {about['from']}")
            continue
        try:
            line = json.loads(row)
            state, move = line["state"], line["move"]
        except (ValueError, KeyError, TypeError):
            raise UsageError(f"{who}: line {n} of {path} is not a line of solve --policy "
                             '({"state", "move", "value"})') from None
        if "depth" in line:
            raise UsageError(f"{who}: {path} was written by solve --depth, whose moves are a depth's, "
                             "not a state's; play takes the policy of a whole solve")
        moves[json.dumps(state, sort_keys=True)] = (move, n)
    if not moves:
        raise UsageError(f"{who}: {path} holds no states; a policy is written by solve --policy FILE.jsonl")
    return _PolicyAgent(who, moves, start, aside)


def _solved_for(who: str, path: str, row: str, game, params: dict) -> Optional[dict]:
    """The first line of a policy file, if it is the one that says what it was solved for (a file
    written before there was one has none); a usage error where that is another game, or other
    parameter values, than this run's. Another title is another game unless the rules are the same
    (by their digest: the file may `use` the one solved, and add a heuristic)."""
    try:
        about = json.loads(row)
    except ValueError:
        return None
    if not isinstance(about, dict) or "state" in about or "game" not in about:
        return None
    same_rules = about.get("rules") == game.rules_digest  # a file that uses them, under its own title, say
    if about["game"] != game.title and not same_rules:
        raise UsageError(f"{who}: {path} is the policy of '{about['game']}', not of '{game.title}'")
    if about.get("rules") not in (None, *game.rules_digests):
        raise UsageError(f"{who}: {path} was solved from other rules than those of {game.path} (they differ "
                         "beyond comments, notes, spacing, the heuristic, view and agent declarations and what only "
                         "they read), so its moves may not be the best there; solve --policy again")
    solved = about.get("params", {})
    other = [k for k in params if k in solved and solved[k] != params[k]]
    if other:
        def said(values):
            return ", ".join(f"{k}={setting_text(values[k])}" for k in other)
        raise UsageError(f"{who}: {path} was solved with {said(solved)}, this run plays with {said(params)}: "
                         "a policy holds the moves of the games it was solved for (--set gives it those values; "
                         "with them, --from STATE.json starts the games from another state its solve reached)")
    return about


class _PolicyAgent:
    """Plays the move its policy gives for the state; a state it lacks is a usage error."""

    def __init__(self, who: str, moves: dict, start: Optional[str] = None, aside: Optional[str] = None):
        self.who, self.moves, self.start = who, moves, start  # who: the option that named it, and its value
        self.aside = aside  # the scored field the policy's states leave out

    def __call__(self, game, state, *, budget, rng, memory=None, progress=None, observers=()):
        from search.budget import Result
        seen = game.state_json(state)
        seen.pop(self.aside, None)
        shown = json.dumps(seen, sort_keys=True)
        label, row = self.moves.get(shown, (None, None))
        chosen = [m for m in game.legal_moves(state) if game.describe(m) == label]
        if not chosen:
            raise UsageError(f"{self.who}: the policy has no move for a state the game reached"
                             + (f" (its line {row} gives '{label}', which is not legal there)" if label is not None
                                else "")
                             + (f": the games start from --from {self.start}, and a policy holds the states a "
                                "solve from its own start reaches" if self.start is not None else
                                ": it may be the policy of another game, or of other --set values")
                             + "; the state: "
                             + clip(shown, 300))
        return Result(chosen[0], (), None, 0, 0, 0, ())
