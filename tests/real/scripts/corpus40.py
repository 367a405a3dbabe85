#!/usr/bin/env python3
"""The issue-40 reply corpus: rows, a labelling view, and the merge of labels.

    corpus40.py rows CANDIDATES.tsv [--mirrors DIR]
        write tests/real/corpus40/{train,test}.tsv from the sampled rows of
        harvest40.py's candidates.tsv: row id, sources, parent kind, the
        replier's role and what the reply quotes (both computed from the
        mails, the role checked by the labeller), label columns empty.
    corpus40.py show FILE.tsv [ID... | --from ID --count N] [--mirrors DIR]
        print each row's context and the reply's own text (quotes,
        attributions and signatures stripped; long texts cut, with the
        lines that carry action words kept).  Never prints a label.
    corpus40.py merge
        fill the label columns of train/test from corpus40/labels-a.tsv,
        labels-b.tsv and adjudicated.tsv (see final_label()).
    corpus40.py threads CANDIDATES.tsv...
        write tests/real/corpus40/threads.tsv: for each row, the other
        replies of its thread in its list's archive (id, message id, the
        mail it answers, source), from harvest40.py's candidates (every
        reply whose thread starts at a stable posting, sampled or not).
    corpus40.py export DIR FILE.tsv... [--mirrors DIR] [--threads]
        write the labelled rows' mails and DIR/labels.tsv for realcheck.py
        and train-replies.py; with --threads also each row's thread as
        threads.tsv lists it (<id>.thread-NN.eml), as fixscan reads a
        review: the posting with every reply to it.

The mails stay outside the repository: they are read from the fetched
archives (see harvest40.py, real-corpus.py --corpus40 rebuilds them).
"""
import argparse
from collections import Counter
import csv
import email
import email.policy
import email.utils
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.dirname(HERE)
C40 = os.path.join(REAL, 'corpus40')
sys.path.insert(0, HERE)
import harvest40 as hv  # noqa: E402

COLS = ['id', 'split', 'list', 'year', 'reply_id', 'in_reply_to', 'parent_id', 'depth',
        'reply_source', 'parent_source', 'parent_kind', 'stratum', 'replier', 'replier_role',
        'quotes', 'label_a', 'commits', 'note_a', 'label_b', 'note_b', 'label_final']
LABELS = {'o': 'objection', 'r': 'report', 'n': 'needs-also', 'p': 'replacement', 'h': 'harmless'}
ROLES = {'a': 'author', 'm': 'maintainer', 's': 'stable-maintainer', 't': 'test-farm', 'o': 'other'}
ARCH = re.compile(r'^linux-mailinglist-archives/([A-Za-z0-9._-]+)@([0-9a-f]{40}):m$')


def read_tsv(path):
    with open(path, encoding='utf-8', newline='') as f:
        return list(csv.DictReader(f, delimiter='\t', quoting=csv.QUOTE_NONE))


def write_tsv(path, rows, cols):
    tmp = path + '.tmp'
    with open(tmp, 'w', encoding='utf-8', newline='') as f:
        f.write('\t'.join(cols) + '\n')
        for r in rows:
            f.write('\t'.join(str(r.get(c, '') or '').replace('\t', ' ').replace('\n', ' ')
                              for c in cols) + '\n')
    os.replace(tmp, path)


class Mails:
    def __init__(self, mirrors, cache='/work/realmail-cache'):
        self.mirrors = mirrors
        self.cache = cache

    def get(self, source, msgid=''):
        m = ARCH.match(source or '')
        if m:
            gd = os.path.join(self.mirrors, 'linux-mailinglist-archives+' + m.group(1), 'repo')
            if os.path.isdir(os.path.join(gd, '.git')):
                gd = os.path.join(gd, '.git')
            p = subprocess.run(['git', '--git-dir', gd, 'show', m.group(2) + ':m'], capture_output=True)
            if p.returncode == 0:
                return p.stdout
        if msgid and self.cache:
            key = re.sub(r'[^A-Za-z0-9._@+=-]', '_', msgid.strip().strip('<>'))
            path = os.path.join(self.cache, key + '.eml')
            if os.path.isfile(path):
                return open(path, 'rb').read()
        return None


