#!/usr/bin/env python3
"""Inter-labeller agreement on the held-out reply labels (issue 28).

    agreement.py sample TESTDIR [--seed N] [--size N] > sample.txt
        choose the rows: every report/needs-also/replacement row of the
        test split that has its parent, the rest drawn at random; prints
        row names only, shuffled, so the labeller sees no label.
    agreement.py show TESTDIR ROW...
        print, for each row, the parent's subject and the reply (sender,
        subject, body decoded; long quoted runs and diffs shortened).
        Never the labels.
    agreement.py compare TESTDIR AGREEMENT.TSV [--fixscan-log LOG]
        per class Cohen's kappa and agreement, recall/precision of the
        second labeller against the corpus labels, and (with the output
        of `realcheck.py -v`) fixscan's against both.
"""
import argparse
import csv
import email
import email.policy
import random
import re
import sys
from collections import Counter

CLASSES = ["objection", "report", "needs-also", "replacement", "harmless"]
ACTION = {"objection", "report", "needs-also"}


def load_labels(d):
    rows = list(csv.DictReader(open("%s/labels.tsv" % d, newline=""), delimiter="\t"))
    return [r for r in rows if _have(d, r["row"])]


def _have(d, row):
    import os
    return all(os.path.exists("%s/%s.%s.eml" % (d, row, k)) for k in ("parent", "reply"))


def cmd_sample(a):
    rows = load_labels(a.dir)
    rng = random.Random(a.seed)
    must = [r["row"] for r in rows if r["label"] in ("report", "needs-also", "replacement",
                                                     "replacement-posted")]
    rest = sorted(r["row"] for r in rows if r["row"] not in must)
    pick = must + rng.sample(rest, a.size - len(must))
    rng.shuffle(pick)
    print("\n".join(pick))


def read(path):
    return email.message_from_binary_file(open(path, "rb"), policy=email.policy.default)


def body_text(msg):
    parts = []
    for p in msg.walk():
        if p.is_multipart():
            continue
        ct = p.get_content_type()
        if ct == "text/plain" or (ct == "text/x-patch") or (ct == "text/x-diff"):
            try:
                parts.append(p.get_content())
            except Exception:
                parts.append(p.get_payload(decode=True).decode("utf-8", "replace"))
    if not parts:
        for p in msg.walk():
            if p.get_content_type() == "text/html":
                t = p.get_content()
                parts.append(re.sub(r"<[^>]+>", "", t))
    return "\n".join(parts)


def shorten(text, quoted_keep=4, max_lines=70):
    out = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        ln = lines[i]
        if ln.lstrip().startswith(">"):
            j = i
            while j < len(lines) and (lines[j].lstrip().startswith(">") or not lines[j].strip()):
                j += 1
            run = lines[i:j]
            if len(run) > quoted_keep * 2:
                out += run[:quoted_keep] + ["    [... %d quoted lines ...]" % (len(run) - 2 * quoted_keep)] + run[-quoted_keep:]
            else:
                out += run
            i = j
            continue
        if ln.startswith("diff --git") or ln.startswith("--- a/"):
            j = i
            while j < len(lines) and not lines[j].startswith("-- ") :
                j += 1
            out += lines[i:i + 4] + ["    [... diff, %d lines ...]" % (j - i - 4)]
            i = j
            continue
        out.append(ln)
        i += 1
    # squeeze blank runs
    sq = []
    for ln in out:
        if not ln.strip() and sq and not sq[-1].strip():
            continue
        sq.append(ln)
    if len(sq) > max_lines:
        sq = sq[:max_lines] + ["    [... %d more lines ...]" % (len(sq) - max_lines)]
    return "\n".join(sq)


def clean(s):
    return "".join(c if c == "\n" or c == "\t" or c >= " " else "?" for c in s)


def cmd_show(a):
    for row in a.rows:
        par = read("%s/%s.parent.eml" % (a.dir, row))
        rep = read("%s/%s.reply.eml" % (a.dir, row))
        print("=" * 20, row)
        print("PARENT: %s" % clean(str(par.get("subject", ""))))
        print("FROM:   %s" % clean(str(rep.get("from", ""))))
        print("MSGID:  %s" % clean(str(rep.get("message-id", ""))))
        print(clean(shorten(body_text(rep), a.quoted, a.max_lines)))


def kappa(pairs, c, w=None):
    """agreement and Cohen's kappa on one class against the rest."""
    w = w or [1.0] * len(pairs)
    n = sum(w)
    a = sum(wi for (x, y), wi in zip(pairs, w) if (x == c) == (y == c))
    px = sum(wi for (x, _), wi in zip(pairs, w) if x == c) / n
    py = sum(wi for (_, y), wi in zip(pairs, w) if y == c) / n
    pe = px * py + (1 - px) * (1 - py)
    po = a / n
    return po, (po - pe) / (1 - pe) if pe < 1 else float("nan")


def multi_kappa(pairs, w=None):
    w = w or [1.0] * len(pairs)
    n = sum(w)
    po = sum(wi for (x, y), wi in zip(pairs, w) if x == y) / n
    cx, cy = Counter(), Counter()
    for (x, y), wi in zip(pairs, w):
        cx[x] += wi
        cy[y] += wi
    pe = sum(cx[c] * cy[c] for c in CLASSES) / n / n
    return po, (po - pe) / (1 - pe)


