"""The forward-model protocol every game implements and every search uses."""
from __future__ import annotations

from typing import Hashable, Protocol, Sequence

CHANCE = -1
"""current_player() of a chance node."""


class Game(Protocol):
    """A forward model: states are immutable, hashable values; apply is pure."""

    num_players: int

    def initial_state(self): ...

    def current_player(self, s) -> int: ...

    def legal_moves(self, s) -> Sequence: ...

    def chance_outcomes(self, s) -> Sequence[tuple[object, float]]: ...

    def apply(self, s, m): ...

    # optional: `sample_chance(s, rng)`, one chance outcome drawn by weight; without it the
    # searches draw from chance_outcomes(s)
    # optional: `legal_moves_within(s, limit)`, the legal moves or None when there are more than
    # limit, and `sample_move(s, rng)`, one legal move drawn without listing them (beam's `sample`)

    def is_terminal(self, s) -> bool: ...

    def returns(self, s) -> tuple[float, ...]: ...

    def evaluate(self, s, heuristic: str | None = None, player: int | None = None) -> float:
        """A heuristic's value of s for a player (default: the one to move)."""

    def key(self, s) -> Hashable: ...

    # optional: `future_key(s)` and `banked(s)`, a state less the running totals that only its
    # returns read, and those totals, one per player: states with one future key have the same
    # future, and the exhaustive solve values them once, adding the totals back

    def describe(self, m) -> str: ...