def people(text):
    """(name, address) pairs of trailer lines and a leading From: line."""
    out = []
    for m in re.finditer(r'^\s*(From|Signed-off-by|Acked-by|Reviewed-by|Author)\s*:\s*(.+)$', text, re.M | re.I):
        name, addr = email.utils.parseaddr(m.group(2))
        out.append((m.group(1).lower(), name.strip().lower(), addr.strip().lower()))
    return out


def norm_name(n):
    n = re.sub(r'["\'()]', '', n or '').lower()
    n = re.sub(r'\s+via\s+.*$', '', n)
    return ' '.join(n.split())


def role_of(reply_from, parent_data, parent_from):
    name, addr = email.utils.parseaddr(reply_from)
    addr, name = addr.lower(), norm_name(name)
    if addr in hv.STABLE_MAINTAINERS or name in ('greg kroah-hartman', 'greg kh', 'sasha levin',
                                                   'greg kroah hartman', 'ben hutchings'):
        return 'stable-maintainer'
    if hv.TEST_FARMS_RE.search(addr) or re.search(r'\bbot\b|robot', name):
        return 'test-farm'
    if parent_data is None:
        return 'other'
    body = hv.body_of(parent_data)
    # the changelog part only: trailers before the diff
    log = body.split('\n---\n', 1)[0]
    ps = people(log)
    pname, paddr = email.utils.parseaddr(parent_from)
    authors = {(norm_name(pname), paddr.lower())} if paddr.lower() not in hv.STABLE_MAINTAINERS else set()
    sob = [p for p in ps if p[0] == 'signed-off-by']
    for kind, n, a in ps:
        if kind in ('from', 'author'):
            authors.add((norm_name(n), a))
    if sob and not any(k in ('from', 'author') for k, _, _ in ps) and paddr.lower() in hv.STABLE_MAINTAINERS:
        authors.add((norm_name(sob[0][1]), sob[0][2]))
    for n, a in authors:
        if (a and a == addr) or (n and n == name):
            return 'author'
    for kind, n, a in ps:
        if kind in ('signed-off-by', 'acked-by', 'reviewed-by'):
            if (a and a == addr) or (norm_name(n) and norm_name(n) == name):
                return 'maintainer'
    return 'other'


def quotes_of(body):
    q = [ln for ln in body.replace('\r\n', '\n').split('\n') if re.match(r'^\s*>', ln)]
    got = []
    ql = [re.sub(r'^(\s*>)+\s?', '', ln) for ln in q]
    if any(re.match(r'^(@@ |diff --git|--- a/|\+\+\+ b/)', ln) for ln in ql) or \
            sum(1 for ln in ql if re.match(r'^[-+][^-+]', ln)) >= 3:
        got.append('hunk')
    if any(re.match(r'^\s*Fixes:\s', ln, re.I) for ln in ql):
        got.append('fixes')
    if any(re.search(r'(commit [0-9a-f]{8,40} upstream|\[\s*upstream commit|upstream commit [0-9a-f]{8})', ln, re.I)
           for ln in ql):
        got.append('upstream')
    return ','.join(got) or 'none'


def cmd_rows(a):
    cands = [c for c in read_tsv(a.candidates) if c['sampled'] == 'yes']
    mails = Mails(a.mirrors)
    if a.extra:
        return rows_extra(a, cands, mails)
    os.makedirs(C40, exist_ok=True)
    old = {}
    for split in ('train', 'test'):
        p = os.path.join(C40, split + '.tsv')
        if os.path.exists(p):
            for r in read_tsv(p):
                old[r['reply_id']] = r
    for split, prefix in (('train', 'a'), ('test', 'h')):
        rows = sorted((c for c in cands if c['split'] == split),
                      key=lambda c: (c['list'], int(c['year']), c['reply_id']))
        out = []
        for i, c in enumerate(rows, 1):
            r = dict(c)
            r['id'] = '%s%04d' % (prefix, i)
            r.update(mail_fields(mails.get(c['reply_source'], c['reply_id']),
                                 mails.get(c['parent_source'], c['parent_id'])))
            prev = old.get(c['reply_id'])
            if prev:
                for k in ('label_a', 'commits', 'note_a', 'label_b', 'note_b', 'label_final'):
                    r[k] = prev.get(k, '')
                r['replier_role'] = prev.get('replier_role') or r['replier_role']
            out.append(r)
        write_tsv(os.path.join(C40, split + '.tsv'), out, COLS)
        print('%s: %d rows' % (split, len(out)))


