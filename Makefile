# Boilerplate — one entry point for building, testing, benchmarking and documenting the kit.
# `make help` lists the targets.

SWIFT        ?= swift
STRICT       := -Xswiftc -warnings-as-errors
PACKAGES     := Errors Operations Commands EventBus Router Serialization ModelGen Storage Networking
LIBRARIES    := $(PACKAGES) CommandsTesting SerializationYAML StorageSQLite StoragePostgres StoragePostgresTesting \
	NetworkingAsyncHTTPClient NetworkingTesting \
	Boilerplate BoilerplateLogging BoilerplateServiceLifecycle
FORMATTED    := Package.swift Packages Umbrella Tools Tests
BENCH        := $(SWIFT) run -c release --package-path Tools/Benchmarks bench
DOCS_DIR     := .build/docs
PREFIX       ?= /usr/local
# boiler and the resource bundle it loads at run time (ModelGen's templates) live together in
# $(PREFIX)/libexec/boiler: SwiftPM's Bundle.module looks beside the executable's real path.
# $(PREFIX)/bin/boiler is a relative symbolic link to it, so the folder can be moved whole.
BOILER_HOME  := $(DESTDIR)$(PREFIX)/libexec/boiler
BOILER_LINK  := $(DESTDIR)$(PREFIX)/bin/boiler
# The link's target, relative to the link's folder (python3 is already needed by make test).
BOILER_TARGET = $$(python3 -c 'import os, sys; print(os.path.relpath(*sys.argv[1:]))' \
	"$(BOILER_HOME)/boiler" "$(DESTDIR)$(PREFIX)/bin")
# The resource bundles boiler's modules carry (.resources on Linux, .bundle on macOS).
BOILER_BUNDLES := Boilerplate_ModelGen

.DEFAULT_GOAL := help
.PHONY: help test build test-root test-packages test-tsan check-manifests check-self-contained lint format bench bench-smoke docs demo clean \
	fuzz-serialization fuzz-serialization-short test-templates install uninstall test-clone

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  make %-18s %s\n", $$1, $$2}'

test: check-manifests check-self-contained lint build test-root test-packages test-tsan fuzz-serialization-short ## The one test command: manifests, lint, strict build, every test suite, TSan, a short fuzz
	@echo "make test: all checks passed"

build: ## Build every target and test of the root package with warnings as errors
	$(SWIFT) build --build-tests $(STRICT)

# Suites that wait on child processes for seconds to minutes (building generated projects and
# code, killing probes): in one run with the rest they would hold the few threads Swift Testing
# has (one per core) and starve the loopback servers and timing-sensitive tests of the others,
# so they run on their own, after the rest.
PROCESS_SUITES := EndToEndTests|CompileTests|PluginTests|NameMappingFuzzTests|CrossProcessTests|AppCoreCrashTests

test-root: ## Run the root package's tests (every package, the umbrella, the CLI), then the process-driving suites
	$(SWIFT) test $(STRICT) --skip '$(PROCESS_SUITES)'
	$(SWIFT) test $(STRICT) --filter '$(PROCESS_SUITES)'

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
		"Pick --template library --packages Errors,Commands,EventBus,Router" "Srv --template server"; do \
		set -- $$args; echo "==> boiler new $$args"; \
		"$$boiler" new $$args --kit-path "$(CURDIR)" --output "$$folder/$$1" --no-interactive --no-git --quiet; \
		(cd "$$folder/$$1" && $(SWIFT) build && $(SWIFT) test); \
	done

install: ## Build boiler in release and install it under PREFIX (default /usr/local): PREFIX/bin/boiler
	$(SWIFT) build -c release --product boiler
	@set -e; bin="$$($(SWIFT) build -c release --show-bin-path)"; \
	rm -rf "$(BOILER_HOME)"; mkdir -p "$(BOILER_HOME)" "$(DESTDIR)$(PREFIX)/bin"; \
	install -m 755 "$$bin/boiler" "$(BOILER_HOME)/boiler"; \
	for name in $(BOILER_BUNDLES); do \
		found=; for bundle in "$$bin/$$name.resources" "$$bin/$$name.bundle"; do \
			if [ -d "$$bundle" ]; then cp -R "$$bundle" "$(BOILER_HOME)/"; found=1; fi; \
		done; \
		[ -n "$$found" ] || { echo "make install: no resource bundle $$name in $$bin" >&2; exit 1; }; \
	done; \
	ln -sfn "$(BOILER_TARGET)" "$(BOILER_LINK)"; \
	echo "Installed $(BOILER_LINK) -> $(BOILER_HOME)/boiler"; \
	"$(BOILER_LINK)" --version

uninstall: ## Remove what make install put under PREFIX (a bin/boiler it did not make is left alone)
	@if [ -L "$(BOILER_LINK)" ] && [ "$$(readlink "$(BOILER_LINK)")" = "$(BOILER_TARGET)" ]; then \
		rm -f "$(BOILER_LINK)"; echo "Removed $(BOILER_LINK)"; \
	elif [ -e "$(BOILER_LINK)" ]; then echo "Left $(BOILER_LINK): make install did not make it"; fi
	rm -rf "$(BOILER_HOME)"

test-clone: ## From a fresh git clone of HEAD: data suites, boiler new without --kit-path, make install
	Tools/Scripts/test-clone.sh

clean: ## Remove build products
	rm -rf .build .build-* Packages/*/.build Tools/Benchmarks/.build
