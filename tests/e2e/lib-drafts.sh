# What the drafts tests compare after races and kills (issue 32).  Source
# it after lib.sh and lib-notmuch.sh, with D set to the drafts maildir:
#
#   drafts_keys DIR     one line per fixscan draft in DIR (its Message-Id
#                       is one of fixscan's: drafts_is_ours): the mail it
#                       answers (In-Reply-To) and a digest of its body,
#                       sorted
#   drafts_consistent WANT
#                       every notmuch entry has its file, every draft in
#                       $D is indexed, nothing is left in $D/tmp, and the
#                       drafts are those of WANT (drafts_keys), none twice

drafts_keys() {
	python3 - "$1" <<'PY'
import email, email.policy, glob, hashlib, os, re, sys
out = []
for sub in ("cur", "new"):
    for f in glob.glob(os.path.join(sys.argv[1], sub, "*")):
        m = email.message_from_binary_file(open(f, "rb"), policy=email.policy.default)
        mid = (m["Message-Id"] or "").strip("<>")
        # fixscan's ids: the time and 64 random bits (an earlier
        # version's: "fixscan." and a hash of the key)
        if re.match(r"[0-9]{14}\.[0-9a-f]{16}@", mid) or mid.startswith("fixscan."):
            body = m.get_body().get_content().rstrip().encode()
            irt = (m["In-Reply-To"] or "").strip("<>")
            out.append("%s %s" % (irt, hashlib.sha256(body).hexdigest()[:16]))
print("\n".join(sorted(out)))
PY
}

drafts_consistent() {
	notmuch search --output=files "*" >files &&
	while read -r f; do test -f "$f" || { echo "entry without its file: $f"; return 1; }; done <files &&
	for f in "$D"/cur/* "$D"/new/*; do
		[ -f "$f" ] || continue
		grep -qx "$f" files || { echo "not indexed: $f"; return 1; }
	done &&
	left=$(ls -A "$D/tmp") && test -z "$left" || { echo "left in tmp: $left"; return 1; }
	drafts_keys "$D" >keys.got &&
	test_cmp "$1" keys.got
}
