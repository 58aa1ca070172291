# SPDX-License-Identifier: Apache-2.0
# splashd: build, run the demo, test, benchmark.
# Every target installs the Debian packages it needs (as root, or through sudo).

SWIFT ?= swift
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
# initramfs-tools reads hooks and scripts from /usr/share/initramfs-tools (and
# /etc/initramfs-tools): PREFIX=/usr puts them where it looks.
INITRAMFSDIR ?= $(PREFIX)/share/initramfs-tools
# dracut reads its modules from /usr/lib/dracut/modules.d: PREFIX=/usr again.
DRACUTDIR ?= $(PREFIX)/lib/dracut/modules.d
# Read when first used: the default font for the message line (libsystemd,
# for progress from systemd, is loaded with dlopen and is everywhere systemd is).
RUNTIME_PACKAGES := fonts-dejavu-core
# SDL2, SDL2_image, SDL2_ttf and FreeType are built from Debian's source packages, trimmed and
# static (tools/build/build-sdl.sh, once per machine, into $(SDL_DIR)): the tools
# that unpack and configure them, and the headers of what SDL loads when first
# used (X11, Wayland, libdecor, DRM/GBM, EGL/GLES; JPEG, TIFF, WebP).
SDL_SOURCE_PACKAGES := dpkg-dev autoconf automake libtool libx11-dev libxext-dev libxrandr-dev libxcursor-dev \
  libxi-dev libxfixes-dev libxss-dev libwayland-dev libxkbcommon-dev libdecor-0-dev libegl-dev libgles-dev \
  libgbm-dev libjpeg-dev libtiff-dev libwebp-dev
# wlroots and libinput, for host mode's Wayland compositor (a shared object
# of its own), are built from Debian's source packages the same way, trimmed
# and static (tools/build/build-wlroots.sh, into $(WLROOTS_DIR)): meson and ninja,
# and the headers of what they and the compositor (wayland-host/) call
# (libseat's for wlroots' session code, compiled though never linked; the
# xwayland package for the path wlroots starts Xwayland by); wayland-scanner
# (libwayland-bin) for the compositor's protocol header.
WLROOTS_SOURCE_PACKAGES := dpkg-dev meson ninja-build wayland-protocols libwayland-dev libwayland-bin libxkbcommon-dev \
  libpixman-1-dev libudev-dev libinput-dev libevdev-dev libmtdev-dev libdrm-dev libseat-dev libxcb1-dev libxcb-composite0-dev \
  libxcb-icccm4-dev libxcb-render0-dev libxcb-res0-dev libxcb-xfixes0-dev xwayland libegl-dev libgles-dev libgbm-dev
BUILD_PACKAGES := pkg-config libpng-dev libinih-dev libdrm-dev libstdc++-12-dev $(SDL_SOURCE_PACKAGES) \
  $(WLROOTS_SOURCE_PACKAGES) $(RUNTIME_PACKAGES)
