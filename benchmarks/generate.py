"""Seeded TREC runs and qrels for the benchmarks.

``python benchmarks/generate.py OUTDIR TOPICS DOCS [SEED]`` writes
``OUTDIR/run_{TOPICS}x{DOCS}.txt`` and ``OUTDIR/qrels_{TOPICS}x{DOCS}.txt``.
:func:`generate_real`, :func:`generate_stacked`, :func:`generate_track` and :func:`generate_tracks`
write runs of the shape researchers have (real-shaped docnos, ties, graded qrels, two tracks'
runs stacked in one file, many runs against one qrels, several tracks); :func:`generate_one_topic`
and :func:`generate_many_topics` the big shapes (a 200 MB topic, 100,000 one-document topics).

The run has DOCS documents for each of TOPICS topics, scores rounded to two
decimals (so many ties, broken by docno), written topic by topic with the
rank column.  The qrels judge 150-330 documents per topic with grades 0/1/2:
about two thirds from the run, the rest never retrieved; one topic in twenty
has no relevant document at all.  Existing files are kept.
"""

from __future__ import annotations

import os
import sys

import numpy as np

COLLECTION = 50_000_000  # docnos are drawn from doc00000000 ... doc49999999


def _paths(outdir, topics, docs):
    tag = f"{topics}x{docs}"
    return os.path.join(outdir, f"qrels_{tag}.txt"), os.path.join(outdir, f"run_{tag}.txt")


def _topic_docs(rng, n):
    # distinct docnos for one topic
    d = np.unique(rng.integers(0, COLLECTION, size=int(n * 1.1) + 10))
    rng.shuffle(d)
    return d[:n]


def generate(outdir, topics, docs, seed=42):
    """Write the qrels and run (unless present); return their paths."""
    qpath, rpath = _paths(outdir, topics, docs)
    if os.path.exists(qpath) and os.path.exists(rpath):
        return qpath, rpath
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(seed)
    tmp_q, tmp_r = qpath + ".part", rpath + ".part"
    with open(tmp_q, "w") as fq, open(tmp_r, "w") as fr:
        for t in range(topics):
            qid = str(101 + t)
            cand = _topic_docs(rng, docs + 100)
            retrieved, unretrieved = cand[:docs], cand[docs:]
            scores = np.sort(np.round(rng.gamma(2.0, 3.0, size=docs), 2))[::-1]
            # relevant documents lean towards the top of the ranking
            n_judged = int(rng.integers(150, 300))
            pick = np.unique(np.minimum(rng.exponential(docs / 3, size=n_judged).astype(np.int64), docs - 1))
            judged = np.concatenate((retrieved[pick], unretrieved[: int(rng.integers(20, 100))]))
            p_rel = 0.0 if t % 20 == 7 else float(rng.uniform(0.05, 0.4))
            u = rng.random(len(judged))
            grades = np.where(u < p_rel * 0.4, 2, np.where(u < p_rel, 1, 0))
            order = rng.permutation(len(judged))
            fq.write(
                "".join(f"{qid} 0 doc{d:08d} {g}\n" for d, g in zip(judged[order].tolist(), grades[order].tolist()))
            )
            fr.write(
                "".join(
                    f"{qid} Q0 doc{d:08d} {i} {s:.2f} bench\n"
                    for i, (d, s) in enumerate(zip(retrieved.tolist(), scores.tolist()), 1)
                )
            )
    os.replace(tmp_q, qpath)
    os.replace(tmp_r, rpath)
    return qpath, rpath


def _real_docnos(rng, n):
    """``n`` distinct docnos of real shapes: MS MARCO passages, ClueWeb12, KILT and WaPo passages (20-40 chars)."""
    kind = rng.integers(0, 4, size=n)
    a = rng.integers(0, 60, size=n)
    b = rng.integers(0, 10**6, size=n)
    c = rng.integers(0, 100, size=n)
    d = rng.integers(0, 10**5, size=n)
    h = rng.integers(0, 2**62, size=n)
    out = []
    for k, x, y, z, w, v in zip(kind.tolist(), a.tolist(), b.tolist(), c.tolist(), d.tolist(), h.tolist()):
        if k == 0:
            out.append(f"MARCO_{x:02d}-{y:06d}-{z}")
        elif k == 1:
            out.append(f"clueweb12-{x:02d}{z:02d}tw-{z:02d}-{w:05d}")
        elif k == 2:
            out.append(f"KILT_{y}{z:02d}-{w % 300}")
        else:
            out.append(f"WAPO_{v:016x}-{y:06x}-p-{z}")
    return list(dict.fromkeys(out))


