# Boilerplate — one entry point for building, testing, benchmarking and documenting the kit.
# `make help` lists the targets.

SWIFT        ?= swift
STRICT       := -Xswiftc -warnings-as-errors
# One build folder for every debug build make starts: the kit, its benchmarks, and the projects
# and scratch packages its tests generate (they read BOILERPLATE_SHARED_BUILD). SwiftPM reuses a
# module another root package compiled there when the command line is the same, so every build
# here uses the same flags and the kit, NIO, GRDB, Yams… are compiled once per run.
# A new build plan each time (--disable-build-manifest-caching): the one SwiftPM caches in the
# folder may be another root package's. Content hashes, not timestamps, decide what the driver
# recompiles: SwiftPM deletes a dependency's checkout when a root package does not need it and
# checks it out again, with new timestamps, for the next one that does.
BUILD_DIR    ?= $(CURDIR)/.build
SWIFT_FLAGS  := $(STRICT) -Xswiftc -enable-incremental-file-hashing
SHARED       := --scratch-path $(BUILD_DIR) --disable-build-manifest-caching $(SWIFT_FLAGS)
# Release builds (make install, make bench) share the folder too, without warnings as errors.
RELEASE      := -c release --scratch-path $(BUILD_DIR) --disable-build-manifest-caching \
	-Xswiftc -enable-incremental-file-hashing
# Runs a step, then prints its time and test count (and records them for .ci/run's table).
TIMED        := Tools/Scripts/timed
PACKAGES     := Errors Operations Commands EventBus Router Serialization ModelGen Storage Networking
LIBRARIES    := $(PACKAGES) CommandsTesting SerializationYAML StorageSQLite StoragePostgres StoragePostgresTesting \
	NetworkingAsyncHTTPClient NetworkingTesting \
	Boilerplate BoilerplateLogging BoilerplateServiceLifecycle
FORMATTED    := Package.swift Packages Umbrella Tools Tests
DOCS_DIR     := $(BUILD_DIR)/docs
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
BOILER_BUNDLES := Boilerplate_ModelGen Boilerplate_BoilerCLI

.DEFAULT_GOAL := help
.PHONY: help test check check-imports build test-root test-unit test-process test-packages test-tsan check-manifests check-self-contained \
	lint format bench bench-smoke docs demo clean fuzz-serialization fuzz-serialization-short test-templates install \
	uninstall test-clone test-checkout docs-convert

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  make %-18s %s\n", $$1, $$2}'

test: check-manifests check-self-contained lint build test-root test-tsan fuzz-serialization-short ## The one test command: manifests, lint, strict build, every test suite, TSan, a short fuzz
	@echo "make test: all checks passed"

check: lint check-imports build test-unit ## The inner loop: lint, the manifests and imports, the strict incremental build, the unit suites (FILTER=regex narrows them)
	@echo "make check: passed"

# --explicit-target-dependency-import-check: a module that imports a sibling it does not declare
# fails the build, which with check-manifests proves each nested package builds from its own manifest.
build: ## Build every target and test of the root package with warnings as errors
	$(TIMED) build --no-count $(SWIFT) build --build-tests $(SHARED) --explicit-target-dependency-import-check error

# Suites that wait on child processes for seconds to minutes (building generated projects and
# code, killing probes): in one run with the rest they would hold the few threads Swift Testing
# has (one per core) and starve the loopback servers and timing-sensitive tests of the others,
# so they run on their own, after the rest.
PROCESS_SUITES := EndToEndTests|CompileTests|PluginTests|NameMappingFuzzTests|CrossProcessTests|AppCoreCrashTests

test-root: test-unit test-process ## Run the root package's tests (every package, the umbrella, the CLI), then the process-driving suites

test-unit: build ## Run the root package's tests but the process-driving suites (FILTER=regex runs only those it matches)
	$(TIMED) unit-tests $(SWIFT) test --skip-build $(SHARED) --skip '$(PROCESS_SUITES)' $(if $(FILTER),--filter '$(FILTER)')

# The projects and packages these suites generate build in $(BUILD_DIR) with the same flags.
# `swift test` would hold the folder's lock while the tests run (even with --ignore-lock) and
# those builds would wait for it forever, so on Linux, where the test product is an executable,
# make runs it directly. Elsewhere `swift test` runs it and each project builds in its own folder.
ifeq ($(shell uname -s),Linux)
PROCESS_TESTS := NO_COLOR=1 BOILERPLATE_SHARED_BUILD='$(BUILD_DIR)' BOILERPLATE_SHARED_BUILD_FLAGS='$(SWIFT_FLAGS)' \
	$(TIMED) process-tests $(BUILD_DIR)/debug/BoilerplatePackageTests.xctest --testing-library swift-testing
else
PROCESS_TESTS := $(TIMED) process-tests $(SWIFT) test --skip-build $(SHARED)
endif

test-process: build ## Run the process-driving suites: generated projects, scratch packages, crash tests
	$(PROCESS_TESTS) --filter '$(PROCESS_SUITES)'

test-packages: ## Build and test each nested package alone, as a user who takes one package would (slow; CI proves the same with check-manifests and the build's import check)
	@set -e; for package in $(PACKAGES); do \
		echo "==> swift test --package-path Packages/$$package"; \
		$(SWIFT) test --package-path Packages/$$package --scratch-path $(CURDIR)/.build-packages \
			--disable-build-manifest-caching $(SWIFT_FLAGS); \
	done

