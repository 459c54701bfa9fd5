# RaceLab: every workshop and CI entry point. `make help` lists them.
# Lessons run from a release build (racy code behaves as it would in an app); tests run in debug.

SWIFT   ?= swift
RACELAB := .build/release/racelab
# Extra options for `racelab run`, e.g. make lesson-2 ARGS="--noise off --trials 5000"
ARGS    ?=

.DEFAULT_GOAL := help
.PHONY: help build release test lessons list bench clean

help: ## List the targets
	@echo "RaceLab make targets:"
	@grep -hE '^[a-zA-Z%_-]+:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN { FS = ":.*## " } { printf "  make %-12s %s\n", $$1, $$2 }'
	@echo "Pass runner options with ARGS, e.g. make lesson-1 ARGS=\"--noise off\""

build: ## Debug build of the library, the CLI and the lessons
	$(SWIFT) build

release: ## Release build of the racelab CLI
	$(SWIFT) build -c release --product racelab

test: ## Run every test (harness, CLI end to end, lessons)
	$(SWIFT) test

lesson-%: release ## Run lesson N (e.g. make lesson-1): buggy variants must reproduce, fixed ones stay clean
	$(RACELAB) run $* $(ARGS)

lessons: release ## Run every lesson
	$(RACELAB) run all $(ARGS)

power-%: release ## Measure how often lesson N's buggy variants show their bug, noise off vs on
	$(RACELAB) power $* $(ARGS)

bench: ## Benchmark the ways to guard shared state (release); writes .build/bench/results.md and chart.svg
	$(SWIFT) build -c release --product racelab-bench
	.build/release/racelab-bench --output .build/bench $(ARGS)

list: release ## List the lessons and their variants
	$(RACELAB) list

clean: ## Remove build products (all scratch paths)
	rm -rf .build .build-*
