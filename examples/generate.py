"""Writes the example files of this folder (run from the repository's root: .venv/bin/python examples/generate.py).

The qrels and runs are made up, small enough to read by eye, and made so that the "feedback" run
gains on the easy topics and loses on the hard ones: MAP calls it better than "baseline", GMAP
worse. scores.csv is an excerpt of real data: TREC-8 ad hoc, per-topic AP of its first eight runs
(see lib/irmeans/datasets/data/README.md for the source, licence and citation).
"""

from __future__ import annotations

import pathlib

import numpy as np

HERE = pathlib.Path(__file__).parent
TOPICS = [str(t) for t in range(401, 411)]
DEPTH = 50


def main() -> None:
    rng = np.random.default_rng(2006)
    qrels, runs = [], {"baseline": [], "feedback": [], "phrases": []}
    for i, topic in enumerate(TOPICS):
        docs = [f"FT{topic}-{d:04d}" for d in rng.choice(10_000, size=120, replace=False)]
        n_rel = int(rng.integers(3, 15))
        grades = {doc: (2 if k < n_rel // 3 else 1) if k < n_rel else 0 for k, doc in enumerate(docs[:40])}
        qrels += [f"{topic} 0 {doc} {g}" for doc, g in sorted(grades.items())]
        relevant = [d for d, g in grades.items() if g > 0]
        hard = i % 2 == 1  # every other topic is hard: few relevant documents near the top
        for name, run in runs.items():
            strength = {"baseline": 0.9, "feedback": 1.2 if not hard else 0.5, "phrases": 1.0}[name]
            strength *= 0.35 if hard else 1.0
            # a relevant document's score is raised by the system's strength on this topic
            score = {d: rng.normal() + (strength * 2 if d in relevant else 0) for d in docs}
            ranked = sorted(score, key=lambda d: -score[d])[:DEPTH]
            run += [f"{topic} Q0 {d} {r} {score[d]:.4f} {name}" for r, d in enumerate(ranked, start=1)]
    (HERE / "qrels.txt").write_text("\n".join(qrels) + "\n")
    for name, run in runs.items():
        (HERE / "runs" / f"{name}.txt").write_text("\n".join(run) + "\n")
    write_scores_excerpt()


def write_scores_excerpt() -> None:
    """Eight TREC-8 runs spread over the range of MAP, all 50 topics, a row per system."""
    from irmeans import datasets

    m = datasets.load("adhoc8", "ap")
    order = np.argsort(-m.scores.mean(axis=1))
    picks = sorted(set(order[np.linspace(0, len(order) - 1, 8).round().astype(int)[:-1]].tolist() + [int(order[60])]))
    rows = ["system," + ",".join(m.topics)]
    rows += [m.systems[s] + "," + ",".join(f"{v:.4f}" for v in m.scores[s]) for s in picks]
    (HERE / "scores.csv").write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