# The packages whose issues promise they pass under ThreadSanitizer (locks, queues, delivery threads).
TSAN_PACKAGES := Operations Commands EventBus

# They share one build folder of their own (instrumented code must not mix with the shared folder's).
test-tsan: ## Run the concurrency-heavy packages' tests under ThreadSanitizer; any report fails
	@set -e; for package in $(TSAN_PACKAGES); do \
		TSAN_OPTIONS=halt_on_error=1 $(TIMED) tsan-$$package $(SWIFT) test --package-path Packages/$$package \
			--sanitize=thread --scratch-path $(CURDIR)/.build-tsan --disable-build-manifest-caching \
			-Xswiftc -enable-incremental-file-hashing; \
	done

check-manifests: ## Fail when the root manifest and a nested one disagree (and build a nested package alone where only that proves it)
	$(TIMED) check-manifests --count "nested manifests" 'Manifests agree: [0-9]+' \
		python3 Tools/Scripts/check-manifests.py --build-isolated $(CURDIR)/.build-packages $(SWIFT_FLAGS)

# An import a target does not declare is never rebuilt for: SwiftPM invalidates by declared
# dependencies, so an incremental build would link code compiled against the old module.
check-imports: ## check-manifests without its builds: the manifests agree and every target declares the kit modules it imports
	$(TIMED) check-imports --count "nested manifests" 'Manifests agree: [0-9]+' python3 Tools/Scripts/check-manifests.py

check-self-contained: ## Fail when anything in the repository reads or links a path outside it
	$(TIMED) check-self-contained --no-count python3 Tools/Scripts/check-self-contained.py

lint: ## swift format lint --strict over all sources
	$(TIMED) lint --count "files" '^[0-9]+ files linted' sh -c '$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED) \
		&& echo "$$(find $(FORMATTED) -name ".?*" -prune -o -name "*.swift" -print | wc -l) files linted"'

format: ## Format all sources in place
	$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)

bench: ## Build the benchmarks in release and print the comparison report
	$(SWIFT) run $(RELEASE) --package-path Tools/Benchmarks bench

bench-smoke: ## Run every benchmark once in a debug build (CI): proves each runs, measures nothing
	$(TIMED) bench-smoke --lines "benchmark rows" ' smoke +' \
		$(SWIFT) run --package-path Tools/Benchmarks $(SHARED) bench --smoke

docs: ## Build DocC documentation for every library into .build/docs
	$(TIMED) docs --lines "catalogs" '^==> docc convert' $(MAKE) --no-print-directory docs-convert

docs-convert:
	$(SWIFT) package $(SHARED) dump-symbol-graph --minimum-access-level public --emit-extension-block-symbols >/dev/null
	@set -e; graphs=$$(find $(BUILD_DIR) -type d -name symbolgraph | head -n 1); \
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
	$(TIMED) fuzz --count "fuzz runs" 'Done [0-9]+ runs' Packages/Serialization/Fuzz/fuzz.sh 10

# The demo and the templates build in the kit's build folder, so only their own code is compiled.
demo: ## Scaffold a demo app with the boiler CLI into a temp folder, build and run it
	$(SWIFT) build --product boiler $(SHARED)
	@set -e; folder=$$(mktemp -d); trap 'rm -rf "$$folder"' EXIT; \
	"$(BUILD_DIR)/debug/boiler" new Notes --kit-path "$(CURDIR)" --output "$$folder/Notes" \
		--no-interactive --no-git; \
	cd "$$folder/Notes" && $(SWIFT) run $(SHARED) Notes

test-templates: ## Scaffold every template (and --packages) with the CLI, then build and test each
	$(SWIFT) build --product boiler $(SHARED)
	@set -e; boiler="$(BUILD_DIR)/debug/boiler"; folder=$$(mktemp -d); \
	trap 'rm -rf "$$folder"' EXIT; \
	for args in "App --template app" "Tool --template cli" "Lib --template library" \
		"Pick --template library --packages Errors,Commands,EventBus,Router" "Srv --template server"; do \
		set -- $$args; echo "==> boiler new $$args"; \
		"$$boiler" new $$args --kit-path "$(CURDIR)" --output "$$folder/$$1" --no-interactive --no-git --quiet; \
		(cd "$$folder/$$1" && $(SWIFT) build --build-tests $(SHARED) && $(SWIFT) test --skip-build $(SHARED)); \
	done

install: ## Build boiler in release and install it under PREFIX (default /usr/local): PREFIX/bin/boiler
	$(SWIFT) build $(RELEASE) --product boiler
	@set -e; bin="$$($(SWIFT) build $(RELEASE) --show-bin-path)"; \
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
	BOILERPLATE_SHARED_BUILD_FLAGS='$(SWIFT_FLAGS)' Tools/Scripts/test-clone.sh

# CI's checkout is itself a plain clone, so CI runs the clone's own steps here: `make test` has
# run the data suites, and boiler and the kit are built in $(BUILD_DIR) already.
test-checkout: ## In this checkout, as a plain clone: boiler new without --kit-path, make install, the installed boiler
	BOILERPLATE_SHARED_BUILD='$(BUILD_DIR)' BOILERPLATE_SHARED_BUILD_FLAGS='$(SWIFT_FLAGS)' \
		$(TIMED) test-checkout --lines "steps" '^==> ' Tools/Scripts/test-clone.sh --in-place

clean: ## Remove build products
	rm -rf .build .build-* Packages/*/.build Packages/*/.build-* Tools/Benchmarks/.build
