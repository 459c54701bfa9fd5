# RaceLab: every workshop and CI entry point. `make help` lists them.
# Lessons run from a release build (racy code behaves as it would in an app); tests run in debug.

SWIFT   ?= swift
RACELAB := .build/release/racelab
# Extra options for `racelab run`, e.g. make lesson-2 ARGS="--noise off --trials 5000"
# (with noise off a buggy variant can go unreproduced: NOT REPRODUCED, exit 1)
ARGS    ?=
# ARGS with its leading space only when set: an echoed command line ends without a trailing space.
_ARGS = $(if $(strip $(ARGS)), $(strip $(ARGS)))
# Extra options for `swift test`, e.g. make test TEST_ARGS="--filter ProcessSpawn" (CI adds --xunit-output)
TEST_ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help build release racelab-current test lessons explorations list bench bench-explorer fuzz-explorer clean exercises-check examples tsan test-tsan tsan-demo workshop \
	format lint lint-workflows screenshots lesson-tables typecheck-darwin docs docs-check

help: ## List the targets
	@echo "RaceLab make targets:"
	@grep -hE '^[a-zA-Z%_-]+:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN { FS = ":.*## " } { printf "  make %-20s %s\n", $$1, $$2 }'
	@echo "Pass runner options with ARGS, e.g. make lesson-1 ARGS=\"--noise off\""

build: ## Debug build of the library, the CLI and the lessons
	$(SWIFT) build

release: ## Release build of the racelab CLI
	$(SWIFT) build -c release --product racelab

test: ## Run every test (harness, CLI end to end, lessons); options for swift test in TEST_ARGS
	$(SWIFT) test $(TEST_ARGS)

# What the participant targets run first: the release build, unless $(RACELAB) is newer than every
# file and folder it is built from (a changed, added or removed source makes its folder newer), so
# that after `make workshop` a lesson starts without compiler lines on the projector. A stale
# binary never runs: any newer input, or any error from find, builds as `make release` does.
RACELAB_INPUTS := Package.swift Sources Plugins Lessons
racelab-current:
	@stale=$$(find $(RACELAB_INPUTS) \
		\( -path 'Lessons/*/Exercise' -o -path 'Lessons/*/CompilerProbes' -o -name README.md -o -name APPENDIX.md \) \
		-prune -o -newer $(RACELAB) -print 2>&1 | head -n 1); \
	if [ -z "$$stale" ] && [ -x $(RACELAB) ]; then :; else \
		echo "$(SWIFT) build -c release --product racelab"; \
		$(SWIFT) build -c release --product racelab; \
	fi

lesson-%: racelab-current ## Run lesson N (e.g. make lesson-1): buggy variants must reproduce, fixed ones stay clean
	$(RACELAB) run $*$(_ARGS)

lessons: release ## Run every lesson
	$(RACELAB) run all$(_ARGS)

explore-%: racelab-current ## Search lesson N's thread schedules (e.g. make explore-1): print the one that breaks it, and its replay string
	$(RACELAB) explore $*$(_ARGS)

play-%: racelab-current ## Be the scheduler of lesson N's buggy variant (e.g. make play-1; ARGS="--variant NAME" for another)
	$(RACELAB) play $*$(_ARGS)

