#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the trimmed, static, position-independent wlroots and libinput that
# host mode's compositor (wayland-host/host.c, libsplashd-wayland-host.so)
# links, from Debian's own source packages (bookworm's wlroots 0.15.1 and
# trixie's libinput 1.28.1, Debian's patches applied):
#
#     tools/build/build-wlroots.sh DIR
#
# Installs them into DIR/<versions>-<a hash of this script and of
# debian-source-build.sh, which it shares with its twin>/ and points
# DIR/current at it; make compiles host.c against its headers and links it
# through DIR/current/lib/pkgconfig/splashd-wlroots.pc. A build already there
# for the same script is used as it is (no network); another version of this
# script builds afresh (a new Debian revision, a security fix among them,
# comes with an edit of this script, as SDL's does). Takes ~40 s on two
# cores.
#
# Why: host mode uses wlroots' headless back end (never started), its pixman
# renderer (its GLES2 renderer and GBM allocator in the GPU variant, a
# second archive beside), its shm allocator, its protocols and its Xwayland support, and a
# libinput context of its own. Debian's libwlroots10
# links everything else too (the DRM, libinput, X11 and Wayland back ends,
# GLES2 and EGL, GBM, libseat and through it libsystemd and its
# compressors): nearly all of it never called, yet loaded and partly
# resident in splashd's process; Debian's libinput10 brings libwacom, and
# through it GLib, GObject and gudev (~1.1 MB resident, for tablets host
# mode does not serve). Linked in from these archives, they cost only what
# host.c reaches.
#
# What is trimmed: wlroots' DRM, libinput and X11 back ends, its GLES2 and
# Vulkan renderers, xcb-errors and the examples (meson options), and its
# GBM allocator (a patch below: 0.15 always builds it); libinput's libwacom
# (the tablets' database), debug GUI, tests and documentation. The session
# (libseat) and Wayland back end code wlroots 0.15 always compiles is left
# to the link: host.c never reaches it, and make links with --gc-sections,
# each function and datum here in a section of its own. wlroots starts
# Xwayland where Debian's xwayland package puts it (/usr/bin/Xwayland, from
# its xwayland.pc); libinput reads its own device quirks
# (/usr/lib/splashd/libinput, make install-built puts them there from
# share/libinput-quirks) and /etc/libinput/local-overrides.quirks.
#
# Why trixie's libinput: the archive this machine's apt uses does not serve
# bookworm's upstream tarball (libinput_1.22.1.orig.tar.gz: 404), nor
# trixie's .dsc, but trixie's tarball and Debian's changes (fetched with
# --tar-only and --diff-only, checked by apt against the signed index; the
# patches applied by hand in their series' order). It offers the same API,
# but cannot read bookworm's quirk files (1.23 renamed AttrEventCodeDisable
# and AttrInputPropDisable): it reads its own, installed with the compositor. Should they not be had, host.c links
# Debian's shared libinput10 instead, said in one line: host mode then
# loads libwacom and GLib, and works the same.
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: tools/build/build-wlroots.sh DIR" >&2
  exit 2
fi
. "$(dirname "$0")/debian-source-build.sh"
source_build_start "$0" "$1"
mkdir "$src/libinput"
# Each suite's sources apart: an archive without trixie fails only libinput's part.
debian_sources bookworm
apt-get "${apt_options[@]}" update -qq
(cd "$src" && apt-get "${apt_options[@]}" source -qq --download-only wlroots/bookworm)
debian_sources trixie
if apt-get "${apt_options[@]}" update -qq \
  && (cd "$src/libinput" && apt-get "${apt_options[@]}" source -qq --download-only --tar-only libinput \
    && apt-get "${apt_options[@]}" source -qq --download-only --diff-only libinput); then
  libinput_orig=$(ls "$src"/libinput/libinput_*.orig.tar.* | grep -v '[.]asc$')
  libinput_debian=$(ls "$src"/libinput/libinput_*.debian.tar.*)
else
  echo "build-wlroots.sh: trixie's libinput sources cannot be had: host mode links Debian's libinput10" \
    "(and with it libwacom and GLib)" >&2
  libinput_debian=
fi
wlroots_dsc=$(ls "$src"/wlroots_*.dsc)
version() { basename "$1" .dsc | cut -d_ -f2; }
versions="wlroots-$(version "$wlroots_dsc")"
if [ -n "$libinput_debian" ]; then
  versions="$versions-libinput-$(basename "$libinput_debian" | sed 's/^libinput_//; s/[.]debian[.]tar[.].*$//')"
