#!/bin/sh
# Every writer of fixscan through each failure point (issue 41), with the
# fault library (tests/fault/fault.c) failing the Nth open, write, fsync,
# close, rename, link or mkdir of its files in the real binary:
#  - the index cache (first build, rebuild over a cache), its delta and
#    its stamps; the CVE cache; the identifier sets of trees; the drafts
#    and the drafts state file; the digest mail and the digest's note.
# After each failure: the exit status, one line naming the file and the
# reason, no temporary left, the files that were there before untouched
# (or, when only the folder's sync after the rename failed, the new file
# whole), every draft whole; then the next clean run ends as a run that
# never failed.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"
. "$SRC/tests/e2e/lib-fault.sh"
. "$SRC/tests/e2e/lib-drafts.sh"

python3 "$SRC/scripts/gen-kernel.py" sample "$TRASH/kernel" >/dev/null || exit 1
setup_notmuch "$TRASH/mail" "$SRC/maildirs/review-4.4" || exit 1

# The errno each kind of call fails with.
errno_of() {
	case $1 in
	fsync) echo EIO ;;
	close) echo EDQUOT ;;
	link) echo EPERM ;;
	*) echo ENOSPC ;;
	esac
}
# The call numbers to fail from: a directory the disk has no room for
# stays so (GLib tries a mkdir again), one write or sync fails once.
from() {
	case $1 in
	mkdir) echo "$2+" ;;
	*) echo "$2" ;;
	esac
}

# ---- the index ---------------------------------------------------------------

# What a cache that never failed answers.
ids=$(git -C kernel log --format=%H master linux-4.4.y | awk "NR % 9 == 1")
XDG_CACHE_HOME="$TRASH/ref" "$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
XDG_CACHE_HOME="$TRASH/ref" "$FIXSCAN" show --repo kernel --no-update --json $ids >show.want 2>&1 ||
	exit 1
C="$TRASH/c/fixscan"

# index_stage: what the failed call of the last faulty run belonged to:
# "lock" (closing the lock file), "stamp" (a stamp, or the folder's sync after a
# stamp's rename: it costs a later check only), "synced" (the folder's
# sync after the cache's or delta's rename) or "write" (before that).
index_stage() {
	awk -v C="$C" '
		/^rename / { last = $2 }
		/^fired / {
			p = $4
			if ($2 == "close" && p ~ /\.lock$/) print "lock"
			else if (p ~ /\.(verified|refs)(\.tmp\.......)?$/) print "stamp"
			else if (p == C) print (last ~ /\.(verified|refs)\.tmp\./ ? "stamp" : "synced")
			else print "write"
			exit
		}' "$TRASH/fault.log"
}

