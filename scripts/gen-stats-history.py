#!/usr/bin/env python3
"""gen-stats-history.py: kernel-like histories for testing `fixscan stats`.

    gen-stats-history.py DIR [--series 4.4,4.5,4.6,3.14]

Builds a git repository in DIR (git init + git fast-import) with a mainline
branch `master` carrying the release tags v3.14, v4.4, v4.5 and v4.6, and
one stable branch per series (linux-4.4.y, ...) forked at its release and
tagged at each stable release.  Each series is built to the counts of the
LWN measurement of June 2016 (patches, patches with a Fixes: tag or revert
line, pairs of patches of the series where one fixes the other):

    series  releases  patches  with fixes  pairs
    4.6     3           314       144        2
    4.5     7           973       437        9
    4.4     14        1,712       632       39
    3.14    73        4,779     1,098      105

The 4.4 pairs are spread over its releases as in the article's table; the
other series' pairs are drawn from a fixed pseudo-random sequence.  The
histories carry the cases a counter must get right: reverts of stable
commits that name the stable id ("This reverts commit S which was / commit
U upstream."), backported mainline reverts naming the upstream id, fixes in
the same release, a fix that is itself fixed, a fix naming two introducers,
Fixes: tags with 7- and 12-digit abbreviations, full ids and the "commit"
form, a Fixes: naming a stable id, a merge commit, patches with no upstream
line or an upstream id the repository does not have, and Fixes: tags
naming commits outside the range (mainline commits before the fork, other
stable branches, ids no repository has), which must not count.

DIR/expected.json describes what was built: per series the branch, its
base, per release the number of patches, patches with fixes and mapped
patches, and the pairs in release order with both commits' ids.

Everything is a pure function of this file: fixed names, dates and
contents, so the ids are always the same.  They are computed here (git's
object format: "<type> <len>\\0<body>", SHA-1) and checked against what
git fast-import wrote.

Python 3 standard library only.
"""

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys

# --------------------------------------------------------------------------
# What to build

# (intro release, intro label, fix release, fix label) of the 4.4 pairs,
# following the article's table.  A label names one patch: "c30" is both the
# fixer of row 30 and the introducer of row 34 (a fix that itself needed a
# fix); rows 16 and 17 share their fixer "f16" (one patch fixing two).
PAIRS_44 = [
    (1, 1, 'f'), (1, 2, 'f'), (1, 3, 'f'), (1, 4, 'f'), (1, 10, 'f'), (1, 1, 'f'),
    (2, 9, 'f'), (2, 3, 'f'), (2, 8, 'f'), (2, 2, 'f'), (2, 10, 'f'),
    (3, 12, 'f'), (3, 6, 'f'), (3, 10, 'f'), (3, 3, 'f'),
    (4, 6, 'f16'), (4, 6, 'f16'), (4, 6, 'f'), (4, 4, 'f'), (4, 5, 'f'),
    (4, 5, 'f'), (4, 7, 'f'),
    (5, 6, 'f'), (5, 6, 'f'),
    (7, 9, 'f'), (7, 9, 'f'), (7, 7, 'f'), (7, 9, 'f'), (7, 13, 'f'),
    (7, 9, 'c30'), (7, 7, 'f'), (7, 9, 'f'), (7, 9, 'f'),
    (9, 9, 'f'), (9, 11, 'f'),
    (11, 14, 'f'), (12, 14, 'f'), (14, 14, 'f'), (14, 14, 'f'),
]
# Row (1-based) -> how its fixer names the introducer.
KINDS_44 = {
    2: 'fixfull', 3: 'fixcommit', 5: 'revert-stable', 8: 'fix7',
    12: 'fixstable', 16: 'multi', 17: 'multi', 20: 'fix-and-outside',
    21: 'fix-twice', 26: 'revert-stable', 29: 'revert-upstream',
    33: 'fixfull', 35: 'revert-stable', 38: 'fixcommit',
}
ROW_34_INTRO = 'c30'      # row 34's introducer is row 30's fixer
STABLE_ONLY_INTRO_44 = 12 # row 12's introducer has no upstream line

