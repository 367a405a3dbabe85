#!/usr/bin/env python3
"""Export a sample maildir (maildirs/review-*) the ways people hold a
thread outside notmuch, for tests/e2e/t0520-inputs.sh:

  export-sample.py mbox FORMAT MAILDIR OUT   mboxo or mboxrd, every mail
  export-sample.py queue MAILDIR DIR         a stable-queue directory: each
      patch of the series as a quilt patch file (From:, Date:, Subject:
      without the [PATCH] prefix, the changelog without the review
      preamble), listed in NN order in DIR/series with comments, blank
      lines and quilt options among them, as the stable-queue keeps them
"""
import email
import email.policy
import glob
import os
import re
import sys


def mails(maildir):
    for f in sorted(glob.glob(os.path.join(maildir, "cur", "*"))):
        with open(f, "rb") as fh:
            yield fh.read()


def export_mbox(fmt, maildir, out):
    # mboxo quotes "From " lines, mboxrd also the already quoted ones.
    pat = rb"^From " if fmt == "mboxo" else rb"^(>*From )"
    rep = rb">From " if fmt == "mboxo" else rb">\1"
    with open(out, "wb") as fh:
        for raw in mails(maildir):
            raw = raw.replace(b"\r\n", b"\n")
            fh.write(b"From mboxrd@z Thu Jan  1 00:00:00 1970\n")
            fh.write(re.sub(pat, rep, raw, flags=re.M))
            if not raw.endswith(b"\n"):
                fh.write(b"\n")
            fh.write(b"\n")


def export_queue(maildir, out):
    os.makedirs(out, exist_ok=True)
    entries = []
    used = set()
    for raw in mails(maildir):
        m = email.message_from_bytes(raw, policy=email.policy.default)
        subj = " ".join(str(m["subject"] or "").split())
        mm = re.match(r"\[PATCH[^\]]*?(\d+)/(\d+)\] (.*)", subj)
        if not mm or int(mm.group(1)) == 0:
            continue
        nn, title = int(mm.group(1)), mm.group(3)
        body = m.get_body(preferencelist=("plain",)).get_content()
        body = re.sub(r"\A[0-9.]+-stable review patch\..*?\n-+\n\n", "", body, flags=re.S)
        name = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:50] + ".patch"
        if name in used:
            name = name[:-6] + "-%d.patch" % nn
        used.add(name)
        with open(os.path.join(out, name), "w", encoding="utf-8") as fh:
            fh.write("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n")
            fh.write("From: %s\n" % m["from"])
            if m["date"]:
                fh.write("Date: %s\n" % m["date"])
            fh.write("Subject: %s\n\n" % title)
            fh.write(body)
        entries.append((nn, name))
    entries.sort()
    with open(os.path.join(out, "series"), "w") as fh:
        fh.write("# stable-queue series, as quilt keeps it\n\n")
        for i, (_, name) in enumerate(entries):
            fh.write("%s%s\n" % (name, " -p1" if i % 3 == 1 else ""))
            if i == 4:
                fh.write("   # a comment after the fifth patch\n\n")


if __name__ == "__main__":
    if sys.argv[1] == "mbox":
        export_mbox(sys.argv[2], sys.argv[3], sys.argv[4])
    elif sys.argv[1] == "queue":
        export_queue(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: export-sample.py mbox FORMAT MAILDIR OUT | queue MAILDIR DIR")