SDL_DIR := .build/sdl
WLROOTS_DIR := .build/wlroots
# The device quirks of the libinput built there.
QUIRKS_DIR := $(WLROOTS_DIR)/current/share/libinput-quirks
# Every build finds that SDL through the pkg-config files it comes with
# (Package.swift's CSDL2 and CSDL2Image), and host mode's compositor that
# wlroots through splashd-wlroots.pc.
BUILT_PKG_CONFIG := $(CURDIR)/$(SDL_DIR)/current/lib/pkgconfig:$(CURDIR)/$(WLROOTS_DIR)/current/lib/pkgconfig
export PKG_CONFIG_PATH := $(BUILT_PKG_CONFIG)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
# QEMU rig; Mesa's EGL and GL for SDL's KMSDRM driver in the guest (libsdl2
# loads them at run time without depending on them); Pillow for the hostile
# pictures of the reliability tests and for reading snapshots (tools/test/png-to-ppm.py);
# gdb for the stacks tools/test/deadline.sh prints of a test run that hangs;
# gdk-pixbuf-csource to build psplash, the peer the boot figures compare with
# (tools/test/qemu/build-psplash.sh); groff and man to check the manual pages;
# fakeroot and lintian for the Debian package; cryptsetup-bin to encrypt the
# LUKS boot's root image (tools/test/qemu/debian-root.py --luks); Wayland programs
# for host mode (weston's clients, foot, GTK's widget factory, grim for screencopy, wtype for the
# virtual keyboard, wev to see a virtual pointer's click, wayvnc for remote control); for the
# QEMU rig's GPU tier (rig.py --gpu virgl), QEMU's GL display and virtio-vga-gl modules
# (qemu-system-gui) and virglrenderer, which render the guest's GL on the host's Mesa;
# prometheus-node-exporter to serve metrics-file's figures; wvkbd and squeekboard, on-screen
# keyboards docked on host mode's layer shell (squeekboard, an input method, on a session bus
# of dbus-run-session's, enabled with gsettings).
TEST_PACKAGES := xvfb x11-apps x11-utils xdotool systemd qemu-system-x86 linux-image-amd64 busybox-static kmod cpio \
  debootstrap e2fsprogs libgl1-mesa-dri libegl-mesa0 libegl1 libgles2 libgbm1 python3-pil gdb libgdk-pixbuf2.0-bin \
  groff-base man-db fakeroot lintian cryptsetup-bin udev weston foot gtk-3-examples grim wtype wev wayvnc cog chromium \
  qemu-system-gui libvirglrenderer1 prometheus-node-exporter wvkbd squeekboard dbus-daemon libglib2.0-bin \
  python3-gi gir1.2-gtk-3.0
DEMO_DIR ?= out/demo
BUILD_DIR ?= .build/release
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all build deb docs run check test systest figures bench fuzz sanitize format lint install install-built uninstall \
  clean deps test-deps text-order FORCE

# Host mode's Wayland compositor (wayland-host/*.c): wlroots' glue as a
# shared object of its own, which splashd loads with dlopen only in host
# mode, built with the C compiler beside a build's binaries ($(1)): SwiftPM's
# linker driver would tie it to the Swift runtime. wlroots and libinput are
# linked in from tools/build/build-wlroots.sh's archives (splashd-wlroots.pc), of
# which the link keeps only what the compositor reaches (--gc-sections) and
# exports nothing (--exclude-libs): the object needs only the small libraries
# they call (libwayland-server, pixman, xkbcommon, libudev, libevdev, mtdev,
# libdrm, xcb and five of its extensions, libm, libc).
HOST_LIBRARY := libsplashd-wayland-host.so
# Its GPU variant, loaded instead only on a card with a render node: the
# same files but the renderer's (wayland-host/renderer/gpu.c: GLES2 on the
# node, linux-dmabuf), linked from the GLES2 build of wlroots
# (splashd-wlroots-gpu.pc), with EGL, GLESv2 and GBM.
HOST_GPU_LIBRARY := libsplashd-wayland-host-gpu.so
# The protocol headers wlroots 0.15's headers include (their server side):
# xdg-shell's, made at each build from the machine's wayland-protocols, as
# tinywl's is, and wlr-layer-shell's, from the copy of wlroots' XML in
# wayland-host/protocols/ (wayland-protocols has none); each written beside
# and renamed: a build at the same time never reads half of it.
HOST_PROTOCOLS := .build/wayland-host/protocols
HOST_CFLAGS := -std=c11 -O2 -g -fPIC -shared -fvisibility=hidden -ffunction-sections -fdata-sections -Wall -Wextra \
  -Werror -Wl,-z,defs -Wl,--as-needed -Wl,--gc-sections -Wl,--exclude-libs,ALL \
  -DWLR_USE_UNSTABLE -I$(HOST_PROTOCOLS) -Iwayland-host/loader/include