SERIES = {
    # name: (releases, patches, with fixes, pairs)
    '4.6': (3, 314, 144, 2),
    '4.5': (7, 973, 437, 9),
    '4.4': (14, 1712, 632, 39),
    '3.14': (73, 4779, 1098, 105),
}
# Mainline order of the releases, and the order the branches are built in
# (a branch may name commits of the branches built before it).
MAINLINE_ORDER = ['3.14', '4.4', '4.5', '4.6']
BUILD_ORDER = ['4.6', '4.5', '4.4', '3.14']
OTHER_KINDS = ['fix12', 'fix12', 'fixfull', 'fixcommit', 'revert-stable',
               'revert-upstream', 'fixstable', 'fix12', 'fix7']
MISC_PER_SERIES = 200
UNMAPPED_RATE = 0.007

SUBSYS = ['net', 'mm', 'fs/ext4', 'drm/i915', 'usb', 'x86/mm', 'btrfs', 'sched',
          'ALSA: hda', 'scsi', 'powerpc', 'arm64', 'nfs', 'xfs', 'block', 'tty']
VERBS = ['fix', 'avoid', 'handle', 'check', 'drop', 'restore', 'limit', 'clear']
NOUNS = ['refcount leak', 'NULL dereference', 'race on teardown', 'overflow in length',
         'missing lock', 'stale pointer', 'wrong error code', 'use after free',
         'off-by-one in loop', 'uninitialised field']
AUTHORS = [('Ada Stone', 'ada@example.org'), ('Ben Okafor', 'ben@example.net'),
           ('Chen Wei', 'chen@example.com'), ('Dora Lind', 'dora@example.org'),
           ('Emil Novak', 'emil@example.net')]
MAINTAINER = ('Stable Keeper', 'keeper@example.org')
LINUS = ('Release Manager', 'release@example.org')
BASE_TS = 1262304000  # 2010-01-01


def die(msg):
    sys.stderr.write('gen-stats-history: %s\n' % msg)
    sys.exit(1)


# --------------------------------------------------------------------------
# git objects, computed here so ids are known before git writes them

def git_hash(kind, data):
    return hashlib.sha1(b'%s %d\0' % (kind, len(data)) + data).hexdigest()


class Commit:
    __slots__ = ('ref', 'parents', 'msg', 'ts', 'who', 'content', 'id', 'mark', 'subject')


class History:
    """Commits in the order they are streamed; ids computed on add."""

    def __init__(self):
        self.commits = []
        self.tags = []  # (name, commit)
        self.ts = BASE_TS

    def add(self, ref, parents, msg, who):
        c = Commit()
        c.ref = ref
        c.parents = parents
        c.msg = msg.encode()
        self.ts += 600
        c.ts = self.ts
        c.who = who
        c.mark = len(self.commits) + 1
        c.content = b'change %d\n' % c.mark
        blob = git_hash(b'blob', c.content)
        tree = git_hash(b'tree', b'100644 history.txt\0' + bytes.fromhex(blob))
        ident = ('%s <%s> %d +0000' % (who[0], who[1], c.ts)).encode()
        body = b'tree ' + tree.encode() + b'\n'
        for p in parents:
            body += b'parent ' + p.id.encode() + b'\n'
        body += b'author ' + ident + b'\ncommitter ' + ident + b'\n\n' + c.msg
        c.id = git_hash(b'commit', body)
        self.commits.append(c)
        return c

    def tag(self, name, c):
        self.tags.append((name, c))

    def stream(self, out):
        w = out.write
        for c in self.commits:
            ident = ('%s <%s> %d +0000' % (c.who[0], c.who[1], c.ts)).encode()
            w(b'commit ' + c.ref.encode() + b'\n')
            w(b'mark :%d\n' % c.mark)
            w(b'author ' + ident + b'\ncommitter ' + ident + b'\n')
            w(b'data %d\n' % len(c.msg) + c.msg)
            if c.parents:
                w(b'from :%d\n' % c.parents[0].mark)
                for p in c.parents[1:]:
                    w(b'merge :%d\n' % p.mark)
            else:
                w(b'deleteall\n')
            w(b'M 100644 inline history.txt\n')
            w(b'data %d\n' % len(c.content) + c.content + b'\n')
        for name, c in self.tags:
            w(b'reset refs/tags/' + name.encode() + b'\nfrom :%d\n\n' % c.mark)


