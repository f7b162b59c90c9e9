# sortie: the two commands of the README are `make run` and `make test`.
# Everything is built with CMake presets (CMakePresets.json) into build/<preset>/.

SHELL := /bin/bash
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PRESET ?= release
BUILD_DIR := build/$(PRESET)
WERROR := $(if $(CI),ON,OFF)
SORTIE := $(BUILD_DIR)/apps/sortie/sortie
RUN_ARGS ?=
FUZZ_SECONDS ?= 15

# Debian packages the project needs (build, tests, benchmarks, fuzzing).
DEB_PACKAGES := build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev \
  libgtest-dev libgmock-dev libbenchmark-dev libexpected-dev nlohmann-json3-dev libcli11-dev \
  libfmt-dev zlib1g-dev libpng-dev libxxhash-dev libosmesa6-dev

.PHONY: all deps configure build run test test-asan bench fuzz install package clean format

all: build

deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "make deps: all Debian packages present"; fi

configure: deps
	cmake --preset $(PRESET) -DSORTIE_WERROR=$(WERROR) > /dev/null

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The main job on the embedded sample (see README).
run: build
	$(SORTIE) run --out build/run $(RUN_ARGS)

test: build
	ctest --test-dir $(BUILD_DIR) -j $(JOBS) --output-on-failure

test-asan: deps
	cmake --preset asan -DSORTIE_WERROR=$(WERROR) > /dev/null
	cmake --build build/asan -j $(JOBS)
	ctest --test-dir build/asan -j $(JOBS) --output-on-failure

bench: build
	@for b in $(BUILD_DIR)/bench/bench_*; do echo "== $$b"; taskset -c 0 $$b --benchmark_repetitions=5 --benchmark_report_aggregates_only=true || exit 1; done

# Builds every libFuzzer target, writes the seed corpus with our own writers, fuzzes each for
# FUZZ_SECONDS, JOBS targets at a time.
fuzz: deps
	cmake --preset fuzz -DSORTIE_WERROR=$(WERROR) > /dev/null
	cmake --build build/fuzz -j $(JOBS) --target fuzz_all
	build/fuzz/fuzz/fuzz_seeds build/fuzz/seeds > /dev/null
	fuzz/run_all.sh build/fuzz $(FUZZ_SECONDS) $(JOBS)

install: build
	cmake --install $(BUILD_DIR) $(if $(PREFIX),--prefix $(PREFIX),)

package: build
	cd $(BUILD_DIR) && cpack -G DEB

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build