def generate_real(outdir, topics=5000, docs=1000, seed=7):
    """Write a real-shaped run and qrels (unless present); return their paths.

    Docnos like ``MARCO_12-345678-9`` and ``clueweb12-0012tw-12-04412`` (20-40 characters),
    topics ``1001`` ... written in file order, scores with one decimal so that long blocks
    tie, graded qrels (0-4, a few -2) of 200 judgments per topic, a quarter of them never
    retrieved.
    """
    tag = f"real_{topics}x{docs}"
    qpath, rpath = os.path.join(outdir, f"qrels_{tag}.txt"), os.path.join(outdir, f"run_{tag}.txt")
    if os.path.exists(qpath) and os.path.exists(rpath):
        return qpath, rpath
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(seed)
    with open(qpath + ".part", "w") as fq, open(rpath + ".part", "w") as fr:
        for t in range(topics):
            qid = str(1001 + t)
            names = _real_docnos(rng, docs + 80)
            retrieved, unretrieved = names[:docs], names[docs:]
            scores = np.sort(np.round(rng.gamma(3.0, 2.0, size=len(retrieved)), 1))[::-1]
            pick = np.unique(np.minimum(rng.exponential(docs / 4, size=170).astype(np.int64), len(retrieved) - 1))
            judged = [retrieved[i] for i in pick.tolist()] + unretrieved[: 200 - len(pick)]
            grades = rng.choice([0, 1, 2, 3, 4, -2], size=len(judged), p=[0.55, 0.2, 0.1, 0.08, 0.05, 0.02])
            fq.write("".join(f"{qid} 0 {d} {g}\n" for d, g in zip(judged, grades.tolist())))
            fr.write(
                "".join(
                    f"{qid} Q0 {d} {i} {s:.1f} real\n" for i, (d, s) in enumerate(zip(retrieved, scores.tolist()), 1)
                )
            )
    os.replace(qpath + ".part", qpath)
    os.replace(rpath + ".part", rpath)
    return qpath, rpath


def _robust_docnos(rng, n):
    """``n`` distinct docnos of TREC disks 4 and 5 (the Robust tracks): FBIS, FT, LA Times, Federal Register."""
    kind = rng.integers(0, 4, size=n)
    a = rng.integers(1, 68_000, size=n)
    b = rng.integers(1, 13, size=n)
    c = rng.integers(1, 29, size=n)
    out = []
    for k, x, m, d in zip(kind.tolist(), a.tolist(), b.tolist(), c.tolist()):
        if k == 0:
            out.append(f"FBIS{3 + x % 2}-{x}")
        elif k == 1:
            out.append(f"FT9{x % 5}{m % 10}-{x % 20_000}")
        elif k == 2:
            out.append(f"LA{m:02d}{d:02d}{89 + x % 2}-{x % 9000:04d}")
        else:
            out.append(f"FR94{m:02d}{d:02d}-{x % 3}-{x % 40_000:05d}")
    return list(dict.fromkeys(out))


def _cast_docnos(rng, n):
    """``n`` distinct passage ids of TREC CAsT 2021: MS MARCO documents, KILT and Washington Post, split into
    passages (``MARCO_D1234567-3``, ``KILT_105172-3``, ``WAPO_<uuid>-3``)."""
    kind = rng.choice(3, size=n, p=[0.35, 0.15, 0.5])
    a = rng.integers(0, 3_200_000, size=n)
    p = rng.integers(1, 30, size=n)
    u = rng.integers(0, 2**62, size=(n, 2))
    out = []
    for k, x, q, (h, g) in zip(kind.tolist(), a.tolist(), p.tolist(), u.tolist()):
        if k == 0:
            out.append(f"MARCO_D{x}-{q}")
        elif k == 1:
            out.append(f"KILT_{x % 6_000_000}-{q}")
        else:
            w = f"{h:016x}{g:016x}"
            out.append(f"WAPO_{w[:8]}-{w[8:12]}-{w[12:16]}-{w[16:20]}-{w[20:32]}-{q}")
    return list(dict.fromkeys(out))


