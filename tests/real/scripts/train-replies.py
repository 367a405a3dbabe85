#!/usr/bin/env python3
"""Train fixscan's reply class model and write lib/review/reply-model.tsv.

    tests/real/scripts/train-replies.py --mails DIR [--rows TSV]... [--out TSV]
                                       [--curve] [--seed N]

Each --rows TSV is a table of labelled replies (tests/real/corpus40/
train.tsv by default) with the columns id, list, reply_id and a label
(label_final, else label_a when label_b agrees or is empty); --mails DIR
holds their mails as <id>.reply.eml and <id>.parent.eml (written by
tests/real/scripts/real-corpus.py --corpus40).  Rows whose list is one of
the held-out lists of issue 40 are refused: they measure, they never
train.

The features are exactly fixscan's (fs_mentions_features() with the
reply's context), computed by tests/real/scripts/reply-features.c linked
against build/libfixscan.a (`make` first).  The model is a multinomial
logistic regression over five classes (objection, report, needs-also,
replacement, harmless) on binary features, L2-regularised, trained by
full-batch AdaGrad.  The regularisation and then one decision margin per
class are chosen by cross-validation grouped by list (a list is never in
both the training and the measuring part of a fold), for: precision of
"any action" (every class but harmless) at least --precision
(0.90), then the largest recall of any action plus recall of objections.
Python 3 standard library only.

--curve prints the learning curve: the cross-validated figures when
training on a quarter, a half, three quarters and all of the lists.
"""
import argparse
import csv
import math
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
CLASSES = ["objection", "report", "needs-also", "replacement", "harmless"]
ACTION = {0, 1, 2, 3}   # every class but harmless asks for something
HELD_OUT = {
    "ceph-devel", "linux-acpi", "linux-arch", "linux-block", "linux-crypto", "linux-efi",
    "linux-fpga", "linux-fscrypt", "linux-gpio", "linux-i2c", "linux-ide", "linux-iio",
    "linux-input", "linux-mmc", "linux-modules", "linux-nilfs", "linux-parisc", "linux-pci",
    "linux-pm", "linux-samsung-soc", "linux-scsi", "linux-serial", "linux-sh", "linux-spi",
    "linux-unionfs", "linux-wireless", "platform-driver-x86", "sparclinux",
}


def die(msg):
    sys.stderr.write("train-replies: %s\n" % msg)
    sys.exit(2)


def row_label(r):
    """The label a row trains with, or None."""
    for k in ("label_final",):
        if (r.get(k) or "").strip():
            return r[k].strip()
    a, b = (r.get("label_a") or "").strip(), (r.get("label_b") or "").strip()
    if a and (not b or a == b):
        return a
    return None


