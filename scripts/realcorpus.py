#!/usr/bin/env python3
"""Rebuild labelled real replies from list archives, for scripts/realcheck.py.

    scripts/realcorpus.py LABELS OUTDIR GITDIR...

LABELS is a TSV (tests/real/fresh-replies.tsv) naming each reply and its
parent by Message-Id; each GITDIR is a clone or mirror of a list archive
(linux-mailinglist-archives/<list>.vger.kernel.org.0, one message per
commit in the file `m`, e.g. what the search tool's fetch brings).  Writes
OUTDIR/<row>.parent.eml, OUTDIR/<row>.reply.eml and OUTDIR/labels.tsv for
the rows whose two mails were found, and says how many were not.  The mails
stay outside the repository: they are other people's words.
"""
import csv
import os
import re
import subprocess
import sys

MID = re.compile(rb"(?im)^message-id:[ \t]*\r?\n?[ \t]*<?([^>\s]+)>?")


def messages(gitdir):
    """Every blob the archive's history adds, as bytes."""
    log = subprocess.run(["git", "-C", gitdir, "log", "--format=", "--raw", "--no-abbrev", "HEAD"],
                         capture_output=True, check=True).stdout.decode()
    blobs = [line.split()[3] for line in log.splitlines() if line.startswith(":")]
    batch = subprocess.run(["git", "-C", gitdir, "cat-file", "--batch"],
                           input="\n".join(blobs).encode() + b"\n", capture_output=True).stdout
    i = 0
    while i < len(batch):
        nl = batch.index(b"\n", i)
        head = batch[i:nl].split()
        if len(head) < 3:  # "<id> missing": a blob the mirror lacks
            i = nl + 1
            continue
        size = int(head[2])
        yield batch[nl + 1:nl + 1 + size]
        i = nl + 1 + size + 1


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    labels, out, gitdirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows = list(csv.DictReader((l for l in open(labels) if not l.startswith("#")), delimiter="\t"))
    wanted = {r["parent_message_id"] for r in rows} | {r["reply_message_id"] for r in rows}
    found = {}
    for g in gitdirs:
        for raw in messages(g):
            m = MID.search(raw.split(b"\n\n", 1)[0])
            if m and m.group(1).decode("utf-8", "replace") in wanted:
                found.setdefault(m.group(1).decode(), raw)
    os.makedirs(out, exist_ok=True)
    kept = 0
    with open(os.path.join(out, "labels.tsv"), "w") as tsv:
        tsv.write("row\tlabel\n")
        for r in rows:
            par, rep = found.get(r["parent_message_id"]), found.get(r["reply_message_id"])
            if par is None or rep is None:
                continue
            open(os.path.join(out, r["row"] + ".parent.eml"), "wb").write(par)
            open(os.path.join(out, r["row"] + ".reply.eml"), "wb").write(rep)
            tsv.write("%s\t%s\n" % (r["row"], r["label"]))
            kept += 1
    print("%d of %d rows rebuilt in %s" % (kept, len(rows), out))
    return 0 if kept == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