def mail_fields(rd, pd):
    """The row's fields read from the reply RD and its parent PD (None when
    the parent is not archived): the replier, their role, what it quotes."""
    rh = hv.headers(rd)
    ph = hv.headers(pd) if pd else None
    pfrom = ('%s <%s>' % (ph['from_name'], ph['from_addr'])) if ph else ''
    return {'replier': rh['from_addr'],
            'replier_role': role_of('%s <%s>' % (rh['from_name'], rh['from_addr']), pd, pfrom),
            'quotes': quotes_of(hv.body_of(rd))}


def row_of(c, mails):
    """The corpus row of a candidate, or None when its mails cannot be read."""
    rd = mails.get(c['reply_source'], c['reply_id'])
    pd = mails.get(c['parent_source'], c['parent_id'])
    if rd is None or (pd is None and not c['parent_source'].startswith('stable-index:')):
        return None
    r = dict(c)
    r.update(mail_fields(rd, pd))
    return r


def rows_extra(a, cands, mails):
    """A further set of rows of split A.SPLIT (issue 40's second harvest):
    new ids, old files untouched."""
    known = set()
    for fn in os.listdir(C40):
        if fn.endswith('.tsv') and fn != a.extra:
            for r in read_tsv(os.path.join(C40, fn)):
                if r.get('reply_id'):
                    known.add(r['reply_id'])
    rows = sorted((c for c in cands if c['split'] == a.split and c['reply_id'] not in known),
                  key=lambda c: (c['list'], int(c['year']), c['reply_id']))
    out, lost = [], 0
    for c in rows:
        r = row_of(c, mails)
        if r is None:
            lost += 1
            continue
        r['id'] = '%s%04d' % (a.prefix, len(out) + 1)
        out.append(r)
    write_tsv(os.path.join(C40, a.extra), out, COLS)
    print('%s: %d rows (%d left out: mails not readable)' % (a.extra, len(out), lost))


def visible(s):
    return ''.join(ch if ch.isprintable() or ch in '\n\t' else '?' for ch in s)


ACTION_WORDS = re.compile(
    r"(drop|revert|break|broke|fail|error|wrong|\bnot\b|n't|need|also|crash|regress|oops|warn|"
    r"bisect|please|should|why|depend|prereq|follow|instead|conflict|missing|NAK|nack|"
    r"queue|appl|take|pick|backport|fix|\?)", re.I)


