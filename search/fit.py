"""Linear least squares for value heuristics: weights that predict a game's final score from
features of the states met on the way, one set of weights per group (for example per round)."""
from __future__ import annotations

import math
from typing import Sequence

import attrs


@attrs.frozen
class Fit:
    """The weights of one group: `bias + sum(w * x)` predicts the target."""

    weights: tuple  # one per feature, in the order given
    bias: float
    n: int  # rows fitted
    r2: float  # share of the target's variance the fit explains (nan when the target is constant)
    rmse: float  # root mean squared error on the rows fitted

    def predict(self, x: Sequence[float]) -> float:
        return self.bias + sum(w * v for w, v in zip(self.weights, x))


def least_squares(xs: Sequence[Sequence[float]], ys: Sequence[float], ridge: float = 1e-6) -> Fit:
    """The weights and bias minimising the squared error of `bias + w . x` against y, plus
    `ridge` times the squared weights (not the bias) scaled by each feature's variance, so that a
    feature that is constant or a sum of others gets a small weight instead of none at all."""
    n, k = len(xs), len(xs[0]) if xs else 0
    if n == 0:
        raise ValueError("no rows to fit")
    means = [sum(x[j] for x in xs) / n for j in range(k)]
    y_mean = sum(ys) / n
    cx = [[x[j] - means[j] for j in range(k)] for x in xs]
    cy = [y - y_mean for y in ys]
    a = [[sum(r[i] * r[j] for r in cx) for j in range(k)] for i in range(k)]
    b = [sum(r[i] * y for r, y in zip(cx, cy)) for i in range(k)]
    for i in range(k):
        a[i][i] += ridge * (a[i][i] + 1.0)
    w = _solve(a, b)
    bias = y_mean - sum(wj * mj for wj, mj in zip(w, means))
    sse = sum((bias + sum(wj * v for wj, v in zip(w, x)) - y) ** 2 for x, y in zip(xs, ys))
    sst = sum(v * v for v in cy)
    return Fit(tuple(w), bias, n, 1 - sse / sst if sst > 0 else math.nan, math.sqrt(sse / n))


def _solve(a: list, b: list) -> list:
    """x with a x = b, by Gaussian elimination with partial pivoting (a is symmetric positive
    definite after the ridge, so a pivot is never zero)."""
    k = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(k):
        p = max(range(col, k), key=lambda r: abs(m[r][col]))
        m[col], m[p] = m[p], m[col]
        for r in range(col + 1, k):
            f = m[r][col] / m[col][col]
            for c in range(col, k + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * k
    for r in range(k - 1, -1, -1):
        x[r] = (m[r][k] - sum(m[r][c] * x[c] for c in range(r + 1, k))) / m[r][r]
    return x


def fit_groups(rows: Sequence[tuple], ridge: float = 1e-6) -> dict:
    """rows of (group, features, target): a Fit per group."""
    groups: dict = {}
    for g, x, y in rows:
        groups.setdefault(g, ([], []))
        groups[g][0].append(x)
        groups[g][1].append(y)
    return {g: least_squares(xs, ys, ridge) for g, (xs, ys) in sorted(groups.items())}