def read_rows(paths):
    rows = []
    for p in paths:
        with open(p, newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                lab = row_label(r)
                if lab is None:
                    continue
                if lab not in CLASSES:
                    die("%s: row %s: unknown label %r" % (p, r.get("id"), lab))
                lst = (r.get("list") or "").strip()
                if lst in HELD_OUT:
                    die("%s: row %s is of the held-out list %s: it may not train" %
                        (p, r.get("id"), lst))
                rows.append({"id": r["id"], "list": lst, "y": CLASSES.index(lab)})
    return rows


def build_tool():
    exe = os.path.join(tempfile.mkdtemp(), "reply-features")
    cflags = subprocess.run(["pkg-config", "--cflags", "glib-2.0", "gmime-3.0"],
                            capture_output=True, text=True, check=True).stdout.split()
    libs = subprocess.run(["pkg-config", "--libs", "gmime-3.0", "libgit2", "libpcre2-8",
                           "json-glib-1.0", "glib-2.0", "zlib"],
                          capture_output=True, text=True, check=True).stdout.split()
    deflate = subprocess.run(["pkg-config", "--libs", "libdeflate"], capture_output=True,
                             text=True).stdout.split()
    lib = os.path.join(TOP, "build", "libfixscan.a")
    if not os.path.exists(lib):
        die("no build/libfixscan.a: run make first")
    subprocess.run(["cc", "-std=gnu11", "-O2", "-I" + os.path.join(TOP, "include"),
                    "-I" + os.path.join(TOP, "lib"), *cflags, "-o", exe,
                    os.path.join(HERE, "reply-features.c"), lib, *libs, *deflate,
                    "-lnotmuch", "-lpthread", "-lm"], check=True)
    return exe


def features(rows, mails):
    exe = build_tool()
    pairs = []
    for r in rows:
        reply = os.path.join(mails, r["id"] + ".reply.eml")
        parent = os.path.join(mails, r["id"] + ".parent.eml")
        if not os.path.exists(reply):
            continue            # not in the mirrors: counted by the export
        pairs.append("%s\t%s" % (reply, parent if os.path.exists(parent) else ""))
    # the features are byte strings: kept as they are (a word cut inside
    # a character still names one feature, in training as in use)
    out = subprocess.run([exe], input="\n".join(pairs) + "\n", capture_output=True,
                         encoding="utf-8", errors="surrogateescape",
                         check=True).stdout.splitlines()
    by_path = {}
    for line in out:
        f = line.split("\t")
        by_path[f[0]] = set(f[1:])
    kept = []
    for r in rows:
        path = os.path.join(mails, r["id"] + ".reply.eml")
        if path in by_path:
            r["x"] = by_path[path]
            kept.append(r)
    sys.stderr.write("train-replies: %d of %d rows have their mails\n" % (len(kept), len(rows)))
    return kept


class Model:
    def __init__(self, k=len(CLASSES)):
        self.k = k
        self.w = {}
        self.b = [0.0] * k
        self.margin = [0.0] * k

    def scores(self, x):
        s = list(self.b)
        for f in x:
            w = self.w.get(f)
            if w:
                for c in range(self.k):
                    s[c] += w[c]
        return s

    def probs(self, x):
        s = self.scores(x)
        top = max(s)
        e = [math.exp(v - top) for v in s]
        t = sum(e)
        return [v / t for v in e]

    def decide(self, x, margin=None):
        m = margin or self.margin
        s = self.scores(x)
        return max(range(self.k), key=lambda c: (s[c] + m[c], -c))


def train(rows, l2, epochs=60, lr=0.5, min_count=2):
    counts = Counter(f for r in rows for f in r["x"])
    keep = {f for f, n in counts.items() if n >= min_count}
    m = Model()
    g2w = defaultdict(lambda: [1e-8] * m.k)
    g2b = [1e-8] * m.k
    xs = [[f for f in r["x"] if f in keep] for r in rows]
    for f in keep:
        m.w[f] = [0.0] * m.k
    n = len(rows)
    for _ in range(epochs):
        gw = defaultdict(lambda: [0.0] * m.k)
        gb = [0.0] * m.k
        for x, r in zip(xs, rows):
            p = m.probs(x)
            for c in range(m.k):
                d = p[c] - (1.0 if c == r["y"] else 0.0)
                if d:
                    gb[c] += d
                    for f in x:
                        gw[f][c] += d
        for c in range(m.k):
            g = gb[c] / n
            g2b[c] += g * g
            m.b[c] -= lr * g / math.sqrt(g2b[c])
        for f, w in m.w.items():
            g = gw.get(f)
            acc = g2w[f]
            for c in range(m.k):
                gr = (g[c] / n if g else 0.0) + l2 * w[c]
                if gr:
                    acc[c] += gr * gr
                    w[c] -= lr * gr / math.sqrt(acc[c])
    return m


def folds_by_list(rows, k, seed):
    lists = sorted({r["list"] for r in rows})
    random.Random(seed).shuffle(lists)
    fold = {l: i % k for i, l in enumerate(lists)}
    return [fold[r["list"]] for r in rows]


def figures(ys, ps):
    """Per-class (precision, recall, n) and any-action (precision, recall)."""
    out = {}
    for c in range(len(CLASSES)):
        tp = sum(1 for y, p in zip(ys, ps) if y == c and p == c)
        fp = sum(1 for y, p in zip(ys, ps) if y != c and p == c)
        fn = sum(1 for y, p in zip(ys, ps) if y == c and p != c)
        out[CLASSES[c]] = (tp / (tp + fp) if tp + fp else 0.0, tp / (tp + fn) if tp + fn else 0.0,
                           tp + fn)
    tp = sum(1 for y, p in zip(ys, ps) if y in ACTION and p in ACTION)
    fp = sum(1 for y, p in zip(ys, ps) if y not in ACTION and p in ACTION)
    fn = sum(1 for y, p in zip(ys, ps) if y in ACTION and p not in ACTION)
    out["any-action"] = (tp / (tp + fp) if tp + fp else 0.0, tp / (tp + fn) if tp + fn else 0.0,
                         tp + fn)
    return out


def objective(fig, want_precision):
    p, r, _ = fig["any-action"]
    obj_r = fig["objection"][1]
    if p < want_precision:
        return p - 10.0
    return r + obj_r


def out_of_fold(rows, l2, k, seed, epochs):
    fold = folds_by_list(rows, k, seed)
    oof = [None] * len(rows)
    for i in range(k):
        tr = [r for r, f in zip(rows, fold) if f != i]
        m = train(tr, l2, epochs=epochs)
        for j, (r, f) in enumerate(zip(rows, fold)):
            if f == i:
                oof[j] = m.scores(r["x"])
    return oof


def best_margins(rows, oof, want_precision):
    ys = [r["y"] for r in rows]
    margin = [0.0] * len(CLASSES)

    def preds(m):
        return [max(range(len(CLASSES)), key=lambda c: (s[c] + m[c], -c)) for s in oof]

    best = objective(figures(ys, preds(margin)), want_precision)
    grid = [x / 4.0 for x in range(-12, 13)]
    for _ in range(3):
        for c in range(len(CLASSES) - 1):
            for v in grid:
                t = list(margin)
                t[c] = v
                o = objective(figures(ys, preds(t)), want_precision)
                if o > best + 1e-9:
                    best, margin = o, t
    return margin, figures(ys, preds(margin))


def print_figures(title, fig, out=sys.stdout):
    out.write("%s\n" % title)
    for c in CLASSES + ["any-action"]:
        p, r, n = fig[c]
        out.write("  %-12s precision %.3f recall %.3f (n=%d)\n" % (c, p, r, n))


def write_model(path, m, rows, l2, fig):
    lists = sorted({r["list"] for r in rows})
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as o:
        o.write("# fixscan reply model: %d replies of %d lists, L2 %g "
                "(tests/real/scripts/train-replies.py)\n" % (len(rows), len(lists), l2))
        o.write("# cross-validated by list: any action precision %.3f recall %.3f, "
                "objection recall %.3f\n" % (fig["any-action"][0], fig["any-action"][1],
                                             fig["objection"][1]))
        o.write("classes\t%s\n" % "\t".join(CLASSES))
        o.write("bias\t%s\n" % "\t".join("%.6g" % v for v in m.b))
        o.write("margin\t%s\n" % "\t".join("%.6g" % v for v in m.margin))
        for f in sorted(m.w, key=lambda s: s.encode("utf-8")):
            w = m.w[f]
            if max(abs(v) for v in w) < 1e-3:
                continue
            o.write("w\t%s\t%s\n" % (f, "\t".join("%.6g" % v for v in w)))
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description="Train fixscan's reply class model.")
    ap.add_argument("--mails", required=True, help="<id>.reply.eml / <id>.parent.eml")
    ap.add_argument("--rows", action="append",
                    help="labelled rows (default tests/real/corpus40/train.tsv)")
    ap.add_argument("--out", default=os.path.join(TOP, "lib/review/reply-model.tsv"))
    ap.add_argument("--precision", type=float, default=0.90)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--epochs", type=int, default=60)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--curve", action="store_true")
    args = ap.parse_args()
    rows = read_rows(args.rows or [os.path.join(TOP, "tests/real/corpus40/train.tsv")])
    if not rows:
        die("no labelled rows")
    rows = features(rows, args.mails)
    print("%d replies of %d lists: %s" % (len(rows), len({r["list"] for r in rows}),
                                          dict(Counter(CLASSES[r["y"]] for r in rows))))
    best = None
    for l2 in (1e-4, 1e-3, 1e-2):
        oof = out_of_fold(rows, l2, args.folds, args.seed, args.epochs)
        margin, fig = best_margins(rows, oof, args.precision)
        o = objective(fig, args.precision)
        print_figures("L2 %g, margins %s" % (l2, margin), fig)
        if best is None or o > best[0]:
            best = (o, l2, margin, fig)
    _, l2, margin, fig = best
    if args.curve:
        lists = sorted({r["list"] for r in rows})
        random.Random(args.seed).shuffle(lists)
        for part in (0.25, 0.5, 0.75):
            keep = set(lists[:max(args.folds, int(len(lists) * part))])
            sub = [r for r in rows if r["list"] in keep]
            oof = out_of_fold(sub, l2, args.folds, args.seed, args.epochs)
            _, f2 = best_margins(sub, oof, args.precision)
            print_figures("curve: %d lists, %d replies" % (len(keep), len(sub)), f2)
    m = train(rows, l2, epochs=args.epochs)
    m.margin = margin
    write_model(args.out, m, rows, l2, fig)
    print_figures("chosen: L2 %g, margins %s (cross-validated by list)" % (l2, margin), fig)
    print("wrote %s" % args.out)


if __name__ == "__main__":
    main()
