#!/usr/bin/env python3
"""Train a reply class model over fixscan's reply features and write it
as a C table.

    tests/real/scripts/train-replies.py --out FILE.c SET...

The table is the struct fs_model that the experiment on branch
reader28-model reads from lib/mentions-model.c (main does not use one
yet: measured on the held-out test split the model did not beat the
phrase rules, see tests/real/TUNING.md).

Each SET is a directory of labelled real replies in one of the layouts
scripts/realcheck.py reads: <row>.reply.eml with labels.tsv (the tune
half of tests/real/replies.tsv, the fresh sets rebuilt by
scripts/realcorpus.py), or INDEX.tsv with cur/ (the shared realreplies
set).  The mails stay outside the repository; only the weights are
written.  Replies of the held-out test half of tests/real/replies.tsv (odd
rows) are never read: a reply with one of their Message-Ids is skipped
wherever it appears.

The features are exactly those fixscan computes (fs_mentions_features(),
through tests/real/scripts/reply-features.c linked against
build/libfixscan.a, so `make` first).  The model is one L2-regularised
logistic regression per action class (objection, report, needs-also) over
binary features, trained by AdaGrad; the regularisation and each class's
threshold are chosen by 5-fold cross-validation on the training replies,
precision first: the lowest threshold whose cross-validated precision is
at least --precision (0.95), so that a false objection stays rarer than a
missed one.  Python 3 standard library only.
"""
import argparse
import csv
import math
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
CLASSES = ["objection", "report", "needs-also"]


def strip_id(s):
    return (s or "").strip().strip("<>")


def held_out_ids():
    """Message-Ids of the test half of tests/real/replies.tsv (odd rows)."""
    out = set()
    with open(os.path.join(TOP, "tests/real/replies.tsv"), newline="") as f:
        for r in csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t"):
            if int(r["row"].lstrip("r")) % 2 == 1:
                out.add(strip_id(r["reply_id"]))
    return out


def read_set(d):
    """[(reply file, label, message id or None)] of one set."""
    out = []
    if os.path.exists(os.path.join(d, "INDEX.tsv")):
        with open(os.path.join(d, "INDEX.tsv"), newline="") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                if r.get("role") == "reply" and (r.get("label") or "").strip():
                    out.append((os.path.join(d, "cur", r["filename"]), r["label"].strip(),
                                strip_id(r["message_id"])))
        return out
    with open(os.path.join(d, "labels.tsv"), newline="") as f:
        rows = list(csv.reader(f, delimiter="\t"))
    head = rows[0]
    li = head.index("label")
    ri = head.index("row") if "row" in head else 0
    mi = next((head.index(k) for k in ("reply_id", "reply_message_id") if k in head), None)
    for r in rows[1:]:
        path = os.path.join(d, r[ri] + ".reply.eml")
        if os.path.exists(path):
            out.append((path, r[li].strip(), strip_id(r[mi]) if mi is not None else None))
    return out


def features(paths):
    """{path: set of features}, by fixscan's own code."""
    exe = os.path.join(tempfile.mkdtemp(), "reply-features")
    pc = subprocess.run(["pkg-config", "--cflags", "--libs", "gmime-3.0", "libgit2", "libpcre2-8",
                         "json-glib-1.0", "glib-2.0", "zlib"], capture_output=True, text=True,
                        check=True).stdout.split()
    subprocess.run(["cc", "-O2", "-std=gnu11", "-I" + os.path.join(TOP, "include"),
                    "-I" + os.path.join(TOP, "lib"), "-o", exe, os.path.join(HERE, "reply-features.c"),
                    os.path.join(TOP, "build/libfixscan.a")] + pc + ["-ldeflate", "-lnotmuch", "-lpthread"],
                   check=True)
    out = {}
    for i in range(0, len(paths), 200):
        text = subprocess.run([exe] + paths[i:i + 200], capture_output=True, check=True).stdout
        for line in text.decode("utf-8", "replace").splitlines():
            parts = line.split("\t")
            out[parts[0]] = set(parts[1:])
    return out


def sigmoid(z):
    return 1 / (1 + math.exp(-z)) if z > -30 else 0.0