# --------------------------------------------------------------------------
# The abstract series: patches with roles, before any id exists

class Patch:
    """One stable patch.  fixes: list of (kind, target Patch) naming
    introducers of the series; outside: a target outside the range."""

    def __init__(self, release):
        self.release = release  # 1-based
        self.subject = None
        self.upstream = 'real'  # 'real', 'none' (stable only), 'unknown'
        self.fixes = []
        self.outside = None
        self.up = None   # mainline Commit
        self.commit = None
        self.revert_of = None  # Patch or mainline Commit it reverts (subject)


class Series:
    def __init__(self, name, rng):
        self.name = name
        self.rng = rng
        self.releases, self.npatches, self.nfixes, self.npairs = SERIES[name]
        self.base = 'v' + name
        self.branch = 'linux-%s.y' % name
        self.patches = []  # in branch order, filled by layout()
        self.pairs = []    # (introducer, fixer)
        self.misc = []     # mainline commits before the fork, never backported


def subject_for(rng, serial):
    return '%s: %s %s (%d)' % (rng.choice(SUBSYS), rng.choice(VERBS),
                               rng.choice(NOUNS), serial)


def plan_pairs(s):
    """The pair specs of series S: (intro release, fix release, kind, fix label,
    intro label)."""
    out = []
    if s.name == '4.4':
        for row, (ri, rf, fl) in enumerate(PAIRS_44, 1):
            kind = KINDS_44.get(row, 'fix12')
            intro = ROW_34_INTRO if row == 34 else 'i%d' % row
            fix = fl if fl != 'f' else 'f%d' % row
            out.append((ri, rf, kind, fix, intro))
        return out
    rng = s.rng
    for k in range(s.npairs):
        ri = rng.randrange(1, s.releases + 1)
        rf = min(s.releases, ri + rng.choice([0, 0, 1, 1, 2, 3, 5]))
        out.append((ri, rf, OTHER_KINDS[k % len(OTHER_KINDS)], 'f%d' % k, 'i%d' % k))
    return out


def layout(s):
    """Place every patch of S in its release, roles first."""
    rng = s.rng
    specs = plan_pairs(s)
    by_label = {}
    order = []  # creation order: an introducer before its fixer

    def get(label, rel):
        p = by_label.get(label)
        if p is None:
            p = by_label[label] = Patch(rel)
            order.append(p)
        elif p.release != rel:
            die('%s: label %s in two releases' % (s.name, label))
        return p

    for row, (ri, rf, kind, fl, il) in enumerate(specs, 1):
        intro = get(il, ri)
        fixer = get(fl, rf)
        fixer.fixes.append((kind, intro))
        s.pairs.append((intro, fixer))
        if s.name == '4.4' and row == STABLE_ONLY_INTRO_44:
            intro.upstream = 'none'
    for p in order:
        for kind, _ in p.fixes:
            if kind == 'revert-stable':
                p.upstream = 'none'  # a stable-only revert has no upstream

    # Release sizes: fixed pseudo-random weights, at least the specials.
    weights = [rng.uniform(0.6, 1.4) for _ in range(s.releases)]
    total = sum(weights)
    sizes = [int(s.npatches * w / total) for w in weights]
    for i in range(s.npatches - sum(sizes)):
        sizes[i % s.releases] += 1
    specials = {r: [p for p in order if p.release == r] for r in range(1, s.releases + 1)}
    for r in range(1, s.releases + 1):
        if sizes[r - 1] < len(specials[r]) + 3:
            die('%s: release %d too small' % (s.name, r))
    for r in range(1, s.releases + 1):
        n = sizes[r - 1]
        slots = [None] * n
        where = sorted(rng.sample(range(n), len(specials[r])))
        for pos, p in zip(where, specials[r]):
            slots[pos] = p
        for i in range(n):
            if slots[i] is None:
                slots[i] = Patch(r)
        s.patches.extend(slots)

    # Fix lines naming nothing in the range, on non-fixers, to reach the
    # count of patches with fixes; a few patches without a mainline id.
    fixers = [p for p in s.patches if p.fixes]
    others = [p for p in s.patches if not p.fixes]
    need = s.nfixes - len(fixers)
    if need < 0:
        die('%s: more fixers than patches with fixes' % s.name)
    for p in rng.sample(others, need):
        p.outside = True
    intros = set(id(i) for i, _ in s.pairs)
    plain = [p for p in others if p.upstream == 'real' and id(p) not in intros]
    nun = max(2, round(s.npatches * UNMAPPED_RATE))
    for k, p in enumerate(rng.sample(plain, nun)):
        p.upstream = 'none' if k % 2 == 0 else 'unknown'
    for serial, p in enumerate(s.patches):
        p.subject = subject_for(rng, serial)


