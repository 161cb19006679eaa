"""Runs pycma's BIPOP-aCMA-ES on COCO's bbob suite through COCO's C core, as
the reference of `mmaes bbob -pycma`:

    python3 pycma_bbob.py --pycma PYCMA_DIR --lib OUTDIR/libcocolib.so \\
        --dims 2,5,10,20 --instances 1-15 --out pycma-runs.txt [--resume]

PYCMA_DIR is a checkout of github.com/CMA-ES/pycma (tag r4.4.0 for the
figures of docs/bbob.md), libcocolib.so what build.sh makes. Every run: x0 =
the origin, sigma0 = 2, cma.fmin2(..., restarts=9, bipop=True) with maxfevals
= budget*n over all restarts and ftarget = f_opt + 1e-8 (COCO's final target).
Each output line: function, dimension, instance, evaluations, evaluations to
the target (0: not reached), best f - f_opt.
"""
import argparse
import ctypes
import multiprocessing
import sys


def ranges(s):
    out = []
    for part in s.split(","):
        a, _, b = part.partition("-")
        out += range(int(a), int(b or a) + 1)
    return out


def run(job):
    args, f, dim, inst = job
    sys.path.insert(0, args.pycma)
    import warnings
    warnings.simplefilter("ignore")
    import cma
    import numpy as np
    lib = ctypes.CDLL(args.lib)
    lib.cocolib_eval.restype = ctypes.c_double
    lib.cocolib_fopt.restype = ctypes.c_double
    if lib.cocolib_open(f, dim, inst) != 0:
        raise SystemExit("no problem f%d %d-D instance %d" % (f, dim, inst))
    fopt = lib.cocolib_fopt()
    target = fopt + args.target
    state = {"evals": 0, "hit": 0, "best": float("inf")}
    buf = (ctypes.c_double * dim)()

    def objective(x):
        for i in range(dim):
            buf[i] = x[i]
        y = lib.cocolib_eval(buf)
        state["evals"] += 1
        state["best"] = min(state["best"], y)
        if state["hit"] == 0 and y <= target:
            state["hit"] = state["evals"]
        return y

    budget = int(args.budget * dim)
    opts = {"maxfevals": budget, "ftarget": target, "verbose": -9,
            "seed": args.seed + f * 100003 + dim * 1009 + inst}
    cma.fmin2(objective, np.zeros(dim), args.sigma0, opts, restarts=9, bipop=True)
    return "%d %d %d %d %d %.6e" % (f, dim, inst, state["evals"], state["hit"], state["best"] - fopt)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--pycma", required=True)
    p.add_argument("--lib", required=True)
    p.add_argument("--functions", default="1-24")
    p.add_argument("--dims", default="2,5,10,20")
    p.add_argument("--instances", default="1-5")
    p.add_argument("--budget", type=float, default=1e4)
    p.add_argument("--sigma0", type=float, default=2)
    p.add_argument("--target", type=float, default=1e-8)
    p.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    p.add_argument("--seed", type=int, default=1, help="added to every run's seed (which follows from the problem)")
    p.add_argument("--out", required=True)
    p.add_argument("--resume", action="store_true",
                   help="keep the runs already in --out and append the missing ones (each run is seeded by its problem)")
    args = p.parse_args()
    done = set()
    if args.resume:
        try:
            with open(args.out) as old:
                for line in old:
                    fields = line.split()
                    if len(fields) == 6 and not line.startswith("#"):
                        done.add(tuple(int(v) for v in fields[:3]))
        except FileNotFoundError:
            pass
    jobs = [(args, f, d, i) for d in ranges(args.dims) for f in ranges(args.functions) for i in ranges(args.instances)
            if (f, d, i) not in done]
    # the expensive problems (large dimensions) first, for a balanced pool
    jobs.sort(key=lambda j: -j[2])
    with multiprocessing.Pool(args.jobs) as pool, open(args.out, "a" if done else "w") as out:
        if not done:
            out.write("# pycma %s BIPOP on bbob: f dim instance evals hit best-fopt\n" % "4.4.0")
        for k, line in enumerate(pool.imap_unordered(run, jobs), 1):
            out.write(line + "\n")
            out.flush()
            print("\r%d/%d %s" % (k, len(jobs), line), end="", file=sys.stderr)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