def generate_stacked(outdir, seed=13):
    """Two tracks' runs stacked in one file, and their qrels stacked likewise: 473,000 lines; return the paths.

    The shape of two real runs put in one file: a Robust 2003-like run (100 topics ``303`` ... of
    1,000 documents of TREC disks 4 and 5, ``FBIS3-10082``, scores with four decimals,
    qrels of about 1,000 judgments a topic, grades 0-2) followed by a CAsT 2021-like run
    (373 turns ``106_1`` ... of 1,000 passages, ``MARCO_D1234567-3``, ``KILT_105172-3``,
    ``WAPO_<uuid>-3``, scores written as Python writes a double, negative ones too, a tag
    of its own, graded qrels 0-4 of about 150 judgments a turn, a long tag): 34 MiB, a real-sized
    run of long docnos and long scores.
    """
    qpath, rpath = os.path.join(outdir, "qrels_stacked.txt"), os.path.join(outdir, "run_stacked.txt")
    if os.path.exists(qpath) and os.path.exists(rpath):
        return qpath, rpath
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(seed)
    robust = [str(t) for t in range(303, 451)][:50] + [str(t) for t in range(601, 651)]
    cast = [f"{t}_{k}" for t in range(106, 160) for k in range(1, 8)][:373]
    with open(qpath + ".part", "w") as fq, open(rpath + ".part", "w") as fr:
        cast_grades = ([0, 1, 2, 3, 4], [0.6, 0.15, 0.12, 0.08, 0.05])
        for qids, names, tag, decimals, judged_n, grades in (
            (robust, _robust_docnos, "pircRB03t3", 4, (700, 1300), ([0, 1, 2], [0.9, 0.08, 0.02])),
            (cast, _cast_docnos, "clarke-auto-rerank-t5", None, (80, 220), cast_grades),
        ):
            for qid in qids:
                pool = names(rng, 1400)
                retrieved, rest = pool[:1000], pool[1000:]
                scores = np.sort(rng.normal(5.0, 4.0, size=len(retrieved)))[::-1]
                top = int(rng.integers(*judged_n))
                pick = np.unique(np.minimum(rng.exponential(300, size=top).astype(np.int64), len(retrieved) - 1))
                judged = [retrieved[i] for i in pick.tolist()] + rest[: max(0, top - len(pick))]
                g = rng.choice(grades[0], size=len(judged), p=grades[1])
                order = rng.permutation(len(judged))
                fq.write("".join(f"{qid} 0 {judged[i]} {g[i]}\n" for i in order.tolist()))
                fr.write(
                    "".join(
                        f"{qid} Q0 {d} {i} {s if decimals is None else round(s, decimals)!r} {tag}\n"
                        for i, (d, s) in enumerate(zip(retrieved, scores.tolist()), 1)
                    )
                )
    os.replace(qpath + ".part", qpath)
    os.replace(rpath + ".part", rpath)
    return qpath, rpath


def generate_track(outdir, runs=100, topics=50, docs=1000, seed=11):
    """Write a track's qrels and ``runs`` run files (unless present); return (qrels, [runs]).

    The work a researcher does: every run submitted to a track evaluated against one qrels.
    Each run ranks ``docs`` documents for each of ``topics`` topics (real-shaped docnos, as in
    :func:`generate_real`), drawn from a per-topic pool shared by all runs, so that runs
    overlap as real submissions do; scores with two decimals (ties); qrels of 300 judgments
    per topic from the pool, graded 0-2.
    """
    folder = os.path.join(outdir, f"track_{runs}x{topics}x{docs}" + (f"_{seed}" if seed != 11 else ""))
    qpath = os.path.join(folder, "qrels.txt")
    paths = [os.path.join(folder, f"run{k:03d}.txt") for k in range(runs)]
    if os.path.exists(qpath) and all(os.path.exists(p) for p in paths):
        return qpath, paths
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(seed)
    pools = [_real_docnos(rng, 3 * docs) for _ in range(topics)]
    qids = [str(401 + t) for t in range(topics)]
    with open(qpath + ".part", "w") as fq:
        for qid, pool in zip(qids, pools):
            judged = rng.choice(len(pool), size=300, replace=False)
            grades = rng.choice([0, 1, 2], size=300, p=[0.6, 0.3, 0.1])
            fq.write("".join(f"{qid} 0 {pool[j]} {g}\n" for j, g in zip(judged.tolist(), grades.tolist())))
    os.replace(qpath + ".part", qpath)
    for k, path in enumerate(paths):
        with open(path + ".part", "w") as fr:
            for qid, pool in zip(qids, pools):
                picked = rng.choice(len(pool), size=docs, replace=False)
                scores = np.sort(np.round(rng.gamma(2.0, 3.0, size=docs), 2))[::-1]
                fr.write(
                    "".join(
                        f"{qid} Q0 {pool[j]} {i} {s:.2f} sys{k}\n"
                        for i, (j, s) in enumerate(zip(picked.tolist(), scores.tolist()), 1)
                    )
                )
        os.replace(path + ".part", path)
    return qpath, paths