# --------------------------------------------------------------------------
# Commit messages

def sob(who):
    return 'Signed-off-by: %s <%s>\n' % who


def abbrev(h, kind):
    a = {'fix7': h[:7], 'fixfull': h}.get(kind, h[:12])
    if len(a) < 40:
        USED_ABBREVS.add(a)
    return a


def fix_line(kind, hexid, subject):
    if kind == 'fixcommit':
        return 'Fixes: commit %s ("%s")\n' % (hexid[:12], subject)
    return 'Fixes: %s ("%s")\n' % (abbrev(hexid, kind), subject)


def build_mainline(h, series, unknown_rng):
    """Mainline: misc commits before each fork, the upstream commits of each
    series after its fork, release commits tagged."""
    tip = None

    def add(msg, who):
        nonlocal tip
        tip = h.add('refs/heads/master', [tip] if tip else [], msg, who)
        return tip

    add('Initial import\n', LINUS)
    rng = random.Random('mainline')
    prev = None
    for name in MAINLINE_ORDER:
        if prev is not None and prev in series:
            emit_upstreams(series[prev], add, rng)
        if name in series:
            s = series[name]
            for k in range(MISC_PER_SERIES):
                who = AUTHORS[k % len(AUTHORS)]
                subj = subject_for(rng, 100000 + len(h.commits))
                c = add('%s\n\nA change that stable never took.\n\n%s' % (subj, sob(who)), who)
                c.subject = subj
                s.misc.append(c)
        h.tag('v' + name, add('Linux %s\n' % name, LINUS))
        prev = name
    if prev in series:
        emit_upstreams(series[prev], add, rng)
    for k in range(5):
        add('%s\n\nLater mainline work.\n\n%s' % (subject_for(rng, 900000 + k), sob(LINUS)),
            LINUS)


def emit_upstreams(s, add, rng):
    """One mainline commit per stable patch of S that has an upstream."""
    for p in s.patches:
        if p.upstream != 'real':
            continue
        who = AUTHORS[hash_small(p.subject) % len(AUTHORS)]
        lines = []
        subj = p.subject
        for kind, intro in p.fixes:
            if kind == 'revert-upstream':
                subj = 'Revert "%s"' % intro.subject
                lines.append('This reverts commit %s.\n' % intro.up.id)
        msg = '%s\n\n%sThe change as merged upstream.\n\n%s' % (
            subj, ''.join(lines) + ('\n' if lines else ''), sob(who))
        p.up = add(msg, who)
        p.up.subject = subj


def hash_small(text):
    return int(hashlib.sha1(text.encode()).hexdigest()[:6], 16)


