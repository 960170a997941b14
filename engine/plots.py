"""Plots on request (`--plot FILE.png`), with matplotlib from the optional `plot` extra."""
from __future__ import annotations

import os

from .diagnostics import UsageError


def check_plot_target(path: str):
    """Fail before a long run, not after it: the path must be new, and matplotlib there."""
    if not path.lower().endswith((".png", ".svg", ".pdf")):
        raise UsageError(f"--plot {path}: expected a file name ending in .png, .svg or .pdf")
    if os.path.exists(path):
        raise UsageError(f"--plot {path}: the file exists; choose a new name (nothing is overwritten)")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--plot needs matplotlib, which is not installed; install it with "
                         "pip install -e '.[plot]'") from None


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def best_score_curve(path: str, improvements, fm_calls: int, title: str):
    """The best score found against forward-model calls spent (seed 001's MCTS figure)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    if improvements:
        xs = [c for c, _ in improvements] + [fm_calls]
        ys = [v for _, v in improvements] + [improvements[-1][1]]
        ax.step(xs, ys, where="post")
    ax.set_xlabel("forward-model calls")
    ax.set_ylabel("best score found")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def score_histogram(path: str, counts: dict, title: str):
    """How many terminal paths end with each final score (seed 001's histogram)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    scores = sorted(counts)
    ax.bar(scores, [counts[s] for s in scores], width=0.8)
    ax.set_xlabel("final score")
    ax.set_ylabel("terminal paths")
    ax.set_title(title)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
