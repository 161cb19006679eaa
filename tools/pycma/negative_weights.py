import sys, warnings
warnings.simplefilter("ignore")
sys.path.insert(0, "/tmp/pycma")
import cma
print("# pycma 4.4.0: for CMAEvolutionStrategy(n*[0], 1, {'popsize': lam}): lam, n, weights.mu, weights.mueff,")
print("# the c1 and cmu of its sampler (es.sm.parameters()), then the lam-mu weights after the positive ones")
for lam, n in [(2, 1), (3, 2), (5, 2), (6, 2), (8, 5), (10, 10), (11, 10), (12, 20), (17, 40), (40, 5), (160, 5), (640, 10), (1280, 2), (100, 100), (25, 1000)]:
    es = cma.CMAEvolutionStrategy(n * [0], 1, {'popsize': lam, 'verbose': -9, 'CMA_mirrors': 0})
    w = es.sp.weights
    p = es.sm.parameters(mueff=w.mueff, lam=lam)
    assert abs(p['c1'] - es.sp.c1) < 1e-15 and abs(p['cmu'] - es.sp.cmu) < 1e-15, (p, es.sp.c1, es.sp.cmu)
    print(lam, n, w.mu, repr(w.mueff), repr(p['c1']), repr(p['cmu']), " ".join(repr(x) for x in list(w)[w.mu:]))
