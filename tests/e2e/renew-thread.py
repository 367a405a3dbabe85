#!/usr/bin/env python3
"""renew-thread.py SRC DST: copy the patch mails of the review thread in
maildir SRC into a new maildir DST as if the thread had just arrived
(dated the last hour), under other Message-Ids (@new.example.org) and
without its replies (the same reply in two threads would move between
them).  For the digest's tests, which review only recent threads."""
import email.utils
import os
import re
import sys
import time

src, dst = sys.argv[1], sys.argv[2]
for d in ("cur", "new", "tmp"):
    os.makedirs(os.path.join(dst, d), exist_ok=True)
for i, n in enumerate(sorted(os.listdir(os.path.join(src, "cur")))):
    t = open(os.path.join(src, "cur", n), encoding="utf-8", errors="surrogateescape").read()
    head, _, body = t.partition("\n\n")
    if re.search(r"^Subject: Re:", head, re.M):
        continue
    head = re.sub(r"^Date: .*$", "Date: " + email.utils.formatdate(time.time() - 3600 + i),
                  head, count=1, flags=re.M)
    head = head.replace("@stable.example.org>", "@new.example.org>")
    with open(os.path.join(dst, "cur", n), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(head + "\n\n" + body)
