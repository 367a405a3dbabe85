# The fault library of the tests (tests/fault/fault.c, issue 41) for the
# end-to-end tests.  Source it after lib.sh.
#
#   faulty SPEC CMD...   run CMD with FIXSCAN_FAULT=SPEC preloaded; every
#                        counted call is logged in $TRASH/fault.log
#   calls OP PART CMD... how many calls of OP on paths holding PART CMD
#                        makes (run once, unhurt)
#   points COUNT         the call numbers worth failing out of COUNT: all
#                        of up to 5, else the first two, the middle and
#                        the last two
#   points3 COUNT        the first, the middle and the last of COUNT
#   fired                the "fired OP N PATH" line of the last faulty run
#
# $FIXSCAN_FAULTLIB names the library (default: build/tests/libfault.so
# of the source tree; make units and make test-e2e build it).

FAULTLIB=${FIXSCAN_FAULTLIB:-$SRC/build/tests/libfault.so}
if [ ! -f "$FAULTLIB" ]; then
	echo "# no fault library '$FAULTLIB' (make units builds it)"
	exit 1
fi

faulty() {
	_spec=$1
	shift
	rm -f "$TRASH/fault.log"
	# ASan wants to be the first library; the fault library passes every
	# call on to it, so the order does not matter here.
	FIXSCAN_FAULT=$_spec FIXSCAN_FAULT_LOG=$TRASH/fault.log LD_PRELOAD=$FAULTLIB \
		ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}verify_asan_link_order=0" "$@"
}

calls() {
	_op=$1 _part=$2
	shift 2
	faulty "$_op:1000000000:EIO:$_part" "$@" >/dev/null 2>&1
	_n=$(grep -c "^$_op " "$TRASH/fault.log" 2>/dev/null)
	echo "${_n:-0}"
}

points() {
	if [ "$1" -le 5 ]; then
		seq 1 "$1"
	else
		printf '%s\n' 1 2 $(($1 / 2)) $(($1 - 1)) "$1"
	fi
}

# points3 COUNT: the first, the middle and the last.
points3() {
	printf '%s\n' 1 $((($1 + 1) / 2)) "$1" | awk -v n="$1" '$1 >= 1 && $1 <= n && !seen[$1]++'
}

fired() {
	grep "^fired " "$TRASH/fault.log" 2>/dev/null
}

# The text strerror() gives each errno the tests use.
errtext() {
	case $1 in
	ENOSPC) echo "No space left on device" ;;
	EDQUOT) echo "Disk quota exceeded" ;;
	EIO) echo "Input/output error" ;;
	EROFS) echo "Read-only file system" ;;
	EPERM) echo "Operation not permitted" ;;
	*) echo "$1" ;;
	esac
}