def rp(pairs, c, w=None):
    """truth count, said count, right count of the second element against the first."""
    w = w or [1.0] * len(pairs)
    lab = sum(wi for (t, g), wi in zip(pairs, w) if t == c)
    said = sum(wi for (t, g), wi in zip(pairs, w) if g == c)
    right = sum(wi for (t, g), wi in zip(pairs, w) if t == c and g == c)
    return lab, said, right


def fmt(a, b):
    return "%.3f" % (a / b) if b else "-"


def table(title, pairs, w=None):
    print(title)
    print("  %-12s %6s %6s %6s %7s %9s %6s %6s" % ("class", "truth", "said", "right", "recall",
                                                 "precision", "agree", "kappa"))
    for c in CLASSES:
        lab, said, right = rp(pairs, c, w)
        po, k = kappa(pairs, c, w)
        print("  %-12s %6.0f %6.0f %6.0f %7s %9s %6.3f %6s" % (c, lab, said, right, fmt(right, lab),
                                                             fmt(right, said), po,
                                                             "-" if k != k else "%.3f" % k))
    act = [("act" if t in ACTION else "no", "act" if g in ACTION else "no") for t, g in pairs]
    lab, said, right = rp(act, "act", w)
    po, k = kappa(act, "act", w)
    print("  %-12s %6.0f %6.0f %6.0f %7s %9s %6.3f %6.3f" % ("any-action", lab, said, right,
                                                           fmt(right, lab), fmt(right, said), po, k))
    po, k = multi_kappa(pairs, w)
    print("  all five classes: agreement %.3f, Cohen's kappa %.3f (n=%d%s)"
          % (po, k, len(pairs), ", weighted to %.0f" % sum(w) if w else ""))
    if w:
        print()
        return
    conf = Counter(pairs)
    print("  confusion (rows: truth, columns: said)")
    print("  %-12s " % "" + " ".join("%11s" % c[:11] for c in CLASSES))
    for t in CLASSES:
        print("  %-12s " % t + " ".join("%11d" % conf[(t, g)] for g in CLASSES))
    print()


def norm(l):
    l = (l or "").strip()
    return "replacement" if l == "replacement-posted" else l


def cmd_compare(a):
    corpus = {r["row"]: r for r in load_labels(a.dir)}
    mine = list(csv.DictReader(open(a.tsv, newline=""), delimiter="\t"))
    byid = {r["reply_id"].strip("<>"): r for r in corpus.values()}
    fx = {}
    if a.fixscan_log:
        said = {}
        for ln in open(a.fixscan_log):
            m = re.match(r"\s+wrong: (\S+) label=(\S+) said=(\S+)", ln)
            if m:
                said[m.group(1)] = m.group(3)
        for row, r in corpus.items():
            fx[row] = said.get(row, norm(r["label"]))
    pairs_cm, pairs_cf, pairs_mf = [], [], []
    dis = []
    for m in mine:
        r = byid[m["reply_id"].strip("<>")]
        c, me = norm(r["label"]), norm(m["label"])
        pairs_cm.append((c, me))
        if fx:
            pairs_cf.append((c, fx[r["row"]]))
            pairs_mf.append((me, fx[r["row"]]))
        if c != me:
            dis.append((r["row"], c, me, m["reason"], r["note"]))
    # the sample took every rarer-class row and drew the rest: weight the
    # drawn rows up to the whole split so that the weighted figures
    # estimate the split's own class mix
    must = {"report", "needs-also", "replacement"}
    n_rest = sum(1 for r in corpus.values() if norm(r["label"]) not in must)
    k_rest = sum(1 for c, _ in pairs_cm if c not in must)
    w = [1.0 if c in must else n_rest / k_rest for c, _ in pairs_cm]
    print("sample: %d replies; corpus labels %s" % (len(mine), dict(Counter(c for c, _ in pairs_cm))))
    print("second labeller: %s\n" % dict(Counter(x for _, x in pairs_cm)))
    table("second labeller (said) against the corpus labels (truth)", pairs_cm)
    if fx:
        table("fixscan (said) against the corpus labels (truth)", pairs_cf)
        table("fixscan (said) against the second labeller (truth)", pairs_mf)
    print("weighted to the whole test split (%d rows; drawn rows count %.3f each)\n"
          % (len(corpus), n_rest / k_rest))
    table("second labeller against the corpus labels, weighted", pairs_cm, w)
    if fx:
        table("fixscan against the corpus labels, weighted", pairs_cf, w)
        table("fixscan against the second labeller, weighted", pairs_mf, w)
    if a.disagreements:
        for d in dis:
            print("%s\tcorpus=%s\tmine=%s\n   mine: %s\n   corpus note: %s" % d)


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("dir")
    s.add_argument("--seed", type=int, default=28)
    s.add_argument("--size", type=int, default=150)
    s = sub.add_parser("show")
    s.add_argument("dir")
    s.add_argument("rows", nargs="+")
    s.add_argument("--quoted", type=int, default=4)
    s.add_argument("--max-lines", type=int, default=70)
    s = sub.add_parser("compare")
    s.add_argument("dir")
    s.add_argument("tsv")
    s.add_argument("--fixscan-log")
    s.add_argument("--disagreements", action="store_true")
    a = ap.parse_args()
    {"sample": cmd_sample, "show": cmd_show, "compare": cmd_compare}[a.cmd](a)


if __name__ == "__main__":
    main()
