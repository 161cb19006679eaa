"""Concatenates C sources, inlining each local #include "file" once, so that
COCO's C core compiles as one translation unit: amalgamate.py OUT SRC..."""
import re
import sys
from pathlib import Path

seen, out = set(), []


def add(path):
    path = Path(path).resolve()
    if path in seen:
        return
    seen.add(path)
    for line in open(path):
        m = re.match(r'\s*#include\s+"(.*)"', line)
        if m and (path.parent / m.group(1)).exists():
            add(path.parent / m.group(1))
        else:
            out.append(line)


for src in sys.argv[2:]:
    add(src)
Path(sys.argv[1]).write_text("".join(out))
