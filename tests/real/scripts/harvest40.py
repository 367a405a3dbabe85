#!/usr/bin/env python3
"""Harvest replies to stable-related mail from fetched list archives (issue 40).

usage: harvest40.py OUTDIR [--mirrors DIR] [--lists L,L,...] [--seed N] [--per-list N]

Reads every archive linux-mailinglist-archives+<list>.vger.kernel.org.0 under
--mirrors (the search tool's fetch puts them in /work/.mirror; each commit
adds one message as the file `m`, the commit's subject and date are the
mail's), and writes, outside the repository:

  OUTDIR/candidates.tsv   every reply (2019-2026) whose thread starts at a
                          stable-related posting, with its parent's id and
                          kind, the stratum (plain/other) and sampling flag
  OUTDIR/population.tsv   per list and stratum: how many candidates, how many
                          sampled (the weights of the enriched sample)

Stable-related postings (the parent kinds):
  autosel         [PATCH AUTOSEL ...]
  review-cover    [PATCH X.Y 000/NNN] X.Y.Z-rcN review (or -stable review)
  review-patch    [PATCH X.Y NN/MM] sent by a stable maintainer
  backport        [PATCH X.Y ...], [PATCH X.Y.y], [PATCH stable ...] and the
                  like, posted by anyone else
  failed-notice   FAILED: patch "..." failed to apply to X.Y-stable tree
  added-notice    Patch "..." has been added to the X.Y-stable tree
Mainline-only series ("for-6.x", "for-next", "net-next", "mm-unstable", ...)
are skipped.  A reply is any mail whose In-Reply-To/References chain reaches
such a posting (by Message-ID), or, when the posting is not in the archive,
whose subject is "Re: <posting subject>" of a review cover or patch (the
stable list holds the posting: its source is then `stable-index:<id>`).

Sampling: per list, with random.Random(seed + crc32(list)): when a list has
more than --per-list candidates, every `other` reply is kept up to 3/4 of
the quota (a random sample beyond that) and the rest of the quota is filled
with `plain` replies (a short ack, thanks, tag or a test farm's pass).
population.tsv gives the weights.  Replies whose Message-ID is in one of
the earlier corpora (--exclude TSV files) are left out, and so are replies
of a training list that also reached a held-out list (--heldout-mirror
lists): those belong to the held-out side only.
"""
import argparse
import collections
import email
import email.header
import email.policy
import email.utils
import os
import random
import re
import subprocess
import sys
import zlib

HELDOUT = set("""ceph-devel linux-acpi linux-arch linux-block linux-crypto linux-efi
linux-fpga linux-fscrypt linux-gpio linux-i2c linux-ide linux-iio linux-input
linux-mmc linux-modules linux-nilfs linux-parisc linux-pci linux-pm
linux-samsung-soc linux-scsi linux-serial linux-sh linux-spi linux-unionfs
linux-wireless platform-driver-x86 sparclinux""".split())

STABLE_MAINTAINERS = {
    'gregkh@linuxfoundation.org', 'greg@kroah.com', 'gregkh@suse.de',
    'sashal@kernel.org', 'sasha.levin@oracle.com', 'alexander.levin@microsoft.com',
    'ben@decadent.org.uk', 'ben.hutchings@codethink.co.uk',
}
TEST_FARMS_RE = re.compile(
    r'(naresh\.kamboju@linaro|lkft|anders\.roxell@linaro|daniel\.diaz@linaro|'
    r'bot@kernelci|kernelci\.org|linux@roeck-us\.net|jonathanh@nvidia|'
    r'skhan@linuxfoundation|re@w6rz\.net|lkp@intel\.com|harshit\.m\.mogalapalli|'
    r'rwarsow@gmx|pavel@denx\.de|pavel@nabladev|chris\.paterson2@renesas|'
    r'f\.fainelli@gmail|florian\.fainelli@broadcom|conor@kernel\.org|'
    r'ron\.economos|achill@achill\.org|hargar@linux\.microsoft|'
    r'peter\.schneider@googlemail|rudi@heitbaum|jforbes@fedoraproject|'
    r'sudipm\.mukherjee@gmail|shuah@kernel\.org|linux_regressions|'
    r'heinrich\.schuchardt|salvatore|jeffrin@rajagiritech|'
    r'allen\.lkml@gmail|ojeda@kernel|mark\.brown|broonie@kernel|'
    r'zfigura|kernelci|ci_notify@linaro|tuxmake|tuxsuite)', re.I)

