# labbook - a literate lab notebook for GPU work.
#
#   make site     install missing Debian packages, build the runner, write site/
#   make test     the test suite (no GPU needed)
#   make spec     fetch the CommonMark spec examples the suite runs (once)
#   make docs     the manual (docs/), its examples run, into site/manual/
#   make bench    build-speed benchmark
#   make check-loaded  the test suite LOADED_RUNS times on a machine kept busy
#   make kernels  compile every experiment with nvcc (no GPU needed)
#   make watch    build, then build again on every save (Ctrl-C stops)
#   make pdf      the whole book as site/book.pdf, its listings whole in
#                 site/book-listings.pdf (PAPER=a4 or letter)
#   make cluster  measure on a Slurm cluster (PARTITIONS=...), then gather
#   make install  install labbook, its templates and lab.h under PREFIX
#
# COMPARE="results/a results/b" puts other bundles beside the one rendered.
# Local overrides go in config.mak (CC, CFLAGS, RESULTS, RECORDED, JOBS, ...).

CC       = cc
CFLAGS   = -std=c11 -D_DEFAULT_SOURCE -O2 -g -Wall -Wextra
LDFLAGS  =
LDLIBS   = -lcmark-gfm-extensions -lcmark-gfm -lcjson -lxxhash -lpcre2-8 -liberty -lm
BUILD    = build
SITE     = site
PREFIX   = /usr/local
TITLE    = The CUDA Execution Model, Measured
# The bundle that ships with the book, rendered where there is no GPU.
RECORDED = results/h200
# The paper make pdf prints on: a4 or letter.
PAPER    = a4
JOBS     = $(shell nproc 2>/dev/null || echo 2)
GPU     := $(shell nvidia-smi -L 2>/dev/null | grep -q GPU && echo yes)
ifeq ($(GPU),yes)
RESULTS  = results/local
RUNFLAGS =
else
RESULTS  = $(RECORDED)
RUNFLAGS = --no-run
endif

# The bundles other machines measured, shown beside RESULTS (make site).
COMPARE  =
# make cluster: [NAME=]PARTITION[:GPU_TYPE][:COUNT] per job (see docs/10-clusters.md).
PARTITIONS =
# make gather: the bundles to render, the first as the base.
BUNDLES  =
# A centre's settings for the jobs (docs/10-clusters.md).
export CLUSTER_FLAGS CLUSTER_SETUP CLUSTER_BUILD CLUSTER_GATHER CLUSTER_WAIT \
       CLUSTER_SITE_FLAGS

-include config.mak

# $(call quote,TEXT): TEXT as one shell word, for the recipes below.
quote = '$(subst ','\'',$(1))'

