# fixscan: one non-recursive Makefile.  Objects go to build/ (build/asan/ for
# the sanitizer build); nothing is written into the source tree.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/fixscan
# Where Debian's bash-completion loads completions on demand from.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# Where Debian's zsh looks for completions of packages (in its $fpath).
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions
DESTDIR ?=

CC ?= cc
CFLAGS ?= -O2 -g
PKGS = gmime-3.0 libgit2 libpcre2-8 json-glib-1.0 glib-2.0 zlib libcurl
# The index build inflates every commit: with libdeflate when it is there
# (about twice zlib's speed), else with zlib.
ifeq ($(shell pkg-config --exists libdeflate 2>/dev/null && echo y),y)
PKGS += libdeflate
DEFLATE_DEF = -DHAVE_LIBDEFLATE
endif
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# Debian's libnotmuch-dev ships no .pc file.
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lnotmuch -lpthread -lm
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

WARN = -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2
ifeq ($(STRICT),1)
WARN += -Werror
endif
override CFLAGS += -std=gnu11 $(WARN) -Iinclude -Ilib -I$(B)/gen $(PKG_CFLAGS) -D_GNU_SOURCE $(DEFLATE_DEF) \
	-DFIXSCAN_VERSION='"$(VERSION)"'
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

VERSION = $(shell cat VERSION 2>/dev/null || echo 0.0)

