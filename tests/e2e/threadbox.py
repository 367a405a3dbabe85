"""Made-up review threads for the e2e tests, as mboxes, and what a
review of one cites (`threadbox.py said JSON WANT...` checks it).

    box(path, mails, tag): MAILS are (from, subject, id, body, answers)
    tuples, ANSWERS None or the ids the mail answers, nearest last (its
    In-Reply-To and References); ids become <id@TAG>, and each mail is
    dated an hour after the one before.
"""
import mailbox


def box(path, mails, tag):
    mb = mailbox.mbox(path, create=True)
    for i, (frm, subject, mid, body, irt) in enumerate(mails):
        h = ["From: " + frm, "To: stable@vger.kernel.org", "Subject: " + subject,
             "Date: Thu, 14 Apr 2016 %02d:00:00 +0000" % i, "Message-Id: <%s@%s>" % (mid, tag)]
        if irt:
            h += ["In-Reply-To: <%s@%s>" % (irt[-1], tag),
                  "References: " + " ".join("<%s@%s>" % (r, tag) for r in irt)]
        mb.add(("\n".join(h) + "\n\n" + body + "\n").encode())
    mb.flush()


def placed(path):
    """(where, finding) for every finding of the review JSON lines in
    PATH: where is the patch number, or "series" (with ":N" when the
    finding is on absent patch N)."""
    import json
    out = []
    for line in open(path):
        r = json.loads(line)
        out += [("series" + (":%d" % f["patch"] if f.get("patch") else ""), f)
                for f in r.get("series_findings", [])]
        out += [(str(p["index"]), f) for p in r["patches"] for f in p["findings"]]
    return out


def said(path):
    """where:kind:mail for every finding of PATH that cites a mail (the
    mail's Message-Id up to its @)."""
    return {"%s:%s:%s" % (at, f["kind"], f["message_id"].split("@")[0])
            for at, f in placed(path) if f["message_id"]}


def expect(got, want):
    """Exit 1, saying what differs, unless the sets GOT and WANT agree."""
    import sys
    if got != set(want):
        print("missing", sorted(set(want) - got))
        print("extra", sorted(got - set(want)))
        sys.exit(1)


if __name__ == "__main__":
    # threadbox.py said JSON WANT...: the findings that cite a mail are WANT
    import sys
    expect(said(sys.argv[2]), sys.argv[3:])
