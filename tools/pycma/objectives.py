"""pycma 4.4.0 on the problems of docs/objectives.md: the badly scaled sphere
(CMA_stds against the well-scaled problem and against no scales) and the
16-D ellipsoid with 8 coordinates fixed (fixed_variables against the reduced
problem), medians of 15 seeds.

    python3 objectives.py PYCMA_DIR
"""
import sys, warnings
sys.path.insert(0, sys.argv[1])
warnings.simplefilter("ignore")
import cma, numpy as np
n = 8
s = np.array([10 ** (-3 + 6 * i / (n - 1)) for i in range(n)])
shift = np.array([1, -2, 0.5, 3, -1, 2, -0.5, 1.5])
f = lambda x: float(np.sum((np.asarray(x) / s - shift) ** 2))
g = lambda u: float(np.sum((np.asarray(u) - shift) ** 2))
def run(fun, x0, sigma, opts, seed):
    o = dict(ftarget=1e-10, verbose=-9, seed=seed, maxfevals=200000, tolfun=0, tolx=0)
    o.update(opts)
    es = cma.CMAEvolutionStrategy(x0, sigma, o)
    es.optimize(fun)
    return es.countevals, es.best.f
res = {"scaled (CMA_stds)": [], "well-scaled": [], "without": []}
for seed in range(1, 16):
    res["scaled (CMA_stds)"].append(run(f, np.zeros(n), 1, {"CMA_stds": s}, seed)[0])
    res["well-scaled"].append(run(g, np.zeros(n), 1, {}, seed)[0])
    res["without"].append(run(f, np.zeros(n), 1e-3, {}, seed)[0])
for k, v in res.items():
    print(k, "median evals", np.median(v))
# Fixed: 16-D ellipsoid, odd coordinates fixed
n = 16
fixed = {i: 0.25 * i for i in range(1, n, 2)}
def fe(x):
    x = np.asarray(x)
    return float(sum(10 ** (3 * i / (n - 1)) * (x[i] - 1 - 0.1 * i) ** 2 for i in range(n)))
xm = np.array([1 + 0.1 * i for i in range(n)])
for i, v in fixed.items(): xm[i] = v
fmin = fe(xm)
ev_fixed, ev_red = [], []
for seed in range(1, 16):
    x0 = np.full(n, 0.5)
    for i, v in fixed.items(): x0[i] = v
    o = dict(ftarget=fmin + 1e-8, verbose=-9, seed=seed, maxfevals=200000, fixed_variables=fixed)
    es = cma.CMAEvolutionStrategy(x0, 2, o); es.optimize(fe); ev_fixed.append(es.countevals)
    free = [i for i in range(n) if i not in fixed]
    def fr(u):
        x = np.array(xm); 
        for k, i in enumerate(free): x[i] = u[k]
        return fe(x)
    o = dict(ftarget=fmin + 1e-8, verbose=-9, seed=seed, maxfevals=200000)
    es = cma.CMAEvolutionStrategy(np.full(len(free), 0.5), 2, o); es.optimize(fr); ev_red.append(es.countevals)
print("pycma fixed_variables median", np.median(ev_fixed), "reduced problem", np.median(ev_red))
