#!/usr/bin/env python3
"""Measure fixscan on real list mail: how it reads replies, subjects and
upstream lines, and whole review threads.

    scripts/realcheck.py [--fixscan BIN] [--fields TSV] DIR...

Each DIR is one of three layouts, recognised by what it holds:

  replies   INDEX.tsv with role/message_id/in_reply_to/label columns and
            the mails in cur/ (the shared realreplies set), or
            <row>.parent.eml + <row>.reply.eml with a labels TSV (a column
            "row" or the first column, and a column "label"), and the
            other replies of the row's thread as <row>.thread-NN.eml when
            the export wrote them (corpus40.py export --threads)
  mails     INDEX.tsv with filename/message_id/subject/kind and cur/ (the
            shared realmail set); the expected fields come from --fields
            (tests/real/realmail-fields.tsv by default)
  threads   *.mbox / *.mbx / *.mboxrd files: one review thread each

Each reply is put into an mbox with its parent (and its thread, when
there) and read by the real binary
(`fixscan review --mbox --json`) against an empty kernel repository made
once; its class is the strongest finding that cites it.  Nothing here
judges a mail itself: every figure is what the binary said.
"""
import argparse
import csv
import json
import mailbox
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict

CLASSES = ["objection", "report", "needs-also", "replacement", "harmless"]
ACTION = {"objection", "report", "needs-also", "replacement"}   # every class but harmless
# The finding kinds that carry a reply, strongest first, and the class each says.
KIND_CLASS = [("objection", "objection"), ("regression-report", "report"),
              ("needs-also", "needs-also"), ("replacement-posted", "replacement"),
              ("reply", "harmless")]
# every branch a subject may name, so that none is refused as unknown
BRANCHES = ["%d.%d" % (ma, mi) for ma, top in ((2, 6), (3, 19), (4, 20), (5, 19), (6, 20), (7, 9))
            for mi in range(top + 1)] + ["2.6.%d" % mi for mi in range(30, 40)]


def make_repo(top):
    repo = os.path.join(top, "repo")
    env = dict(os.environ, GIT_AUTHOR_NAME="r", GIT_AUTHOR_EMAIL="r@x",
               GIT_COMMITTER_NAME="r", GIT_COMMITTER_EMAIL="r@x")
    subprocess.run(["git", "init", "-q", "-b", "master", repo], check=True, env=env)
    subprocess.run(["git", "-C", repo, "commit", "-q", "--allow-empty", "-m", "init"],
                   check=True, env=env)
    subprocess.run(["git", "-C", repo, "tag", "v6.1"], check=True, env=env)
    for b in BRANCHES:
        subprocess.run(["git", "-C", repo, "branch", "linux-%s.y" % b], check=True, env=env)
    return repo



def json_docs(out):
    """The JSON documents of fixscan's output OUT (bytes), one after the
    other, up to the first that does not parse."""
    docs, dec, text, i = [], json.JSONDecoder(), out.decode("utf-8", "replace"), 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return docs
        try:
            doc, i = dec.raw_decode(text, i)
        except ValueError:
            return docs
        docs.append(doc)

class Runner:
    def __init__(self, fixscan, top):
        self.fixscan = fixscan
        self.top = top
        self.repo = make_repo(top)
        self.env = dict(os.environ, HOME=os.path.join(top, "home"),
                        XDG_CACHE_HOME=os.path.join(top, "cache"),
                        XDG_STATE_HOME=os.path.join(top, "state"),
                        XDG_CONFIG_HOME=os.path.join(top, "config"))
        self.n = 0

    def review(self, raw_mails=None, mbox_path=None):
        """fixscan review --json over the mails (bytes) or an mbox file:
        (exit status, [series JSON])."""
        if mbox_path is None:
            self.n += 1
            mbox_path = os.path.join(self.top, "t%d.mbox" % self.n)
            mb = mailbox.mbox(mbox_path, create=True)
            for raw in raw_mails:
                mb.add(raw)
            mb.flush()
            mb.close()
        cmd = [self.fixscan, "review", "--repo", self.repo, "--mbox", mbox_path, "--json"]
        p = subprocess.run(cmd, capture_output=True, env=self.env)
        if p.returncode == 2 and b"use --branch" in p.stderr:
            # a mail naming no branch: the replies are read all the same
            p = subprocess.run(cmd + ["--branch", "linux-6.1.y"], capture_output=True, env=self.env)
        return p.returncode, json_docs(p.stdout), p.stderr.decode("utf-8", "replace")

    def parse(self, path):
        p = subprocess.run([self.fixscan, "parse", "--json", path], capture_output=True,
                           env=self.env)
        try:
            return json.loads(p.stdout.decode("utf-8", "replace").splitlines()[0])
        except (ValueError, IndexError):
            return None