B = build
LIB_SRCS = $(wildcard lib/*.c lib/*/*.c)
CLI_SRCS = $(wildcard cli/*.c)
UNIT_SRCS = $(wildcard tests/unit/test-*.c)
UNIT_HDRS = $(wildcard tests/unit/*.h)

LIB_OBJS = $(LIB_SRCS:%.c=$(B)/obj/%.o)
CLI_OBJS = $(CLI_SRCS:%.c=$(B)/obj/%.o)
UNITS = $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
ASAN_LIB_OBJS = $(LIB_SRCS:%.c=$(B)/asan/obj/%.o)
ASAN_CLI_OBJS = $(CLI_SRCS:%.c=$(B)/asan/obj/%.o)
ASAN_UNITS = $(UNIT_SRCS:tests/unit/%.c=$(B)/asan/tests/%)

CONTRIB_FILES = $(filter-out contrib/completion,$(wildcard contrib/*))
MAN1 = $(wildcard man/*.1)
MAN5 = $(wildcard man/*.5)

all: $(B)/fixscan

# Rebuild everything when the flags change (git's GIT-CFLAGS trick), so a
# -Werror build really compiles every file with -Werror.
$(B)/cflags: FORCE
	@mkdir -p $(B)
	@echo '$(CC) $(CFLAGS)' | cmp -s - $@ || echo '$(CC) $(CFLAGS)' > $@

$(B)/obj/%.o: %.c $(B)/cflags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# The reply class model: its weights (trained by
# tests/real/scripts/train-replies.py, committed) become a C table at
# build time, so that the code and the weights it reads cannot drift.
REPLY_MODEL = lib/review/reply-model.tsv
# Without the weights file the rule runs every time (FORCE), so that a
# model taken away is noticed; the script leaves an unchanged header alone.
$(B)/gen/reply-model.h: $(or $(wildcard $(REPLY_MODEL)),FORCE) scripts/gen-reply-model.py
	@mkdir -p $(dir $@)
	python3 scripts/gen-reply-model.py $(REPLY_MODEL) $@

$(B)/obj/lib/review/mentions-model.o $(B)/asan/obj/lib/review/mentions-model.o \
$(B)/fuzz/obj/lib/review/mentions-model.o: $(B)/gen/reply-model.h

$(B)/libfixscan.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(B)/fixscan: $(CLI_OBJS) $(B)/libfixscan.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJS) $(B)/libfixscan.a $(PKG_LIBS)

$(B)/tests/%: tests/unit/%.c $(UNIT_HDRS) $(B)/libfixscan.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(B)/libfixscan.a $(CMOCKA_LIBS) $(PKG_LIBS)

# The sanitizer build: the same sources with ASan and UBSan.
$(B)/asan/obj/%.o: %.c $(B)/cflags
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -MMD -MP -c -o $@ $<

$(B)/asan/libfixscan.a: $(ASAN_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(B)/asan/fixscan: $(ASAN_CLI_OBJS) $(B)/asan/libfixscan.a
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $(ASAN_CLI_OBJS) $(B)/asan/libfixscan.a $(PKG_LIBS)

$(B)/asan/tests/%: tests/unit/%.c $(UNIT_HDRS) $(B)/asan/libfixscan.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -Itests/unit -o $@ $< $(B)/asan/libfixscan.a $(CMOCKA_LIBS) $(PKG_LIBS)

-include $(LIB_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(ASAN_LIB_OBJS:.o=.d) $(ASAN_CLI_OBJS:.o=.d)

deps:
	@scripts/deps.sh

deps-test:
	@scripts/deps.sh --test

deps-demo:
	@scripts/deps.sh --demo

# The fault-injection library of the tests (tests/fault/fault.c, issue
# 41), preloaded into the real binary; never sanitized itself.
FAULT_CFLAGS = -O2 -g -std=gnu11 -Wall -Wextra -fPIC -shared
$(B)/tests/libfault.so $(B)/asan/tests/libfault.so: tests/fault/fault.c
	@mkdir -p $(dir $@)
	$(CC) $(FAULT_CFLAGS) -o $@ $< -ldl -lpthread

units: $(UNITS) $(B)/tests/libfault.so $(B)/bench-index-dump
asan: $(B)/asan/fixscan $(ASAN_UNITS) $(B)/asan/tests/libfault.so

# GLib keeps some allocations for the life of the process on purpose; the
# suppressions file names them so LeakSanitizer reports only our leaks.
SAN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

test-unit: units
	@tests/run-units.sh $(UNITS)

test-asan: asan
	@$(SAN_ENV) tests/run-units.sh $(ASAN_UNITS)

test-e2e: all $(B)/tests/libfault.so
	@FIXSCAN=$(CURDIR)/$(B)/fixscan tests/e2e/run.sh

# The fault tests of issue 41 (or VG_TESTS) under valgrind's memcheck:
# slow, not part of make check.
VG_TESTS ?= t0930-faults t0931-places t0932-busy-store t0933-repos t0934-clocks
test-e2e-valgrind:
	@$(MAKE) --no-print-directory STRICT=1 all units
	@rm -rf $(B)/vg-logs && mkdir -p $(B)/vg-logs
	@cd tests/e2e && for t in $(VG_TESTS); do \
		FIXSCAN_VG_BIN=$(CURDIR)/$(B)/fixscan FIXSCAN_VG_LOGS=$(CURDIR)/$(B)/vg-logs \
		FIXSCAN=$(CURDIR)/tests/valgrind/fixscan sh $$t.sh | tail -1; done
	@if find $(B)/vg-logs -type f -size +0 | grep -q .; then echo "valgrind: errors in $(B)/vg-logs"; exit 1; fi
	@echo "valgrind: no error"

test-e2e-asan: asan $(B)/tests/libfault.so
	@$(SAN_ENV) FIXSCAN=$(CURDIR)/$(B)/asan/fixscan tests/e2e/run.sh

# make check: install what is missing, build with -Werror, check the
# architecture rules on the objects, run the unit tests plain and under
# ASan+UBSan, then the end-to-end tests on the real binary (plain and
# sanitized).
check: deps-test
	@$(MAKE) --no-print-directory STRICT=1 all units asan
	@$(MAKE) --no-print-directory STRICT=1 check-shape
	@$(MAKE) --no-print-directory STRICT=1 test-unit test-asan test-e2e test-e2e-asan

# The architecture rules (scripts/check-shape.py says which and why), on
# the plain objects in $(B)/obj.
check-shape: all
	@scripts/check-shape.sh --obj $(B)/obj

DEMO_DIR = $(B)/demo
demo: deps-demo
	@$(MAKE) --no-print-directory all
	@scripts/demo.sh $(B)/fixscan $(DEMO_DIR)

# make bench also builds the SQLite comparison of issue 4 (the store the
# cache format was chosen against); nothing else needs libsqlite3, so it
# is not part of all or check.
SQLITE_CFLAGS = $(shell pkg-config --cflags sqlite3 2>/dev/null)
SQLITE_LIBS = $(shell pkg-config --libs sqlite3 2>/dev/null || echo -lsqlite3)

$(B)/bench-sqlite-compare: bench/sqlite-compare.c $(B)/libfixscan.a
	$(CC) $(CFLAGS) $(SQLITE_CFLAGS) -o $@ $< $(B)/libfixscan.a $(SQLITE_LIBS) $(PKG_LIBS)

# make bench compares index builds with it (scripts/bench.sh).
$(B)/bench-index-dump: bench/index-dump.c $(B)/libfixscan.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/libfixscan.a $(PKG_LIBS)

$(B)/asan/bench-sqlite-compare: bench/sqlite-compare.c $(B)/asan/libfixscan.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(SQLITE_CFLAGS) -o $@ $< $(B)/asan/libfixscan.a $(SQLITE_LIBS) $(PKG_LIBS)

deps-bench:
	@scripts/deps.sh --bench

bench: deps-bench
	@$(MAKE) --no-print-directory all $(B)/bench-sqlite-compare
	@scripts/bench.sh $(B)/fixscan

# Real list mail, labelled, outside the repository (other people's words):
# REAL names the directories (see scripts/realcheck.py for the layouts).
REAL ?= /work/shared/realreplies /work/shared/realmail
# The held-out replies of issue 40 (tests/real/corpus40/test.tsv: lists no
# rule and no model was tuned or trained on), their mails read again from
# the list archives in MIRRORS (tests/real/scripts/harvest40.py says how
# they are fetched) with the other replies of their threads, as fixscan
# reads a review; left out, said once, when the archives are not here.
MIRRORS ?= /work/.mirror
REAL40 = $(B)/real/corpus40-test
realcheck: all
	@rm -rf $(REAL40)
	@if [ -d $(MIRRORS) ]; then python3 tests/real/scripts/corpus40.py export $(REAL40) \
		tests/real/corpus40/test.tsv tests/real/corpus40/test2.tsv --mirrors $(MIRRORS) --threads; \
	else echo "realcheck: no list archives in $(MIRRORS): the held-out replies are left out"; fi
	@python3 scripts/realcheck.py --fixscan $(B)/fixscan $(REAL) $$([ -d $(REAL40) ] && echo $(REAL40))

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(DOCDIR)/contrib \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 $(B)/fixscan $(DESTDIR)$(BINDIR)/fixscan
	$(if $(MAN1),install -m 644 $(MAN1) $(DESTDIR)$(MANDIR)/man1/)
	$(if $(MAN5),install -m 644 $(MAN5) $(DESTDIR)$(MANDIR)/man5/)
	$(if $(CONTRIB_FILES),install -m 644 $(CONTRIB_FILES) $(DESTDIR)$(DOCDIR)/contrib/)
	install -m 644 contrib/completion/fixscan.bash $(DESTDIR)$(BASHCOMPDIR)/fixscan
	install -m 644 contrib/completion/_fixscan $(DESTDIR)$(ZSHCOMPDIR)/_fixscan

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fixscan
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5)))
	rm -rf $(DESTDIR)$(DOCDIR)
	rm -f $(DESTDIR)$(BASHCOMPDIR)/fixscan
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_fixscan

clean:
	rm -rf $(B)

.PHONY: all deps deps-test deps-bench deps-demo units asan test-unit test-asan test-e2e test-e2e-asan test-e2e-valgrind check check-shape demo bench realcheck install uninstall clean FORCE
.SECONDARY:

# ---- fuzzing (issue 15) ----------------------------------------------------
# libFuzzer harnesses in tests/fuzz/, linked against the library compiled
# with clang and the fuzzer flags in $(B)/fuzz/ (the fuzzer needs clang;
# the rest of the build does not).  make fuzz runs each harness for
# FUZZ_SECONDS on a scratch copy of its seeds (new finds go to
# $(B)/fuzz/artifacts/); make check replays the seeds and every reproducer
# in tests/fuzz/regressions/<harness>/, with no fuzzing time.
FUZZ_CC ?= $(shell command -v clang-14 2>/dev/null || command -v clang 2>/dev/null)
FUZZ_SECONDS ?= 60
FUZZ_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS = -O1 -g -std=gnu11 -Iinclude -Ilib -I$(B)/gen $(PKG_CFLAGS) -D_GNU_SOURCE \
	-DFIXSCAN_VERSION='"$(VERSION)"' $(FUZZ_SAN)
FUZZERS = $(patsubst tests/fuzz/fuzz-%.c,%,$(wildcard tests/fuzz/fuzz-*.c))
FUZZ_BINS = $(FUZZERS:%=$(B)/fuzz/fuzz-%)
FUZZ_LIB_OBJS = $(LIB_SRCS:%.c=$(B)/fuzz/obj/%.o)
# Scratch files of the harnesses (a state file, a queue, a repository)
# on tmpfs when there is one: their fsyncs cost nothing there.
FUZZ_TMP ?= $(shell test -d /dev/shm -a -w /dev/shm && echo /dev/shm || echo $${TMPDIR:-/tmp})
FUZZ_ENV = TMPDIR=$(FUZZ_TMP) ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 G_SLICE=always-malloc

$(B)/fuzz/obj/%.o: %.c $(B)/cflags
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(B)/fuzz/libfixscan.a: $(FUZZ_LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(B)/fuzz/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz.h $(B)/fuzz/libfixscan.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(B)/fuzz/libfixscan.a $(PKG_LIBS)

-include $(FUZZ_LIB_OBJS:.o=.d)

fuzz-build:
	@if [ -z "$(FUZZ_CC)" ]; then echo "fuzz: no clang found (scripts/deps.sh --test installs it)" >&2; exit 1; fi
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

fuzz: fuzz-build
	@for h in $(FUZZERS); do \
		rm -rf $(B)/fuzz/corpus/$$h; mkdir -p $(B)/fuzz/corpus/$$h $(B)/fuzz/artifacts/$$h; \
		cp tests/fuzz/corpus/$$h/* $(B)/fuzz/corpus/$$h/ 2>/dev/null; \
		echo "fuzz: $$h for $(FUZZ_SECONDS) s"; \
		$(FUZZ_ENV) $(B)/fuzz/fuzz-$$h -max_total_time=$(FUZZ_SECONDS) \
			-artifact_prefix=$(B)/fuzz/artifacts/$$h/ $(FUZZ_ARGS) $(B)/fuzz/corpus/$$h \
			>$(B)/fuzz/$$h.log 2>&1 || { tail -40 $(B)/fuzz/$$h.log; exit 1; }; \
		grep -E '^#[0-9]+.*(DONE|pulse)' $(B)/fuzz/$$h.log | tail -1; \
	done

# Replay: each harness once over its seeds and reproducers.  Without clang
# it says so and skips, rather than failing a machine that cannot fuzz.
fuzz-replay:
	@if [ -z "$(FUZZ_CC)" ]; then echo "fuzz-replay: no clang found: skipped (scripts/deps.sh --test installs it)"; exit 0; fi; \
	$(MAKE) --no-print-directory $(FUZZ_BINS) || exit 1; \
	for h in $(FUZZERS); do \
		set -- tests/fuzz/corpus/$$h/* tests/fuzz/regressions/$$h/*; \
		files=""; for f in "$$@"; do [ -f "$$f" ] && files="$$files $$f"; done; \
		[ -n "$$files" ] || continue; \
		$(FUZZ_ENV) $(B)/fuzz/fuzz-$$h -runs=1 $$files >$(B)/fuzz/$$h-replay.log 2>&1 || \
			{ tail -40 $(B)/fuzz/$$h-replay.log; echo "fuzz-replay: $$h failed"; exit 1; }; \
		echo "fuzz-replay: $$h: $$(echo $$files | wc -w) inputs ok"; \
	done

check: fuzz-replay-check
fuzz-replay-check: deps-test
	@$(MAKE) --no-print-directory STRICT=1 fuzz-replay

.PHONY: fuzz fuzz-build fuzz-replay fuzz-replay-check
