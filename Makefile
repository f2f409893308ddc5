# Boilerplate — one entry point for building, testing, benchmarking and documenting the kit.
# `make help` lists the targets.

SWIFT        ?= swift
STRICT       := -Xswiftc -warnings-as-errors
PACKAGES     := Errors Operations Commands EventBus Router Serialization ModelGen Storage Networking
LIBRARIES    := $(PACKAGES) CommandsTesting SerializationYAML StorageSQLite NetworkingAsyncHTTPClient Boilerplate
FORMATTED    := Package.swift Packages Umbrella Tools Tests
BENCH        := $(SWIFT) run -c release --package-path Tools/Benchmarks bench
DOCS_DIR     := .build/docs

.DEFAULT_GOAL := help
.PHONY: help test build test-root test-packages test-tsan check-manifests check-self-contained lint format bench bench-smoke docs demo clean \
	fuzz-serialization fuzz-serialization-short test-templates

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  make %-18s %s\n", $$1, $$2}'

test: check-manifests check-self-contained lint build test-root test-packages test-tsan fuzz-serialization-short ## The one test command: manifests, lint, strict build, every test suite, TSan, a short fuzz
	@echo "make test: all checks passed"

build: ## Build every target and test of the root package with warnings as errors
	$(SWIFT) build --build-tests $(STRICT)

test-root: ## Run the root package's tests (every package, the umbrella, the CLI)
	$(SWIFT) test $(STRICT)

test-packages: ## Run each nested package's tests in isolation
	@set -e; for package in $(PACKAGES); do \
		echo "==> swift test --package-path Packages/$$package"; \
		$(SWIFT) test --package-path Packages/$$package $(STRICT); \
	done

# The packages whose issues promise they pass under ThreadSanitizer (locks, queues, delivery threads).
TSAN_PACKAGES := Operations Commands EventBus

test-tsan: ## Run the concurrency-heavy packages' tests under ThreadSanitizer; any report fails
	@set -e; for package in $(TSAN_PACKAGES); do \
		echo "==> swift test --package-path Packages/$$package --sanitize=thread"; \
		TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --package-path Packages/$$package --sanitize=thread \
			--scratch-path Packages/$$package/.build-tsan; \
	done

check-manifests: ## Fail when the root manifest and a nested one disagree
	python3 Tools/Scripts/check-manifests.py

check-self-contained: ## Fail when anything in the repository reads or links a path outside it
	python3 Tools/Scripts/check-self-contained.py

lint: ## swift format lint --strict over all sources
	$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED)

format: ## Format all sources in place
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)

bench: ## Build the benchmarks in release and print the comparison report
	$(BENCH)

bench-smoke: ## Run every benchmark once in a debug build (CI): proves each runs, measures nothing
	$(SWIFT) run --package-path Tools/Benchmarks bench --smoke

docs: ## Build DocC documentation for every library into .build/docs
	$(SWIFT) package dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols >/dev/null
	@set -e; graphs=$$(find .build -type d -name symbolgraph | head -n 1); \
	for library in $(LIBRARIES); do \
		catalog=$$(find Packages Umbrella -type d -path "*/Sources/$$library/$$library.docc" | head -n 1); \
		mkdir -p $(DOCS_DIR)/graphs/$$library; \
		cp $$graphs/$$library.symbols.json $$graphs/$$library@*.symbols.json $(DOCS_DIR)/graphs/$$library/ 2>/dev/null || true; \
		echo "==> docc convert $$library"; \
		docc convert $$catalog --additional-symbol-graph-dir $(DOCS_DIR)/graphs/$$library \
			--fallback-display-name $$library --fallback-bundle-identifier dev.boilerplate.$$library \
			--output-path $(DOCS_DIR)/$$library.doccarchive --warnings-as-errors; \
	done
	@echo "Documentation in $(DOCS_DIR)"

fuzz-serialization: ## Fuzz the Serialization readers and writers (documents and trees, YAML too) for 60 s (FUZZ_SECONDS to change)
	Packages/Serialization/Fuzz/fuzz.sh $(or $(FUZZ_SECONDS),60)

fuzz-serialization-short: ## The bounded fuzz `make test` runs: 10 s of the same harness
	Packages/Serialization/Fuzz/fuzz.sh 10

demo: ## Scaffold a demo app with the boiler CLI into a temp folder, build and run it
	$(SWIFT) build --product boiler
	@set -e; folder=$$(mktemp -d); trap 'rm -rf "$$folder"' EXIT; \
	"$$($(SWIFT) build --show-bin-path)/boiler" new Notes --kit-path "$(CURDIR)" --output "$$folder/Notes" \
		--no-interactive --no-git; \
	cd "$$folder/Notes" && $(SWIFT) run Notes

test-templates: ## Scaffold every template (and --packages) with the CLI, then build and test each
	$(SWIFT) build --product boiler
	@set -e; boiler="$$($(SWIFT) build --show-bin-path)/boiler"; folder=$$(mktemp -d); \
	trap 'rm -rf "$$folder"' EXIT; \
	for args in "App --template app" "Tool --template cli" "Lib --template library" \
		"Pick --template library --packages Errors,Commands,EventBus,Router"; do \
		set -- $$args; echo "==> boiler new $$args"; \
		"$$boiler" new $$args --kit-path "$(CURDIR)" --output "$$folder/$$1" --no-interactive --no-git --quiet; \
		(cd "$$folder/$$1" && $(SWIFT) build && $(SWIFT) test); \
	done

clean: ## Remove build products
	rm -rf .build .build-* Packages/*/.build Tools/Benchmarks/.build
