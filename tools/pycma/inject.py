"""pycma 4.4.0's inject on the problem of docs/service.md: a shifted sphere
(n = 10, optimum (1, ..., 10)) from x0 = 100 with sigma0 = 1, target 1e-10;
without injection, one point 0.5 from the optimum injected before the first
generation, and the run started at that point; medians of 15 seeds.

    python3 inject.py PYCMA_DIR
"""
import sys, warnings
sys.path.insert(0, sys.argv[1])
warnings.simplefilter("ignore")
import cma, numpy as np
n = 10
opt = np.arange(1, n + 1, dtype=float)
f = lambda x: float(np.sum((np.asarray(x) - opt) ** 2))
near = opt + 0.5
res = {"none": [], "inject": [], "start": []}
for seed in range(1, 16):
    for mode in res:
        x0 = near if mode == "start" else np.full(n, 100.0)
        es = cma.CMAEvolutionStrategy(x0, 1, dict(ftarget=1e-10, verbose=-9, seed=seed, maxfevals=1e6))
        if mode == "inject":
            es.inject([near])
        while not es.stop():
            X = es.ask()
            es.tell(X, [f(x) for x in X])
        res[mode].append(es.countevals)
for k, v in res.items():
    print(k, np.median(v), np.median(v) / np.median(res["none"]))