def findings_by_mail(docs):
    """{message_id: [kind, ...]} for the findings that cite a mail."""
    out = defaultdict(list)
    for doc in docs:
        for sect in ("cover_findings", "series_findings"):
            for f in doc.get(sect) or []:
                if f.get("message_id"):
                    out[f["message_id"].strip("<>")].append(f["kind"])
        for p in doc.get("patches") or []:
            for f in p.get("findings") or []:
                if f.get("message_id"):
                    out[f["message_id"].strip("<>")].append(f["kind"])
    return out


def class_of(kinds):
    for kind, cls in KIND_CLASS:
        if kind in kinds:
            return cls
    return "harmless"


def strip_id(s):
    return (s or "").strip().strip("<>")


def replies_shared(d):
    rows = list(csv.DictReader(open(os.path.join(d, "INDEX.tsv"), newline=""), delimiter="\t"))
    parents = {strip_id(r["message_id"]): r for r in rows if r["role"] == "parent"}
    for r in rows:
        if r["role"] != "reply":
            continue
        par = parents.get(strip_id(r["in_reply_to"]))
        if not par:
            continue
        yield (r["filename"], [os.path.join(d, "cur", par["filename"])],
               os.path.join(d, "cur", r["filename"]), r["label"].strip(),
               strip_id(r["message_id"]))


def labels_tsv(d):
    for name in sorted(os.listdir(d)):
        if name.endswith(".tsv"):
            return os.path.join(d, name)
    return None


def replies_eml(d):
    tsv = labels_tsv(d)
    rows = list(csv.DictReader(open(tsv, newline=""), delimiter="\t")) if tsv else []
    names = os.listdir(d)
    for r in rows:
        row = r.get("row") or r.get(list(r.keys())[0])
        par = os.path.join(d, "%s.parent.eml" % row)
        rep = os.path.join(d, "%s.reply.eml" % row)
        if not (os.path.exists(par) and os.path.exists(rep)):
            continue
        raw = open(rep, "rb").read()
        m = re.search(rb"(?im)^message-id:\s*<?([^>\s]+)>?", raw)
        thread = sorted(os.path.join(d, n) for n in names if n.startswith(row + ".thread-"))
        yield (row, [par] + thread, rep, (r.get("label") or "").strip(),
               m.group(1).decode() if m else "")


def measure_replies(run, items, verbose):
    conf = Counter()
    surfaced = Counter()        # action replies cited by any finding (a plain reply too)
    wrong = []
    exit2 = 0
    for name, par, rep, label, mid in items:
        if label == "replacement-posted":
            label = "replacement"
        rc, docs, err = run.review([open(p, "rb").read() for p in par] + [open(rep, "rb").read()])
        if rc == 2 or not docs:
            exit2 += 1
            if verbose:
                print("  %s: exit %d: %s" % (name, rc, (err.strip().splitlines() or ["no output"])[-1]))
        kinds = findings_by_mail(docs).get(mid, [])
        got = class_of(kinds)
        conf[(label, got)] += 1
        if label in ACTION:
            surfaced[bool(kinds)] += 1
        if got != label:
            wrong.append((name, label, got))
    print("  replies: %d, review exit 2 / no output: %d" % (sum(conf.values()), exit2))
    print("  %-12s %6s %6s %6s %7s %9s" % ("class", "label", "said", "right", "recall", "precision"))
    for c in CLASSES:
        lab = sum(v for (l, g), v in conf.items() if l == c)
        said = sum(v for (l, g), v in conf.items() if g == c)
        right = conf[(c, c)]
        print("  %-12s %6d %6d %6d %7s %9s" % (c, lab, said, right, ratio(right, lab), ratio(right, said)))
    # flagged at all: a reviewer sees a call for action, whichever class
    lab = sum(v for (l, g), v in conf.items() if l in ACTION)
    said = sum(v for (l, g), v in conf.items() if g in ACTION)
    right = sum(v for (l, g), v in conf.items() if l in ACTION and g in ACTION)
    print("  %-12s %6d %6d %6d %7s %9s" % ("any-action", lab, said, right, ratio(right, lab), ratio(right, said)))
    print("  %-12s %6d %6s %6d %7s" % ("surfaced", lab, "", surfaced[True], ratio(surfaced[True], lab)))
    if verbose:
        for w in wrong:
            print("    wrong: %s label=%s said=%s" % w)