# Everything a participant runs, built once before the room arrives: the release racelab (make
# lesson-N, explore-N, play-N) and the exercises' scratch package (make exercise-N), which builds
# RaceLab a second time on its own. Each exercise's reference solution is checked on the way, so
# a room that starts with this target starts with a checker known to work. Scripts/check-exercise
# runs an exercise's ThreadSanitizer harness without TSAN=1 after a clean run of code it reads as
# `no-barrier` (an exercise whose hints name it), and after every clean run of an exercise with a
# `tsan-confirms-pass` file; its first build takes minutes, so both get it built here (the second,
# and an exercise that is both, as part of its reference solution's check).
workshop: release ## Before a workshop: build everything participants use (racelab, the exercise checker) and check it works
	@set -e; for dir in Lessons/*/Exercise; do \
		n=$$(echo $$dir | sed -E 's|Lessons/0*([0-9]+)-.*|\1|'); \
		EXERCISE_PROGRESS=off Scripts/check-exercise $$n --file $$dir/Solution/*.swift --expect pass >/dev/null; \
		if [ -f $$dir/tsan-confirms-pass ]; then \
			echo "exercise $$n: checker and ThreadSanitizer harness built, reference solution passes under both"; \
		else \
			echo "exercise $$n: checker built, reference solution passes"; \
		fi; \
		if grep -qw 'no-barrier' $$dir/hints.md && [ ! -f $$dir/tsan-confirms-pass ]; then \
			EXERCISE_PROGRESS=off Scripts/check-exercise $$n --file $$dir/Solution/*.swift --tsan --expect pass >/dev/null; \
			echo "exercise $$n: ThreadSanitizer harness built, reference solution passes under it"; \
		fi; \
	done
	@echo "Ready: make lesson-N, explore-N, play-N and exercise-N start without a build."
	@echo 'To type racelab ... as the lessons write it: export PATH="$$PWD/.build/release:$$PATH"'

# Lessons explored a second time with --marks off: the explorer finds their bugs with no
# Race.window or Race.step, from the primitives and Swift concurrency jobs it sees by itself.
MARKS_OFF_LESSONS := 1 2 3
# Lesson 3 with marks off within 1 preemption: within the default 2, in-flight-task's jobs pass the
# schedule limit, and a fixed variant whose search was cut is no verdict (CLEAN, NOT EXHAUSTIVE).
MARKS_OFF_BOUND_3 := --preemptions 1
# Lesson 2 with marks off, every variant but `atomic`: a compare-exchange is no scheduling point, so
# its threads run whole and are never interleaved (NOT INTERLEAVED: no verdict, exit status 3).
MARKS_OFF_VARIANTS_2 := buggy serial-queue lock protected-read-then-write protected-mutate errors-unprotected \
	errors-protected

explorations: release ## Explore every lesson (dfs), then lessons 1-3 with --marks off: each buggy variant must fail, no fixed one
	$(RACELAB) explore all$(_ARGS)
	@set -e; for n in $(MARKS_OFF_LESSONS); do \
		case $$n in 3) bound='$(MARKS_OFF_BOUND_3)';; *) bound='';; esac; \
		case $$n in 2) variants='$(MARKS_OFF_VARIANTS_2)';; *) variants='';; esac; \
		if [ -z "$$variants" ]; then \
			echo "$(RACELAB) explore $$n --marks off$${bound:+ $$bound}$(_ARGS)"; \
			$(RACELAB) explore $$n --marks off$${bound:+ $$bound}$(_ARGS); \
		else for v in $$variants; do \
			echo "$(RACELAB) explore $$n --marks off --variant $$v$${bound:+ $$bound}$(_ARGS)"; \
			$(RACELAB) explore $$n --marks off --variant $$v$${bound:+ $$bound}$(_ARGS); \
		done; fi; \
	done

power-%: release ## Measure how often lesson N's buggy variants show their bug: noise off/on, explorer random/pct
	$(RACELAB) power $*$(_ARGS)

# Workshop exercises (Lessons/NN-slug/Exercise/): the participant edits Exercise/<File>.swift, a
# git-ignored working copy that the first `make exercise-N` creates from Exercise/Starter/. The
# checker compiles it on its own in a scratch package under .build-exercise/, so a half-edited file
# never breaks the repository's build. The verdict comes from the harness, never from the exit
# status; a check still running after EXERCISE_TIMEOUT seconds (120 by default) is killed and fails.
# A FAIL is the expected answer to a wrong fix, not the tool breaking: `make exercise-N` ends with
# status 0 after one (no `make: *** ... Error 1` under it), unless STRICT=1. So does a file that does
# not compile (check-exercise's status 3: the compiler's errors are the answer). A checker error, a
# build that failed outside the exercise (status 2) and an interrupt still fail make.
exercise-%-reset: ## Restore exercise N's working copy from its starter (e.g. make exercise-1-reset)
	Scripts/check-exercise $* --reset

exercise-%: ## Check your fix for exercise N (e.g. make exercise-1; TSAN=1 adds ThreadSanitizer; STRICT=1: a FAIL fails make)
	@echo "Scripts/check-exercise $*"; \
	Scripts/check-exercise $* || { status=$$?; [ $$status -eq 1 -o $$status -eq 3 ] && [ -z "$(STRICT)" ] || exit $$status; }

# Each exercise's Starter, WrongFixes and Cheats must FAIL and its Solution PASS; each Hangs file must
# FAIL by running out of time (a short limit, so CI does not wait two minutes for each).
HANG_TIMEOUT ?= 5

# A planted file is a whole `.swift` file, or a `.patch` against the starter or the solution it
# departs from (Scripts/check-exercise --patch). One whose first lines say `expect-diagnosis: KIND`
# (`// expect-diagnosis: KIND` in a .swift file) must fail with that diagnosis too (a crash's kind
# from Scripts/diagnose-crash, or lost-writes, functional, ...); a hang's, a cause read from the code.
exercises-check: ## CI: every starter, wrong fix, cheat and demo must FAIL (with its diagnosis), every hang time out, every solution (and alternative) PASS
	@set -e; for dir in Lessons/*/Exercise; do \
		n=$$(echo $$dir | sed -E 's|Lessons/0*([0-9]+)-.*|\1|'); \
		Scripts/check-exercise $$n --file $$dir/Starter/*.swift --expect fail; \
		Scripts/check-exercise $$n --file $$dir/Solution/*.swift --expect pass; \
		for alt in $$dir/Alternatives/*; do \
			case $$alt in *.swift) as=--file ;; *.patch) as=--patch ;; *) continue ;; esac; \
			Scripts/check-exercise $$n $$as $$alt --expect pass; \
		done; \
		for wrong in $$dir/WrongFixes/* $$dir/Cheats/* $$dir/Demos/*; do \
			case $$wrong in *.swift) as=--file ;; *.patch) as=--patch ;; *) continue ;; esac; \
			diagnosis=$$(sed -n -E 's#^(// )?expect-diagnosis: ##p' $$wrong | head -1); \
			Scripts/check-exercise $$n $$as $$wrong --expect fail $${diagnosis:+--expect-diagnosis $$diagnosis}; \
		done; \
		for hang in $$dir/Hangs/*; do \
			case $$hang in *.swift) as=--file ;; *.patch) as=--patch ;; *) continue ;; esac; \
			diagnosis=$$(sed -n -E 's#^(// )?expect-diagnosis: ##p' $$hang | head -1); \
			Scripts/check-exercise $$n $$as $$hang --timeout $(HANG_TIMEOUT) --expect timeout \
				$${diagnosis:+--expect-diagnosis $$diagnosis}; \
		done; \
	done

examples: ## Run the Examples/ packages' tests (swift test; they depend on RaceLab by path) and their executables
	$(SWIFT) test --package-path Examples/CacheCheck --scratch-path .build-examples/CacheCheck
	$(SWIFT) build -c release --package-path Examples/CacheCheck --scratch-path .build-examples/CacheCheck
	.build-examples/CacheCheck/release/cache-check run all$(_ARGS)

bench-explorer: release ## Explore every variant without and with partial-order reduction, then cost per schedule vs a bare hand-off
	$(SWIFT) build -c release --product racelab-bench
	Scripts/bench-explorer $(RACELAB)$(_ARGS)

# The differential fuzzer of the explorer's reductions (Tests/RaceLabTests/DifferentialFuzzTests.swift)
# with a longer budget than `make test` gives it: RACELAB_FUZZ_PROGRAMS random programs from
# RACELAB_FUZZ_SEED (from the environment or the command line), each
# explored with reductions none, dpor and states; any difference in final states, verdict or traces
# fails with the program's seed and text (RACELAB_FUZZ_PROGRAM=<seed> reruns that one).
RACELAB_FUZZ_PROGRAMS ?= 5000
RACELAB_FUZZ_SEED ?= 1

fuzz-explorer: ## Differential fuzzing of the explorer's reductions against none (RACELAB_FUZZ_PROGRAMS=5000 RACELAB_FUZZ_SEED=1)
	RACELAB_FUZZ_PROGRAMS=$(RACELAB_FUZZ_PROGRAMS) RACELAB_FUZZ_SEED=$(RACELAB_FUZZ_SEED) \
		$(SWIFT) test $(TEST_ARGS) --filter 'DifferentialFuzzTests/randomPrograms'

bench: ## Benchmark the ways to guard shared state (release); writes .build/bench/results.md and chart.svg
	$(SWIFT) build -c release --product racelab-bench
	.build/release/racelab-bench --output .build/bench$(_ARGS)

# ThreadSanitizer, in its own scratch path and in a debug build: in a release build the standard
# library's Dictionary and Array code is specialized into the program and instrumented, while the
# reference counts that make copy-on-write safe are not, and TSan reports races in correct code
# (measured; see README). Options for `racelab matrix` go in TSAN_ARGS, e.g. TSAN_ARGS="2 --budget 5".
TSAN_SCRATCH := .build-tsan
TSAN_RACELAB := $(TSAN_SCRATCH)/debug/racelab
TSAN_ARGS    ?=

# The build goes through tsan-exec too: it runs lesson-catalog-generator (the LessonCatalog plugin's
# tool), which SwiftPM builds with the sanitizer as well.
tsan: ## TSan build; every variant in its own process under TSan; the tool matrix (fails on any unexpected row)
	Scripts/tsan-exec $(SWIFT) build --sanitize=thread --scratch-path $(TSAN_SCRATCH) --product racelab
	Scripts/tsan-exec $(TSAN_RACELAB) matrix --logs $(TSAN_SCRATCH)/tsan-logs --junit $(TSAN_SCRATCH)/tsan-matrix.xml $(TSAN_ARGS)

# Tests that race on purpose carry the `.racesOnPurpose(...)` trait (RaceLabTesting), which disables
# them when the test process runs under TSan: no skip list.
test-tsan: ## swift test under TSan: harness and fixed variants (tests racing on purpose, or that TSan adds nothing to, disable themselves)
	Scripts/tsan-exec $(SWIFT) test --sanitize=thread --scratch-path $(TSAN_SCRATCH) $(TEST_ARGS)

tsan-demo: ## Show make tsan failing on a data race planted in a fixed variant (in a scratch copy)
	Scripts/tsan-demo-fixed-race

# The formatter ships with the toolchain (`swift format`); its rules are in .swift-format.
FORMAT_PATHS := Package.swift Sources Tests Lessons Examples Scripts Plugins

# Every measured table and sample output in Lessons/ sits between <!-- lesson-tables:begin SPEC -->
# and <!-- lesson-tables:end --> markers; this target reruns each SPEC with the release racelab and
# rewrites the block, so the lesson texts never quote a stale figure or mix debug and release.
lesson-tables: release ## Rewrite the measured tables and sample outputs in Lessons/ from one release build (Scripts/lesson-tables)
	Scripts/lesson-tables --no-build

screenshots: release ## Render explore --html and run --html pages to PNGs in .build/screenshots (headless Chromium)
	Scripts/screenshots

format: ## Format every Swift file in place (swift format, rules in .swift-format)
	$(SWIFT) format format --in-place --recursive --parallel $(FORMAT_PATHS)

lint: ## Check formatting and portability without changing anything; CI fails on any finding
	$(SWIFT) format lint --strict --recursive --parallel $(FORMAT_PATHS)
	Scripts/check-portability

typecheck-darwin: build ## Type-check every Darwin branch on Linux against Scripts/DarwinStubs; then plant errors and show them caught
	Scripts/typecheck-darwin
	Scripts/typecheck-darwin --self-test

# The DocC catalogs (Sources/RaceLab/RaceLab.docc, Sources/RaceLabTesting/RaceLabTesting.docc), built
# with the toolchain's docc against the modules' symbol graphs: no plugin, no package (Scripts/build-docs).
docs: ## Render the DocC documentation of RaceLab and RaceLabTesting into .build/docs (read it with a local web server)
	Scripts/build-docs

docs-check: ## CI: every public symbol documented (Scripts/check-doc-coverage), both catalogs built with warnings as errors
	Scripts/build-docs --check

lint-workflows: ## Check the GitHub workflows with actionlint (installs a pinned actionlint if it is missing)
	Scripts/lint-workflows

list: release ## List the lessons and their variants
	$(RACELAB) list

clean: ## Remove build products (all scratch paths)
	rm -rf .build .build-*