fi
prefix="$root/$versions-$script_hash"
rm -rf "$prefix"
# apt checked the files against the archive's signed index; dpkg-source
# would also check the uploader's signature, with a keyring not installed.
dpkg-source -x "$wlroots_dsc" "$src/wlroots" > "$src/unpack.log" 2>&1 || { cat "$src/unpack.log" >&2; exit 1; }
jobs=$(nproc)
# No -g: the archives are a fraction of the size.
export CFLAGS="-O2 -ffunction-sections -fdata-sections"
meson_options=(--buildtype=plain -Ddefault_library=static -Db_staticpic=true)

if [ -n "$libinput_debian" ]; then
  echo "build-wlroots.sh: libinput ($(basename "$libinput_debian" | sed 's/[.]debian[.]tar[.].*$//')), trimmed and" \
    "static, into $prefix"
  (
    cd "$src/libinput"
    mkdir tree
    tar -C tree --strip-components=1 -xf "$libinput_orig"
    tar -C tree -xf "$libinput_debian"
    cd tree
    # The series: a patch a line (its options after it), comments after '#'.
    sed -e 's/#.*//' debian/patches/series | while read -r change options; do
      [ -z "$change" ] || patch ${options:--p1} --quiet < "debian/patches/$change"
    done
    # The library is a shared_library() in libinput's meson.build: library()
    # follows default_library. Its internal archives (utilities, quirks,
    # filters) are bundled into libinput.a.
    sed -i "s/^lib_libinput = shared_library('input',$/lib_libinput = library('input',/" meson.build
    grep -q "^lib_libinput = library('input',$" meson.build \
      || { echo "build-wlroots.sh: libinput's meson.build has no lib_libinput = shared_library('input', line" >&2; exit 1; }
    # The quirks' folder compiled in is splashd's own,
    # /usr/lib/splashd/libinput, which make install-built fills with this
    # version's quirk files: Debian 12's (/usr/share/libinput) are 1.22's,
    # whose keys 1.28 cannot read. The override file stays
    # /etc/libinput/local-overrides.quirks. Nothing is installed by meson:
    # the archive, its header and the quirk files are copied below.
    meson setup build --prefix=/usr --datadir=lib/splashd "${meson_options[@]}" -Dlibwacom=false \
      -Ddebug-gui=false -Dtests=false -Ddocumentation=false -Dzshcompletiondir=no > "$src/libinput.log" 2>&1 \
      && ninja -C build -j"$jobs" libinput.a >> "$src/libinput.log" 2>&1 \
      || { tail -30 "$src/libinput.log" >&2; exit 1; }
    grep -q '^#define LIBINPUT_QUIRKS_DIR "/usr/lib/splashd/libinput"$' build/config.h \
      || { echo "build-wlroots.sh: libinput's quirks folder is not /usr/lib/splashd/libinput" >&2; exit 1; }
    install -D -m 644 build/libinput.a "$prefix/lib/libsplashd-input.a"
    install -D -m 644 src/libinput.h "$prefix/include/libinput.h"
    install -d "$prefix/share/libinput-quirks"
    install -m 644 quirks/*.quirks "$prefix/share/libinput-quirks/"
  )
fi

echo "build-wlroots.sh: wlroots ($(basename "$wlroots_dsc" .dsc)), trimmed and static, into $prefix"
(
  cd "$src/wlroots"
  # wlroots 0.15 always builds its GBM allocator (and links libgbm, and
  # through it libexpat): wlr_allocator_autocreate tries it first when the
  # back end and the renderer take DMA-BUFs and there is a DRM device. The
  # headless back end with the pixman renderer (which takes none) gets the
  # shm allocator, as it did. The GPU variant keeps it (below).
  gbm_trim=$(cat << 'PATCH'
--- a/meson.build
+++ b/meson.build
@@ -125,7 +125,6 @@
 		'valgrind=false',
 	],
 )
-gbm = dependency('gbm', version: '>=17.1.0')
 xkbcommon = dependency('xkbcommon')
 udev = dependency('libudev')
 pixman = dependency('pixman-1')
@@ -136,7 +135,6 @@
 wlr_deps = [
 	wayland_server,
 	drm,
-	gbm,
 	xkbcommon,
 	udev,
 	pixman,
--- a/render/allocator/allocator.c
+++ b/render/allocator/allocator.c
@@ -10,7 +10,6 @@
 #include "backend/backend.h"
 #include "render/allocator/allocator.h"
 #include "render/allocator/drm_dumb.h"
-#include "render/allocator/gbm.h"
 #include "render/allocator/shm.h"
 #include "render/wlr_renderer.h"
 
@@ -92,21 +91,6 @@
 	uint32_t renderer_caps = renderer_get_render_buffer_caps(renderer);
 
 	struct wlr_allocator *alloc = NULL;
-	uint32_t gbm_caps = WLR_BUFFER_CAP_DMABUF;
-	if ((backend_caps & gbm_caps) && (renderer_caps & gbm_caps)
-			&& drm_fd >= 0) {
-		wlr_log(WLR_DEBUG, "Trying to create gbm allocator");
-		int gbm_fd = reopen_drm_node(drm_fd, true);
-		if (gbm_fd < 0) {
-			return NULL;
-		}
-		if ((alloc = wlr_gbm_allocator_create(gbm_fd)) != NULL) {
-			return alloc;
-		}
-		close(gbm_fd);
-		wlr_log(WLR_DEBUG, "Failed to create gbm allocator");
-	}
-
 	uint32_t shm_caps = WLR_BUFFER_CAP_SHM | WLR_BUFFER_CAP_DATA_PTR;
 	if ((backend_caps & shm_caps) && (renderer_caps & shm_caps)) {
 		wlr_log(WLR_DEBUG, "Trying to create shm allocator");
--- a/render/allocator/meson.build
+++ b/render/allocator/meson.build
@@ -1,9 +1,5 @@
 wlr_files += files(
 	'allocator.c',
-	'gbm.c',
 	'shm.c',
 	'drm_dumb.c',
 )
-
-has = cc.has_function('gbm_bo_get_fd_for_plane', dependencies: [gbm])
-add_project_arguments('-DHAS_GBM_BO_GET_FD_FOR_PLANE=@0@'.format(has.to_int()), language: 'c')
PATCH
  )
  patch -p1 --quiet <<< "$gbm_trim"
  # A buffer whose wl_buffer is gone (its client destroyed it, or went) is
  # never read: wl_shm guards its memory no more, and what it shows is
  # undefined. (The frame splashd holds as its client goes is copied by
  # splashd first, at most the canvas's size: wayland-host/frames.c's
  # keep_held_pixels. wlroots 0.15 read the client's memory unguarded, and
  # this patch once copied every such buffer whole, however many and
  # however large, as its wl_buffer went.)
  patch -p1 --quiet << 'PATCH'
--- a/types/wlr_buffer.c
+++ b/types/wlr_buffer.c
@@ -353,7 +353,10 @@ static bool shm_client_buffer_begin_data_ptr_access(struct wlr_buffer *wlr_buffe
 		*data = wl_shm_buffer_get_data(buffer->shm_buffer);
 		wl_shm_buffer_begin_access(buffer->shm_buffer);
 	} else {
-		*data = buffer->saved_data;
+		// splashd: the client destroyed the wl_buffer: wl_shm guards
+		// its memory no more (a client that cuts it would raise
+		// SIGBUS), and what it shows is undefined. It is not read.
+		return false;
 	}
 	return true;
 }
PATCH
  # Xwayland's launcher (a fork of the compositor that waits for Xwayland to
  # be ready) keeps none of the compositor's descriptors: with its end of
  # Xwayland's connection open, a compositor ending before Xwayland is ready
  # left both asleep for good (and the card's descriptor with them).
  # Xwayland is started without -core, and with no core size at all (hard
  # limit too): a crash of it dumped core in the compositor's working
  # directory, / under systemd.
  patch -p1 --quiet << 'PATCH'
--- a/xwayland/server.c
+++ b/xwayland/server.c
@@ -1,4 +1,4 @@
-#define _POSIX_C_SOURCE 200809L
+#define _GNU_SOURCE
 #include <assert.h>
 #include <errno.h>
 #include <fcntl.h>
@@ -7,6 +7,7 @@
 #include <stdlib.h>
 #include <stdlib.h>
 #include <stdnoreturn.h>
+#include <sys/resource.h>
 #include <sys/socket.h>
 #include <sys/types.h>
 #include <sys/wait.h>
@@ -26,6 +27,10 @@ static void safe_close(int fd) {
 }
 
 noreturn static void exec_xwayland(struct wlr_xwayland_server *server) {
+	// splashd: Xwayland dumps no core (it would land in the compositor's
+	// working directory, / under systemd); the hard limit too, so that
+	// nothing raises it again.
+	setrlimit(RLIMIT_CORE, &(struct rlimit){0, 0});
 	if (!set_cloexec(server->x_fd[0], false) ||
 			!set_cloexec(server->x_fd[1], false) ||
 			!set_cloexec(server->wl_fd[1], false)) {
@@ -52,7 +57,6 @@ noreturn static void exec_xwayland(struct wlr_xwayland_server *server) {
 	argv[i++] = server->display_name;
 	argv[i++] = "-rootless";
 	argv[i++] = "-terminate";
-	argv[i++] = "-core";
 
 #if HAVE_XWAYLAND_LISTENFD
 	argv[i++] = "-listenfd";
@@ -364,6 +368,16 @@ static bool server_start(struct wlr_xwayland_server *server) {
 		} else if (pid == 0) {
 			exec_xwayland(server);
 		}
+		// splashd: the compositor's descriptors go (its ends of Xwayland's
+		// sockets among them): should the compositor end before Xwayland
+		// is ready, Xwayland sees its connection close and ends, rather
+		// than both waiting for each other forever.
+		if (close_range(3, p[1] - 1, 0) != 0 || close_range(p[1] + 1, ~0U, 0) != 0) {
+			// Before Linux 5.9 (or with p[1] at 3): one by one.
+			for (long fd = 3, open = sysconf(_SC_OPEN_MAX); fd < open; fd++) {
+				if (fd != p[1]) close((int)fd);
+			}
+		}
 
 		int sig;
 		sigwait(&sigset, &sig);
PATCH
  # A client's surface trees are bounded in depth: wlroots walks them
  # recursively (a synchronized subtree's cached commits, mapping and
  # unmapping, wlr_surface_for_each_surface, wlr_surface_surface_at, popup
  # trees), so their depth was the compositor's stack (a nest of ~40,000
  # subsurfaces overflowed it), and each get_subsurface walked to the root
  # (a nest built top-down cost quadratic time). get_subsurface refuses a
  # link that would put more than 32 subsurface levels under a root,
  # counting the new subsurface's own subtree (a tree may be built from its
  # leaves up), and get_popup a chain of more than 16 popups: a protocol
  # error, which cuts the client off.
  patch -p1 --quiet << 'PATCH'
--- a/types/wlr_compositor.c
+++ b/types/wlr_compositor.c
@@ -28,6 +28,54 @@ static void subcompositor_handle_destroy(struct wl_client *client,
 	wl_resource_destroy(resource);
 }
 
+// splashd: the most levels of subsurfaces a surface tree may have below its
+// root. wlroots walks the tree recursively (a synchronized subtree's cached
+// commits, mapping and unmapping, wlr_surface_for_each_surface,
+// wlr_surface_surface_at): its depth is the compositor's stack.
+#define SUBSURFACE_MAX_DEPTH 32
+
+// How many subsurface levels lie above `surface` (0 for a root), counted no
+// further than `limit` + 1.
+static int subsurface_depth(struct wlr_surface *surface, int limit) {
+	int depth = 0;
+	while (depth <= limit && wlr_surface_is_subsurface(surface)) {
+		struct wlr_subsurface *subsurface =
+			wlr_subsurface_from_wlr_surface(surface);
+		if (subsurface == NULL || subsurface->parent == NULL) {
+			break;
+		}
+		surface = subsurface->parent;
+		depth++;
+	}
+	return depth;
+}
+
+// How many subsurface levels lie below `surface` (0 for none), counted no
+// further than `limit` + 1. Its children are all in its pending lists.
+static int subsurface_height(struct wlr_surface *surface, int limit) {
+	struct wl_list *lists[] = {
+		&surface->pending.subsurfaces_below,
+		&surface->pending.subsurfaces_above,
+	};
+	int height = 0;
+	for (size_t i = 0; i < 2; i++) {
+		struct wlr_subsurface *child;
+		wl_list_for_each(child, lists[i], pending.link) {
+			if (limit <= 0) {
+				return 1;
+			}
+			int below = 1 + subsurface_height(child->surface, limit - 1);
+			if (below > height) {
+				height = below;
+			}
+			if (height > limit) {
+				return height;
+			}
+		}
+	}
+	return height;
+}
+
 static void subcompositor_handle_get_subsurface(struct wl_client *client,
 		struct wl_resource *resource, uint32_t id,
 		struct wl_resource *surface_resource,
@@ -54,6 +102,19 @@ static void subcompositor_handle_get_subsurface(struct wl_client *client,
 		return;
 	}
 
+	// splashd: the levels above the new subsurface, its own, and those of
+	// its subsurfaces (a tree may be built from its leaves up).
+	int depth = subsurface_depth(parent, SUBSURFACE_MAX_DEPTH);
+	if (depth + 1 + subsurface_height(surface,
+			SUBSURFACE_MAX_DEPTH - 1 - depth) > SUBSURFACE_MAX_DEPTH) {
+		wl_resource_post_error(resource,
+			WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE,
+			"%s%" PRIu32 ": wl_surface@%" PRIu32 " would be nested more "
+			"than %d sub-surfaces deep", msg, id,
+			wl_resource_get_id(surface_resource), SUBSURFACE_MAX_DEPTH);
+		return;
+	}
+
 	if (wlr_surface_get_root_surface(parent) == surface) {
 		wl_resource_post_error(resource,
 			WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE,
--- a/types/xdg_shell/wlr_xdg_popup.c
+++ b/types/xdg_shell/wlr_xdg_popup.c
@@ -297,9 +297,57 @@ const struct wlr_surface_role xdg_popup_surface_role = {
 	.precommit = handle_xdg_surface_precommit,
 };
 
+// splashd: the most popups a chain may have (a menu's submenus): wlroots
+// walks popup trees recursively (wlr_xdg_surface_for_each_surface,
+// wlr_xdg_surface_surface_at, wlr_xdg_popup_destroy).
+#define XDG_POPUP_MAX_DEPTH 16
+
+// How many popup levels lie below `surface` (0 for none), counted no further
+// than `limit` + 1.
+static int popup_height(struct wlr_xdg_surface *surface, int limit) {
+	int height = 0;
+	struct wlr_xdg_popup *child;
+	wl_list_for_each(child, &surface->popups, link) {
+		if (limit <= 0) {
+			return 1;
+		}
+		int below = 1 + popup_height(child->base, limit - 1);
+		if (below > height) {
+			height = below;
+		}
+		if (height > limit) {
+			return height;
+		}
+	}
+	return height;
+}
+
+// How many popups `surface` is, counting those it is a popup of, up to
+// `limit` + 1.
+static int popup_depth(struct wlr_xdg_surface *surface, int limit) {
+	int depth = 0;
+	while (surface != NULL && depth <= limit &&
+			surface->role == WLR_XDG_SURFACE_ROLE_POPUP) {
+		depth++;
+		struct wlr_surface *parent = surface->popup->parent;
+		surface = parent != NULL && wlr_surface_is_xdg_surface(parent) ?
+			wlr_xdg_surface_from_wlr_surface(parent) : NULL;
+	}
+	return depth;
+}
+
 void create_xdg_popup(struct wlr_xdg_surface *xdg_surface,
 		struct wlr_xdg_surface *parent,
 		struct wlr_xdg_positioner_resource *positioner, int32_t id) {
+	int depth = popup_depth(parent, XDG_POPUP_MAX_DEPTH);
+	if (depth + 1 + popup_height(xdg_surface,
+			XDG_POPUP_MAX_DEPTH - 1 - depth) > XDG_POPUP_MAX_DEPTH) {
+		wl_resource_post_error(xdg_surface->resource,
+			XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
+			"popups nested more than %d deep", XDG_POPUP_MAX_DEPTH);
+		return;
+	}
+
 	if (positioner->attrs.size.width == 0 ||
 			positioner->attrs.anchor_rect.width == 0) {
 		wl_resource_post_error(xdg_surface->resource,
PATCH
  # A client's damage and regions cost a bounded time a request: pixman's
  # union costs as much as the rectangles already there, so thousands of
  # disjoint rectangles made a commit take seconds (a region of 96,000,
  # over a minute). Damage past 32 rectangles is kept as their bounding box
  # (a larger damage is never wrong); a wl_region past 256 as its bounding
  # box too (an input region then takes clicks in its holes: Xwayland sends
  # a shaped window's rectangle by rectangle, so it is bounded, not
  # refused; splashd reads no opaque region). A rectangle reaching past
  # INT32_MAX is cut at it (pixman would overflow).
  patch -p1 --quiet << 'PATCH'
--- a/types/wlr_region.c
+++ b/types/wlr_region.c
@@ -1,4 +1,5 @@
 #include <assert.h>
+#include <limits.h>
 #include <pixman.h>
 #include <stdio.h>
 #include <stdlib.h>
@@ -6,21 +7,48 @@
 #include <wlr/types/wlr_region.h>
 #include "types/wlr_region.h"
 
+// splashd: the most rectangles a wl_region keeps; past them it becomes their
+// bounding box. pixman's unions cost as much as the rectangles already there:
+// a region of 96,000 took 14 s. Xwayland sends an X window's input shape a
+// rectangle a request, so a shaped window's region is bounded, not refused
+// (its clicks in the holes then reach it; splashd reads no opaque region).
+#define REGION_MAX_RECTS 256
+
+static void region_bound(pixman_region32_t *region) {
+	if (pixman_region32_n_rects(region) > REGION_MAX_RECTS) {
+		pixman_box32_t extents = *pixman_region32_extents(region);
+		pixman_region32_fini(region);
+		pixman_region32_init_with_extents(region, &extents);
+	}
+}
+
 static void region_add(struct wl_client *client, struct wl_resource *resource,
 		int32_t x, int32_t y, int32_t width, int32_t height) {
 	pixman_region32_t *region = wlr_region_from_resource(resource);
+	if ((int64_t)x + width > INT32_MAX) {
+		width = INT32_MAX - x;
+	}
+	if ((int64_t)y + height > INT32_MAX) {
+		height = INT32_MAX - y;
+	}
 	pixman_region32_union_rect(region, region, x, y, width, height);
+	region_bound(region);
 }
 
 static void region_subtract(struct wl_client *client, struct wl_resource *resource,
 		int32_t x, int32_t y, int32_t width, int32_t height) {
 	pixman_region32_t *region = wlr_region_from_resource(resource);
-	pixman_region32_union_rect(region, region, x, y, width, height);
-
+	if ((int64_t)x + width > INT32_MAX) {
+		width = INT32_MAX - x;
+	}
+	if ((int64_t)y + height > INT32_MAX) {
+		height = INT32_MAX - y;
+	}
 	pixman_region32_t rect;
 	pixman_region32_init_rect(&rect, x, y, width, height);
 	pixman_region32_subtract(region, region, &rect);
 	pixman_region32_fini(&rect);
+	region_bound(region);
 }
 
 static void region_destroy(struct wl_client *client, struct wl_resource *resource) {
--- a/types/wlr_surface.c
+++ b/types/wlr_surface.c
@@ -1,4 +1,5 @@
 #include <assert.h>
+#include <limits.h>
 #include <stdlib.h>
 #include <wayland-server-core.h>
 #include <wlr/render/interface.h>
@@ -59,6 +60,30 @@ static void surface_handle_attach(struct wl_client *client,
 	surface->pending.buffer = buffer;
 }
 
+// splashd: damage is a hint, and a larger one is never wrong: past this many
+// rectangles it is kept as their bounding box. pixman's unions cost as much
+// as the rectangles already there, so a client's thousands of damage requests
+// made each commit quadratic.
+#define SURFACE_MAX_DAMAGE_RECTS 32
+
+static void damage_add(pixman_region32_t *damage,
+		int32_t x, int32_t y, int32_t width, int32_t height) {
+	// x + width past INT32_MAX would overflow in pixman: cut at the edge
+	// (x > 0 then, so INT32_MAX - x does not overflow).
+	if ((int64_t)x + width > INT32_MAX) {
+		width = INT32_MAX - x;
+	}
+	if ((int64_t)y + height > INT32_MAX) {
+		height = INT32_MAX - y;
+	}
+	pixman_region32_union_rect(damage, damage, x, y, width, height);
+	if (pixman_region32_n_rects(damage) > SURFACE_MAX_DAMAGE_RECTS) {
+		pixman_box32_t extents = *pixman_region32_extents(damage);
+		pixman_region32_fini(damage);
+		pixman_region32_init_with_extents(damage, &extents);
+	}
+}
+
 static void surface_handle_damage(struct wl_client *client,
 		struct wl_resource *resource,
 		int32_t x, int32_t y, int32_t width, int32_t height) {
@@ -67,9 +92,7 @@ static void surface_handle_damage(struct wl_client *client,
 		return;
 	}
 	surface->pending.committed |= WLR_SURFACE_STATE_SURFACE_DAMAGE;
-	pixman_region32_union_rect(&surface->pending.surface_damage,
-		&surface->pending.surface_damage,
-		x, y, width, height);
+	damage_add(&surface->pending.surface_damage, x, y, width, height);
 }
 
 static void callback_handle_resource_destroy(struct wl_resource *resource) {
@@ -597,9 +620,7 @@ static void surface_handle_damage_buffer(struct wl_client *client,
 		return;
 	}
 	surface->pending.committed |= WLR_SURFACE_STATE_BUFFER_DAMAGE;
-	pixman_region32_union_rect(&surface->pending.buffer_damage,
-		&surface->pending.buffer_damage,
-		x, y, width, height);
+	damage_add(&surface->pending.buffer_damage, x, y, width, height);
 }
 
 static const struct wl_surface_interface surface_implementation = {
PATCH
  # Two crashes a client could cause at will, found by
  # tools/test/wayland/hostile-fuzz.py: a subsurface whose parent was
  # destroyed is inert to place_above and place_below (wlroots 0.15 looked
  # for its siblings in its parent's lists, through the NULL parent); and an
  # xdg_surface without a role that was a popup's parent takes its popups
  # with it when destroyed, as one with a role does (they kept its address,
  # and their links in its list of popups: a use after free, the heap
  # corrupted).
  patch -p1 --quiet << 'PATCH'
--- a/types/wlr_surface.c
+++ b/types/wlr_surface.c
@@ -928,7 +928,10 @@ static struct wlr_subsurface *subsurface_find_sibling(
 static void subsurface_handle_place_above(struct wl_client *client,
 		struct wl_resource *resource, struct wl_resource *sibling_resource) {
 	struct wlr_subsurface *subsurface = subsurface_from_resource(resource);
-	if (subsurface == NULL) {
+	// splashd: one whose parent was destroyed is inert (as later
+	// wlroots destroys it with its parent): it has no siblings to be
+	// found, and its parent's lists were read through NULL.
+	if (subsurface == NULL || subsurface->parent == NULL) {
 		return;
 	}
 
@@ -960,7 +963,10 @@ static void subsurface_handle_place_above(struct wl_client *client,
 static void subsurface_handle_place_below(struct wl_client *client,
 		struct wl_resource *resource, struct wl_resource *sibling_resource) {
 	struct wlr_subsurface *subsurface = subsurface_from_resource(resource);
-	if (subsurface == NULL) {
+	// splashd: one whose parent was destroyed is inert (as later
+	// wlroots destroys it with its parent): it has no siblings to be
+	// found, and its parent's lists were read through NULL.
+	if (subsurface == NULL || subsurface->parent == NULL) {
 		return;
 	}
 
--- a/types/xdg_shell/wlr_xdg_surface.c
+++ b/types/xdg_shell/wlr_xdg_surface.c
@@ -424,6 +424,14 @@ struct wlr_xdg_surface *create_xdg_surface(
 void reset_xdg_surface(struct wlr_xdg_surface *xdg_surface) {
 	if (xdg_surface->role != WLR_XDG_SURFACE_ROLE_NONE) {
 		unmap_xdg_surface(xdg_surface);
+	} else {
+		// splashd: a surface without a role may be a popup's parent
+		// too: its popups go with it, as a parent with a role's do
+		// (unmap_xdg_surface), rather than keep pointers into it.
+		struct wlr_xdg_popup *popup, *popup_tmp;
+		wl_list_for_each_safe(popup, popup_tmp, &xdg_surface->popups, link) {
+			wlr_xdg_popup_destroy(popup->base);
+		}
 	}
 
 	if (xdg_surface->added) {
PATCH
  # Three more a layer-shell client could cause (host mode serves
  # wlr-layer-shell): a popup destroyed with the layer surface it was given
  # to, given again, was read through NULL; one given twice, or one an xdg
  # surface already holds, was listed twice (the layer's list of popups
  # looped for good, and the compositor with it); and a layer surface
  # destroyed unmapped left its popups' links in its freed list.
  patch -p1 --quiet << 'PATCH'
--- a/types/wlr_layer_shell_v1.c
+++ b/types/wlr_layer_shell_v1.c
@@ -217,6 +217,16 @@
 	if (!parent) {
 		return;
 	}
+	// splashd: an inert popup (destroyed with the surface it was given
+	// to: its surface NULL) or one with a parent already (given twice, or
+	// an xdg surface's) is refused, rather than read through NULL or
+	// listed twice (a list that loops for good).
+	if (popup_surface == NULL || popup_surface->popup->parent != NULL) {
+		wl_resource_post_error(layer_resource,
+			ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE,
+			"the popup is inert or has a parent already");
+		return;
+	}
 	assert(popup_surface->role == WLR_XDG_SURFACE_ROLE_POPUP);
 	struct wlr_xdg_popup *popup = popup_surface->popup;
 	popup->parent = parent->surface;
@@ -280,6 +290,12 @@
 	if (surface->configured && surface->mapped) {
 		layer_surface_unmap(surface);
 	}
+	// splashd: an unmapped surface's popups go with it too, rather than
+	// keep their links in its freed list.
+	struct wlr_xdg_popup *popup, *popup_tmp;
+	wl_list_for_each_safe(popup, popup_tmp, &surface->popups, link) {
+		wlr_xdg_popup_destroy(popup->base);
+	}
 	wlr_signal_emit_safe(&surface->events.destroy, surface);
 	wl_resource_set_user_data(surface->resource, NULL);
 	surface->surface->role_data = NULL;
PATCH
  # The GPU variant's tree: the same patches, its GBM allocator kept.
  cp -a . ../wlroots-gpu
  patch -d ../wlroots-gpu -R -p1 --quiet <<< "$gbm_trim"
  # backends and renderers empty: the headless and Wayland back ends and the
  # pixman renderer are always built. xwayland=enabled fails here, rather
  # than later at run time, when Xwayland or an xcb library is missing.
  meson setup build --prefix="$prefix" --libdir=lib "${meson_options[@]}" "-Dbackends=[]" "-Drenderers=[]" \
    -Dxwayland=enabled -Dxcb-errors=disabled -Dexamples=false > "$src/wlroots.log" 2>&1 \
    && ninja -C build -j"$jobs" >> "$src/wlroots.log" 2>&1 && meson install -C build >> "$src/wlroots.log" 2>&1 \
    || { tail -30 "$src/wlroots.log" >&2; exit 1; }
  if ! grep -q '^#define XWAYLAND_PATH "/usr/bin/Xwayland"$' build/include/xwayland/config.h; then
    echo "build-wlroots.sh: wlroots would run $(grep XWAYLAND_PATH build/include/xwayland/config.h)," \
      "not /usr/bin/Xwayland (install the xwayland package)" >&2
    exit 1
  fi
)
# The GPU variant (libsplashd-wayland-host-gpu.so, which splashd loads only
# on a card with a render node): wlroots with its GLES2 renderer (EGL on
# GBM), through which programs hand their GPU buffers over (linux-dmabuf)
# and splashd reads those it draws itself, and the GBM allocator. Its own
# prefix: its headers' wlr/config.h differs.
echo "build-wlroots.sh: wlroots with its GLES2 renderer, static, into $prefix/gpu"
(
  cd "$src/wlroots-gpu"
  meson setup build --prefix="$prefix/gpu" --libdir=lib "${meson_options[@]}" "-Dbackends=[]" "-Drenderers=gles2" \
    -Dxwayland=enabled -Dxcb-errors=disabled -Dexamples=false > "$src/wlroots-gpu.log" 2>&1 \
    && ninja -C build -j"$jobs" >> "$src/wlroots-gpu.log" 2>&1 \
    && meson install -C build >> "$src/wlroots-gpu.log" 2>&1 \
    || { tail -30 "$src/wlroots-gpu.log" >&2; exit 1; }
)

# make links through this pkg-config file: the archives under names of
# their own (the linker looks in the system's folders too, where Debian's
# libwlroots-dev may have put a libwlroots.so), then the shared libraries
# they and host.c call. wlroots' own wlroots.pc would name
# libseat, wayland-client and the rest of a full build: removed.
mv "$prefix/lib/libwlroots.a" "$prefix/lib/libsplashd-wlroots.a"
rm "$prefix/lib/pkgconfig/wlroots.pc"
if [ -n "$libinput_debian" ]; then
  requires="wayland-server pixman-1 xkbcommon libudev libevdev mtdev libdrm"
  libs="-L$prefix/lib -lsplashd-wlroots -lsplashd-input -lm"
else
  requires="wayland-server pixman-1 xkbcommon libudev libinput libdrm"
  libs="-L$prefix/lib -lsplashd-wlroots -lm"
fi
requires="$requires xcb xcb-composite xcb-icccm xcb-render xcb-res xcb-xfixes"
cat > "$prefix/lib/pkgconfig/splashd-wlroots.pc" << PC
Name: splashd-wlroots
Description: wlroots and libinput as tools/build/build-wlroots.sh builds them for splashd's host mode (static, trimmed)
Version: $(version "$wlroots_dsc")
Requires: $requires
Cflags: -I$prefix/include
Libs: $libs
PC
# The GPU variant's: its archive and headers, the same libinput, and EGL,
# GLESv2 and GBM.
mv "$prefix/gpu/lib/libwlroots.a" "$prefix/gpu/lib/libsplashd-wlroots-gpu.a"
rm "$prefix/gpu/lib/pkgconfig/wlroots.pc"
cat > "$prefix/lib/pkgconfig/splashd-wlroots-gpu.pc" << PC
Name: splashd-wlroots-gpu
Description: wlroots with its GLES2 renderer, and libinput, as tools/build/build-wlroots.sh builds them for host mode on a GPU
Version: $(version "$wlroots_dsc")
Requires: $requires egl glesv2 gbm
Cflags: -I$prefix/gpu/include
Libs: ${libs/-lsplashd-wlroots/-L$prefix/gpu/lib -lsplashd-wlroots-gpu}
PC
# A build with Debian's libinput (its sources could not be had) is used
# but not kept as done: the next run tries again.
if [ -n "$libinput_debian" ]; then echo "$versions" > "$prefix/done"; fi
ln -sfn "$(basename "$prefix")" "$root/current"
# Earlier builds (of other versions of this script) go.
for old in "$root"/wlroots-*; do
  if [ "$old" != "$prefix" ]; then rm -rf "$old"; fi
done
rm -rf "$src"