def ratio(a, b):
    return "%.3f" % (a / b) if b else "-"


def load_fields(path):
    out = {}
    if path and os.path.exists(path):
        lines = [l for l in open(path, newline="") if not l.startswith("#")]
        for r in csv.DictReader(lines, delimiter="\t"):
            out[strip_id(r["message_id"])] = r
    return out


def parsed_fields(j):
    s = j.get("series") or {}
    vers = s.get("versions") or ([s["version"]] if s.get("version") else [])
    return {
        # a range "6.18-6.1" names its two ends; a list names each branch
        "versions": ("-" if s.get("version_range") else ",").join(vers),
        "nn": "" if s.get("index") is None else str(s["index"]),
        "mm": "" if s.get("total") is None else str(s["total"]),
        "autosel": "yes" if s.get("autosel") else "no",
        "upstream": ",".join(u[:12] for u in (j.get("upstream") or [])),
    }


def measure_mails(run, d, fields, verbose):
    rows = list(csv.DictReader(open(os.path.join(d, "INDEX.tsv"), newline=""), delimiter="\t"))
    total = right = 0
    per = Counter()
    perr = Counter()
    for r in rows:
        exp = fields.get(strip_id(r["message_id"]))
        if not exp:
            continue
        j = run.parse(os.path.join(d, "cur", r["filename"])) or {}
        got = parsed_fields(j) if j else {}
        for k in ("versions", "nn", "mm", "autosel", "upstream"):
            if k not in exp:
                continue
            total += 1
            per[k] += 1
            e = exp[k].strip()
            g = got.get(k, "<no parse>")
            if k == "versions":
                ok = set(re.split("[,-]", e)) - {""} == set(re.split("[,-]", g)) - {""} and \
                    ("-" in e) == ("-" in g)
            elif k == "upstream":
                ok = set(x[:12] for x in e.split(",") if x) <= set(g.split(",")) and \
                    (bool(e) == bool(g))
            else:
                ok = e == g
            if ok:
                right += 1
                perr[k] += 1
            elif verbose:
                print("    field %s of %s: expected %r, got %r" % (k, r["filename"], e, g))
    print("  fields: %d of %d right (%s)" % (right, total, ratio(right, total)))
    for k in ("versions", "nn", "mm", "autosel", "upstream"):
        if per[k]:
            print("    %-9s %d/%d" % (k, perr[k], per[k]))


def thread_labels(path):
    """The rows of tests/real/threads/<name>.tsv for the thread mbox PATH
    (<name>.mbox), keyed by Message-Id; {} when there is none."""
    name = re.sub(r"\.(mbox|mbx|mboxrd)$", "", os.path.basename(path))
    tsv = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "real",
                       "threads", name + ".tsv")
    if not os.path.exists(tsv):
        return {}
    rows = csv.DictReader(open(tsv, newline=""), delimiter="\t")
    return {strip_id(r["message_id"]): r for r in rows if r.get("message_id")}


def measure_patch_mails(run, mails, labels, tot, verbose, name):
    """Each patch mail of a labelled thread through `fixscan parse`: its
    number NN and upstream id against the labels."""
    for m in mails:
        lab = labels.get(strip_id(str(m.get("Message-Id", ""))))
        if not lab or lab.get("role") != "patch":
            continue
        path = os.path.join(run.top, "patch.eml")
        with open(path, "wb") as f:
            f.write(m.as_bytes())
        j = run.parse(path) or {}
        got = parsed_fields(j)
        tot["labelled patches"] += 1
        want_nn = (lab.get("nn") or "").lstrip("0") or ("0" if lab.get("nn") else "")
        ok_nn = got["nn"] == want_nn
        want_up = (lab.get("upstream_id") or "")[:12]
        ok_up = got["upstream"].split(",")[0] == want_up if want_up else not got["upstream"]
        tot["nn right"] += ok_nn
        tot["upstream right"] += ok_up
        if verbose and not (ok_nn and ok_up):
            print("    %s %s: nn %r/%r upstream %r/%r" % (name, lab["message_id"], got["nn"], want_nn,
                                                       got["upstream"], want_up))