def stable_message(s, p, others, rng):
    """The changelog of stable patch P of S."""
    subj = p.subject
    body = []
    tags = []
    for kind, intro in p.fixes:
        if kind in ('revert-stable', 'revert-upstream'):
            subj = 'Revert "%s"' % intro.subject
    if p.upstream == 'real':
        form = hash_small(p.subject) % 20
        if form == 0:
            body.append('[ Upstream commit %s ]\n\n' % p.up.id)
        elif form == 1:
            tags.append('(cherry picked from commit %s)\n' % p.up.id)
        else:
            body.append('commit %s upstream.\n\n' % p.up.id)
    elif p.upstream == 'unknown':
        fake = hashlib.sha1(('no such commit ' + p.subject).encode()).hexdigest()
        body.append('commit %s upstream.\n\n' % fake)
    reverts = []
    for kind, intro in p.fixes:
        up = intro.up.id if intro.up else None
        if kind == 'revert-stable':
            if up:
                reverts.append('This reverts commit %s which was\ncommit %s upstream.\n\n'
                               % (intro.commit.id, up))
            else:
                reverts.append('This reverts commit %s.\n\n' % intro.commit.id)
        elif kind == 'revert-upstream':
            reverts.append('This reverts commit %s.\n\n' % up)
        elif kind == 'fixstable' or not up:
            tags.append(fix_line('fix12', intro.commit.id, intro.subject))
        elif kind == 'fix-twice':
            tags.append(fix_line('fix12', up, intro.subject))
            tags.append(fix_line('fixfull', intro.commit.id, intro.subject))
        elif kind == 'multi':
            tags.append(fix_line('fix12' if not tags else 'fixfull', up, intro.subject))
        else:
            tags.append(fix_line(kind, up, intro.subject))
            if kind == 'fix-and-outside':
                t = s.misc[hash_small(p.subject) % len(s.misc)]
                tags.append(fix_line('fix12', t.id, t.subject))
    if p.outside:
        tags.append(outside_line(s, p, others, rng, body))
    text = subj + '\n\n' + ''.join(body) + ''.join(reverts)
    text += 'Something was wrong here; this puts it right.\n\n'
    who = AUTHORS[hash_small(p.subject + 'a') % len(AUTHORS)]
    text += ''.join(tags) + sob(who) + sob(MAINTAINER)
    return text


def outside_line(s, p, others, rng, body):
    """A Fixes: tag or revert line naming a commit outside S's range."""
    pick = rng.randrange(100)
    if pick < 6:
        fake = hashlib.sha1(('unknown target ' + p.subject).encode()).hexdigest()
        return fix_line('fix12', fake, 'a commit nobody has')
    if pick < 10 and others:
        o = others[pick % len(others)]
        q = o.patches[hash_small(p.subject) % len(o.patches)]
        if pick < 8 and q.commit:   # another branch's stable id
            return fix_line('fix12', q.commit.id, q.subject)
        if q.up:                    # a mainline commit only another branch took
            return fix_line('fixfull', q.up.id, q.up.subject)
    t = s.misc[hash_small(p.subject + 'm') % len(s.misc)]
    if pick < 14:
        body.append('This reverts commit %s.\n\n' % t.id)
        return ''
    kind = ['fix12', 'fix12', 'fix12', 'fixcommit', 'fixfull', 'fix7'][pick % 6]
    return fix_line(kind, t.id, t.subject)


def build_branch(h, s, base_commit, others):
    rng = random.Random('branch ' + s.name)
    tip = base_commit
    ref = 'refs/heads/' + s.branch
    merged = False
    for r in range(1, s.releases + 1):
        rel = [p for p in s.patches if p.release == r]
        for k, p in enumerate(rel):
            msg = stable_message(s, p, others, rng)
            who = AUTHORS[hash_small(p.subject + 'a') % len(AUTHORS)]
            if r == 2 and k == 5 and not merged and not p.fixes:
                # One patch arrives through a merge, which is no patch.
                side = h.add('refs/heads/side-' + s.name, [tip], msg, who)
                p.commit = side
                tip = h.add(ref, [tip, side], "Merge branch 'side-%s' into %s\n"
                            % (s.name, s.branch), MAINTAINER)
                merged = True
                continue
            p.commit = tip = h.add(ref, [tip], msg, who)
        name = '%s.%d' % (s.name, r)
        tip = h.add(ref, [tip], 'Linux %s\n' % name, MAINTAINER)
        h.tag('v' + name, tip)