REPLY_PREFIX = re.compile(r'^\s*((re|aw|sv|antw|odp|vs|fwd?|r)\s*(\[\d+\])?\s*:\s*|回复\s*[:：]\s*|答复\s*[:：]\s*)+', re.I)
MAINLINE_TAG = re.compile(
    r'(\bfor[- ]?(next|linus|current)|net-next|bpf-next|mm-unstable|mm-hotfixes|\bnet\b|'
    r'\bmd-\d|\brfc\b|\bgit pull\b|\bpull\b|-next\b)', re.I)
FOR_VERSION = re.compile(r'\bfor[- ]?v?([2-7])\.(\d{1,2})\b', re.I)
# mainline releases (year, month): "for-X.Y" is a stable posting only once X.Y is out
RELEASES = [((5, 0), (2019, 3)), ((5, 1), (2019, 5)), ((5, 2), (2019, 7)), ((5, 3), (2019, 9)),
            ((5, 4), (2019, 11)), ((5, 5), (2020, 1)), ((5, 6), (2020, 3)), ((5, 7), (2020, 5)),
            ((5, 8), (2020, 8)), ((5, 9), (2020, 10)), ((5, 10), (2020, 12)), ((5, 11), (2021, 2)),
            ((5, 12), (2021, 4)), ((5, 13), (2021, 6)), ((5, 14), (2021, 8)), ((5, 15), (2021, 10)),
            ((5, 16), (2022, 1)), ((5, 17), (2022, 3)), ((5, 18), (2022, 5)), ((5, 19), (2022, 7)),
            ((6, 0), (2022, 10)), ((6, 1), (2022, 12)), ((6, 2), (2023, 2)), ((6, 3), (2023, 4)),
            ((6, 4), (2023, 6)), ((6, 5), (2023, 8)), ((6, 6), (2023, 10)), ((6, 7), (2024, 1)),
            ((6, 8), (2024, 3)), ((6, 9), (2024, 5)), ((6, 10), (2024, 7)), ((6, 11), (2024, 9)),
            ((6, 12), (2024, 11)), ((6, 13), (2025, 1)), ((6, 14), (2025, 3)), ((6, 15), (2025, 5)),
            ((6, 16), (2025, 7)), ((6, 17), (2025, 9)), ((6, 18), (2025, 11)), ((6, 19), (2026, 2))]


def released(major, minor, when):
    """Was X.Y out at time `when` (seconds)?  Unknown new versions: no."""
    import time
    t = time.gmtime(when)
    if (major, minor) < (5, 0):
        return True
    for v, ym in RELEASES:
        if v == (major, minor):
            return (t.tm_year, t.tm_mon) > ym
    return False
VERSION = re.compile(r'(?<![\w.])(v?)([2-7])\.(\d{1,2})(\.y|\.\d{1,3}|-stable|-rc\d+)?(?![\w.])', re.I)
REVIEW_COVER = re.compile(r'\b[2-7]\.\d{1,2}\.\d{1,3}(-rc\d+)?\s*(-stable\s*)?review\b', re.I)
NN_MM = re.compile(r'\b(\d{1,3})/(\d{1,3})\b')
FAILED = re.compile(r'^FAILED:\s*patch\b', re.I)
ADDED = re.compile(r'^patch\s+".*"\s+(has been\s+)?added to (the\s+)?[2-7]\.\d{1,2}(-stable)?(\s+tree)?', re.I)


def strip_re(subject):
    return REPLY_PREFIX.sub('', subject or '').strip()


def norm_subject(s):
    return re.sub(r'\s+', ' ', strip_re(s)).strip().lower()


def tag_of(subject):
    m = re.match(r'^\s*\[([^\]]*)\]', subject)
    return m.group(1) if m else ''


