#!/bin/sh
# The notmuch test fixture (lib-notmuch.sh) on a two-message maildir
# written here: the copy, the config and the database it builds.
# fixscan's own use of notmuch is covered by tests/unit/test-store.c.
. "$(dirname "$0")/lib.sh"
. "$SRC/tests/e2e/lib-notmuch.sh"

# Only cur/: setup_notmuch must add new/ and tmp/, as git would have
# dropped them.
mkdir -p src/sample/cur
cat >src/sample/cur/1700000101.1.host:2,S <<-\EOF
From: Ada Quill <ada.quill@example.org>
To: stable@example.org
Subject: [PATCH 4.4 01/01] frob: keep the widget count
Date: Tue, 14 Nov 2023 22:15:01 +0000
Message-Id: <patch.1700000101@example.org>

A patch.
EOF
cat >src/sample/cur/1700000102.2.host:2,S <<-\EOF
From: Bo Reviewer <bo@example.org>
To: Ada Quill <ada.quill@example.org>
Subject: Re: [PATCH 4.4 01/01] frob: keep the widget count
Date: Wed, 15 Nov 2023 08:00:00 +0000
Message-Id: <reply.1700000102@example.org>
In-Reply-To: <patch.1700000101@example.org>
References: <patch.1700000101@example.org>

Looks right.
EOF

test_expect_success 'setup_notmuch builds a database' '
	setup_notmuch "$TRASH/mail" "$TRASH/src/sample" &&
	test -d "$TRASH/mail/.notmuch/xapian" &&
	test -f "$NOTMUCH_CONFIG"
'

test_expect_success 'the maildir is copied under its own name with cur, new, tmp' '
	test -d mail/sample/cur && test -d mail/sample/new &&
	test -d mail/sample/tmp &&
	test "$(ls mail/sample/cur | wc -l)" -eq 2 &&
	test -f src/sample/cur/1700000101.1.host:2,S
'

test_expect_success 'the reply threads with its patch: one thread' '
	notmuch search --output=threads "*" >threads &&
	test "$(wc -l <threads)" -eq 1 &&
	notmuch search --output=threads id:reply.1700000102@example.org >t1 &&
	notmuch search --output=threads id:patch.1700000101@example.org >t2 &&
	test_cmp t1 t2 &&
	test "$(notmuch count path:sample/**)" -eq 2
'

test_expect_success 'the config names the reviewer and the new tags' '
	test "$(notmuch config get user.name)" = "Rita Reviewer" &&
	test "$(notmuch config get user.primary_email)" = "rita@example.org" &&
	test "$(notmuch config get database.path)" = "$TRASH/mail" &&
	test "$(notmuch count tag:inbox)" -eq 2 &&
	# Maildir flags are synchronized: both files carry S (seen).
	test "$(notmuch count tag:unread)" -eq 0
'

test_expect_success 'a missing maildir fails loudly' '
	! setup_notmuch "$TRASH/mail2" "$TRASH/src/no-such" 2>err &&
	grep "no maildir .*no-such" err
'

test_expect_success 'a missing notmuch fails loudly' '
	! NOTMUCH_BIN=/nonexistent/notmuch setup_notmuch "$TRASH/mail3" \
		"$TRASH/src/sample" 2>err &&
	grep "notmuch.* not found" err &&
	test ! -e "$TRASH/mail3"
'

test_done
