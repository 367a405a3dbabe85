#!/usr/bin/env python3
"""Append labeller A's labels (keyed by reply_id; `id` is the row name when
labelled, which may shift), typed as `id|code|role|commits|note` lines on
stdin (code o/r/n/p/h; role a/m/s/t/o or empty to keep the computed one),
to tests/real/corpus40/labels-a.tsv (a later line for an id replaces an
earlier one when merged)."""
import os
import sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus40 import LABELS, ROLES, C40, read_tsv  # noqa: E402

path = os.path.join(C40, 'labels-a.tsv')
ids = {}
for name in ('train', 'test', 'relabel'):
    f = os.path.join(C40, name + '.tsv')
    if os.path.exists(f):
        for r in read_tsv(f):
            ids[r['id']] = r['reply_id']
new = not os.path.exists(path)
out = []
for ln in sys.stdin:
    ln = ln.strip()
    if not ln or ln.startswith('#'):
        continue
    p = [x.strip() for x in ln.split('|', 4)]
    if len(p) != 5 or p[1] not in LABELS or (p[2] and p[2] not in ROLES):
        sys.exit('bad line: ' + ln)
    if p[0] not in ids:
        sys.exit('unknown row: ' + p[0])
    out.append('\t'.join([ids[p[0]], p[0], LABELS[p[1]], ROLES.get(p[2], ''), p[3].replace(',', ' '),
                          p[4].replace('\t', ' ')]))
with open(path, 'a', encoding='utf-8') as f:
    if new:
        f.write('reply_id\tid\tlabel\trole\tcommits\tnote\n')
    f.write('\n'.join(out) + '\n')
print('%d labels added' % len(out))
import subprocess  # noqa: E402
subprocess.run([sys.executable, os.path.join(HERE, 'corpus40.py'), 'merge'], check=True)
