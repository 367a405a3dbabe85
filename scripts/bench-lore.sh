#!/bin/sh
# make bench, the lore part: the 500-patch review of scripts/bench.sh with
# fixscan.lore on a local public-inbox (tests/e2e/lore-server.sh, started
# and stopped here), against the same review with --no-lore.  Says how
# many requests the review sends (goal: at most 10), its time with a cold
# cache and with a warm one, and the warm review's cost over --no-lore
# (goal: within 10%).
#
# usage: scripts/bench-lore.sh FIXSCAN BENCH_DIR
#
# BENCH_DIR holds what bench.sh made: repo/, mail500/ and its
# notmuch-config500, thread-ids500 (the upstream ids of the thread).
set -eu
fixscan=$1
bench=$2
top=$(cd "$(dirname "$0")/.." && pwd)
repo=$bench/repo
lore=$bench/lore
ids=$bench/thread-ids500
export NOTMUCH_CONFIG="$bench/notmuch-config500" LC_ALL=C
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$bench/cache}"
for f in "$repo" "$bench/mail500" "$NOTMUCH_CONFIG" "$ids"; do
	[ -e "$f" ] || { echo "bench-lore: $f is missing: run make bench first" >&2; exit 1; }
done
command -v public-inbox-httpd >/dev/null 2>&1 || {
	echo "bench-lore: public-inbox is not installed (scripts/deps.sh --bench installs it)" >&2
	exit 1
}

# The archive: for the thread's commits, fixes posted (one in 10),
# regression reports (one in 25), mails that mention a commit and blame
# none (one in 20); and 400 mails about other things.  Made once.
if [ ! -f "$lore/.made" ]; then
	rm -rf "$lore"
	mkdir -p "$lore/mails"
	python3 - "$ids" "$lore/mails" <<-\EOF
	import os, sys
	ids = [l.strip() for l in open(sys.argv[1]) if l.strip()]
	out = sys.argv[2]
	def mail(name, subject, body, day):
	    with open(os.path.join(out, name), "w") as f:
	        f.write("From: Poster %d <poster%d@example.org>\n" % (day, day))
	        f.write("To: list@lists.example.org\nSubject: %s\n" % subject)
	        f.write("Date: Mon, %d Mar 2025 10:00:00 +0000\n" % (1 + day % 28))
	        f.write("Message-Id: <%s@bench.example.org>\n\n%s" % (name, body))
	for k, i in enumerate(ids):
	    if k % 10 == 0:
	        mail("fix%d" % k, "[PATCH] bench: fix commit %d" % k,
	             "It broke.\n\nFixes: %s (\"bench\")\nSigned-off-by: P <p@example.org>\n" % i[:12], k)
	    if k % 25 == 3:
	        mail("reg%d" % k, "[REGRESSION] bench %d" % k,
	             "The board hangs.\n\n#regzbot introduced: %s\n" % i[:12], k)
	    if k % 20 == 7:
	        mail("mention%d" % k, "bench %d" % k, "I read %s today, nice.\n" % i[:12], k)
	for k in range(400):
	    mail("other%d" % k, "other thing %d" % k,
	         "Something else entirely, %d times over.\n" % k, k)
	EOF
	sh "$top/tests/e2e/lore-server.sh" inbox "$lore/server" bench "$lore"/mails/*
	touch "$lore/.made"
fi
stop() { sh "$top/tests/e2e/lore-server.sh" stop "$lore/server"; }
trap stop EXIT
trap 'stop; exit 130' INT TERM HUP
root=$(sh "$top/tests/e2e/lore-server.sh" start "$lore/server")
export GIT_CONFIG_GLOBAL="$lore/gitconfig"
rm -f "$GIT_CONFIG_GLOBAL"
git config --global fixscan.lore "${root}all/"
requests() { sh "$top/tests/e2e/lore-server.sh" requests "$lore/server"; }

review() {
	"$fixscan" review --no-update --repo "$repo" "$@" 'path:review/**' >"$bench/lore.out" 2>"$bench/lore.err" ||
		[ $? -le 1 ] || { cat "$bench/lore.err" >&2; return 1; }
}
now() { date +%s.%N; }
calc() { python3 -c "print($1)"; }
median() { python3 -c "import sys, statistics; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }
# "WALL CPU" of 5 reviews with ARGS: wall seconds, user+system CPU
# seconds (the cost on a machine others use too: wall time moves with
# their load, CPU time much less)
five() {
	/usr/bin/time -f '%e %U %S' -o "$bench/lore.time" sh -c '
		f=$0 r=$1
		shift
		for i in 1 2 3 4 5; do
			"$f" review --no-update --repo "$r" "$@" "path:review/**" >/dev/null 2>&1
			[ $? -le 1 ] || exit 1
		done' "$fixscan" "$repo" "$@" || { echo "bench-lore: the review failed" >&2; return 1; }
	awk '{ printf "%s %.3f\n", $1, $2 + $3 }' "$bench/lore.time"
}

rm -rf "$XDG_CACHE_HOME/fixscan/lore"
review --no-lore # the index warm, as for every run after
before=$(requests)
t0=$(now)
review --json
t1=$(now)
cold=$(calc "round($t1 - $t0, 3)")
sent=$(($(requests) - before))
# What the archive gave, so that a review that asked and found nothing
# cannot pass for a fast one: the findings with a lore link, by kind.
found=$(python3 - "$bench/lore.out" <<-\EOF
	import collections, json, sys
	r = json.loads(open(sys.argv[1]).readline())
	c = collections.Counter(f["kind"] for p in r["patches"] for f in p["findings"] if f.get("link"))
	print(", ".join("%d %s" % (n, k) for k, n in sorted(c.items())) or "none")
	EOF
)
if [ -s "$bench/lore.err" ]; then
	echo "bench-lore: the review said:" >&2
	cat "$bench/lore.err" >&2
fi
before=$(requests)
wr="" cr="" won="" woff="" con="" coff=""
for pair in 1 2 3 4 5 6 7; do
	set -- $(five --no-lore)
	off_w=$1 off_c=$2
	set -- $(five)
	won="$won $1" woff="$woff $off_w" con="$con $2" coff="$coff $off_c"
	wr="$wr $(calc "round($1 / $off_w, 3)")" cr="$cr $(calc "round($2 / $off_c, 3)")"
done
warm_sent=$(($(requests) - before))
echo "review of 500 patches with lore: $sent requests (goal <= 10), cold cache $(calc "round($cold, 2)")s;" \
	"found on lore: $found"
echo "  warm cache, a review: CPU $(calc "round($(median $con) / 5, 3)")s vs --no-lore" \
	"$(calc "round($(median $coff) / 5, 3)")s: $(median $cr)x (goal <= 1.10x); wall" \
	"$(calc "round($(median $won) / 5, 3)")s vs $(calc "round($(median $woff) / 5, 3)")s:" \
	"$(median $wr)x (medians of 7 pairs of 5 reviews each; CPU:$cr; wall:$wr);" \
	"requests sent warm: $warm_sent"
