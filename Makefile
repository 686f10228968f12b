# ppflow. `make` configures and builds the release preset (build/release/).
#
#   make deps     install the Debian 12 packages that are missing (tools/deps.sh)
#   make run      deps, build, then run ./build/release/ppflow; with no display
#                 (DISPLAY and WAYLAND_DISPLAY unset) it records the default
#                 scenario to build/ppflow-demo.mp4 instead and says so
#   make test     deps, then the release build with -Werror and its tests, the
#                 asan build with -Werror and its tests, the fuzz build and its
#                 fuzzers (what CI runs, through .ci/run)
#   make clean    remove build/
#   make format   clang-format -i on our C sources
#
# Stops at the first command that fails.

CMAKE ?= cmake
CTEST ?= ctest
JOBS ?= 2

# $(call build_preset,PRESET,EXTRA CONFIGURE ARGS): configure and build one preset.
define build_preset
$(CMAKE) --preset $(1) $(2)
$(CMAKE) --build --preset $(1) -j$(JOBS)
endef

# $(call test_preset,PRESET): run one preset's tests. tools/deps.sh has
# installed every tool the tests use (Xvfb, Xorg's dummy driver, xdotool,
# strace), so a test that would skip for a missing one fails instead
# (PPFLOW_REQUIRE_TOOLS, tests/support/check.h): a skip here is a broken
# harness that would pass unseen.
define test_preset
PPFLOW_REQUIRE_TOOLS=1 $(CTEST) --preset $(1) --output-on-failure
endef

.PHONY: all build deps run test clean format

all: build

build:
	$(call build_preset,release)

deps:
	tools/deps.sh

DEMO_MP4 = build/ppflow-demo.mp4

run:
	tools/deps.sh
	$(call build_preset,release)
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		./build/release/ppflow; \
	else \
		echo "make run: no display (DISPLAY and WAYLAND_DISPLAY are unset), so no window;" \
		     "recording the default scenario to $(DEMO_MP4) instead"; \
		./build/release/ppflow render -o $(DEMO_MP4) && \
		echo "make run: the video is $(CURDIR)/$(DEMO_MP4)"; \
	fi

test:
	tools/deps.sh
	$(call build_preset,release,-DPPFLOW_WERROR=ON)
	$(call test_preset,release)
	$(call build_preset,asan,-DPPFLOW_WERROR=ON)
	$(call test_preset,asan)
	$(call build_preset,fuzz)
	$(call test_preset,fuzz)

clean:
	rm -rf build

format:
	@command -v clang-format >/dev/null 2>&1 || \
		{ echo "make format: clang-format not found (Debian package clang-format)" >&2; exit 1; }
	find core render app tests -name '*.[ch]' -print0 | xargs -0 clang-format -i
