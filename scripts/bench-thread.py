#!/usr/bin/env python3
"""Write a stable review thread of N patches for the benchmark.

usage: bench-thread.py [--diffs [--differ-every K] [--late-every L]] REPO MAILDIR N

The patches backport N mainline commits of REPO made after the fork of its
first stable branch, in the format of a real review thread (a cover letter,
then one reply per patch).  Their upstream ids are printed, one per line.
With --diffs each patch carries its upstream commit's diff, as real
backports do (then fixscan compares it with upstream's: backport-differs);
without, a diffstat alone.  With --differ-every K, every K-th patch's
diff has one added line changed and no note saying so: the comparison
finds those (an advisory backport-differs each) rather than only clean
backports.  With --late-every L (a repository made with gen-kernel.py
scale --files) every L-th patch's diff also calls fixscan_late_helper(),
which a late mainline commit added and the branch lacks; every other of
those patches backports a commit made after that one (a symbol-missing
naming it), the rest one made before (nothing to name: mainline lacked
the name there too).
"""
import os
import subprocess
import sys


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True,
                          capture_output=True, text=True).stdout


def diffs_of(repo, ids):
    """The diff of each commit of IDS against its first parent, by id."""
    out, cur = {}, None
    text = git(repo, "show", "--no-color", "--first-parent", "--format=@@@%H", "-p", *ids)
    for line in text.splitlines(keepends=True):
        if line.startswith("@@@") and len(line.strip()) == 43:
            cur = line.strip()[3:]
            out[cur] = ""
        elif cur is not None:
            out[cur] += line
    return out


def changed_line(diff):
    """DIFF with its first added line (not a file header) changed."""
    lines = diff.split("\n")
    for k, line in enumerate(lines):
        if line.startswith("+") and not line.startswith("+++"):
            lines[k] = line + " /* stable */"
            break
    return "\n".join(lines)


def late_use(diff):
    """DIFF with a call of the late helper added at its first hunk."""
    lines = diff.split("\n")
    for k, line in enumerate(lines):
        if line.startswith("@@ -"):
            head, _, rest = line[3:].partition(" @@")
            old, new = head.split(" ")
            start, _, count = new[1:].partition(",")
            lines[k] = "@@ %s +%s,%d @@%s" % (old, start, int(count or 1) + 1, rest)
            lines.insert(k + 1, "+\tfixscan_late_helper(FIXSCAN_LATE_LEVEL);")
            break
    return "\n".join(lines)


def main():
    args = sys.argv[1:]
    with_diffs = bool(args) and args[0] == "--diffs"
    differ_every = late_every = 0
    if with_diffs:
        args = args[1:]
        while args and args[0] in ("--differ-every", "--late-every"):
            if args[0] == "--differ-every":
                differ_every = int(args[1])
            else:
                late_every = int(args[1])
            args = args[2:]
    repo, maildir, n = args[0], args[1], int(args[2])
    branches = git(repo, "for-each-ref", "--format=%(refname:short)",
                   "refs/heads/linux-*.y").split()
    if not branches:
        sys.exit("bench-thread: no stable branch in " + repo)
    branch = branches[0]
    series = branch[len("linux-"):-len(".y")]
    tags = git(repo, "tag", "--list", "v%s.*" % series, "--sort=v:refname").split()
    last = int(tags[-1].rsplit(".", 1)[1]) if tags else 0
    release = "%s.%d" % (series, last + 1)
    commits = git(repo, "rev-list", "--no-merges", "--format=%H %s",
                  "v%s..refs/heads/master" % series).splitlines()
    commits = [c for c in commits if not c.startswith("commit ")]
    step = max(1, len(commits) // n)
    picked = [c.split(" ", 1) for c in commits[::step][:n]]
    if late_every:
        late = git(repo, "log", "--format=%H", "--fixed-strings",
                   "--grep=sched: add fixscan_late_helper()", "refs/heads/master").split()
        after = git(repo, "rev-list", "--no-merges", "--format=%H %s",
                    "%s..refs/heads/master" % late[0]).splitlines() if late else []
        taken = {c for c, _ in picked}
        after = [c.split(" ", 1) for c in after if not c.startswith("commit ")]
        after = [c for c in after if c[0] not in taken]
        for k, i in enumerate(range(late_every, len(picked) + 1, late_every)):
            if k % 2 == 0 and k // 2 < len(after):
                picked[i - 1] = after[k // 2]
    for d in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(maildir, d), exist_ok=True)
    diffs = diffs_of(repo, [c for c, _ in picked]) if with_diffs else {}
    cover_id = "bench-0@stable.example.org"  # the Message-Id write() gives i = 0
    total = len(picked)

    def write(i, subject, body, extra=""):
        text = ("From: Stable Maintainer <stable@example.org>\n"
                "To: linux-kernel@vger.kernel.org\n"
                "Subject: %s\n"
                "Date: Mon, 01 Jan 2024 00:00:%02d +0000\n"
                "Message-Id: <bench-%d@stable.example.org>\n"
                "%s"
                "X-KernelTest-Branch: %s\n"
                "X-KernelTest-Version: %s-rc1\n"
                "\n%s") % (subject, i % 60, i, extra, branch, release, body)
        with open(os.path.join(maildir, "cur", "%08d.bench:2,S" % i), "w") as f:
            f.write(text)

    write(0, "[PATCH %s 000/%03d] %s-stable review" % (series, total, release),
          "This is the start of the stable review cycle for the %s release.\n"
          "There are %d patches in this series.\n" % (release, total))
    for i, (cid, subject) in enumerate(picked, 1):
        body = ("%s-stable review patch.  If anyone has any objections, please let me know.\n\n"
                "------------------\n\n"
                "From: Some Author <author@example.org>\n\n"
                "commit %s upstream.\n\n"
                "A change worth taking.\n\n"
                "Signed-off-by: Some Author <author@example.org>\n"
                "---\n"
                " kernel/file.c | 2 +-\n"
                " 1 file changed, 1 insertion(+), 1 deletion(-)\n") % (series, cid)
        if cid in diffs:
            diff = diffs[cid].lstrip("\n")
            if differ_every and i % differ_every == 0:
                diff = changed_line(diff)
            if late_every and i % late_every == 0:
                diff = late_use(diff)
            body += "\n" + diff + "-- \n2.43.0\n"
        write(i, "[PATCH %s %03d/%03d] %s" % (series, i, total, subject), body,
              "In-Reply-To: <%s>\nReferences: <%s>\n" % (cover_id, cover_id))
        print(cid)


if __name__ == "__main__":
    main()
