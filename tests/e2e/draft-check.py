#!/usr/bin/env python3
"""What every draft fixscan writes must be, whatever its findings (issue 30).

draft-check.py [--review JSONL] [--asks] MAILROOT DRAFTS...

DRAFTS are mbox files (a --dry-run) or mail files (a maildir's drafts, or
what mutt sent).  The mail a draft answers is found under MAILROOT by its
In-Reply-To.  For every draft:

  - each quoted line ("> ...") is a line of the body of the mail it
    answers (decoded; white space runs count as one space);
  - no header names the tool;
  - every other line fits 72 columns, but for a commit reference that
    cannot be broken ('<hex> ("subject")', alone on its line but for
    indentation, punctuation and the quotation marks of someone's words)
    and a link alone on its line.

With --review (the JSON lines of "review --json" or "--all-open --json"):

  - a missing fix is named in at most one per-patch draft (but for a
    sentence pointing to the reply that asks for it);
  - the reporter of a regression, and the author of any mail a finding
    comes from (a reply the draft cites), is in its To or Cc.

With --asks (drafts of the default --drafts-for, where a patch gets a
reply only when a finding asks the maintainer to act): the summary names
only patches that got a reply of their own.

Prints one line per failure and exits 1 when there is any.
"""
import argparse
import email
import email.policy
import email.utils
import mailbox
import os
import re
import sys

WRAP = 72
REF = re.compile(r'^\s*"?[0-9a-f]{12,40} \(".*"\)[.,;:]?"?$')
LINK = re.compile(r'^\s*\(?https?://\S+?\)?[.,;:]?$')
NUMBER = re.compile(r"\b(\d{2,3}/\d{2,3})\b")


def squash(text):
    return " ".join(text.split())


def body_of(msg):
    part = msg.get_body(preferencelist=("plain",)) if msg.is_multipart() else msg
    return part.get_content() if part is not None else ""


def load_mails(root):
    """Message-Id -> message, for every mail file under ROOT."""
    by_id = {}
    for top, _, files in os.walk(root):
        if os.path.basename(top) not in ("cur", "new"):
            continue
        for name in files:
            with open(os.path.join(top, name), "rb") as f:
                m = email.message_from_binary_file(f, policy=email.policy.default)
            mid = (m["Message-Id"] or "").strip().strip("<>")
            if mid:
                by_id.setdefault(mid, m)
    return by_id


def load_drafts(paths):
    out = []
    for path in paths:
        with open(path, "rb") as f:
            head = f.read(5)
        if head == b"From ":
            for m in mailbox.mbox(path, factory=None):
                out.append((path, email.message_from_bytes(m.as_bytes(), policy=email.policy.default)))
        else:
            with open(path, "rb") as f:
                out.append((path, email.message_from_binary_file(f, policy=email.policy.default)))
    return out


def is_summary(msg):
    return re.search(r"\[[^]]*\b0+/\d+\]", str(msg["Subject"] or "")) is not None


def check_one(name, msg, mails, fail):
    for key, value in msg.items():
        if "fixscan" in key.lower() or "fixscan" in str(value).lower():
            fail(name, "header names the tool: %s: %s" % (key, value))
    irt = (msg["In-Reply-To"] or "").strip().strip("<>")
    orig = mails.get(irt)
    if orig is None:
        fail(name, "the mail it answers, <%s>, is not in the store" % irt)
        lines = set()
    else:
        lines = {squash(l) for l in body_of(orig).split("\n")}
    for n, line in enumerate(body_of(msg).rstrip("\n").split("\n"), 1):
        if line.startswith(">"):
            said = squash(line[1:])
            if said and orig is not None and said not in lines:
                fail(name, "line %d quotes words that are not a line of the mail: %r" % (n, line))
        elif len(line) > WRAP and not REF.match(line) and not LINK.match(line):
            fail(name, "line %d is %d columns: %r" % (n, len(line), line))


def address_in(addr, msg):
    got = email.utils.getaddresses([str(msg["To"] or ""), str(msg["Cc"] or "")])
    return addr.lower() in {a.lower() for _, a in got}


def check_review(drafts, reviews, fail):
    by_irt = {(d["In-Reply-To"] or "").strip().strip("<>"): (n, d) for n, d in drafts}
    named = {}
    for r in reviews:
        for p in r.get("patches", []):
            d = by_irt.get(p["message_id"])
            for f in p["findings"]:
                if f.get("ignored"):
                    continue
                if f["kind"] == "fix-missing":
                    named.setdefault(f["commit"][:12], set())
                if f.get("from") and f.get("message_id") and d:
                    _, addr = email.utils.parseaddr(f["from"])
                    if addr and not address_in(addr, d[1]):
                        fail(d[0], "%s of %s is not in To or Cc" % (f["kind"], addr))
    for name, d in drafts:
        if is_summary(d):
            continue
        text = "\n".join(l for l in body_of(d).split("\n") if not l.startswith(">"))
        # "that one needs c5fef009a731 (...) in turn, which I asked for in
        # my reply to 21/27": points to the request, asks nothing
        text = re.sub(r"that one needs [0-9a-f]{12} \(\".*?\"\) in turn, which I asked for "
                      r"in my reply to \d+/\d+\.", "", squash(text))
        for c in named:
            if c in text:
                named[c].add((name, str(d["Subject"])))
    for c, where in named.items():
        if len(where) > 1:
            fail("fix %s" % c, "named in %d per-patch drafts: %s" % (len(where), sorted(s for _, s in where)))


def check_asks(drafts, fail):
    replied = set()
    for _, d in drafts:
        if not is_summary(d):
            m = NUMBER.search(str(d["Subject"] or ""))
            if m:
                replied.add(m.group(1))
    for name, d in drafts:
        if not is_summary(d):
            continue
        listed = set()
        section = None
        for line in body_of(d).split("\n"):
            if line and not line.startswith((" ", ">")):
                section = line
            # the patch lines, and every patch a request names
            m = re.match(r"  (\d{2,3}/\d{2,3})\b", line)
            if m:
                listed.add(m.group(1))
            if section in ("Fixes to add:", "Commits to add:") and line.startswith("  "):
                listed.update(NUMBER.findall(line))
        for num in listed - replied:
            fail(name, "the summary names %s, which asks nothing (no reply of its own)" % num)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--review", action="append", default=[])
    ap.add_argument("--asks", action="store_true")
    ap.add_argument("root")
    ap.add_argument("drafts", nargs="+")
    a = ap.parse_args()
    failures = []

    def fail(name, what):
        failures.append("%s: %s" % (name, what))

    mails = load_mails(a.root)
    drafts = [("%s [%s]" % (p, m["Subject"]), m) for p, m in load_drafts(a.drafts)]
    if not drafts:
        fail("drafts", "none to check")
    for name, m in drafts:
        check_one(name, m, mails, fail)
    reviews = []
    for path in a.review:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    import json
                    reviews.append(json.loads(line))
    if a.review:
        check_review(drafts, reviews, fail)
    if a.asks:
        check_asks(drafts, fail)
    for line in failures:
        print(line)
    print("# checked %d drafts, %d failures" % (len(drafts), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
