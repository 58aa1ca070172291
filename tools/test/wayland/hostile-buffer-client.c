// SPDX-License-Identifier: Apache-2.0
// A hostile Wayland client for host mode's tests: it opens a toplevel,
// commits a 32-bit buffer, then stays connected.
//
//     hostile-buffer-client short-rows|shrunk-pool DONE-FILE
//     hostile-buffer-client shrink-and-leave DONE-FILE LEAVE-FILE
//     hostile-buffer-client blank-then-drawn DONE-FILE DRAW-FILE
//
// short-rows: the buffer's rows are one byte a pixel (libwayland checks no
// more), in a pool just that big: a compositor that read 4 bytes a pixel
// would read past the client's memory. shrunk-pool: a whole buffer of
// #208040, whose memory the client cuts to nothing once the compositor has
// it: a compositor that read it later outside wl_shm's access would die of
// SIGBUS. shrink-and-leave: a whole buffer of #208040 too, left as it is
// until LEAVE-FILE appears; then the client cuts its memory to nothing and
// exits 3 at once: a compositor that still read the frame once the client
// has gone (wl_shm no longer guards it then) would die of SIGBUS.
// blank-then-drawn: an ARGB buffer with nothing in it (every pixel fully
// transparent, as a browser's first before it paints), with a frame
// callback, left as it is until DRAW-FILE appears and the callback is done
// (an animating client draws its next frame then); then a whole opaque
// buffer of #208040, and the client stays connected: a compositor that
// took the first for the program's frame would show black, one that owed
// it no frame callback would never be given the second.
//
// DONE-FILE is written once the compositor has had the commit (a round
// trip after it, and after the cut). Exits 4 when the compositor cuts it
// off with a protocol error (wl_shm's, for memory it could not read). Built by the tests
// (buildWaylandClient) with wayland-scanner's xdg-shell code and xdg-client.h.
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "xdg-client.h"

static int width = 320, height = 240;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
  (void)data;
  (void)version;
  bind_common(registry, name, interface);
}
static const struct wl_registry_listener registry_listener = {.global = global, .global_remove = global_remove};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h, struct wl_array *states) {
  (void)data;
  (void)toplevel;
  (void)states;
  if (w > 0 && h > 0) {
    width = w;
    height = h;
  }
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
  (void)data;
  (void)toplevel;
}
static const struct xdg_toplevel_listener toplevel_listener = {.configure = toplevel_configure,
                                                               .close = toplevel_close};

static int frame_called;
static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
  (void)data;
  (void)time;
  wl_callback_destroy(callback);
  frame_called = 1;
}
static const struct wl_callback_listener frame_listener = {.done = frame_done};

int main(int argc, char **argv) {
  int shrinks = argc == 3 && strcmp(argv[1], "shrunk-pool") == 0;
  int leaves = argc == 4 && strcmp(argv[1], "shrink-and-leave") == 0;
  int blank = argc == 4 && strcmp(argv[1], "blank-then-drawn") == 0;
  if (!shrinks && !leaves && !blank && (argc != 3 || strcmp(argv[1], "short-rows") != 0)) {
    fprintf(stderr, "usage: hostile-buffer-client short-rows|shrunk-pool DONE-FILE\n"
                    "       hostile-buffer-client shrink-and-leave DONE-FILE LEAVE-FILE\n"
                    "       hostile-buffer-client blank-then-drawn DONE-FILE DRAW-FILE\n");
    return 2;
  }
  struct wl_display *display = wl_display_connect(NULL);
  if (display == NULL) {
    fprintf(stderr, "hostile-buffer-client: no Wayland display\n");
    return 1;
  }
  struct wl_registry *registry = wl_display_get_registry(display);
  wl_registry_add_listener(registry, &registry_listener, NULL);
  wl_display_roundtrip(display);
  if (compositor == NULL || shm == NULL || wm_base == NULL) {
    fprintf(stderr, "hostile-buffer-client: missing globals\n");
    return 1;
  }
  struct wl_surface *surface = wl_compositor_create_surface(compositor);
  struct xdg_surface *xdg = xdg_wm_base_get_xdg_surface(wm_base, surface);
  xdg_surface_add_listener(xdg, &surface_listener, NULL);
  struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg);
  xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
  wl_surface_commit(surface);
  while (!configured && wl_display_dispatch(display) != -1) {
  }
  // short-rows: one byte a pixel, the pool width x height bytes, not 4 times that.
  int stride = shrinks || leaves || blank ? width * 4 : width;
  size_t size = (size_t)stride * (size_t)height;
  int fd = memfd_create("hostile-buffer", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)size) != 0) return 1;
  if (blank) {
    // A memfd's memory starts as zeros: every pixel 0x00000000.
    struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
    struct wl_buffer *nothing = wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_ARGB8888);
    wl_surface_attach(surface, nothing, 0, 0);
    wl_surface_damage(surface, 0, 0, width, height);
    wl_callback_add_listener(wl_surface_frame(surface), &frame_listener, NULL);
    wl_surface_commit(surface);
    if (wl_display_roundtrip(display) == -1) return 1;
    FILE *done = fopen(argv[2], "w");
    if (done != NULL) fclose(done);
    while (access(argv[3], F_OK) != 0) usleep(20000);
    while (!frame_called && wl_display_dispatch(display) != -1) {
    }
    close(fd);
    fd = memfd_create("hostile-buffer", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) return 1;
  }
  if (shrinks || leaves || blank) {
    uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (pixels == MAP_FAILED) return 1;
    for (size_t i = 0; i < size / 4; i++) pixels[i] = blank ? 0xFF208040 : 0x208040;
    munmap(pixels, size);
  }
  struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
  struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, stride,
                                                       blank ? WL_SHM_FORMAT_ARGB8888 : WL_SHM_FORMAT_XRGB8888);
  wl_surface_attach(surface, buffer, 0, 0);
  wl_surface_damage(surface, 0, 0, width, height);
  wl_surface_commit(surface);
  if (wl_display_roundtrip(display) == -1) {
    fprintf(stderr, "hostile-buffer-client: cut off\n");
    return 1;
  }
  if (shrinks && (ftruncate(fd, 0) != 0 || wl_display_roundtrip(display) == -1)) return 1;
  FILE *done = blank ? NULL : fopen(argv[2], "w");
  if (done != NULL) fclose(done);
  if (leaves) {
    while (access(argv[3], F_OK) != 0) usleep(20000);
    return ftruncate(fd, 0) == 0 ? 3 : 1;
  }
  while (wl_display_dispatch(display) != -1) {
  }
  if (wl_display_get_error(display) == EPROTO) {
    fprintf(stderr, "hostile-buffer-client: cut off by a protocol error\n");
    return 4;
  }
  return 0;
}