HOST_SOURCES := $(sort $(wildcard wayland-host/*.c))
define host_library
	mkdir -p $(HOST_PROTOCOLS) && wayland-scanner server-header \
	  "$$(pkg-config --variable=pkgdatadir wayland-protocols)/stable/xdg-shell/xdg-shell.xml" \
	  $(HOST_PROTOCOLS)/xdg-shell-protocol.h.$$$$ \
	  && mv -f $(HOST_PROTOCOLS)/xdg-shell-protocol.h.$$$$ $(HOST_PROTOCOLS)/xdg-shell-protocol.h
	wayland-scanner server-header wayland-host/protocols/wlr-layer-shell-unstable-v1.xml \
	  $(HOST_PROTOCOLS)/wlr-layer-shell-unstable-v1-protocol.h.$$$$ \
	  && mv -f $(HOST_PROTOCOLS)/wlr-layer-shell-unstable-v1-protocol.h.$$$$ \
	  $(HOST_PROTOCOLS)/wlr-layer-shell-unstable-v1-protocol.h
	$(CC) $(HOST_CFLAGS) $$(pkg-config --cflags splashd-wlroots) $(HOST_SOURCES) wayland-host/renderer/cpu.c \
	  -o $(1)/$(HOST_LIBRARY) $$(pkg-config --libs splashd-wlroots)
	$(CC) $(HOST_CFLAGS) $$(pkg-config --cflags splashd-wlroots-gpu) $(HOST_SOURCES) wayland-host/renderer/gpu.c \
	  -o $(1)/$(HOST_GPU_LIBRARY) $$(pkg-config --libs splashd-wlroots-gpu)
endef

all: build

# Installs whichever of $(1) are missing, with one apt-get update first.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

# What a build needs (BUILD_PACKAGES, then SDL and wlroots built by their
# scripts) is put in place once: a stamp under .build/deps/, named by a hash
# of the package list and of the scripts' text, is made when the installs
# and builds succeeded, and `build` depends on it, so a later build goes
# straight to swift build. A changed list or script is another stamp, which
# does it all again; so is a missing SDL or wlroots build. The test tools
# (TEST_PACKAGES) have a stamp of their own on top of it. `make deps` and
# `make test-deps` named on the command line check everything again (after
# packages were removed by hand, say).
DEPS_STAMPS := .build/deps
SOURCE_BUILD_SCRIPTS := $(addprefix tools/build/,build-sdl.sh build-wlroots.sh debian-source-build.sh apt-archive.sh)
stamp_hash = $(shell { printf '%s\n' '$(1)'; cat $(SOURCE_BUILD_SCRIPTS); } | sha256sum | cut -c1-12)
BUILD_DEPS_STAMP := $(DEPS_STAMPS)/build-$(call stamp_hash,$(sort $(BUILD_PACKAGES)) $(SDL_DIR) $(WLROOTS_DIR))
TEST_DEPS_STAMP := $(DEPS_STAMPS)/test-$(call stamp_hash,$(sort $(TEST_PACKAGES)))
BUILT_LIBRARIES := $(and $(wildcard $(SDL_DIR)/current/lib/pkgconfig),$(wildcard $(WLROOTS_DIR)/current/lib/pkgconfig))

deps: $(BUILD_DEPS_STAMP)
test-deps: $(TEST_DEPS_STAMP)

$(BUILD_DEPS_STAMP): $(if $(BUILT_LIBRARIES),,FORCE) $(if $(filter deps test-deps,$(MAKECMDGOALS)),FORCE)
	$(call apt_install,$(BUILD_PACKAGES))
	tools/build/build-sdl.sh $(SDL_DIR)
	tools/build/build-wlroots.sh $(WLROOTS_DIR)
	@mkdir -p $(DEPS_STAMPS) && rm -f $(DEPS_STAMPS)/build-* && touch $@

$(TEST_DEPS_STAMP): $(BUILD_DEPS_STAMP) $(if $(filter test-deps,$(MAKECMDGOALS)),FORCE)
	$(call apt_install,$(TEST_PACKAGES))
	@mkdir -p $(DEPS_STAMPS) && rm -f $(DEPS_STAMPS)/test-* && touch $@

FORCE:

# The Swift runtime, SDL2, SDL2_image and SDL2_ttf are linked statically: a
# kiosk image needs only Debian's libpng, inih and libdrm, and start-up maps few
# libraries. No $$ORIGIN RUNPATH: nothing is installed beside the binary, and
# the loader would look there first for every library at every start.
# Not position-independent unless PIE=yes: the loader then has none of the
# ~27,700 relative relocations of the static runtime and libraries to apply
# (and pages to copy) at every start, which took a warm start on the real
# kernel from 1.2-1.4 times psplash's to 0.7-0.75 (docs/performance.md); the
# code that reads untrusted input is Swift, and the shared libraries, stack
# and heap keep their random addresses.
PIE ?= no
# Each function in a section of its own, laid out in tools/build/text-order.txt's
# order: what a splash runs sits together, so that the kernel's fault-around
# (64 KiB around each page faulted) maps little more than that
# (tools/build/text-order.sh, docs/performance.md).
TEXT_ORDER := -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
  -Xlinker --section-ordering-file=$(CURDIR)/tools/build/text-order.txt
# Concrete generic types' metadata (a [String: String], an array of event
# sources) through the metadata accessors, not looked up by mangled name: by
# name, the runtime demangled each type the first time it was used, ~20% of
# a warm start's instructions (docs/performance.md). The code is 27 KB larger.
METADATA := -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
# libstdc++ linked statically: the Swift runtime calls about 20 of its
# functions (strings, operator new, __cxa_demangle), and the shared library
# cost ~0.7 MB of resident memory and one more library to load at every
# start. The driver links `-lstdc++` (its static-stdlib-args.lnk) and the
# linker takes the first folder that has the library: this one holds only
# the archive.
STATIC_CXX_DIR := .build/static-libstdc++
STATIC_CXX := -Xlinker -L$(CURDIR)/$(STATIC_CXX_DIR)
# --version names the git commit (with -dirty for uncommitted changes).
GIT_COMMIT := $(shell git describe --always --dirty --abbrev=12 2>/dev/null)
build: $(BUILD_DEPS_STAMP)
	archive=$$($(CC) -print-file-name=libstdc++.a) \
	  && { test -f "$$archive" || { echo "no libstdc++.a for $(CC) (apt install libstdc++-12-dev)" >&2; exit 1; }; } \
	  && mkdir -p $(STATIC_CXX_DIR) && ln -sfn "$$archive" $(STATIC_CXX_DIR)/libstdc++.a
	$(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath $(if $(filter yes,$(PIE)),,-Xlinker -no-pie) \
	  $(TEXT_ORDER) $(METADATA) $(STATIC_CXX) -Xcc -DSPLASHD_GIT_COMMIT='"$(GIT_COMMIT)"'
	$(call host_library,$(BUILD_DIR))

# Writes tools/build/text-order.txt again from the functions splashd runs (under
# valgrind; see tools/build/text-order.sh). Commit the result.
text-order: build
	$(call apt_install,valgrind)
	tools/build/text-order.sh $(BUILD_DIR)

# The Debian package, out/splashd_VERSION_ARCH.deb (tools/release/make-deb.sh: the
# install layout, Depends from dpkg-shlibdeps, splashd.service enabled by
# its postinst). Needs dpkg-dev and fakeroot; lintian to check it.
DEB_DIR ?= out
deb: build
	$(call apt_install,fakeroot)
	tools/release/make-deb.sh $(BUILD_DIR) $(DEB_DIR)

# The manual pages and bash completions, made from the settings table.
DOCS_DIR ?= .build/docs
docs: build
	$(BUILD_DIR)/splashd-docs $(DOCS_DIR)

# The kiosk program the demo reveals (tools/demo/kiosk-demo.c): a small
# Wayland client of splashd in host mode, drawn with wl_shm, built with the
# xdg-shell glue wayland-scanner makes from the machine's wayland-protocols
# and the test clients' xdg-client.h.
DEMO_CLIENT := .build/kiosk-demo
DEMO_PROTOCOLS := .build/kiosk-demo-protocols
$(DEMO_CLIENT): tools/demo/kiosk-demo.c tools/test/wayland/xdg-client.h | $(BUILD_DEPS_STAMP)
	mkdir -p $(DEMO_PROTOCOLS)
	xml="$$(pkg-config --variable=pkgdatadir wayland-protocols)/stable/xdg-shell/xdg-shell.xml" \
	  && wayland-scanner client-header "$$xml" $(DEMO_PROTOCOLS)/xdg-shell-client-protocol.h \
	  && wayland-scanner private-code "$$xml" $(DEMO_PROTOCOLS)/xdg-shell-protocol.c
	$(CC) -O2 -Wall -Wextra -Werror -I$(DEMO_PROTOCOLS) -Itools/test/wayland -o $@ tools/demo/kiosk-demo.c \
	  $(DEMO_PROTOCOLS)/xdg-shell-protocol.c -lwayland-client -lm

# The demo: the splash holds, then its doors open onto a kiosk program that
# is already running, live behind them (host mode: splashd is its Wayland
# compositor). In a window when a desktop is there (the program ends after
# DEMO_SECONDS, and splashd with it); else recorded offscreen, the program
# ended with the recording.
DEMO_SECONDS ?= 6
run: build $(DEMO_CLIENT)
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  .build/release/splashd --display window --host wayland --hold 1 -- $(DEMO_CLIENT) $(DEMO_SECONDS); \
	else \
	  rm -rf $(DEMO_DIR) && .build/release/splashd --record $(DEMO_DIR) --host wayland --hold 0.5 -- $(DEMO_CLIENT) && \
	  echo "No desktop here: the demo was recorded offscreen; its frames are in $(DEMO_DIR)/ (frame-00000.png …, frames.csv):" \
	    "the doors closed, then opening onto the kiosk program, then the program alone."; \
	fi

lint:
	swift-format lint --strict --recursive Sources Tests Package.swift

format:
	swift-format format --in-place --recursive Sources Tests Package.swift

# The test targets, by tier (one test target a module; Package.swift). In
# process (minutes): the core, the settings and the manual, the system, the
# config file, devices, pixels and the app on a test clock. The black-box
# tier: the real binaries, and host mode's compositor with real Wayland
# programs (the test tools' packages). The QEMU boots (their own target and
# tier), and the figures measured in QEMU boots (a suite of theirs, printed,
# not asserted).
IN_PROCESS_TESTS := SplashCoreTests|SplashSettingsTests|SplashManualTests|SplashSystemTests|SplashConfigFileTests|SplashDevicesTests|SplashRenderTests|SplashAppTests
BLACK_BOX_TESTS := SplashdTests|SplashWaylandHostTests
QEMU_TESTS := SplashBootTests
FIGURE_TESTS := SplashBootTests.BootFigureTests
# Each test run has a deadline (tools/test/deadline.sh): a hang fails it with the
# stacks of what still runs. The QEMU boots take ~33 minutes on a 2-core machine
# (each boot bounds itself too).
CHECK_DEADLINE ?= 900
TEST_DEADLINE ?= 2700

# Lint and the in-process suites: what a change must pass first, in minutes
# (only the build's packages are needed).
check: deps lint
	$(SWIFT) build --build-tests
	$(call host_library,.build/debug)
	tools/test/deadline.sh $(CHECK_DEADLINE) $(SWIFT) test --skip-build --filter '$(IN_PROCESS_TESTS)'

# Every test, the fastest first so that a failure shows early: `check`; the
# black-box tests (the real binaries: signals, clients, windows under Xvfb,
# hostile inputs, the package of the release build, made first); the QEMU boots (`systest`, on the release
# build); the fuzzers (briefly), the sanitizer runs and the release build as
# it ships (tools/release/check-release.sh); then the figures (`figures`).
test: check
	$(MAKE) test-deps build
	tools/test/deadline.sh $(TEST_DEADLINE) $(SWIFT) test --skip-build --filter '$(BLACK_BOX_TESTS)'
	$(MAKE) systest
	$(MAKE) fuzz FUZZ_SECONDS=10
	$(MAKE) sanitize
	tools/release/check-release.sh
	$(MAKE) figures

# libFuzzer over what splashd reads from outside (tools/test/fuzz.sh): each
# target for FUZZ_SECONDS seconds; fails on any crash, leak or timeout.
FUZZ_SECONDS ?= 60
fuzz: deps
	tools/test/fuzz.sh $(FUZZ_SECONDS)

# The core, render and in-process app tests under AddressSanitizer (with
# LeakSanitizer), and the tests that use threads (the helper thread that
# faults memory in, the control server) under ThreadSanitizer. Each has its
# own build folder under .build/.
SANITIZED_TESTS := $(IN_PROCESS_TESTS)
THREADED_TESTS := SplashSystemTests|SplashRenderTests|SplashAppTests
sanitize: test-deps
	$(SWIFT) build --build-tests --scratch-path .build/asan -Xswiftc -sanitize=address
	$(call host_library,.build/asan/debug)
	LSAN_OPTIONS=suppressions=$(CURDIR)/tools/test/lsan.supp ASAN_OPTIONS=detect_leaks=1 \
	  tools/test/deadline.sh 1200 $(SWIFT) test --skip-build --scratch-path .build/asan --filter '$(SANITIZED_TESTS)'
	$(SWIFT) build --build-tests --scratch-path .build/tsan -Xswiftc -sanitize=thread
	$(call host_library,.build/tsan/debug)
	TSAN_OPTIONS=halt_on_error=1 \
	  tools/test/deadline.sh 1200 $(SWIFT) test --skip-build --scratch-path .build/tsan --filter '$(THREADED_TESTS)'

# The QEMU system tests (make test runs them too): the fbdev, KMS, systemd,
# initramfs and dracut boots under a real kernel, on the release build. Their
# screendumps stay in .build/systest/.
systest: test-deps build
	$(SWIFT) build --build-tests
	$(call host_library,.build/debug)
	tools/test/deadline.sh $(TEST_DEADLINE) $(SWIFT) test --skip-build --filter '$(QEMU_TESTS)' --skip '$(FIGURE_TESTS)'

# The figures (make test ends with them): the QEMU boots that time each back
# end and splashd against psplash in one boot, then make bench. Printed as
# `name: value`, with their ratios from the same run.
figures: test-deps build
	$(SWIFT) build --build-tests
	$(call host_library,.build/debug)
	tools/test/deadline.sh $(TEST_DEADLINE) $(SWIFT) test --skip-build --filter '$(FIGURE_TESTS)'
	$(MAKE) bench

bench: build
	.build/release/splashd-bench .build/release/splashd Config/splashd-demo.png

# Installs the binaries, the demo picture, the sample config (never over an
# existing one) and the units, their paths rewritten for PREFIX and SYSCONFDIR.
install: build install-built

# What make install puts where, and what make uninstall takes back: one
# list, packaging/install-manifest (each file's destination, mode, source and
# how it is made), which tools/build/install.sh reads for both, with these
# variables (docs/install.md). make uninstall removes exactly what it lists
# (the config file only while it is still the sample's copy).
INSTALL_VARIABLES = DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)' SYSCONFDIR='$(SYSCONFDIR)' UNITDIR='$(UNITDIR)' \
  INITRAMFSDIR='$(INITRAMFSDIR)' DRACUTDIR='$(DRACUTDIR)' BUILD_DIR='$(BUILD_DIR)' DOCS_DIR='$(DOCS_DIR)' \
  QUIRKS_DIR='$(QUIRKS_DIR)' $(if $(findstring s,$(firstword -$(MAKEFLAGS))),INSTALL_QUIET=1)

# The install step alone, from binaries already built in BUILD_DIR (make deb
# and the QEMU systemd test install a build into a tree this way).
install-built:
	$(INSTALL_VARIABLES) tools/build/install.sh install

uninstall:
	$(INSTALL_VARIABLES) tools/build/install.sh uninstall

clean:
	rm -rf .build out
