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

# Debian packages the project needs, one group a line: build; libraries; tools (format, tidy,
# ccache); the viewer (SDL2) and its headless test (Xvfb); networking (ENet); benchmark peers
# (OSMesa for the renderer, Recast/Detour for navigation, sox for MS ADPCM; tests skip without sox);
# python3 for the architecture checks (tools/long_functions.py); Lua 5.4 for sortie's own mission
# scripts (libs/scenario, ADR 0016); tinygltf for glTF interchange and Node.js for the Khronos
# glTF validator its tests run (libs/interchange, ADR 0018; the validator itself comes from npm
# into tools/gltf-validator/node_modules, pinned by its package-lock.json).
DEB_PACKAGES := build-essential cmake ninja-build pkg-config clang libclang-rt-14-dev \
  libgtest-dev libgmock-dev libbenchmark-dev libexpected-dev nlohmann-json3-dev libcli11-dev \
  libfmt-dev zlib1g-dev libpng-dev libxxhash-dev \
  ccache clang-format clang-tidy \
  libsdl2-dev xvfb xauth \
  libenet-dev \
  liblua5.4-dev \
  libtinygltf-dev nodejs \
  libosmesa6-dev librecast-dev sox \
  python3

.PHONY: all deps configure build run test test-asan bench bench-osmesa net-hostile fuzz fuzz-long install package clean format format-check tidy hooks

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
	@if ! command -v npm > /dev/null; then \
	  echo "make deps: installing npm"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends npm; fi
	@if [ ! -f tools/gltf-validator/node_modules/gltf-validator/package.json ]; then \
	  echo "make deps: npm ci (gltf-validator)"; \
	  npm ci --prefix tools/gltf-validator --no-audit --no-fund --loglevel=error; fi

configure: deps
	cmake --preset $(PRESET) -DSORTIE_WERROR=$(WERROR) > /dev/null

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The main job on the embedded sample (see README).
run: build
	$(SORTIE) run --out build/run $(RUN_ARGS)

test: build
	ctest --test-dir $(BUILD_DIR) -j $(JOBS) --output-on-failure

# The sanitizer tests and the libFuzzer targets share one clang tree (build/asan): `make fuzz`
# after `make test-asan` only links what is left.
test-asan: deps
	cmake --preset asan -DSORTIE_WERROR=$(WERROR) > /dev/null
	cmake --build build/asan -j $(JOBS)
	ctest --test-dir build/asan -j $(JOBS) --output-on-failure

bench: build
	@for b in $(BUILD_DIR)/bench/bench_*; do echo "== $$b"; taskset -c 0 $$b --benchmark_repetitions=5 --benchmark_report_aggregates_only=true || exit 1; done

# libs/render against OSMesa (llvmpipe) at one and at two threads each (docs/decisions/0009).
bench-osmesa: build
	bench/osmesa_compare.sh $(BUILD_DIR) 5

# The network's hostile-load tests at NET_HOSTILE_SCALE times their CI counts (tests/net/
# hostile_load_test.cpp: 1,000 malformed messages and 10,000 garbage datagrams against a server
# with eight honest clients; RSS measured before and after).
NET_HOSTILE_SCALE ?= 20
net-hostile: configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target test_net
	SORTIE_NET_HOSTILE_SCALE=$(NET_HOSTILE_SCALE) $(BUILD_DIR)/tests/net/test_net --gtest_filter='NetHostile.*'

# Builds every libFuzzer target, writes the seed corpus with our own writers, fuzzes each for
# FUZZ_SECONDS, JOBS targets at a time.
FUZZ_PRESET ?= asan
fuzz: deps
	cmake --preset $(FUZZ_PRESET) -DSORTIE_WERROR=$(WERROR) > /dev/null
	cmake --build build/$(FUZZ_PRESET) -j $(JOBS) --target fuzz_all
	build/$(FUZZ_PRESET)/fuzz/fuzz_seeds build/$(FUZZ_PRESET)/seeds > /dev/null
	fuzz/run_all.sh build/$(FUZZ_PRESET) $(FUZZ_SECONDS) $(JOBS)

# Long fuzzing (issue #21): every target FUZZ_LONG_SECONDS (default 10 minutes) with JOBS worker
# processes, starting from and then refreshing the kept corpora in fuzz/corpus/ (minimised);
# report in build/asan/long/report.md. FUZZ_TARGETS="texm msh" limits it to those targets.
FUZZ_LONG_SECONDS ?= 600
FUZZ_TARGETS ?=
fuzz-long: deps
	cmake --preset $(FUZZ_PRESET) -DSORTIE_WERROR=$(WERROR) > /dev/null
	cmake --build build/$(FUZZ_PRESET) -j $(JOBS) --target fuzz_all
	build/$(FUZZ_PRESET)/fuzz/fuzz_seeds build/$(FUZZ_PRESET)/seeds > /dev/null
	fuzz/run_long.sh build/$(FUZZ_PRESET) $(FUZZ_LONG_SECONDS) $(JOBS) $(FUZZ_TARGETS)

install: build
	cmake --install $(BUILD_DIR) $(if $(PREFIX),--prefix $(PREFIX),)

package: build
	cd $(BUILD_DIR) && cpack -G DEB

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

# The whole tree must be clang-formatted (CI runs this; it takes seconds).
format-check:
	clang-format --dry-run -Werror $$(git ls-files '*.cpp' '*.hpp')

# clang-tidy (.clang-tidy: naming rules and bug-prone patterns) on the C++ files changed since
# TIDY_BASE (default: where this branch left main), using the release tree's compile commands.
TIDY_BASE ?= $(shell git merge-base HEAD main 2>/dev/null || echo HEAD)
tidy: configure
	tools/tidy_changed.sh $(BUILD_DIR) $(TIDY_BASE)

# Installs a pre-commit hook that runs the format check and tidy on the staged files.
hooks:
	install -m 755 tools/pre-commit $$(git rev-parse --git-path hooks)/pre-commit

clean:
	rm -rf build