# index_after RC ERRNO BEFORE: what a failed index run must leave in $C:
# exit 2 and one line naming a file of $C and the reason (the lock's or
# a stamp's failure: exit 0, nothing said); no temporary; the cache and
# delta as in BEFORE (a copy of $C) when the failure came before their
# rename; and the next run is right.
index_after() {
	rc=$1 why=$(errtext "$2") before=$3 stage=$(index_stage)
	test -n "$stage" || { echo "the fault never fired"; return 1; }
	case $stage in
	lock|stamp)
		test "$rc" -eq 0 && ! grep . err || { echo "$stage: rc $rc"; cat err; return 1; } ;;
	*)
		test "$rc" -eq 2 && test "$(grep -c . err)" -eq 1 &&
		grep -q "^fixscan: .*'$TRASH/c/fixscan[^']*'.*: $why\$" err ||
		{ echo "rc $rc after $(fired):"; cat err; return 1; } ;;
	esac
	left=$(find "$TRASH/c" -name "*.tmp.*") && test -z "$left" || { echo "left: $left"; return 1; }
	ls "$C" 2>/dev/null | grep -v '\.idx\(\.delta\)\?\(\.lock\|\.verified\|\.refs\)\?$' &&
		{ echo "a stray file"; return 1; }
	if [ "$stage" = write ]; then
		for x in "$before"/*.idx "$before"/*.idx.delta; do
			[ -f "$x" ] || continue
			cmp "$x" "$C/$(basename "$x")" || { echo "changed: $x"; return 1; }
		done
	fi
	XDG_CACHE_HOME="$TRASH/c" "$FIXSCAN" index --repo kernel >/dev/null 2>err2 &&
	! grep . err2 &&
	XDG_CACHE_HOME="$TRASH/c" "$FIXSCAN" show --repo kernel --no-update --json $ids >show.got 2>&1 &&
	test_cmp show.want show.got &&
	left=$(find "$TRASH/c" -name "*.tmp.*") && test -z "$left"
}

for what in first rebuild; do
	for op in mkdir open write fsync close rename; do
		[ "$what" = rebuild ] && [ "$op" = mkdir ] && continue
		e=$(errno_of $op)
		rm -rf "$TRASH/c" "$TRASH/before" && mkdir -p "$TRASH/before"
		[ "$what" = rebuild ] && XDG_CACHE_HOME="$TRASH/c" "$FIXSCAN" index --repo kernel >/dev/null 2>&1
		n=$(XDG_CACHE_HOME="$TRASH/c" calls $op "$TRASH/c/" "$FIXSCAN" index --repo kernel --rebuild)
		for k in $(points "$n"); do
			test_expect_success "index ($what): $op $k of $n fails with $e: nothing torn, the next run is right" '
				rm -rf "$TRASH/c" "$TRASH/before" && mkdir -p "$TRASH/before" &&
				if [ "$what" = rebuild ]; then
					XDG_CACHE_HOME="$TRASH/c" "$FIXSCAN" index --repo kernel >/dev/null 2>&1 &&
					cp "$C"/*.idx "$TRASH/before/"
				fi
				XDG_CACHE_HOME="$TRASH/c" faulty "$op:$(from $op $k):$e:$TRASH/c/" "$FIXSCAN" index --repo kernel --rebuild \
					>/dev/null 2>err
				index_after $? $e "$TRASH/before"
			'
		done
	done
done

# The delta: a commit more on master, written as the cache's delta.
GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=A \
GIT_COMMITTER_EMAIL=a@example.org git -C kernel commit-tree -p master -m "extra: one commit more" "master^{tree}" >extra.id &&
	git -C kernel update-ref refs/heads/master "$(cat extra.id)" || exit 1
ids="$ids $(cat extra.id)"
XDG_CACHE_HOME="$TRASH/ref" "$FIXSCAN" show --repo kernel --json $ids >show.want 2>&1 || exit 1
git -C kernel update-ref refs/heads/master master~1 || exit 1
rm -rf "$TRASH/c"
XDG_CACHE_HOME="$TRASH/c" "$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
rm -rf "$TRASH/base" && cp -a "$TRASH/c" "$TRASH/base"
git -C kernel update-ref refs/heads/master "$(cat extra.id)" || exit 1
export FIXSCAN_TEST_DELTA=always
for op in open write close rename fsync; do
	e=$(errno_of $op)
	rm -rf "$TRASH/c" && cp -a "$TRASH/base" "$TRASH/c"
	n=$(XDG_CACHE_HOME="$TRASH/c" calls $op "$TRASH/c/" "$FIXSCAN" index --repo kernel)
	for k in $(points "$n"); do
		test_expect_success "index (delta): $op $k of $n fails with $e: the cache kept, the next run catches up" '
			rm -rf "$TRASH/c" && cp -a "$TRASH/base" "$TRASH/c" &&
			XDG_CACHE_HOME="$TRASH/c" faulty "$op:$(from $op $k):$e:$TRASH/c/" "$FIXSCAN" index --repo kernel \
				>/dev/null 2>err
			index_after $? $e "$TRASH/base/fixscan"
			test -f "$C"/*.idx.delta
		'
	done
done
unset FIXSCAN_TEST_DELTA

# ---- the CVE cache -----------------------------------------------------------

git init -q vulns && git -C vulns symbolic-ref HEAD refs/heads/master &&
fix=$(git -C kernel log --format=%H -1 master~1) &&
{
	printf 'commit refs/heads/master\nmark :1\n'
	printf 'committer C N A <cna@example.org> 1700000000 +0000\ndata 4\ncna\n'
	printf 'M 644 inline cve/published/2024/CVE-2024-26921.sha1\ndata 41\n%s\n\n' "$fix"
} | git -C vulns fast-import --quiet || exit 1
"$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
"$FIXSCAN" show --repo kernel --vulns vulns "$fix" >vshow.want 2>&1 || exit 1
grep -q CVE-2024-26921 vshow.want || exit 1
V="$XDG_CACHE_HOME/fixscan"
for op in open write fsync close rename; do
	e=$(errno_of $op)
	rm -f "$V"/vulns-*
	n=$(calls $op "$V/vulns-" "$FIXSCAN" show --repo kernel --vulns vulns "$fix")
	for k in $(points "$n"); do
		test_expect_success "the CVE cache: $op $k of $n fails with $e: said once, the CVEs still shown, none cached" '
			rm -f "$V"/vulns-* &&
			faulty "$op:$(from $op $k):$e:$V/vulns-" "$FIXSCAN" show --repo kernel --vulns vulns "$fix" >vshow.got 2>err;
			rc=$?
			test $rc -eq 0 && test_cmp vshow.want vshow.got &&
			test "$(grep -c . err)" -eq 1 &&
			grep -q "^fixscan: cannot \(write\|replace\|sync the folder .* of\) the vulns cache .*: $(errtext $e)\$" err &&
			case "$(fired)" in
			"fired fsync "*" $V") test "$(ls "$V" | grep -c "^vulns-")" -eq 1 ;;
			*) ! ls "$V" | grep "^vulns-" ;;
			esac &&
			"$FIXSCAN" show --repo kernel --vulns vulns "$fix" >vshow.got 2>err2 &&
			test_cmp vshow.want vshow.got && ! grep . err2 &&
			test "$(ls "$V" | grep -c "^vulns-.*\.cache$")" -eq 1 &&
			! ls "$V" | grep "\.tmp\."
		'
	done
done

# ---- the identifier sets of trees ----------------------------------------------

# check of a backport that calls what its branch lacks reads two sets
# (mainline's and linux-4.5.y's) and keeps each in a file of its own: a
# set that cannot be kept is said once and used from memory, the same
# findings; the next run keeps both.
sym=$(grep -l "^Subject: \[PATCH AUTOSEL 4.5 06/" "$SRC"/maildirs/review-4.5/cur/*)
XDG_CACHE_HOME="$TRASH/sref" "$FIXSCAN" check --repo kernel "$sym" >sym.want 2>/dev/null
test $? -eq 1 && grep -q "symbol-missing" sym.want || exit 1
S="$TRASH/s/fixscan"
sets_fresh() {
	rm -f "$S"/idset-*
}
XDG_CACHE_HOME="$TRASH/s" "$FIXSCAN" index --repo kernel >/dev/null 2>&1 || exit 1
for op in open write close rename fsync; do
	e=$(errno_of $op) part="$S/idset-"
	# the folder's sync after the rename names the folder
	[ "$op" = fsync ] && part=$S
	sets_fresh
	n=$(XDG_CACHE_HOME="$TRASH/s" calls $op "$part" "$FIXSCAN" check --no-update --repo kernel "$sym")
	for k in $(points "$n"); do
		test_expect_success "identifier sets: $op $k of $n fails with $e: said once, the same findings, the next run keeps them" '
			sets_fresh &&
			XDG_CACHE_HOME="$TRASH/s" faulty "$op:$(from $op $k):$e:$part" "$FIXSCAN" check --no-update --repo kernel \
				"$sym" >sym.got 2>err;
			test $? -eq 1 && test_cmp sym.want sym.got &&
			case "$(fired)" in
			*.verified*)
				# a stamp (the set passed its check): costs the next
				# run a check only, nothing said
				! grep . err && test "$(ls "$S" | grep -c "\.ids\$")" -eq 2 ;;
			"fired fsync "*)
				test "$(grep -c . err)" -eq 1 && grep -q "$(errtext $e); the names" err &&
				test "$(ls "$S" | grep -c "\.ids\$")" -eq 2 ;;
			*)
				test "$(grep -c . err)" -eq 1 &&
				grep -q "^fixscan: cannot .*the identifier set .$S/idset-[^/]*\.ids.*: $(errtext $e); the names of that tree are read again next time\$" err &&
				test "$(ls "$S" | grep -c "\.ids\$")" -eq 1 ;;
			esac &&
			! ls "$S" | grep "\.tmp\." &&
			XDG_CACHE_HOME="$TRASH/s" "$FIXSCAN" check --no-update --repo kernel "$sym" >sym.got 2>err2;
			test $? -eq 1 && test_cmp sym.want sym.got && ! grep . err2 &&
			test "$(ls "$S" | grep -c "^idset-.*\.ids\$")" -eq 2 &&
			test "$(ls "$S" | grep -c "^idset-.*\.ids\.verified\$")" -eq 2 &&
			! ls "$S" | grep "\.tmp\."
		'
	done
done

# A backport whose one mainline fix changes only files its branch lacks:
# the fix's files are read from its trees and kept beside the sets
# ("<prefix>-paths") for the next run.  A file that cannot be kept is said
# once, the findings the same; the next run keeps it, silently.
napp=$(grep -l "^Subject: \[PATCH AUTOSEL 4.5 07/" "$SRC"/maildirs/review-4.5/cur/*)
XDG_CACHE_HOME="$TRASH/pref" "$FIXSCAN" check --repo kernel "$napp" >napp.want 2>/dev/null
grep -q "fix-not-applicable" napp.want || exit 1
P="$TRASH/p/fixscan"
XDG_CACHE_HOME="$TRASH/p" "$FIXSCAN" check --repo kernel "$napp" >/dev/null 2>&1
pfile=$(ls "$P" | grep -- "-paths\$")
test -n "$pfile" || exit 1
for op in open write close rename; do
	e=$(errno_of $op) part="$P/$pfile"
	rm -f "$P/$pfile"
	n=$(XDG_CACHE_HOME="$TRASH/p" calls $op "$part" "$FIXSCAN" check --no-update --repo kernel "$napp")
	test "$n" -ge 1 || exit 1
	for k in $(points "$n"); do
		test_expect_success "the files of the fixes: $op $k of $n fails with $e: said once, the same findings, the next run keeps them" '
			rm -f "$P/$pfile" &&
			XDG_CACHE_HOME="$TRASH/p" faulty "$op:$k:$e:$part" "$FIXSCAN" check --no-update --repo kernel \
				"$napp" >napp.got 2>err;
			test_cmp napp.want napp.got &&
			test "$(grep -c . err)" -eq 1 &&
			grep -q "^fixscan: cannot .*the files of the fixes.*$(errtext $e); they are read from the trees again next time\$" err &&
			! test -e "$P/$pfile" && ! ls "$P" | grep "\.tmp\." &&
			XDG_CACHE_HOME="$TRASH/p" "$FIXSCAN" check --no-update --repo kernel "$napp" >napp.got 2>err2;
			test_cmp napp.want napp.got && ! grep . err2 && test -s "$P/$pfile"
		'
	done
done

# ---- the drafts and their state file -------------------------------------------

Q='path:review-4.4/**'
D="$TRASH/mail/Drafts"
S="$XDG_STATE_HOME/fixscan/drafts"
"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1
drafts_keys "$D" >keys.want
fresh() {
	rm -rf "$D" "$(dirname "$S")" && notmuch new --quiet
}
nd=$(wc -l <keys.want)
test "$nd" -gt 3 || { echo "# only $nd drafts"; exit 1; }

# drafts_after RC ERRNO PART: what a failed review --drafts must leave:
# exit 2 and one line naming a file of PART and the reason besides the
# "draft:" lines; nothing in tmp/; every draft in the folder whole and
# one of a clean run's, none twice; then the next run leaves exactly a
# clean run's drafts, indexed.
drafts_after() {
	rc=$1 why=$(errtext "$2") part=${3%/}
	test -n "$(fired)" || { echo "the fault never fired"; return 1; }
	if [ "$2" = EPERM ]; then
		# no links on this file system: the rename that never replaces
		test "$rc" -eq 1 && ! grep -v "^draft: " err || { echo "rc $rc:"; cat err; return 1; }
	else
		test "$rc" -eq 2 && test "$(grep -vc "^draft: " err)" -eq 1 &&
		grep -q "^fixscan: .*'$part[^']*'.*: $why\$" err || { echo "rc $rc:"; cat err; return 1; }
	fi
	left=$(ls -A "$D/tmp" 2>/dev/null)
	test -z "$left" || { echo "left in tmp: $left"; return 1; }
	ls "$(dirname "$S")" | grep -v '^drafts$' && { echo "a stray state file"; return 1; }
	for f in "$D"/cur/* "$D"/new/*; do
		[ -f "$f" ] || continue
		"$FIXSCAN" parse --json "$f" >/dev/null || { echo "torn: $f"; return 1; }
		tail -c 1 "$f" | od -c | grep -q '\\n' || { echo "unterminated: $f"; return 1; }
	done
	drafts_keys "$D" >keys.now && sort -u keys.now | cmp - keys.now &&
	{ comm -23 keys.now keys.want | grep . && { echo "a draft no clean run writes"; return 1; }; true; } &&
	"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err
	rc=$?
	test $rc -eq 1 && ! grep -v "^draft: " next.err && ! grep "kept your edited" next.err &&
	drafts_consistent keys.want || { echo "next run: rc $rc"; cat next.err; return 1; }
}

for op in mkdir open write fsync close link rename; do
	e=$(errno_of $op)
	for part in "$D/" "$XDG_STATE_HOME/fixscan"; do
		fresh
		n=$(calls $op "$part" "$FIXSCAN" review --repo kernel --drafts "$Q")
		for k in $(points3 "$n"); do
			test_expect_success "review --drafts: $op $k of $n in ${part#$TRASH/} fails with $e" '
				fresh &&
				faulty "$op:$(from $op $k):$e:$part" "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
				drafts_after $? $e "$part"
			'
		done
	done
done
test_expect_success 'review --drafts on a disk that stays full from the first write' '
	fresh &&
	faulty "write:1+:ENOSPC:$TRASH/" "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err
	drafts_after $? ENOSPC "$TRASH/"
'
# A disk full while every draft is replaced (another signature): the
# drafts written before stay until their successors are in.
echo "-- Rita" >sig.b
git config --global fixscan.signature "$TRASH/sig.b"
fresh
"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1
drafts_keys "$D" >keys.b
git config --global --unset fixscan.signature
fresh
n=$(calls write "$D/" "$FIXSCAN" review --repo kernel --drafts "$Q")
git config --global fixscan.signature "$TRASH/sig.b"
n=$(calls write "$D/" "$FIXSCAN" review --repo kernel --drafts "$Q")
git config --global --unset fixscan.signature
for k in $(points3 "$n"); do
	test_expect_success "replacing every draft: write $k of $n fails: no draft lost, the next run replaces them" '
		fresh && "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>&1;
		git config --global fixscan.signature "$TRASH/sig.b" &&
		faulty "write:$k:ENOSPC:$D/" "$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>err;
		rc=$?
		test $rc -eq 2 && grep -q "No space left on device" err &&
		drafts_keys "$D" | cut -d" " -f1 | sort -u >irts &&
		cut -d" " -f1 keys.want | sort -u | cmp - irts &&
		"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err;
		rc=$?
		git config --global --unset fixscan.signature
		test $rc -eq 1 && ! grep -v "^draft: " next.err && drafts_consistent keys.b
	'
done

# notmuch's own database fails while the drafts are indexed (Xapian's
# writes, the disk full from then on, and its syncs): the drafts are in
# the folder and either indexed all the same (Xapian took the failure in
# its stride) or the error says they are not (the commit failed), and the
# next run indexes them.
for op in write fsync; do
	e=$(errno_of $op)
	fresh
	n=$(calls $op "$TRASH/mail/.notmuch/" "$FIXSCAN" review --repo kernel --drafts "$Q")
	# (Xapian's last writes vary from run to run: the first and the middle)
	for k in $(points3 "$n" | head -2); do
		[ $op = write ] && k="$k+"
		test_expect_success "review --drafts: notmuch's $op $k of $n fails with $e: indexed, or said not and indexed next" '
			fresh &&
			faulty "$op:$k:$e:$TRASH/mail/.notmuch/" "$FIXSCAN" review --repo kernel --drafts "$Q" \
				>/dev/null 2>err
			rc=$?
			{ test -n "$(fired)" && test -z "$(ls -A "$D/tmp")" && drafts_keys "$D" | cmp - keys.want; } ||
				exit 1
			if [ $rc -eq 1 ]; then
				! grep -v "^draft: " err && drafts_consistent keys.want
			else
				test $rc -eq 2 && test "$(grep -vc "^draft: " err)" -eq 1 &&
				grep -q "^fixscan: $nd drafts written but not indexed (run again to index them): \(cannot commit to the notmuch database at '"'"'$TRASH/mail'"'"'\|cannot index '"'"'$D/cur/[^'"'"']*'"'"'\): " err &&
				test "$(notmuch count "path:Drafts/**")" -eq 0 &&
				"$FIXSCAN" review --repo kernel --drafts "$Q" >/dev/null 2>next.err
				test $? -eq 1 && ! grep -v "^draft: " next.err &&
				test "$(grep -c "^draft: unchanged .*, indexed now" next.err)" -eq "$nd" &&
				drafts_consistent keys.want
			fi || { echo "rc $rc"; cat err; false; }
		'
	done
done

# ---- the digest -------------------------------------------------------------

I="$TRASH/mail/INBOX"
N="$XDG_STATE_HOME/fixscan/digest"
digest_fresh() {
	rm -rf "$I" "$N" && notmuch new --quiet
}
# digest_after RC ERRNO PART: exit 2 and one line naming a file of PART
# and the reason; nothing in tmp/, at most the one digest mail in new/,
# the note whole or absent; then the next run mails one digest, indexed,
# and notes the day.
digest_after() {
	rc=$1 why=$(errtext "$2") part=${3%/}
	test -n "$(fired)" || { echo "the fault never fired"; return 1; }
	if [ "$2" = EPERM ]; then
		test "$rc" -eq 1 && ! grep . err || { echo "rc $rc:"; cat err; return 1; }
	else
		test "$rc" -eq 2 && test "$(grep -c . err)" -eq 1 &&
		grep -q "^fixscan: .*'$part[^']*'.*: $why\$" err || { echo "rc $rc:"; cat err; return 1; }
	fi
	! ls -A "$I/tmp" 2>/dev/null | grep . &&
	test "$(ls "$I/new" 2>/dev/null | wc -l)" -le 1 &&
	{ ! test -e "$N" || grep -q "^[0-9]\{8\} fixscan-digest-.*@" "$N"; } &&
	{ ! ls "$(dirname "$N")" | grep -v "^digest$\|^drafts$"; } || { echo "left behind"; return 1; }
	# with the day noted, the next run knows it is done (a run that never
	# failed says the same when run again)
	noted=$(test -e "$N" && echo 0 || echo 1)
	"$FIXSCAN" digest --repo kernel --since 2016-01-01 --mail >/dev/null 2>err2
	rc=$?
	test $rc -eq "$noted" &&
	if [ "$noted" = 0 ]; then
		grep -q "^digest: today's digest is mailed already" err2 && test "$(grep -c . err2)" -eq 1
	else
		! grep . err2
	fi &&
	test "$(ls "$I/new" | wc -l)" -eq 1 &&
	test "$(notmuch count tag:fixscan-digest)" -eq 1 &&
	test "$(notmuch search --output=files tag:fixscan-digest)" = "$(ls "$I"/new/*)" &&
	grep -q "^[0-9]\{8\} fixscan-digest-.*@" "$N" || { echo "next run: rc $rc"; cat err2; return 1; }
}
for op in open write fsync close link rename; do
	e=$(errno_of $op)
	for part in "$I/" "$XDG_STATE_HOME/fixscan"; do
		digest_fresh
		n=$(calls $op "$part" "$FIXSCAN" digest --repo kernel --since 2016-01-01 --mail)
		for k in $(points3 "$n"); do
			test_expect_success "digest --mail: $op $k of $n in ${part#$TRASH/} fails with $e" '
				digest_fresh &&
				faulty "$op:$(from $op $k):$e:$part" "$FIXSCAN" digest --repo kernel --since 2016-01-01 --mail \
					>/dev/null 2>err
				digest_after $? $e "$part"
			'
		done
	done
done

test_done
