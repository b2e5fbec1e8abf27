"""The other evaluators, each run as its own process by ``bench.py``.

``python benchmarks/contenders.py pytrec_eval QRELS RUN`` parses both files
with pytrec_eval's own ``parse_qrel``/``parse_run`` and evaluates map,
gm_map, recip_rank, P, ndcg and Rprec, averaging with
``compute_aggregated_measure`` as trec_eval does.

``python benchmarks/contenders.py ir_measures QRELS RUN`` reads the files with
ir_measures' ``read_trec_qrels``/``read_trec_run`` and computes AP, RR, P@k
(trec_eval's cutoffs), nDCG and Rprec per topic with ``iter_calc`` on its
default provider (pytrec_eval, for these measures); ir_measures has no
gm_map, so the geometric mean of AP (floor 1e-5) is taken from the per-topic
values.  Both print the averages, so no work can be skipped.
"""

import math
import sys

CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)


def run_pytrec_eval(qrels_path, run_path):
    import pytrec_eval

    with open(qrels_path) as fh:
        qrels = pytrec_eval.parse_qrel(fh)
    with open(run_path) as fh:
        run = pytrec_eval.parse_run(fh)
    measures = {"map", "gm_map", "recip_rank", "P", "ndcg", "Rprec"}
    per_topic = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    names = sorted(next(iter(per_topic.values())))
    for name in names:
        values = [v[name] for v in per_topic.values()]
        print(name, pytrec_eval.compute_aggregated_measure(name, values))


def run_ir_measures(qrels_path, run_path):
    import ir_measures

    names = ["AP", "RR", "nDCG", "Rprec"] + [f"P@{k}" for k in CUTOFFS]
    measures = [ir_measures.parse_measure(n) for n in names]
    qrels = ir_measures.read_trec_qrels(qrels_path)
    run = ir_measures.read_trec_run(run_path)
    values = {}
    for metric in ir_measures.iter_calc(measures, qrels, run):
        values.setdefault(str(metric.measure), []).append(metric.value)
    for name, v in values.items():
        print(name, sum(v) / len(v))
    ap = values["AP"]
    print("gm_map", math.exp(sum(math.log(max(a, 1e-5)) for a in ap) / len(ap)))


if __name__ == "__main__":
    which, q, r = sys.argv[1:4]
    {"pytrec_eval": run_pytrec_eval, "ir_measures": run_ir_measures}[which](q, r)