def train(xs, ys, l2, epochs=25, seed=1):
    """One logistic regression per class: ({feature: [w per class]}, [bias])."""
    w, g2 = {}, {}
    b, gb = [0.0] * len(CLASSES), [1e-8] * len(CLASSES)
    rnd = random.Random(seed)
    order = list(range(len(xs)))
    lr = 0.5
    for _ in range(epochs):
        rnd.shuffle(order)
        for i in order:
            x, y = xs[i], ys[i]
            for c, name in enumerate(CLASSES):
                z = b[c] + sum(w[f][c] for f in x if f in w)
                g = sigmoid(z) - (1.0 if y == name else 0.0)
                gb[c] += g * g
                b[c] -= lr * g / math.sqrt(gb[c])
                for f in x:
                    wf = w.setdefault(f, [0.0] * len(CLASSES))
                    gf = g2.setdefault(f, [1e-8] * len(CLASSES))
                    d = g + l2 * wf[c]
                    gf[c] += d * d
                    wf[c] -= lr * d / math.sqrt(gf[c])
    return w, b


def scores(model, x):
    w, b = model
    return [b[c] + sum(w[f][c] for f in x if f in w) for c in range(len(CLASSES))]


def decide(sc, thr):
    """The class of a reply of scores SC: a class whose score reaches its
    threshold, by the widest margin."""
    best, chosen = 0, "harmless"
    for c, name in enumerate(CLASSES):
        m = sc[c] - thr[c]
        if m >= 0 and (chosen == "harmless" or m > best):
            best, chosen = m, name
    return chosen


def threshold_for(pairs, want):
    """The lowest threshold whose precision over PAIRS (score, is the
    class) is at least WANT, with at least two found; else the one of
    best F0.5."""
    pairs = sorted(pairs, reverse=True)
    total = sum(1 for _, y in pairs if y)
    tp = fp = 0
    best, best_f = None, -1
    chosen = None
    for i, (s, y) in enumerate(pairs):
        tp += y
        fp += not y
        if i + 1 < len(pairs) and pairs[i + 1][0] == s:
            continue
        prec = tp / (tp + fp)
        rec = tp / total if total else 0
        if prec >= want and tp >= 2:
            chosen = s
        f = 1.25 * prec * rec / (0.25 * prec + rec) if prec + rec else 0
        if f > best_f:
            best, best_f = s, f
    return chosen if chosen is not None else (best if best is not None else 1e9)


def figures(ys, preds):
    out = {}
    for name in CLASSES + ["harmless"]:
        said = sum(1 for p in preds if p == name)
        lab = sum(1 for y in ys if y == name)
        right = sum(1 for y, p in zip(ys, preds) if y == p == name)
        out[name] = (lab, said, right, right / lab if lab else 0, right / said if said else 0)
    return out


def crossval(xs, ys, l2, want, folds=5):
    idx = list(range(len(xs)))
    random.Random(7).shuffle(idx)
    oof = [None] * len(xs)
    for k in range(folds):
        test = set(idx[k::folds])
        tr = [i for i in idx if i not in test]
        m = train([xs[i] for i in tr], [ys[i] for i in tr], l2)
        for i in test:
            oof[i] = scores(m, xs[i])
    thr = [threshold_for([(oof[i][c], ys[i] == name) for i in range(len(xs))], want)
           for c, name in enumerate(CLASSES)]
    preds = [decide(oof[i], thr) for i in range(len(xs))]
    return thr, figures(ys, preds)


