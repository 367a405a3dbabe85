#!/usr/bin/env python3
"""fresh-thread.py SRC DST: copy the review thread of maildir SRC to DST as
if it had just arrived, for the digest (which looks at recent threads):
the patch mails and the cover only (no replies: the same reply in two
threads would move between them), each dated within the last hour in
their order, under other Message-Ids (@stable.example.org becomes
@new.example.org in every header).  Used by t0550 and t0580."""
import email.utils
import os
import re
import sys
import time

src, dst = sys.argv[1], sys.argv[2]
for d in ("cur", "new", "tmp"):
    os.makedirs(os.path.join(dst, d), exist_ok=True)
names = sorted(os.listdir(os.path.join(src, "cur")))
for i, n in enumerate(names):
    t = open(os.path.join(src, "cur", n), encoding="utf-8", errors="surrogateescape").read()
    head, _, body = t.partition("\n\n")
    if re.search(r"^Subject: Re:", head, re.M):
        continue
    head = re.sub(r"^Date: .*$", "Date: " + email.utils.formatdate(time.time() - 3600 + i),
                  head, count=1, flags=re.M)
    head = head.replace("@stable.example.org>", "@new.example.org>")
    with open(os.path.join(dst, "cur", n), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(head + "\n\n" + body)