def stable_kind(subject, sender, when=None):
    """Kind of a stable-related posting from its subject (no Re:), or None."""
    s = subject.strip()
    if FAILED.match(s):
        return 'failed-notice'
    if ADDED.match(s):
        return 'added-notice'
    tag = tag_of(s)
    if not tag:
        return None
    if re.search(r'\bautosel\b', tag, re.I):
        return 'autosel'
    if not re.search(r'patch|stable|\.y\b', tag, re.I) or re.search(r'regress|\bbug\b|bisect', tag, re.I):
        return None
    if ':' in tag and not re.match(r'\s*linux-stable-rc:', tag):
        return None             # a test robot's report on some tree's branch
    if re.search(r'(?<![\w.])v?\d\.\d{1,2}(\.0)?-rc\d', tag) or re.search(r'(?<![\w.])\d\.\d{1,2}\.0\b', tag):
        return None             # based on a mainline -rc: a mainline fix
    if MAINLINE_TAG.search(tag) and not re.search(r'\bstable\b', tag, re.I):
        return None
    stable_word = re.search(r'\bstable\b|\.y\b', tag, re.I) is not None
    if not stable_word and re.search(r'\b[a-z_]+-v?[2-7]\.\d{1,2}\b', tag, re.I):
        return None             # block-5.17, io_uring-6.1, md-6.9, for-6.x: a mainline tree
    if not stable_word and when is not None:
        for m in VERSION.finditer(tag):
            if not m.group(1) and not m.group(4) and not released(int(m.group(2)), int(m.group(3)), when):
                return None     # a release still to come: a mainline fix for it
    has_version = False
    for m in VERSION.finditer(tag):
        if m.group(1):          # v2.6 style is a series revision, not a branch
            continue
        if (int(m.group(2)), int(m.group(3))) < (3, 16):
            continue            # 2.1/46, 3.5: part numbers; no such branch is maintained since 2019
        has_version = True
    has_stable = re.search(r'\bstable\b', tag, re.I) is not None
    if not (has_version or has_stable):
        return None
    if REVIEW_COVER.search(s):
        return 'review-cover'
    nm = NN_MM.search(tag)
    if nm and int(nm.group(1)) == 0 and re.search(r'\breview\b', s, re.I):
        return 'review-cover'
    if sender in STABLE_MAINTAINERS and nm:
        return 'review-patch'
    return 'backport'


def git(gitdir, *args):
    return subprocess.run(['git', '--git-dir', gitdir] + list(args),
                          capture_output=True, check=True).stdout


