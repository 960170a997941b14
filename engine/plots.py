"""Plots on request (`--plot FILE.png`), with matplotlib from the optional `plot` extra."""
from __future__ import annotations

from .diagnostics import UsageError
from .outputs import NewFile


def check_plot_target(path: str, command: str) -> NewFile:
    """Fail before a long run, not after it: the path must be new, in a folder that can be
    written, and matplotlib there. The picture is written through the NewFile returned."""
    target = NewFile("--plot", path, (".png", ".svg", ".pdf"), command)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--plot needs matplotlib, which is not installed; install it with "
                         "pip install -e '.[plot]'") from None
    return target


def _save(fig, target: NewFile) -> None:
    """The figure written to the plot's file, in the format its name ends with."""
    plt = _pyplot()
    try:
        target.write_all(lambda f: fig.savefig(f, format=target.ending[1:]), binary=True)
    finally:
        plt.close(fig)


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def best_score_curve(target: NewFile, improvements, fm_calls: int, title: str):
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
    _save(fig, target)


def score_histogram(target: NewFile, counts: dict, title: str):
    """How many terminal paths end with each final score (seed 001's histogram)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4))
    scores = sorted(counts)
    ax.bar(scores, [float(counts[s]) for s in scores], width=0.8)  # counts past a C long: matplotlib takes floats
    ax.set_xlabel("final score")
    ax.set_ylabel("terminal paths")
    ax.set_title(title)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    _save(fig, target)