#: The runs of :func:`generate_tracks`' six tracks: 27 in all.
TRACK_RUNS = (5, 5, 5, 4, 4, 4)


def generate_tracks(outdir):
    """Six tracks' qrels and runs (27 runs, :data:`TRACK_RUNS`), each as :func:`generate_track` makes one; return
    a list of (qrels, [runs]): the runs of several tracks, evaluated one call per qrels."""
    return [generate_track(outdir, runs=n, topics=50, docs=1000, seed=100 + k) for k, n in enumerate(TRACK_RUNS)]


def generate_one_topic(outdir, lines=3_650_000, seed=5):
    """Write a run of one topic of ``lines`` real-shaped documents (about 200 MB) and its qrels; return their paths.

    Scores with one decimal (long ties), 2,000 judgments graded 0-2, half of them never retrieved.
    """
    qpath, rpath = os.path.join(outdir, "qrels_one_topic.txt"), os.path.join(outdir, f"run_one_topic_{lines}.txt")
    if os.path.exists(qpath) and os.path.exists(rpath):
        return qpath, rpath
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(seed)
    step = 200_000
    judged = []
    with open(rpath + ".part", "w") as fr:
        for start in range(0, lines, step):
            names = [f"{n}-{start + i}" for i, n in enumerate(_real_docnos(rng, step)[: min(step, lines - start)])]
            scores = np.round(rng.gamma(3.0, 2.0, size=len(names)), 1)
            fr.write(
                "".join(f"701 Q0 {d} {start + i + 1} {s:.1f} one\n" for i, (d, s) in enumerate(zip(names, scores)))
            )
            judged += [names[i] for i in rng.choice(len(names), size=1000 * step // lines + 1, replace=False)]
    grades = rng.choice([0, 1, 2], size=len(judged) + 1000, p=[0.6, 0.3, 0.1])
    with open(qpath + ".part", "w") as fq:
        fq.write(
            "".join(f"701 0 {d} {g}\n" for d, g in zip(judged + [f"unretrieved-{k}" for k in range(1000)], grades))
        )
    os.replace(qpath + ".part", qpath)
    os.replace(rpath + ".part", rpath)
    return qpath, rpath


def generate_many_topics(outdir, topics=100_000, seed=9):
    """Write ``topics`` topics of one retrieved document each, and a qrels judging one document per topic."""
    qpath, rpath = os.path.join(outdir, f"qrels_{topics}x1.txt"), os.path.join(outdir, f"run_{topics}x1.txt")
    if os.path.exists(qpath) and os.path.exists(rpath):
        return qpath, rpath
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(seed)
    grades = rng.choice([0, 1, 2], size=topics, p=[0.5, 0.3, 0.2])
    hit = rng.random(topics) < 0.7  # the judged document is the one retrieved
    with open(qpath + ".part", "w") as fq, open(rpath + ".part", "w") as fr:
        fq.write("".join(f"q{t} 0 doc-{t}-a {g}\n" for t, g in zip(range(topics), grades.tolist())))
        fr.write(
            "".join(f"q{t} Q0 doc-{t}-{'a' if h else 'b'} 1 1.0 many\n" for t, h in zip(range(topics), hit.tolist()))
        )
    os.replace(qpath + ".part", qpath)
    os.replace(rpath + ".part", rpath)
    return qpath, rpath


if __name__ == "__main__":
    out, n_topics, n_docs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    print(*generate(out, n_topics, n_docs, int(sys.argv[4]) if len(sys.argv) > 4 else 42))
