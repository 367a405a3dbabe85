#!/usr/bin/env python3
"""fuzz-index-seeds.py FIXSCAN: make the cache loader's fuzz seed and
reproducers again (tests/fuzz/corpus/index, tests/fuzz/regressions/index)
after a change of the cache format: the sample kernel of gen-kernel.py,
its linux-next as a pending ref, indexed by FIXSCAN; then one copy per
field made out of range in every element (the harness fixes up the
checksum), each of which the loader must refuse as inconsistent.

The layout is read from the file: the header is 56 bytes and a section
table, whose first section (the commits) starts right after it; the
sections are found by their number in lib/index/format.h (SEC_*, given
below: change them with the enum)."""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

SEC_COMMITS, SEC_REFS, SEC_REFKEYS, SEC_PENDING = 0, 2, 3, 12
COMMIT, REF, PCOMMIT, PREF = 40, 32, 40, 28

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
fixscan = os.path.abspath(sys.argv[1])
tmp = tempfile.mkdtemp(prefix='fuzz-index-seeds.')
kernel = os.path.join(tmp, 'kernel')
subprocess.run([sys.executable, os.path.join(top, 'scripts', 'gen-kernel.py'), 'sample', kernel],
               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
subprocess.run(['git', '-C', kernel, 'config', 'fixscan.pending', 'refs/remotes/next/*'], check=True)
env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, 'cache'), GIT_CONFIG_GLOBAL=os.devnull)
subprocess.run([fixscan, 'index', '--repo', kernel], check=True, env=env, stdout=subprocess.DEVNULL)
cdir = os.path.join(tmp, 'cache', 'fixscan')
data = bytes(open(os.path.join(cdir, [f for f in os.listdir(cdir) if f.endswith('.idx')][0]), 'rb').read())
nsec = (struct.unpack_from('<Q', data, 56)[0] - 56) // 16
secs = [struct.unpack_from('<QQ', data, 56 + 16 * i) for i in range(nsec)]

corpus = os.path.join(top, 'tests', 'fuzz', 'corpus', 'index')
regr = os.path.join(top, 'tests', 'fuzz', 'regressions', 'index')
for d in (corpus, regr):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
open(os.path.join(corpus, 'sample-pending.idx'), 'wb').write(data)


def variant(name, edits):
    d = bytearray(data)
    for off, fmt, val in edits:
        struct.pack_into(fmt, d, off, val)
    open(os.path.join(regr, name), 'wb').write(d)


co, cn = secs[SEC_COMMITS]
ro, rn = secs[SEC_REFS]
ko, kn = secs[SEC_REFKEYS]
variant('commit-branch-out-of-range', [(co + COMMIT * i + 34, '<B', 250) for i in range(cn)])
variant('commit-ref-first-out-of-range', [(co + COMMIT * i + 24, '<I', 0xffffff00) for i in range(cn)])
variant('commit-release-out-of-range', [(co + COMMIT * i + 32, '<H', 60000) for i in range(cn)])
variant('ref-keylen-over-40', [(ro + REF * i + 20, '<B', 41) for i in range(rn)])
variant('ref-kind-out-of-range', [(ro + REF * i + 21, '<B', 9) for i in range(rn)])
variant('ref-source-out-of-range', [(ro + REF * i + 24, '<I', 0x7fffffff) for i in range(rn)])
variant('refkey-out-of-range', [(ko + 4 * i, '<I', 0x7fffffff) for i in range(kn)])

po = secs[SEC_PENDING][0]
ntips, ncommits, nparents, nrefs = struct.unpack_from('<4I', data, po)
al = lambda n: (n + 7) // 8 * 8
commits = po + 24 + al(ntips * 48)
parents = commits + al(ncommits * PCOMMIT)
refs = parents + al(nparents * 4)
variant('pending-commit-tip-out-of-range', [(commits + PCOMMIT * i + 36, '<H', 7) for i in range(ncommits)])
variant('pending-parent-out-of-range', [(parents + 4 * i, '<I', 0x7fffffff) for i in range(nparents)])
variant('pending-ref-keylen-short', [(refs + PREF * i + 20, '<B', 6) for i in range(nrefs)])
variant('pending-ref-commit-out-of-range', [(refs + PREF * i + 24, '<I', 99) for i in range(nrefs)])
variant('pending-counts-too-large', [(po + 4, '<I', 0xfffffff0)])
shutil.rmtree(tmp)
print('fuzz-index-seeds: %d sections; %d commits, %d pending' % (nsec, cn, ncommits))
