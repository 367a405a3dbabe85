#!/usr/bin/env python3
"""Rebuild the held-out real-mail corpus (tests/real) into a directory.

usage: real-corpus.py OUTDIR [--mirrors DIR] [--cache DIR] [--only replies|threads]

Sources named in replies.tsv and threads/*.tsv take two forms:
  linux-mailinglist-archives/<list>.vger.kernel.org.0@<commit>:m
      one message of a public list archive; read with
      git --git-dir=<mirrors>/linux-mailinglist-archives+<list>.vger.kernel.org.0/repo show <commit>:m
  stable-index:<message-id>
      a message of the stable list (linux-mailinglist-archives/stable.vger.kernel.org.{0,1},
      too big to clone here) that could only be read through the search index;
      it is taken from the cache directory, file <cache>/<key>.eml (see cache_key()).

Output:
  OUTDIR/replies/<row>.parent.eml, OUTDIR/replies/<row>.reply.eml
  OUTDIR/threads/<name>.mbox   (mboxrd, mails in the order of threads/<name>.tsv)
  OUTDIR/MISSING.tsv           every mail that could not be had, and why
The script never writes into the repository, never touches the network and
checks that each mail it writes carries the Message-ID the table names.
"""
import argparse
import email.parser
import email.policy
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ARCHIVE_RE = re.compile(r'^linux-mailinglist-archives/([A-Za-z0-9._-]+)@([0-9a-f]{40}):m$')


def cache_key(msgid):
    """File name (without .eml) of a cached mail: the Message-ID without <>,
    every character outside [A-Za-z0-9._@+=-] replaced by '_'."""
    return re.sub(r'[^A-Za-z0-9._@+=-]', '_', msgid.strip().strip('<>'))


def read_tsv(path):
    with open(path, encoding='utf-8') as f:
        lines = [ln.rstrip('\n') for ln in f if ln.strip() and not ln.startswith('#')]
    cols = lines[0].split('\t')
    return [dict(zip(cols, ln.split('\t'))) for ln in lines[1:]]


class Store:
    def __init__(self, mirrors, cache):
        self.mirrors = mirrors
        self.cache = cache
        self.missing = []

    def _archive(self, repo, commit):
        gitdir = os.path.join(self.mirrors, 'linux-mailinglist-archives+' + repo, 'repo')
        if not os.path.isdir(gitdir):
            return None, 'archive not fetched: ' + repo
        p = subprocess.run(['git', '--git-dir', gitdir, 'show', commit + ':m'],
                           capture_output=True)
        if p.returncode != 0:
            return None, 'commit not in archive: %s@%s' % (repo, commit)
        return p.stdout, None

    def _cached(self, msgid):
        if not self.cache:
            return None, 'no cache directory given'
        path = os.path.join(self.cache, cache_key(msgid) + '.eml')
        if not os.path.isfile(path):
            return None, 'not in cache: ' + path
        with open(path, 'rb') as f:
            return f.read(), None

    def get(self, msgid, source, what):
        m = ARCHIVE_RE.match(source)
        if m:
            data, why = self._archive(m.group(1), m.group(2))
            if data is None:
                cached, _ = self._cached(msgid)
                data = cached
        elif source.startswith('stable-index:'):
            data, why = self._cached(msgid)
        else:
            data, why = None, 'unknown source form: ' + source
        if data is not None:
            got = message_id(data)
            if got != msgid.strip():
                why, data = 'Message-ID mismatch (%s)' % got, None
        if data is None:
            self.missing.append((what, msgid, source, why))
        return data


def message_id(data):
    head = data.split(b'\n\n', 1)[0] + b'\n\n'
    msg = email.parser.BytesParser(policy=email.policy.compat32).parsebytes(head)
    return re.sub(r'\s+', '', str(msg.get('Message-ID', '') or ''))


def mboxrd_entry(data):
    """One mboxrd message: a From_ line, body lines matching ^>*From  get one
    more '>', and a blank line after the message."""
    data = data.replace(b'\r\n', b'\n')
    lines = data.split(b'\n')
    out = [b'From mboxrd@z Thu Jan  1 00:00:00 1970']
    for ln in lines:
        if re.match(rb'^>*From ', ln):
            ln = b'>' + ln
        out.append(ln)
    body = b'\n'.join(out)
    if not body.endswith(b'\n'):
        body += b'\n'
    return body + b'\n'


def write(path, data):
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(data)
    os.replace(tmp, path)


def build_replies(store, out):
    rows = read_tsv(os.path.join(ROOT, 'replies.tsv'))
    os.makedirs(os.path.join(out, 'replies'), exist_ok=True)
    done = 0
    for r in rows:
        for part, mid, src in (('parent', r['parent_id'], r['parent_source']),
                               ('reply', r['reply_id'], r['reply_source'])):
            data = store.get(mid, src, '%s.%s' % (r['row'], part))
            if data is not None:
                write(os.path.join(out, 'replies', '%s.%s.eml' % (r['row'], part)), data)
                done += 1
    return len(rows), done


def build_threads(store, out):
    threads = read_tsv(os.path.join(ROOT, 'threads.tsv'))
    os.makedirs(os.path.join(out, 'threads'), exist_ok=True)
    summary = []
    for t in threads:
        mails = read_tsv(os.path.join(ROOT, 'threads', t['name'] + '.tsv'))
        chunks, have = [], 0
        for m in mails:
            data = store.get(m['message_id'], m['source'], '%s:%s' % (t['name'], m['pos']))
            if data is not None:
                chunks.append(mboxrd_entry(data))
                have += 1
        write(os.path.join(out, 'threads', t['name'] + '.mbox'), b''.join(chunks))
        summary.append((t['name'], have, len(mails)))
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('outdir')
    ap.add_argument('--mirrors', default='/work/.mirror')
    ap.add_argument('--cache', default='/work/realmail-cache')
    ap.add_argument('--only', choices=('replies', 'threads'))
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    store = Store(a.mirrors, a.cache if os.path.isdir(a.cache) else None)
    if a.only != 'threads':
        n, done = build_replies(store, a.outdir)
        print('replies: %d rows, %d of %d mails written' % (n, done, 2 * n))
    if a.only != 'replies':
        for name, have, total in build_threads(store, a.outdir):
            print('thread %s: %d of %d mails' % (name, have, total))
    with open(os.path.join(a.outdir, 'MISSING.tsv'), 'w', encoding='utf-8') as f:
        f.write('what\tmessage_id\tsource\twhy\n')
        for row in store.missing:
            f.write('\t'.join(row) + '\n')
    print('missing: %d mails (see %s)' % (len(store.missing),
                                         os.path.join(a.outdir, 'MISSING.tsv')))
    return 0


if __name__ == '__main__':
    sys.exit(main())