def shorten(own, max_lines, max_chars):
    lines = [ln.rstrip() for ln in own.split('\n')]
    # drop blank runs and a closing "thanks, greg k-h"-style tail is kept (short)
    lines = [ln for i, ln in enumerate(lines) if ln.strip() or (i and lines[i - 1].strip())]
    if len(lines) <= max_lines and sum(len(x) for x in lines) <= max_chars:
        return '\n'.join(lines)
    head = lines[:max_lines // 2]
    rest = lines[max_lines // 2:]
    keep = [ln for ln in rest if ACTION_WORDS.search(ln)][:max_lines // 2]
    out = head + (['  [... %d more lines; kept those with action words:]' % len(rest)] if rest else []) + keep
    txt = '\n'.join(out)
    return txt[:max_chars * 2]


def quoted_context(body, n=3):
    """The last n quoted lines before the reply's first own line: what a
    short answer answers."""
    run = []
    for ln in body.replace('\r\n', '\n').split('\n'):
        if re.match(r'^\s*>', ln):
            t = re.sub(r'^(\s*>)+\s?', '', ln).strip()
            if t:
                run.append(t)
            continue
        if not ln.strip() or re.search(r'wrote:\s*$', ln) or re.match(r'^\s*On .*\d', ln):
            continue
        break
    return run[-n:]


def cmd_show(a):
    rows = read_tsv(a.file)
    if a.ids:
        want = set(a.ids)
        rows = [r for r in rows if r['id'] in want]
    elif a.todo:
        rows = [r for r in rows if not r.get('label_a')][:a.count]
    elif a.start:
        ids = [r['id'] for r in rows]
        i = ids.index(a.start)
        rows = rows[i:i + a.count]
    mails = Mails(a.mirrors)
    for r in rows:
        rd = mails.get(r['reply_source'], r['reply_id'])
        pd = mails.get(r['parent_source'], r['parent_id'])
        rh = hv.headers(rd) if rd else {'subject': '?', 'from_name': '?', 'from_addr': '?'}
        if pd:
            ph = hv.headers(pd)
            log = hv.body_of(pd).split('\n---\n', 1)[0]
            ps = people(log)
            pinfo = '%s | by %s' % (ph['subject'][:140], ph['from_name'] or ph['from_addr'])
            sig = sorted({n or a for k, n, a in ps if k != 'reviewed-by'})[:8]
            if sig:
                pinfo += ' | people: ' + ', '.join(sig)
        else:
            pinfo = '(posting not archived) ' + hv.strip_re(rh['subject'])[:140]
        body = hv.body_of(rd) if rd else ''
        own = hv.own_text(body) if rd else '(reply missing)'
        print('=== %s %s %s %s d%s | role~%s | q=%s' % (r['id'], r['list'], r['year'], r['parent_kind'],
                                                     r['depth'], r['replier_role'], r['quotes']))
        print('P: ' + visible(pinfo))
        print('R: %s <%s>%s' % (visible(rh['from_name']), rh['from_addr'],
                                '' if r['depth'] == '1' else ' (to a reply)'))
        if r['depth'] != '1' or len(own) < 200:
            for q in quoted_context(body):
                print('  > ' + visible(q[:160]))
        print(visible(shorten(own, a.lines, a.chars)))


def labels_of(name):
    path = os.path.join(C40, name)
    return {r['reply_id']: r for r in read_tsv(path)} if os.path.exists(path) else {}


def final_label(la, lb, adj):
    """The label a row is measured and trained by: the two labellers'
    when they agree, the adjudicated one when they do not, the one
    label a row has so far when only one labeller reached it (train
    rows only; the test rows are all double-labelled)."""
    if la and lb:
        return la if la == lb else adj
    return la or lb


def cmd_merge(a):
    """Fill each row's label columns from the label files: label_a (with
    the role and commits labeller A checked), label_b, label_final."""
    la, lb, adj = labels_of('labels-a.tsv'), labels_of('labels-b.tsv'), labels_of('adjudicated.tsv')
    for name in ('train', 'train2', 'test', 'test2'):
        p = os.path.join(C40, name + '.tsv')
        if not os.path.exists(p):
            continue
        rows = read_tsv(p)
        cols = list(rows[0].keys()) if rows else COLS
        count = Counter()
        for r in rows:
            ra, rb, rj = la.get(r['reply_id']), lb.get(r['reply_id']), adj.get(r['reply_id'])
            r['label_a'] = ra['label'] if ra else ''
            r['note_a'] = ra.get('note', '') if ra else ''
            r['commits'] = ra.get('commits', '') if ra else ''
            r['label_b'] = rb['label'] if rb else ''
            r['note_b'] = rb.get('note', '') if rb else ''
            role = (ra or {}).get('role') or (rb or {}).get('role')
            if role:
                r['replier_role'] = role
            r['label_final'] = final_label(r['label_a'], r['label_b'], rj['final'] if rj else '')
            count['a'] += bool(ra)
            count['b'] += bool(rb)
            count['both'] += bool(ra and rb)
            count['agree'] += bool(ra and rb and ra['label'] == rb['label'])
            count['final'] += bool(r['label_final'])
        write_tsv(p, rows, cols)
        print('%s: %d rows, A %d, B %d, both %d (agree %d), final %d' %
              (name, len(rows), count['a'], count['b'], count['both'], count['agree'], count['final']))


THREAD_COLS = ['id', 'message_id', 'in_reply_to', 'source']


def cmd_threads(a):
    """Each row's thread: the candidates of its list with the same
    posting, its own reply left out, ordered by depth then message id
    (the archives do not keep a reliable order)."""
    cands = {}
    for path in a.candidates:
        for c in read_tsv(path):
            cands[(c['list'], c['reply_id'])] = c
    by_posting = {}
    for c in cands.values():
        by_posting.setdefault((c['list'], c['parent_id']), []).append(c)
    out, alone = [], 0
    for name in ('train', 'train2', 'test', 'test2'):
        p = os.path.join(C40, name + '.tsv')
        for r in read_tsv(p) if os.path.exists(p) else []:
            members = [c for c in by_posting.get((r['list'], r['parent_id']), [])
                       if c['reply_id'] != r['reply_id']]
            alone += not members
            for c in sorted(members, key=lambda c: (int(c['depth'] or 0), c['reply_id'])):
                out.append({'id': r['id'], 'message_id': c['reply_id'],
                            'in_reply_to': c['in_reply_to'], 'source': c['reply_source']})
    write_tsv(os.path.join(C40, 'threads.tsv'), out, THREAD_COLS)
    print('threads: %d thread replies; %d rows are alone in their thread' % (len(out), alone),
          file=sys.stderr)


def thread_of(rows_path=None):
    """threads.tsv as {row id: [member rows]}; {} when it is absent."""
    path = rows_path or os.path.join(C40, 'threads.tsv')
    out = {}
    for t in read_tsv(path) if os.path.exists(path) else []:
        out.setdefault(t['id'], []).append(t)
    return out


def cmd_export(a):
    """The labelled rows' mails as DIR/<id>.reply.eml and <id>.parent.eml
    and DIR/labels.tsv (row, label, list, role): the layout scripts/
    realcheck.py and train-replies.py read.  Rows whose mails are not in
    the mirrors are left out and counted."""
    os.makedirs(a.dir, exist_ok=True)
    mails = Mails(a.mirrors)
    threads = thread_of() if a.threads else {}
    missing = 0
    with open(os.path.join(a.dir, 'labels.tsv'), 'w', encoding='utf-8') as out:
        out.write('row\tlabel\tlist\trole\n')
        for f in a.files:
            for r in read_tsv(f):
                if not r.get('label_final'):
                    continue
                rd = mails.get(r['reply_source'], r['reply_id'])
                pd = mails.get(r['parent_source'], r['parent_id'])
                if not rd or not pd:
                    missing += 1
                    continue
                for kind, data in (('reply', rd), ('parent', pd)):
                    with open(os.path.join(a.dir, '%s.%s.eml' % (r['id'], kind)), 'wb') as m:
                        m.write(data)
                for n, t in enumerate(threads.get(r['id'], []), 1):
                    data = mails.get(t['source'], t['message_id'])
                    if not data:
                        missing += 1
                        continue
                    with open(os.path.join(a.dir, '%s.thread-%02d.eml' % (r['id'], n)), 'wb') as m:
                        m.write(data)
                out.write('%s\t%s\t%s\t%s\n' % (r['id'], r['label_final'], r['list'], r['replier_role']))
    print('export: %d rows or thread replies without their mails in the mirrors' % missing,
          file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('rows')
    p.add_argument('candidates')
    p.add_argument('--mirrors', default='/work/.mirror')
    p.add_argument('--extra', metavar='FILE',
                   help='write only the sampled rows of --split not in any corpus file into '
                        'corpus40/FILE (ids --prefix0001...), leaving the other files alone; rows '
                        'whose reply (or archived parent) cannot be read are left out')
    p.add_argument('--prefix', default='b')
    p.add_argument('--split', choices=('train', 'test'), default='train')
    p = sub.add_parser('show')
    p.add_argument('file')
    p.add_argument('ids', nargs='*')
    p.add_argument('--from', dest='start')
    p.add_argument('--todo', action='store_true', help='the first --count rows not yet labelled')
    p.add_argument('--count', type=int, default=50)
    p.add_argument('--lines', type=int, default=24)
    p.add_argument('--chars', type=int, default=1400)
    p.add_argument('--mirrors', default='/work/.mirror')
    sub.add_parser('merge')
    p = sub.add_parser('threads')
    p.add_argument('candidates', nargs='+')
    p = sub.add_parser('export')
    p.add_argument('dir')
    p.add_argument('files', nargs='+')
    p.add_argument('--mirrors', default='/work/.mirror')
    p.add_argument('--threads', action='store_true',
                   help="also each row's thread (corpus40/threads.tsv)")
    a = ap.parse_args()
    return {'rows': cmd_rows, 'show': cmd_show, 'merge': cmd_merge, 'threads': cmd_threads,
            'export': cmd_export}[a.cmd](a)


if __name__ == '__main__':
    sys.exit(main())
