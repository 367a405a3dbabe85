#!/bin/sh
# make demo: build the sample kernel repository and mail store under DIR,
# then run the review of the sample 4.4 review thread; then build the
# multi-branch sample (its own repository and store under DIR/multi) and
# review its open threads of four branches together.
#
# usage: scripts/demo.sh FIXSCAN DIR
set -eu
fixscan=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$2
rm -rf "$dir"
mkdir -p "$dir/mail"
dir=$(cd "$dir" && pwd)

# notmuch_config DIR: the demo's notmuch config, DIR/notmuch-config, for
# the store DIR/mail and the demo reviewer.
notmuch_config() {
	cat >"$1/notmuch-config" <<CONF
[database]
path=$1/mail
[user]
name=Rita Reviewer
primary_email=rita@example.org
[new]
tags=unread;inbox;
CONF
}

echo "demo: generating the sample kernel repository in $dir/kernel"
python3 "$top/scripts/gen-kernel.py" sample "$dir/kernel" >/dev/null
for m in "$top"/maildirs/*/; do
	cp -R "$m" "$dir/mail/"
done
# Git keeps no empty directory: a checkout's maildirs lack new/ and tmp/,
# and mutt shows "(no mailbox)" without them.
for m in "$dir"/mail/*/; do
	mkdir -p "$m/cur" "$m/new" "$m/tmp"
done
notmuch_config "$dir"
# The demo's git config (GIT_CONFIG_GLOBAL below, and in the commands it
# prints at the end): the demo reviewer, as in its notmuch config, so
# those commands work before any "git config --global" of the README.
git config --file "$dir/gitconfig" user.name "Rita Reviewer"
git config --file "$dir/gitconfig" user.email rita@example.org
# The sample's linux-next (refs/remotes/next/master) as a pending tree:
# its fixes not in mainline yet are fix-pending.
git config --file "$dir/gitconfig" fixscan.pending 'refs/remotes/next/*'
# The demo stays offline: no lore.kernel.org.  Its review asks a local
# public-inbox instead (below), which it stops at the end.
git config --file "$dir/gitconfig" fixscan.lore none
# The demo keeps to its own directory: its own notmuch config, cache and
# git config, never the user's.
export NOTMUCH_CONFIG="$dir/notmuch-config" XDG_CACHE_HOME="$dir/cache"
export XDG_CONFIG_HOME="$dir/config" GIT_CONFIG_GLOBAL="$dir/gitconfig"
export XDG_STATE_HOME="$dir/state"
unset NOTMUCH_DATABASE NOTMUCH_PROFILE || true
notmuch new --quiet
echo "demo: indexing the sample kernel repository"
"$fixscan" index --repo "$dir/kernel"