def expected(series):
    out = {}
    for name, s in series.items():
        rels = ['v%s.%d' % (name, r) for r in range(1, s.releases + 1)]
        per = []
        for r in range(1, s.releases + 1):
            ps = [p for p in s.patches if p.release == r]
            per.append({'release': rels[r - 1], 'patches': len(ps),
                        'with_fixes': sum(1 for p in ps if p.fixes or p.outside),
                        'mapped': sum(1 for p in ps if p.upstream == 'real')})
        pos = {id(p): i for i, p in enumerate(s.patches)}
        pairs = sorted(s.pairs, key=lambda ab: (ab[0].release, pos[id(ab[0])],
                                                ab[1].release, pos[id(ab[1])]))
        out[name] = {
            'branch': s.branch, 'base': s.base, 'releases': rels, 'per_release': per,
            'patches': len(s.patches),
            'with_fixes': sum(x['with_fixes'] for x in per),
            'mapped': sum(x['mapped'] for x in per),
            'pairs': [{'introduced': {'release': rels[a.release - 1], 'id': a.commit.id},
                       'fixed': {'release': rels[b.release - 1], 'id': b.commit.id}}
                      for a, b in pairs],
        }
    return out


USED_ABBREVS = set()


def check_abbrevs(h):
    """Every abbreviation a Fixes: tag uses must name one commit; the fixed
    contents make this a property of the spec, checked once here."""
    count = {a: 0 for a in USED_ABBREVS}
    for c in h.commits:
        for n in (7, 12):
            if c.id[:n] in count:
                count[c.id[:n]] += 1
    for a, n in count.items():
        if n > 1:
            die('abbreviation %s names %d commits; change the spec' % (a, n))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('dir')
    ap.add_argument('--series', default=','.join(MAINLINE_ORDER),
                    help='comma-separated series to build (default: all)')
    args = ap.parse_args()
    names = [n for n in args.series.split(',') if n]
    for n in names:
        if n not in SERIES:
            die("unknown series '%s'" % n)
    series = {}
    for n in MAINLINE_ORDER:
        if n in names:
            series[n] = Series(n, random.Random('series ' + n))
            layout(series[n])
    h = History()
    build_mainline(h, series, None)
    forks = {name: c for name, c in h.tags}
    built = []
    for n in BUILD_ORDER:
        if n in series:
            build_branch(h, series[n], forks['v' + n], [series[b] for b in built])
            built.append(n)
    check_abbrevs(h)

    if os.path.exists(args.dir):
        die("'%s' exists" % args.dir)
    subprocess.run(['git', 'init', '-q', '-b', 'master', args.dir], check=True)
    marks = os.path.join(os.path.abspath(args.dir), '.git', 'stats-marks')
    proc = subprocess.Popen(['git', '-C', args.dir, 'fast-import', '--quiet',
                             '--export-marks=' + marks], stdin=subprocess.PIPE)
    h.stream(proc.stdin)
    proc.stdin.close()
    if proc.wait() != 0:
        die('git fast-import failed')
    with open(marks) as f:
        for line in f:
            mark, sha = line.split()
            c = h.commits[int(mark[1:]) - 1]
            if c.id != sha:
                die('commit :%d is %s, computed %s' % (c.mark, sha, c.id))
    os.unlink(marks)
    # The side branch of the merge is no branch anyone tracks.
    for n in series:
        subprocess.run(['git', '-C', args.dir, 'update-ref', '-d',
                        'refs/heads/side-' + n], check=False)
    with open(os.path.join(args.dir, 'expected.json'), 'w') as f:
        json.dump(expected(series), f, indent=1, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main()
