"""Pools several seeds of `mmaes bbob` (its COCO .info files) and of
pycma_bbob.py (its run files) and compares them as `mmaes bbob`'s summary
does: solved (function, instance) pairs per dimension (the mean over the
seeds) and the geometric mean of the ERT ratio mmaes/pycma over the
functions both solve (ERT over all seeds' runs).

    python3 pooled.py --mmaes out-seed0/mmaes-recommended,out-seed1/mmaes-recommended \\
        --pycma pycma-seed1.txt,pycma-seed2.txt [--target 1e-8]

A run of mmaes that reached the target stopped there, so its evaluations
are those to the target.
"""
import argparse
import glob
import math
import re
from collections import defaultdict


def read_mmaes(folder, target):
    runs = []  # (f, dim, evals, hit)
    for path in glob.glob(folder + "/bbobexp_f*.info"):
        f = dim = None
        for line in open(path):
            m = re.match(r"suite = .*funcId = (\d+), DIM = (\d+)", line)
            if m:
                f, dim = int(m.group(1)), int(m.group(2))
                continue
            if line.startswith("data_"):
                for item in line.split(",")[1:]:
                    _, rest = item.strip().split(":")
                    evals, best = rest.split("|")
                    evals = int(evals)
                    runs.append((f, dim, evals, evals if float(best) <= target else 0))
    return runs


def read_pycma(path):
    runs = []
    for line in open(path):
        if line.startswith("#"):
            continue
        f, dim, _, evals, hit, _ = line.split()
        runs.append((int(f), int(dim), int(evals), int(hit)))
    return runs


def table(runs):
    spent, solved, count = defaultdict(int), defaultdict(int), defaultdict(int)
    for f, dim, evals, hit in runs:
        spent[f, dim] += hit if hit else evals
        solved[f, dim] += hit > 0
        count[f, dim] += 1
    return spent, solved, count


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mmaes", required=True)
    p.add_argument("--pycma", required=True)
    p.add_argument("--target", type=float, default=1e-8)
    a = p.parse_args()
    ms, ps = a.mmaes.split(","), a.pycma.split(",")
    m = table([r for d in ms for r in read_mmaes(d, a.target)])
    q = table([r for f in ps for r in read_pycma(f)])
    dims = sorted({d for _, d in m[2]})
    print("seeds: mmaes %d, pycma %d" % (len(ms), len(ps)))
    print()
    print("| dim | mmaes solved (mean over seeds) | pycma solved | geometric mean ERT ratio mmaes/pycma (functions) |")
    print("|---|---|---|---|")
    logs_all = []
    for dim in dims:
        fs = sorted(f for f, d in m[2] if d == dim)
        sm = sum(m[1][f, dim] for f in fs) / len(ms)
        sp = sum(q[1][f, dim] for f in fs) / len(ps)
        total = sum(m[2][f, dim] for f in fs) // len(ms)
        logs = []
        for f in fs:
            if m[1][f, dim] and q[1][f, dim]:
                ert_m = m[0][f, dim] / m[1][f, dim]
                ert_p = q[0][f, dim] / q[1][f, dim]
                logs.append(math.log(ert_m / ert_p))
        logs_all += logs
        g = math.exp(sum(logs) / len(logs)) if logs else float("nan")
        print("| %d | %.1f/%d | %.1f/%d | %.2f (%d) |" % (dim, sm, total, sp, total, g, len(logs)))
    print()
    print("all dimensions: geometric mean ERT ratio %.2f (%d pairs)" % (math.exp(sum(logs_all) / len(logs_all)), len(logs_all)))


if __name__ == "__main__":
    main()