# lore as the list archives would have it: a real public-inbox (the
# engine of lore.kernel.org) on loopback, holding a regression report
# on the regressions list that the demo's store does not have.
lore_stop() {
	sh "$top/tests/e2e/lore-server.sh" stop "$dir/lore"
	git config --file "$dir/gitconfig" fixscan.lore none
}
if command -v public-inbox-httpd >/dev/null 2>&1; then
	u1=$(python3 -c "import json, sys
print([p['upstream'] for p in json.load(open(sys.argv[1]))['thread'] if p['index'] == 1][0])" \
		"$dir/kernel/answers.json")
	mkdir -p "$dir/lore-mail"
	cat >"$dir/lore-mail/1" <<MAIL
From: Quinn Tester <quinn@example.org>
To: regressions@lists.example.org
Subject: [REGRESSION] 4.4.6: oops in tcp_fastopen after listen()
Date: Mon, 25 Apr 2016 09:12:00 +0000
Message-Id: <20160425091200.4711@example.org>

Hi,

since 4.4.6 our proxies oops in tcp_fastopen_create_child() a few
minutes after boot; 4.4.5 was fine.

#regzbot introduced: $(echo "$u1" | cut -c1-12)
MAIL
	sh "$top/tests/e2e/lore-server.sh" inbox "$dir/lore" regressions "$dir/lore-mail/1"
	trap lore_stop EXIT
	trap 'lore_stop; exit 130' INT TERM HUP
	lore=$(sh "$top/tests/e2e/lore-server.sh" start "$dir/lore")all/
	git config --file "$dir/gitconfig" fixscan.lore "$lore"
	echo "demo: lore: a local public-inbox at $lore (fixscan.lore), stopped at the end"
else
	echo "demo: lore: public-inbox is not installed (scripts/deps.sh --demo installs it): not searched"
fi
echo "demo: fixscan review --repo $dir/kernel 'path:review-4.4/**'"
echo
set +e
"$fixscan" review --repo "$dir/kernel" 'path:review-4.4/**'
rc=$?
set -e
# Exit status 1 means "findings", which is what the sample is made to show.
[ "$rc" -le 1 ] || exit 1

echo
echo "demo: fixscan review --repo $dir/kernel 'path:review-4.5/**': a backport that cannot build on 4.5.y without its prerequisite, a fix of files 4.5.y does not have"
echo
set +e
"$fixscan" review --repo "$dir/kernel" 'path:review-4.5/**'
rc=$?
set -e
[ "$rc" -le 1 ] || exit 1

echo
echo "demo: fixscan review --drafts: one reply per patch that needs action, and a summary"
set +e
"$fixscan" review --repo "$dir/kernel" --drafts 'path:review-4.4/**' >/dev/null
rc=$?
set -e
[ "$rc" -le 1 ] || exit 1
# The summary is the draft answering the cover letter (subject 00/NN).
cover=$(grep -l '^Subject: \[PATCH 4.4 00*/' "$dir"/mail/review-4.4/cur/* | head -n 1)
cover_id=$(sed -n 's/^Message-I[dD]: *<\(.*\)>.*/\1/p' "$cover" | head -n 1)
summary=$(grep -l "^In-Reply-To: <$cover_id>" "$dir"/mail/Drafts/cur/* | head -n 1)
echo
echo "demo: the summary draft to the cover letter ($summary):"
echo
cat "$summary"
echo
echo "demo: open $dir/mail/Drafts in mutt (set postponed) to edit and send them"

# The multi-branch sample: a repository of five stable branches and the
# review threads of four of them posted the same day, with a FAILED and an
# "added to the stable tree" notice, in a store of its own.
multi=$dir/multi
python3 "$top/scripts/gen-kernel.py" multi "$multi"
notmuch_config "$multi"
NOTMUCH_CONFIG="$multi/notmuch-config" notmuch new --quiet
NOTMUCH_CONFIG="$multi/notmuch-config" "$fixscan" index --repo "$multi/kernel" >/dev/null
echo
echo "demo: fixscan review --all-open --since 2024-01-12: the 5.4, 5.10, 5.15 and 6.1 reviews together"
echo
set +e
NOTMUCH_CONFIG="$multi/notmuch-config" "$fixscan" review --repo "$multi/kernel" --all-open --since 2024-01-12
rc=$?
set -e
[ "$rc" -le 1 ] || exit 1
if command -v public-inbox-httpd >/dev/null 2>&1; then
	trap - EXIT INT TERM HUP
	lore_stop
fi
env="NOTMUCH_CONFIG=$dir/notmuch-config XDG_CACHE_HOME=$dir/cache XDG_CONFIG_HOME=$dir/config XDG_STATE_HOME=$dir/state GIT_CONFIG_GLOBAL=$dir/gitconfig"
cat <<NEXT

demo: to go on with the demo's mail store and repository, run for example:

  $env $fixscan review --repo $dir/kernel --all 'path:review-4.5/**'
  $env $fixscan digest --repo $dir/kernel --since 2016-01-01
  $env $fixscan show --repo $dir/kernel \$(git -C $dir/kernel rev-parse HEAD)
  $env $fixscan check --repo $dir/kernel $(grep -l "^Subject: \[PATCH 4.4 03/" "$dir"/mail/review-4.4/cur/*)

and for the multi-branch sample:

  env NOTMUCH_CONFIG=$multi/notmuch-config XDG_CACHE_HOME=$dir/cache GIT_CONFIG_GLOBAL=$dir/gitconfig $fixscan review --repo $multi/kernel --all-open --since 2024-01-12 --json
NEXT