# runner/ has one folder per stage (docs/13-layout.md).
STAGES = base bundle book measure judge render cli
FUZZ_SRCS = $(wildcard runner/*/fuzz_*.c)
SRCS  = $(filter-out $(FUZZ_SRCS),$(wildcard $(STAGES:%=runner/%/*.c)))
OBJS  = $(SRCS:runner/%.c=$(BUILD)/obj/%.o)
LIB   = $(filter-out $(BUILD)/obj/cli/main.o,$(OBJS))
TESTS = $(patsubst tests/unit/%.c,$(BUILD)/test/%,$(wildcard tests/unit/*.c))
DEPS  = $(OBJS:.o=.d) $(TESTS:=.d)
LABBOOK = $(BUILD)/labbook
FUZZERS = $(patsubst fuzz_%.c,%,$(notdir $(FUZZ_SRCS)))
FUZZ_SECONDS ?= 600
# make check-loaded: how many times the suite runs under load.
LOADED_RUNS ?= 20
# make spec: the CommonMark spec examples (case 109), from Debian's source
# of the cmark-gfm that labbook links, pinned by the sha256 that its .dsc
# (cmark-gfm_0.29.0.gfm.6-6.dsc) gives; kept in build/spec whatever BUILD is.
SPEC_DIR    = build/spec
SPEC_URL    = https://deb.debian.org/debian/pool/main/c/cmark-gfm/cmark-gfm_0.29.0.gfm.6.orig.tar.gz
SPEC_SHA256 = b17d86164c0822b5db3818780b44cb130ff30e9c6ec6a64f199b6d142684dba0

.PHONY: all site measure test unit regress kernels bench clean deps format install \
        spec check-sanitize check-valgrind fuzz fuzz-run check-site cluster gather \
        check-slurm watch pdf check-loaded docs

all: $(LABBOOK)

deps:
	@tools/install-deps

$(BUILD)/.deps-ok: tools/install-deps
	@tools/install-deps && mkdir -p $(BUILD) && touch $@

$(BUILD)/test $(STAGES:%=$(BUILD)/obj/%):
	@mkdir -p $@

$(BUILD)/obj/%.o: runner/%.c $(BUILD)/.deps-ok | $(STAGES:%=$(BUILD)/obj/%)
	$(CC) $(CFLAGS) -Irunner -I$(BUILD) -MMD -MP -c -o $@ $<

# The GPU probe's source, carried inside labbook as a C string, so that a
# book anywhere (labbook init, make install) can measure.
$(BUILD)/gen/probe_cu.h: tools/probe.cu
	@mkdir -p $(@D)
	sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' $< > $@

$(BUILD)/obj/measure/toolchain.o: $(BUILD)/gen/probe_cu.h

$(LABBOOK): $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

# Says what it does and where the site is, on a terminal or in a log.
# The book's index links the manual, so the manual is built first.
site: docs
	@echo "labbook: $(if $(RUNFLAGS),no GPU: rendering the recorded results in $(RESULTS),GPU found: measuring into $(RESULTS) and rendering) into $(SITE)/"
	$(LABBOOK) build --results $(call quote,$(RESULTS)) --site $(call quote,$(SITE)) \
		-j $(JOBS) --title $(call quote,$(TITLE)) $(RUNFLAGS) $(MANUAL_LINK) \
		$(foreach c,$(COMPARE),--compare $(call quote,$(c))) $(HISTORY)
	@echo "labbook: done; open $(SITE)/index.html"

# A History page (labbook history) where git holds RESULTS as more than
# one commit left it.
HISTORY = $(if $(filter 2,$(strip $(shell git log -n 2 --format=%h -- \
	$(call quote,$(RESULTS)) 2>/dev/null | wc -l))),--history $(call quote,$(RESULTS)))

# The manual is a book of its own: docs/*.md are its chapters, and its
# examples (docs/examples/*.c, built with cc) run on every build, so an
# example that is wrong fails it. Its bundle and binaries stay in
# docs/build/; the pages go to $(SITE)/manual/, linked with the book.
# docs/gpu/ is a page of Python GPU programs, recorded on an H200 into
# docs/gpu/h200 and rendered from it (--no-run), so it reads the same on a
# machine without a GPU; it reads the book's kernels/, so its root is here.
MANUAL_LINK = --link 'manual/index.html|The labbook manual'
# The manual's opening line, its own, not the book's (--lead).
MANUAL_LEAD = How to write a labbook book, build it, check it and publish \
	it: every directive, option and command, each shown by an example that \
	this build compiles and runs.
docs: $(LABBOOK) docs/kernels/lab.py
	$(LABBOOK) build -C docs --chapters . --results build/results \
		--site $(call quote,$(abspath $(SITE))/manual) \
		--templates $(call quote,$(abspath templates)) --runs 1 -j $(JOBS) \
		--title 'The labbook manual' --link '../index.html|The book' --strict \
		--lead $(call quote,$(MANUAL_LEAD))
	$(LABBOOK) build -C . --chapters docs/gpu --results docs/gpu/h200 --no-run \
		--site $(call quote,$(abspath $(SITE))/manual/gpu) \
		--templates $(call quote,$(abspath templates)) --strict --quiet \
		--title 'A sum from Python, beside CUDA' \
		--link '../index.html|The labbook manual'
	@tools/check-docs docs

# The manual's Python examples import lab.py from the manual's own kernels/
# (a book reads no file outside its folder): a copy of kernels/lab.py, made
# here, never edited.
docs/kernels/lab.py: kernels/lab.py
	mkdir -p docs/kernels
	cp kernels/lab.py $@

# The binary finds its templates in $(PREFIX)/share/labbook/templates, and
# labbook init copies $(PREFIX)/share/labbook/lab.h and lab.py into a new book.
# DESTDIR and PREFIX may hold spaces and quotes.
DEST = $(DESTDIR)$(PREFIX)
install: $(LABBOOK)
	install -d $(call quote,$(DEST)/bin) $(call quote,$(DEST)/share/labbook/templates)
	install -m 755 $(LABBOOK) $(call quote,$(DEST)/bin/labbook)
	install -m 644 templates/* $(call quote,$(DEST)/share/labbook/templates/)
	install -m 644 kernels/lab.h $(call quote,$(DEST)/share/labbook/lab.h)
	install -m 644 kernels/lab.py $(call quote,$(DEST)/share/labbook/lab.py)
	@echo $(call quote,labbook: installed $(DEST)/bin/labbook; start a book with: labbook init DIR)
	@case ":$$PATH:" in *:$(call quote,$(PREFIX)/bin):*) ;; *) \
		echo $(call quote,labbook: $(PREFIX)/bin is not on your PATH; add it in your shell profile:); \
		echo "  export PATH=\"$(subst ",\",$(subst $$,\$$$$,$(PREFIX)))/bin:\$$PATH\"" ;; esac

# The authoring loop: every save rebuilds what it touched, and open pages
# reload themselves.
watch: docs
	$(LABBOOK) watch --results $(call quote,$(RESULTS)) --site $(call quote,$(SITE)) \
		-j $(JOBS) --title $(call quote,$(TITLE)) $(RUNFLAGS) $(MANUAL_LINK)

# The one-page book (site/book.html) printed by headless Chromium; then the
# site again, which now links the PDF.
pdf: site
	@tools/install-deps chromium
	@tools/pdf $(SITE) $(PAPER)
	@$(MAKE) --no-print-directory site

# Measure only (a cluster node with a GPU but no gnuplot): fills RESULTS.
measure: $(LABBOOK)
	$(LABBOOK) build --results $(call quote,$(RESULTS)) --no-site -j $(JOBS)

kernels: $(LABBOOK)
	$(LABBOOK) build --compile-only -j $(JOBS)

# Slurm: one job per entry of PARTITIONS, then one that renders SITE from
# all their bundles (tools/cluster says how to tune the jobs).
cluster: $(LABBOOK)
	@test -n $(call quote,$(PARTITIONS)) || { echo 'make cluster PARTITIONS="gpu:a100:4 gpu:l40s:2"' >&2; exit 2; }
	LABBOOK=$(call quote,$(LABBOOK)) SITE=$(call quote,$(SITE)) TITLE=$(call quote,$(TITLE)) \
		tools/cluster submit $(foreach p,$(PARTITIONS),$(call quote,$(p)))

# The comparison site from BUNDLES, or from the bundles of the last make cluster.
gather: $(LABBOOK)
	LABBOOK=$(call quote,$(LABBOOK)) SITE=$(call quote,$(SITE)) TITLE=$(call quote,$(TITLE)) \
		tools/cluster gather $(foreach b,$(BUNDLES),$(call quote,$(b)))

# A real slurmctld and slurmd on this machine measure a small book (root).
check-slurm: $(LABBOOK)
	@LABBOOK=$(abspath $(LABBOOK)) tools/check-slurm

$(BUILD)/test/%: tests/unit/%.c $(LIB) | $(BUILD)/test
	$(CC) $(CFLAGS) -Irunner -MMD -MP -o $@ $< $(LIB) $(LDFLAGS) $(LDLIBS)

test: $(LABBOOK) $(TESTS)
	@LABBOOK=$(abspath $(LABBOOK)) tests/run $(TESTS)

# Without it, case 109 is skipped and says to run make spec.
spec: $(SPEC_DIR)/spec.txt

$(SPEC_DIR)/spec.txt:
	@tools/install-deps curl ca-certificates cmark-gfm
	@tools/fetch-spec $(SPEC_DIR) $(SPEC_URL) $(SPEC_SHA256)

bench: $(LABBOOK)
	@tools/bench
	@tools/bench-watch

# A sanitizer's report exits 99, which the cases count as a failure.
check-sanitize:
	ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=99:print_stacktrace=1 \
	$(MAKE) BUILD=build-san CFLAGS='$(CFLAGS) -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' LDFLAGS='-fsanitize=address,undefined' test

check-valgrind: $(LABBOOK) $(TESTS)
	@VALGRIND=1 LABBOOK=$(abspath $(LABBOOK)) tests/run $(TESTS)

# The suite again and again beside stress-ng on every CPU: no case may pass
# or fail by timing. Stops at the first failed run.
check-loaded: $(LABBOOK) $(TESTS)
	@LOADED_RUNS=$(call quote,$(LOADED_RUNS)) LABBOOK=$(abspath $(LABBOOK)) tools/check-loaded $(TESTS)

# The built site in a real browser: HTML validity, links, accessibility.
check-site: site
	@tools/check-site $(SITE)

# Each libFuzzer target (runner/fuzz_*.c) runs FUZZ_SECONDS on seeds made
# from the book; what it finds is left in build-fuzz/ as crash-* files.
fuzz:
	@tools/install-deps clang libclang-rt-14-dev
	$(MAKE) BUILD=build-fuzz CC=clang CFLAGS='$(CFLAGS) -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all' fuzz-run

fuzz-run: $(FUZZERS:%=$(BUILD)/fuzz_%)
	@tools/fuzz-corpus $(BUILD) $(RECORDED)
	@for f in $(FUZZERS); do \
		echo "fuzz_$$f: $(FUZZ_SECONDS) s"; \
		$(BUILD)/fuzz_$$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			$$(for d in runner/*/fuzz_$$f.dict; do test -f $$d && echo -dict=$$d; done) \
			-artifact_prefix=$(BUILD)/ $(BUILD)/corpus-$$f || exit 1; \
	done

$(BUILD)/fuzz_%: $(LIB)
	$(CC) $(CFLAGS) -fsanitize=fuzzer -Irunner -o $@ $(filter %/fuzz_$*.c,$(FUZZ_SRCS)) $(LIB) $(LDFLAGS) $(LDLIBS)

format:
	clang-format -i runner/*/*.c runner/*/*.h tests/unit/*.c

clean:
	rm -rf $(call quote,$(BUILD)) build-san build-fuzz $(call quote,$(SITE))

-include $(DEPS)