def measure_threads(run, files, verbose):
    """Per thread: exit status, series, patches (with an upstream id),
    human replies, the replies a finding cites and their classes; then
    the totals.  A reply counts as read when a finding cites it (a bare
    Tested-by or thanks is rightly cited by none)."""
    tot = Counter()
    for path in files:
        mails = list(mailbox.mbox(path))
        human = []
        for m in mails:
            subj = str(m.get("Subject", ""))
            if m.get("In-Reply-To") and re.match(r"(?i)\s*re:", subj):
                human.append(strip_id(str(m.get("Message-Id", ""))))
        measure_patch_mails(run, mails, thread_labels(path), tot, verbose, os.path.basename(path))
        rc, docs, err = run.review(mbox_path=path)
        cited = findings_by_mail(docs)
        npatch = sum(len(d.get("patches") or []) for d in docs)
        nup = sum(1 for d in docs for p in d.get("patches") or [] if p.get("upstream"))
        read = sum(1 for h in human if h in cited)
        classes = Counter(class_of(cited[h]) for h in human if h in cited)
        tot["threads"] += 1
        tot["exit2"] += rc == 2
        tot["patches"] += npatch
        tot["upstream"] += nup
        tot["replies"] += len(human)
        tot["cited"] += read
        for c, v in classes.items():
            tot[c] += v
        if verbose or rc == 2:
            print("  %s: exit %d, series %d, patches %d (upstream %d), replies %d, cited %d %s" %
                  (os.path.basename(path), rc, len(docs), npatch, nup, len(human), read,
                   dict(classes)))
        if rc == 2 and verbose:
            print("    " + err.strip().replace("\n", "\n    "))
    print("  threads %d (exit 2: %d), patches %d (upstream id: %d), replies %d, cited %d: %s" %
          (tot["threads"], tot["exit2"], tot["patches"], tot["upstream"], tot["replies"], tot["cited"],
           ", ".join("%s %d" % (c, tot[c]) for c in CLASSES if tot[c])))
    if tot["labelled patches"]:
        print("  labelled patch mails %d: NN right %d, upstream id right %d (fixscan parse)" %
              (tot["labelled patches"], tot["nn right"], tot["upstream right"]))


def measure_dir(run, d, a):
    """Measure D by its layout; a directory of none is searched for them."""
    names = os.listdir(d)
    idx = os.path.join(d, "INDEX.tsv")
    head = open(idx).readline().rstrip("\n").split("\t") if os.path.exists(idx) else []
    threads = sorted(os.path.join(d, n) for n in names if re.search(r"\.(mbox|mbx|mboxrd)$", n))
    known = False
    if "role" in head:
        print("%s (replies):" % d)
        measure_replies(run, list(replies_shared(d)), a.verbose)
        known = True
    elif "kind" in head:
        print("%s (mails):" % d)
        measure_mails(run, d, load_fields(a.fields), a.verbose)
        known = True
    elif any(n.endswith(".reply.eml") for n in names):
        print("%s (replies):" % d)
        measure_replies(run, list(replies_eml(d)), a.verbose)
        known = True
    if threads:
        print("%s (threads):" % d)
        measure_threads(run, threads, a.verbose)
        known = True
    if not known:
        for n in sorted(names):
            if os.path.isdir(os.path.join(d, n)) and n not in ("cur", "new", "tmp"):
                measure_dir(run, os.path.join(d, n), a)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fixscan", default=os.path.join(os.path.dirname(__file__), "..", "build", "fixscan"))
    ap.add_argument("--fields", default=os.path.join(os.path.dirname(__file__), "..", "tests", "real",
                                                     "realmail-fields.tsv"))
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    fixscan = os.path.abspath(a.fixscan)
    with tempfile.TemporaryDirectory(prefix="realcheck.") as top:
        run = Runner(fixscan, top)
        for d in a.dirs:
            measure_dir(run, d, a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
