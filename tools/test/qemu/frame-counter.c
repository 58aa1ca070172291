// SPDX-License-Identifier: Apache-2.0
// An animating Wayland client for the QEMU rig's side-by-side figures: one
// xdg toplevel at the size its compositor gives it (the output's current
// mode when it leaves the size to the client), drawn anew in the next shade
// of grey at each frame callback, the way an animation paced by its
// compositor draws. It counts the frame callbacks that come in a window of
// time and writes, as one line to OUT:
//
//   frames N seconds S refresh_mhz R
//
// N the frames drawn from SKIP seconds after its first frame until SKIP +
// COUNT seconds, S the seconds that took (by the callbacks' clock), R the
// output's refresh in mHz (0 when it says none): the frames the compositor
// dropped are S * R / 1000 - N. Then it exits 0.
//
//   frame-counter SKIP COUNT OUT
//
// Built by the tests (buildWaylandClient) with the xdg-shell glue
// wayland-scanner makes and tools/test/wayland/xdg-client.h:
//   frame-counter.c xdg-shell-protocol.c -lwayland-client
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "xdg-client.h"

/* Buffers in flight: one shown, one held by the compositor until the next
   is, one being drawn. */
enum { BUFFERS = 3 };

struct buffer {
  struct wl_buffer *wl;
  uint32_t *pixels;
  int busy;
};

static struct wl_output *output;
static struct wl_surface *window;
static struct buffer buffers[BUFFERS];
static int width, height, done;
static int mode_width, mode_height, refresh_mhz;
static double skip, count, first_frame, counted_from;
static long frames;
static const char *out;

static double now(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void fail(const char *what) {
  fprintf(stderr, "frame-counter: %s\n", what);
  exit(1);
}

static void released(void *data, struct wl_buffer *wl) {
  (void)wl;
  ((struct buffer *)data)->busy = 0;
}
static const struct wl_buffer_listener buffer_listener = {.release = released};

/* The buffers at the window's size, in one memfd. */
static void make_buffers(void) {
  size_t one = (size_t)width * height * 4;
  int fd = memfd_create("frame-counter", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)(one * BUFFERS)) != 0) fail("no memory for the buffers");
  uint8_t *memory = mmap(NULL, one * BUFFERS, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED) fail("no memory for the buffers");
  struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)(one * BUFFERS));
  for (int i = 0; i < BUFFERS; i++) {
    buffers[i].pixels = (uint32_t *)(memory + one * i);
    buffers[i].wl = wl_shm_pool_create_buffer(pool, (int32_t)(one * i), width, height, width * 4,
                                              WL_SHM_FORMAT_XRGB8888);
    wl_buffer_add_listener(buffers[i].wl, &buffer_listener, &buffers[i]);
  }
  wl_shm_pool_destroy(pool);
  close(fd);
}

static void draw(void);

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
  (void)data;
  (void)time;
  wl_callback_destroy(callback);
  double at = now();
  if (first_frame == 0) first_frame = at;
  if (counted_from == 0 && at - first_frame >= skip) counted_from = at;
  if (counted_from != 0) {
    if (at - counted_from >= count) {
      FILE *file = fopen(out, "w");
      if (file == NULL) fail("cannot write the figures");
      fprintf(file, "frames %ld seconds %.3f refresh_mhz %d\n", frames, at - counted_from, refresh_mhz);
      fclose(file);
      done = 1;
      return;
    }
    frames++;
  }
  draw();
}
static const struct wl_callback_listener frame_listener = {.done = frame_done};

/* The next shade of grey, the whole window damaged, the next callback asked. */
static void draw(void) {
  static uint32_t shade;
  struct buffer *free_buffer = NULL;
  for (int i = 0; i < BUFFERS && free_buffer == NULL; i++) {
    if (!buffers[i].busy) free_buffer = &buffers[i];
  }
  if (free_buffer == NULL) fail("the compositor holds every buffer");
  shade = (shade + 4) & 0xff;
  uint32_t grey = 0xFF000000u | shade << 16 | shade << 8 | shade;
  for (size_t i = 0; i < (size_t)width * height; i++) free_buffer->pixels[i] = grey;
  free_buffer->busy = 1;
  wl_surface_attach(window, free_buffer->wl, 0, 0);
  wl_surface_damage_buffer(window, 0, 0, width, height);
  wl_callback_add_listener(wl_surface_frame(window), &frame_listener, NULL);
  wl_surface_commit(window);
}

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h,
                               struct wl_array *states) {
  (void)data, (void)toplevel, (void)states;
  if (w > 0 && h > 0 && width == 0) {
    width = w;
    height = h;
  }
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) { (void)data, (void)toplevel; }
static const struct xdg_toplevel_listener toplevel_listener = {.configure = toplevel_configure,
                                                               .close = toplevel_close};

static void output_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t pw, int32_t ph,
                            int32_t subpixel, const char *make, const char *model, int32_t transform) {
  (void)data, (void)o, (void)x, (void)y, (void)pw, (void)ph, (void)subpixel, (void)make, (void)model,
      (void)transform;
}
static void output_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h, int32_t refresh) {
  (void)data, (void)o;
  if (flags & WL_OUTPUT_MODE_CURRENT) {
    mode_width = w;
    mode_height = h;
    refresh_mhz = refresh;
  }
}
static void output_done(void *data, struct wl_output *o) { (void)data, (void)o; }
static void output_scale(void *data, struct wl_output *o, int32_t factor) { (void)data, (void)o, (void)factor; }
static const struct wl_output_listener output_listener = {
    .geometry = output_geometry, .mode = output_mode, .done = output_done, .scale = output_scale};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version) {
  (void)data, (void)version;
  if (bind_common(registry, name, interface)) return;
  if (strcmp(interface, wl_output_interface.name) == 0 && output == NULL) {
    output = wl_registry_bind(registry, name, &wl_output_interface, 2);
    wl_output_add_listener(output, &output_listener, NULL);
  }
}
static const struct wl_registry_listener registry_listener = {.global = global, .global_remove = global_remove};

int main(int argc, char **argv) {
  if (argc != 4 || (skip = atof(argv[1])) < 0 || (count = atof(argv[2])) <= 0) {
    fprintf(stderr, "usage: frame-counter SKIP COUNT OUT\n");
    return 2;
  }
  out = argv[3];
  struct wl_display *display = wl_display_connect(NULL);
  if (display == NULL) fail("no Wayland display");
  wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
  wl_display_roundtrip(display);
  wl_display_roundtrip(display);
  if (compositor == NULL || shm == NULL || wm_base == NULL) fail("the compositor lacks wl_compositor, wl_shm or xdg_wm_base");
  window = wl_compositor_create_surface(compositor);
  struct xdg_surface *surface = xdg_wm_base_get_xdg_surface(wm_base, window);
  xdg_surface_add_listener(surface, &surface_listener, NULL);
  struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(surface);
  xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
  xdg_toplevel_set_title(toplevel, "frame-counter");
  wl_surface_commit(window);
  while (!configured && wl_display_dispatch(display) != -1) continue;
  if (width == 0) {
    width = mode_width > 0 ? mode_width : 800;
    height = mode_height > 0 ? mode_height : 480;
  }
  make_buffers();
  draw();
  while (!done && wl_display_dispatch(display) != -1) continue;
  return done ? 0 : 1;
}
