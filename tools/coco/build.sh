#!/bin/sh
# Builds the two programs that compare benchfn/bbob and `mmaes bbob`'s
# logger with COCO's own C core:
#
#   tools/coco/build.sh COCO_CHECKOUT OUTDIR
#
# COCO_CHECKOUT is a checkout of github.com/numbbo/coco-experiment (the
# comparisons in docs/bbob.md used commit e6356d2e, COCO 2.8.2). It writes
# OUTDIR/bbobeval (for MMAES_COCO_EVAL) and OUTDIR/cocolog (for
# MMAES_COCO_LOGGER).
set -eu
coco=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
core="$coco/src/coco_random.c $coco/src/coco_suite.c $coco/src/coco_observer.c $coco/src/coco_archive.c $coco/src/coco_version.c $coco/src/coco_runtime_c.c"
for prog in bbobeval cocolog; do
	# shellcheck disable=SC2086
	python3 "$here/amalgamate.py" "$out/$prog-all.c" $core "$here/$prog.c"
	gcc -O2 -w -o "$out/$prog" "$out/$prog-all.c" -lm
	rm "$out/$prog-all.c"
done
# shellcheck disable=SC2086
python3 "$here/amalgamate.py" "$out/cocolib-all.c" $core "$here/cocolib.c"
gcc -O2 -w -shared -fPIC -o "$out/libcocolib.so" "$out/cocolib-all.c" -lm
rm "$out/cocolib-all.c"