def write_model(path, model, thr, note):
    w, b = model
    feats = sorted(f for f in w if any(abs(v) >= 0.005 for v in w[f]))
    nslots = 1
    while nslots < 2 * len(feats):
        nslots *= 2
    slots = [0] * nslots
    for i, f in enumerate(feats):
        h = 2166136261
        for ch in f.encode():
            h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
        at = h & (nslots - 1)
        while slots[at]:
            at = (at + 1) & (nslots - 1)
        slots[at] = i + 1

    def cstr(s):
        return '"' + "".join(ch if 32 <= ord(ch) < 127 and ch not in '"\\?' else
                             "".join("\\%03o" % x for x in ch.encode()) for ch in s) + '"'

    with open(path + ".tmp", "w") as f:
        f.write("/* GENERATED by tests/real/scripts/train-replies.py: do not edit.\n"
                " * The reply class model read by lib/review/mentions-class.c: for each feature\n"
                " * of a reply (fs_mentions_features()) its weight towards objection,\n"
                " * report and needs-also; trained on labelled real replies kept outside\n"
                " * the repository (derived numbers only, no mail text).\n")
        for line in note:
            f.write(" * %s\n" % line)
        f.write(" */\n#include \"review/mentions-private.h\"\n\n")
        f.write("static const struct fs_model_feature features[] = {\n")
        for name in feats:
            f.write("\t{ %s, { %s } },\n" % (cstr(name), ", ".join("%.4ff" % v for v in w[name])))
        f.write("};\n\nstatic const unsigned slots[%d] = {\n" % nslots)
        for i in range(0, nslots, 12):
            f.write("\t" + ", ".join(str(s) for s in slots[i:i + 12]) + ",\n")
        f.write("};\n\nconst struct fs_model fs_mentions_model = {\n")
        f.write("\tfeatures, %d, slots, %d,\n" % (len(feats), nslots))
        f.write("\t{ %s },\n" % ", ".join("%.4ff" % v for v in b))
        f.write("\t{ %s },\n};\n" % ", ".join("%.4ff" % v for v in thr))
    os.replace(path + ".tmp", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--precision", type=float, default=0.95)
    ap.add_argument("--l2", default="0.003,0.01,0.03")
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--with-rules", action="store_true",
                    help="read the phrase rules' verdicts (r:, c:, s:drop) as features too; they were "
                    "tuned on these same replies, so cross-validation then overrates them")
    ap.add_argument("sets", nargs="+")
    a = ap.parse_args()
    held = held_out_ids()
    seen, items = set(), []
    for d in a.sets:
        for path, label, mid in read_set(d):
            if mid and (mid in held or mid in seen):
                continue
            if mid:
                seen.add(mid)
            items.append((path, label, d))
    feats = features([p for p, _, _ in items])
    count = {}
    for p, _, _ in items:
        for f in feats.get(p, ()):
            count[f] = count.get(f, 0) + 1
    keep = {f for f, n in count.items() if n >= a.min_count and
            not (not a.with_rules and (f[:2] in ("r:", "c:") or f == "s:drop"))}
    xs = [sorted(feats.get(p, set()) & keep) for p, _, _ in items]
    ys = [lab if lab in CLASSES else "harmless" for _, lab, _ in items]
    print("training replies: %d (%s), features %d" % (
        len(xs), ", ".join("%s %d" % (n, ys.count(n)) for n in CLASSES + ["harmless"]), len(keep)))
    best = None
    for l2 in (float(v) for v in a.l2.split(",")):
        thr, fig = crossval(xs, ys, l2, a.precision)
        score = sum(fig[n][3] * min(1, fig[n][4] / a.precision) for n in CLASSES)
        print("l2 %g: thresholds %s" % (l2, " ".join("%.2f" % t for t in thr)))
        for n in CLASSES + ["harmless"]:
            print("  %-11s %4d %4d %4d  %.3f %.3f" % ((n,) + fig[n]))
        if best is None or score > best[0]:
            best = (score, l2, thr, fig)
    _, l2, thr, fig = best
    model = train(xs, ys, l2)
    note = ["Trained on %d replies (%s), l2 %g; thresholds chosen by 5-fold" % (
        len(xs), ", ".join(sorted({os.path.basename(d.rstrip("/")) for d in a.sets})), l2),
            "cross-validation for precision >= %.2f; cross-validated recall/precision:" % a.precision]
    note += ["  %-11s %.3f / %.3f" % (n, fig[n][3], fig[n][4]) for n in CLASSES]
    write_model(a.out, model, thr, note)
    print("wrote %s (l2 %g)" % (a.out, l2))


if __name__ == "__main__":
    sys.exit(main())