def read_blobs(gitdir, commits):
    """{commit: bytes of m} via one cat-file --batch."""
    if not commits:
        return {}
    p = subprocess.Popen(['git', '--git-dir', gitdir, 'cat-file', '--batch'],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = {}
    # write all requests first from a thread-free loop: feed in chunks
    req = ''.join('%s:m\n' % c for c in commits).encode()
    import threading
    t = threading.Thread(target=lambda: (p.stdin.write(req), p.stdin.close()))
    t.start()
    for c in commits:
        head = p.stdout.readline()
        parts = head.split()
        if len(parts) < 3 or parts[1] == b'missing':
            continue
        n = int(parts[2])
        data = p.stdout.read(n)
        p.stdout.read(1)
        out[c] = data
    t.join()
    p.wait()
    return out


def headers(data):
    head = data.replace(b'\r\n', b'\n').split(b'\n\n', 1)[0] + b'\n\n'
    msg = email.message_from_bytes(head, policy=email.policy.compat32)

    def h(name):
        v = msg.get(name)
        if v is None:
            return ''
        try:
            parts = email.header.decode_header(str(v))
            return ''.join(p.decode(c or 'utf-8', 'replace') if isinstance(p, bytes) else p
                           for p, c in parts)
        except Exception:
            return str(v)
    ids = lambda s: re.findall(r'<[^<>\s]+>', s or '')
    mid = ids(h('Message-ID'))
    name, addr = email.utils.parseaddr(h('From'))
    return {
        'message_id': mid[0] if mid else '',
        'in_reply_to': (ids(h('In-Reply-To')) or [''])[-1],
        'references': ids(h('References')),
        'subject': re.sub(r'\s+', ' ', h('Subject')).strip(),
        'from_name': name.strip(), 'from_addr': addr.strip().lower(),
    }


def repo_of(lst):
    """Archive repository of a list name: vger lists by their short name,
    others by their full name (linuxppc-dev.lists.ozlabs.org.0)."""
    return lst if '.' in lst else lst + '.vger.kernel.org.0'


def list_of(repo):
    return repo.split('.')[0]


def gitdir_of(mirrors, lst):
    d = os.path.join(mirrors, 'linux-mailinglist-archives+' + repo_of(lst), 'repo')
    return os.path.join(d, '.git') if os.path.isdir(os.path.join(d, '.git')) else d


def list_archive(gitdir):
    out = git(gitdir, 'log', '--format=%H%x09%at%x09%s').decode('utf-8', 'replace')
    rows = []
    for ln in out.splitlines():
        p = ln.split('\t', 2)
        if len(p) == 3:
            rows.append((p[0], int(p[1]), p[2]))
    return rows


PLAIN_WORDS = re.compile(
    r"(drop|revert|break|broke|fail|error|wrong|\bnot\b|n't|\bno\b|need|also|crash|regress|"
    r"oops|warn|bisect|please|should|why|depend|prereq|follow|backport|instead|apply|"
    r"conflict|missing|miss|upstream|\?)", re.I)
TRAILER = re.compile(r'^\s*(tested|acked|reviewed|reported|signed-off|cc|link|suggested)-?by\s*:|^\s*cc:', re.I)


def own_text(body):
    """The reply's own lines: quotes, attributions, signatures and a quoted
    original (Outlook style) removed."""
    lines = body.replace('\r\n', '\n').split('\n')
    out = []
    for i, ln in enumerate(lines):
        if ln.rstrip() in ('-- ', '--') and i > 0:
            break
        if re.match(r'^\s*-+\s*original message\s*-+', ln, re.I) or re.match(r'^_{10,}\s*$', ln):
            break
        if re.match(r'^\s*(From|Von|De):\s.*', ln) and i + 1 < len(lines) and \
                re.match(r'^\s*(Sent|Date|Gesendet|Envoy)', lines[i + 1], re.I):
            break
        if re.match(r'^\s*[>|]', ln):
            continue
        if re.search(r'(wrote|writes|schrieb|a écrit|escribió)\s*:\s*$', ln, re.I):
            continue
        if re.match(r'^\s*On .*\d.*$', ln) and i + 1 < len(lines) and \
                re.search(r'wrote:\s*$', lines[i + 1]):
            continue
        if re.match(r'^\s*(Quoting|\* .*<.*@.*>.*\[)', ln):
            continue
        out.append(ln)
    text = '\n'.join(out)
    return re.sub(r'\n{3,}', '\n\n', text).strip()


def body_of(data):
    msg = email.message_from_bytes(data, policy=email.policy.default)
    parts = []
    for p in msg.walk():
        if p.is_multipart():
            continue
        ct = p.get_content_type()
        if ct in ('text/plain', 'text/x-patch', 'text/x-diff'):
            try:
                parts.append(p.get_content())
            except Exception:
                pl = p.get_payload(decode=True) or b''
                parts.append(pl.decode('utf-8', 'replace'))
    if not parts:
        for p in msg.walk():
            if p.get_content_type() == 'text/html':
                try:
                    t = p.get_content()
                except Exception:
                    t = (p.get_payload(decode=True) or b'').decode('utf-8', 'replace')
                t = re.sub(r'<(br|p|div)[^>]*>', '\n', t, flags=re.I)
                parts.append(re.sub(r'<[^>]+>', '', t))
    return '\n'.join(parts)


def stratum(own, sender):
    """plain: a short ack, tag, thanks or a test farm's pass; other: the rest."""
    rest = [ln for ln in own.split('\n') if ln.strip() and not TRAILER.match(ln)]
    text = ' '.join(rest)
    if TEST_FARMS_RE.search(sender) and not re.search(
            r'(fail|error|regression(s)? (found|detected|noticed|reported)|warning|broke|'
            r'crash|revert|oops|bisect|panic|drop)', text, re.I):
        return 'plain'
    if len(text) <= 160 and not PLAIN_WORDS.search(text):
        return 'plain'
    return 'other'


def harvest_list(lst, mirrors, a_max_depth=3):
    gd = gitdir_of(mirrors, lst)
    rows = list_archive(gd)
    # candidate postings and replies by subject (cheap), then headers
    post_commits, reply_commits = [], []
    stable_subjects = set()
    for c, at, subj in rows:
        base = strip_re(subj)
        is_re = base != subj.strip()
        if stable_kind(base, '', at) is None and not FAILED.match(base) and not ADDED.match(base):
            continue
        (reply_commits if is_re else post_commits).append(c)
        stable_subjects.add(norm_subject(subj))
    blobs = read_blobs(gd, post_commits + reply_commits)
    by_id, posts = {}, {}
    meta = {}
    when = {c: at for c, at, _ in rows}
    for c in post_commits + reply_commits:
        if c not in blobs:
            continue
        h = headers(blobs[c])
        h['commit'] = c
        h['time'] = when[c]
        meta[c] = h
        if h['message_id']:
            by_id.setdefault(h['message_id'], h)
    for c in post_commits:
        h = meta.get(c)
        if not h:
            continue
        k = stable_kind(h['subject'], h['from_addr'], h['time'])
        if k:
            posts[h['message_id']] = k
    # replies not starting with Re: but answering a posting (rare) are ignored
    cands = []
    for c in reply_commits:
        h = meta.get(c)
        if not h or not h['message_id']:
            continue
        year = int(__import__('time').strftime('%Y', __import__('time').gmtime(h['time'])))
        if year < 2019 or year > 2026:
            continue
        chain = h['references'] + ([h['in_reply_to']] if h['in_reply_to'] else [])
        root = None
        for r in chain:            # the first posting in the chain is the thread's root
            if r in posts:
                root = r
                break
        base = strip_re(h['subject'])
        if root is None:
            k = stable_kind(base, '', h['time'])
            if k not in ('review-cover', 'review-patch', 'backport', 'autosel', 'failed-notice',
                         'added-notice'):
                continue
            # posting not in this archive: only direct answers, known by the
            # length of References (a review patch's reply names cover and patch)
            nm = NN_MM.search(tag_of(base))
            series = nm is not None and int(nm.group(1)) > 0
            if len(h['references']) > (2 if series else 1) or not h['in_reply_to']:
                continue
            if k == 'backport' and series and int(nm.group(2)) >= 20:
                k = 'review-patch'       # a long numbered stable series: a review posting
            rid = h['in_reply_to']
            root_kind, root_src = k, 'stable-index:' + rid
            depth = 1
        else:
            root_kind = posts[root]
            ph = by_id[root]
            root_src = 'linux-mailinglist-archives/%s@%s:m' % (repo_of(lst), ph['commit'])
            rid = root
            if h['in_reply_to'] in chain:
                depth = chain.index(h['in_reply_to']) - chain.index(root) + 1
            else:
                depth = 1
            if depth > a_max_depth:
                continue
        cands.append({
            'list': list_of(repo_of(lst)), 'year': year, 'reply_id': h['message_id'],
            'in_reply_to': h['in_reply_to'], 'parent_id': rid, 'parent_kind': root_kind,
            'depth': depth, 'from': h['from_addr'],
            'reply_source': 'linux-mailinglist-archives/%s@%s:m' % (repo_of(lst), c),
            'parent_source': root_src, 'commit': c,
        })
    # the strata need the text
    for cd in cands:
        own = own_text(body_of(blobs[cd['commit']]))
        cd['stratum'] = stratum(own, cd['from'])
    return cands, stable_subjects


def load_excluded(paths):
    ids = set()
    for p in paths:
        with open(p, encoding='utf-8') as f:
            for ln in f:
                ids.update(re.findall(r'<[^<>\s\t]+@[^<>\s\t]+>', ln))
    return ids


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('outdir')
    ap.add_argument('--mirrors', default='/work/.mirror')
    ap.add_argument('--lists', help='comma-separated; default: every fetched archive')
    ap.add_argument('--seed', type=int, default=40)
    ap.add_argument('--per-list', type=int, default=90)
    ap.add_argument('--exclude', nargs='*', default=[],
                    help='TSV files whose Message-Ids are left out (earlier corpora)')
    a = ap.parse_args()
    if a.lists:
        lists = a.lists.split(',')
    else:
        pre = 'linux-mailinglist-archives+'
        lists = []
        for d in sorted(os.listdir(a.mirrors)):
            if not d.startswith(pre) or not re.search(r'\.0$', d):
                continue
            repo = d[len(pre):]
            lst = repo[:-len('.vger.kernel.org.0')] if repo.endswith('.vger.kernel.org.0') else repo
            if list_of(repo) in ('stable', 'linux-kernel'):
                continue
            if os.path.isdir(gitdir_of(a.mirrors, lst)):
                lists.append(lst)
    excluded = load_excluded(a.exclude)
    os.makedirs(a.outdir, exist_ok=True)
    allc = {}
    for lst in lists:
        cands, _ = harvest_list(lst, a.mirrors)
        allc[lst] = cands
        print('%-24s %5d candidates' % (lst, len(cands)), file=sys.stderr)
    # a reply archived in a held-out list belongs to the held-out side only;
    # one archived in several lists of one side is kept once (first list)
    heldout_ids = {c['reply_id'] for l in lists if list_of(repo_of(l)) in HELDOUT for c in allc[l]}
    seen = set()
    chosen, pop = [], []
    for lst in sorted(lists, key=lambda l: (list_of(repo_of(l)) not in HELDOUT, l)):
        split = 'test' if list_of(repo_of(lst)) in HELDOUT else 'train'
        cands = []
        for c in sorted(allc[lst], key=lambda c: c['reply_id']):
            rid = c['reply_id']
            if rid in excluded or rid in seen:
                continue
            if split == 'train' and rid in heldout_ids:
                continue
            seen.add(rid)
            c['split'] = split
            cands.append(c)
        rng = random.Random(a.seed + zlib.crc32(lst.encode()))
        other = [c for c in cands if c['stratum'] == 'other']
        plain = [c for c in cands if c['stratum'] == 'plain']
        if len(cands) <= a.per_list:
            take = cands
        else:
            q_other = min(len(other), max(a.per_list * 3 // 4, a.per_list - len(plain)))
            t_other = rng.sample(other, q_other)
            t_plain = rng.sample(plain, min(len(plain), a.per_list - q_other))
            take = t_other + t_plain
        ids = {c['reply_id'] for c in take}
        for c in cands:
            c['sampled'] = 'yes' if c['reply_id'] in ids else 'no'
        chosen.extend(cands)
        for s, group in (('other', other), ('plain', plain)):
            pop.append((list_of(repo_of(lst)), split, s, len(group), sum(1 for c in group if c['reply_id'] in ids)))
    cols = ['split', 'list', 'year', 'reply_id', 'in_reply_to', 'parent_id', 'parent_kind',
            'depth', 'from', 'stratum', 'sampled', 'reply_source', 'parent_source']
    with open(os.path.join(a.outdir, 'candidates.tsv'), 'w', encoding='utf-8') as f:
        f.write('\t'.join(cols) + '\n')
        for c in chosen:
            f.write('\t'.join(str(c[k]) for k in cols) + '\n')
    with open(os.path.join(a.outdir, 'population.tsv'), 'w', encoding='utf-8') as f:
        f.write('list\tsplit\tstratum\tcandidates\tsampled\n')
        for row in pop:
            f.write('\t'.join(map(str, row)) + '\n')
    n = collections.Counter((c['split'], c['sampled']) for c in chosen)
    print('train: %d candidates, %d sampled; test: %d candidates, %d sampled' % (
        n[('train', 'yes')] + n[('train', 'no')], n[('train', 'yes')],
        n[('test', 'yes')] + n[('test', 'no')], n[('test', 'yes')]), file=sys.stderr)
    return 0


if __name__ == '__main__':
    sys.exit(main())
