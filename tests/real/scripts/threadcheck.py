#!/usr/bin/env python3
"""Per-thread figures of fixscan on whole real review threads.

    tests/real/scripts/threadcheck.py [--fixscan BIN] [--labels DIR] [--markdown] MBOX...

Each MBOX is one thread as real-corpus.py writes it (OUT/threads/<name>.mbox);
its labels are DIR/<name>.tsv (tests/real/threads by default).  The real
binary reviews it (`fixscan review --mbox --json`, no --branch) against an
empty kernel repository that has every linux-X.Y.y branch, so no upstream
id resolves: the id a patch mail gives is then read from its
unknown-upstream finding.

Per thread it prints: the exit status; patches announced by the cover;
the labelled patch mails the mbox holds; how many of those the review
lists, and whether in order (the JSON's patch numbers are the labelled
ones, ascending); how many of them carry the labelled upstream id; the
labelled replies; how many a finding cites; how many of the cited are
placed where the label says (the series, or patch N: under patch N when
its mail is there, else a series finding whose `patch` field is N); how
many of the others are follow-ups the label gives the series that are
placed where the reply they answer is labelled (with its parent); and
the uncited replies by label (a bare Tested-by or thanks is rightly
cited by none; an uncited objection, report or needs-also is a miss).
Nothing here judges a mail: every figure is what the binary said,
compared with the labels.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
from realcheck import json_docs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BRANCHES = ["%d.%d" % (ma, mi) for ma, top in ((3, 19), (4, 20), (5, 19), (6, 20), (7, 9))
            for mi in range(top + 1)]
ACTION = {"objection", "report", "needs-also", "replacement"}


def git(*args, env=None):
    subprocess.run(["git"] + list(args), check=True, env=env, capture_output=True)


def make_repo(top):
    repo = os.path.join(top, "repo")
    env = dict(os.environ, GIT_AUTHOR_NAME="r", GIT_AUTHOR_EMAIL="r@x",
               GIT_COMMITTER_NAME="r", GIT_COMMITTER_EMAIL="r@x")
    git("init", "-q", "-b", "master", repo, env=env)
    git("-C", repo, "commit", "-q", "--allow-empty", "-m", "init", env=env)
    git("-C", repo, "tag", "v6.1", env=env)
    for b in BRANCHES:
        git("-C", repo, "branch", "linux-%s.y" % b, env=env)
    return repo


def review(fixscan, repo, top, mbox):
    env = dict(os.environ, HOME=os.path.join(top, "home"),
               XDG_CACHE_HOME=os.path.join(top, "cache"),
               XDG_STATE_HOME=os.path.join(top, "state"),
               XDG_CONFIG_HOME=os.path.join(top, "config"))
    p = subprocess.run([fixscan, "review", "--repo", repo, "--mbox", mbox, "--json"],
                       capture_output=True, env=env)
    return p.returncode, json_docs(p.stdout), p.stderr.decode("utf-8", "replace")


def strip_id(s):
    return (s or "").strip().strip("<>").strip()


def placements(docs):
    """{message_id: set of places}: 'series', 'series:N' (a series
    finding naming patch N) or the patch number, for every finding that
    cites a mail."""
    out = {}
    for d in docs:
        for f in (d.get("series_findings") or []) + (d.get("cover_findings") or []):
            if f.get("message_id"):
                at = "series:%d" % f["patch"] if f.get("patch") else "series"
                out.setdefault(strip_id(f["message_id"]), set()).add(at)
        for p in d.get("patches") or []:
            for f in p.get("findings") or []:
                if f.get("message_id"):
                    out.setdefault(strip_id(f["message_id"]), set()).add(str(p.get("index")))
    return out


def upstream_of(p):
    """The upstream ids the review gives patch P: resolved, or as written
    in an unknown-upstream finding."""
    ids = [p["upstream"]] if p.get("upstream") else []
    ids += [f["commit"] for f in p.get("findings") or []
            if f.get("kind") == "unknown-upstream" and f.get("commit")]
    return [i.lower() for i in ids]


def want_place(row, titles):
    b = (row.get("belongs_to") or "").strip()
    if b.startswith("subject:"):
        n = titles.get(b[8:].strip())
        return str(n) if n else "series"
    return b or "series"


def fits(want, where, by_nn):
    """Whether the places WHERE are the labelled place WANT: the series,
    patch N, or (N's mail absent) a series finding on N."""
    return want in where or (want != "series" and want not in by_nn and "series:" + want in where)


def measure(fixscan, repo, top, mbox, labels_dir):
    name = re.sub(r"\.(mbox|mbx|mboxrd)$", "", os.path.basename(mbox))
    tsv = os.path.join(labels_dir, name + ".tsv")
    rows = list(csv.DictReader(open(tsv, newline=""), delimiter="\t")) if os.path.exists(tsv) else []
    rc, docs, err = review(fixscan, repo, top, mbox)
    c = Counter(name=name, exit=rc)
    cover = [d.get("cover") for d in docs if d.get("cover")]
    m = re.search(r"\d+/(\d+)\]", (cover[0] or {}).get("subject") or "") if cover else None
    c["announced"] = int(m.group(1)) if m else max([d["patches"][0]["total"] for d in docs
                                                    if d.get("patches")] or [0])
    got = [p for d in docs for p in d.get("patches") or []]
    by_nn = {str(p.get("index")): p for p in got}
    titles = {}
    for p in got:
        t = re.sub(r"^\s*\[[^]]*\]\s*", "", p.get("subject") or "")
        titles[t] = p.get("index")
    patch_rows = [r for r in rows if r["role"] == "patch"]
    c["patch mails"] = len(patch_rows)
    want_nns = [int(r["nn"]) for r in patch_rows]
    got_nns = [p.get("index") for p in got]
    c["found"] = sum(1 for n in want_nns if n in got_nns)
    c["in order"] = int(got_nns == sorted(want_nns))
    for r in patch_rows:
        up = (r.get("upstream_id") or "").lower()
        p = by_nn.get(r["nn"].lstrip("0") or "0")
        if up:
            c["with upstream"] += 1
            c["upstream found"] += bool(p and any(u.startswith(up[:12]) or up.startswith(u[:12])
                                                  for u in upstream_of(p)))
    placed = placements(docs)
    c["misplaced"] = []
    c["missed"] = []
    by_id = {strip_id(r["message_id"]): r for r in rows}
    for r in rows:
        if r["role"] != "reply":
            continue
        c["replies"] += 1
        mid = strip_id(r["message_id"])
        label = r.get("label") or ""
        if mid not in placed:
            c["uncited " + ("action" if label in ACTION else "harmless")] += 1
            if label in ACTION:
                c["missed"].append("%s %s" % (label, mid))
            continue
        c["cited"] += 1
        want = want_place(r, titles)
        where = placed[mid]
        if fits(want, where, by_nn):
            c["placed right"] += 1
            continue
        # a follow-up the label gives the series, placed with the reply it
        # answers (whose label names a patch)
        up, seen = by_id.get(strip_id(r.get("in_reply_to"))), 0
        while up and up["role"] == "reply" and want_place(up, titles) == "series" and seen < 16:
            up, seen = by_id.get(strip_id(up.get("in_reply_to"))), seen + 1
        if want == "series" and up and up["role"] == "reply" and \
                fits(want_place(up, titles), where, by_nn):
            c["with its parent"] += 1
        else:
            c["misplaced"].append("%s want %s got %s" % (mid, want, ",".join(sorted(where))))
    c["err"] = err.strip().splitlines()[-1] if rc == 2 and err.strip() else ""
    return c


COLS = [("exit", "exit"), ("announced", "announced"), ("patch mails", "patch mails"),
        ("found", "found"), ("in order", "in order"), ("upstream", None),
        ("replies", "replies"), ("cited", "cited"), ("placed right", "placed right"),
        ("with its parent", "with its parent"),
        ("uncited harmless", "uncited harmless"), ("uncited action", "uncited action")]


def cell(c, key):
    if key is None:
        return "%d/%d" % (c["upstream found"], c["with upstream"])
    if key == "in order":
        return "yes" if c["in order"] else "NO"
    return str(c[key])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fixscan", default=os.path.join(HERE, "..", "..", "..", "build", "fixscan"))
    ap.add_argument("--labels", default=os.path.join(HERE, "..", "threads"))
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("-v", "--verbose", action="store_true", help="name misplaced and missed replies")
    ap.add_argument("mbox", nargs="+")
    a = ap.parse_args()
    top = tempfile.mkdtemp(prefix="threadcheck.")
    repo = make_repo(top)
    res = [measure(os.path.abspath(a.fixscan), repo, top, m, a.labels) for m in sorted(a.mbox)]
    tot = Counter()
    for c in res:
        for k, v in c.items():
            if isinstance(v, int) and k not in ("exit",):
                tot[k] += v
    tot["exit"] = sum(1 for c in res if c["exit"] == 2)
    tot["in order"] = all(c["in order"] for c in res)
    if a.markdown:
        print("| thread | " + " | ".join(h for h, _ in COLS) + " |")
        print("|---" * (len(COLS) + 1) + "|")
    for c in res + [tot]:
        label = c["name"] if c is not tot else "all (exit: threads with 2)"
        cells = [cell(c, k if k != "upstream" else None) for k, _ in COLS]
        if a.markdown:
            print("| %s | %s |" % (label, " | ".join(cells)))
        else:
            print("%-18s " % label + "  ".join("%s %s" % (h, v) for (h, _), v in zip(COLS, cells)))
        if a.verbose and c is not tot:
            for x in c["misplaced"]:
                print("    misplaced " + x)
            for x in c["missed"]:
                print("    missed " + x)
            if c["err"]:
                print("    " + c["err"])
    subprocess.run(["rm", "-rf", top])


if __name__ == "__main__":
    sys.exit(main())
