// SPDX-License-Identifier: Apache-2.0
// A Wayland client for the QEMU rig's host-mode boot: one xdg toplevel of
// 320x240 in yellow (#FFFF00) whose cursor is an 8x8 magenta (#FF00FF)
// square with its hotspot at its top-left corner, writing what its seat
// tells it on standard output, a line each, flushed:
//
//   shown 320 240              its first buffer is committed
//   seat pointer touch         the seat's capabilities (each word there or not)
//   pointer-enter X Y          surface-local, rounded
//   pointer-motion X Y
//   button CODE pressed|released
//   touch-down X Y
//   touch-up
//   presented button|touch     a frame shown after the click's release, or
//                              the touch's end (what they changed is on the
//                              screen: a frame callback asked then came)
//
// Built by the tests (buildWaylandClient) with the xdg-shell glue
// wayland-scanner makes and tools/test/wayland/xdg-client.h:
//   input-probe.c xdg-shell-protocol.c -lwayland-client
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "xdg-client.h"

enum { WIDTH = 320, HEIGHT = 240, CURSOR = 8 };

static struct wl_seat *seat;
static struct wl_pointer *pointer;
static struct wl_touch *touch;
static struct wl_surface *window, *cursor;
static int shown;

/* A shared-memory buffer of `width` x `height` in one opaque colour. */
static struct wl_buffer *filled(int width, int height, uint32_t colour) {
  size_t size = (size_t)width * height * 4;
  int fd = memfd_create("input-probe", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)size) != 0) exit(1);
  uint32_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (pixels == MAP_FAILED) exit(1);
  for (size_t i = 0; i < size / 4; i++) pixels[i] = colour;
  munmap(pixels, size);
  struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)size);
  struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4, WL_SHM_FORMAT_XRGB8888);
  wl_shm_pool_destroy(pool);
  close(fd);
  return buffer;
}

static void say(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  vprintf(format, arguments);
  va_end(arguments);
  putchar('\n');
  fflush(stdout);
}

static int rounded(wl_fixed_t value) { return (int)lround(wl_fixed_to_double(value)); }

static void presented(void *data, struct wl_callback *callback, uint32_t time) {
  (void)time;
  say("presented %s", (const char *)data);
  wl_callback_destroy(callback);
}
static const struct wl_callback_listener presented_listener = {.done = presented};

/* Asks for the next frame after what just happened, said as "presented
   `what`" when it is on the screen. */
static void ask_presented(const char *what) {
  wl_callback_add_listener(wl_surface_frame(window), &presented_listener, (void *)what);
  wl_surface_commit(window);
}

static void pointer_enter(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface,
                          wl_fixed_t x, wl_fixed_t y) {
  (void)data;
  (void)surface;
  wl_pointer_set_cursor(p, serial, cursor, 0, 0);
  say("pointer-enter %d %d", rounded(x), rounded(y));
}
static void pointer_leave(void *data, struct wl_pointer *p, uint32_t serial, struct wl_surface *surface) {
  (void)data, (void)p, (void)serial, (void)surface;
}
static void pointer_motion(void *data, struct wl_pointer *p, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
  (void)data, (void)p, (void)time;
  say("pointer-motion %d %d", rounded(x), rounded(y));
}
static void pointer_button(void *data, struct wl_pointer *p, uint32_t serial, uint32_t time, uint32_t button,
                           uint32_t state) {
  (void)data, (void)p, (void)serial, (void)time;
  say("button %u %s", button, state == WL_POINTER_BUTTON_STATE_PRESSED ? "pressed" : "released");
  if (state == WL_POINTER_BUTTON_STATE_RELEASED) ask_presented("button");
}
static void pointer_axis(void *data, struct wl_pointer *p, uint32_t time, uint32_t axis, wl_fixed_t value) {
  (void)data, (void)p, (void)time, (void)axis, (void)value;
}
static const struct wl_pointer_listener pointer_listener = {
    .enter = pointer_enter, .leave = pointer_leave, .motion = pointer_motion, .button = pointer_button,
    .axis = pointer_axis};

static void touch_down(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, struct wl_surface *surface,
                       int32_t id, wl_fixed_t x, wl_fixed_t y) {
  (void)data, (void)t, (void)serial, (void)time, (void)surface, (void)id;
  say("touch-down %d %d", rounded(x), rounded(y));
}
static void touch_up(void *data, struct wl_touch *t, uint32_t serial, uint32_t time, int32_t id) {
  (void)data, (void)t, (void)serial, (void)time, (void)id;
  say("touch-up");
  ask_presented("touch");
}
static void touch_motion(void *data, struct wl_touch *t, uint32_t time, int32_t id, wl_fixed_t x, wl_fixed_t y) {
  (void)data, (void)t, (void)time, (void)id, (void)x, (void)y;
}
static void touch_frame(void *data, struct wl_touch *t) { (void)data, (void)t; }
static void touch_cancel(void *data, struct wl_touch *t) { (void)data, (void)t; }
static const struct wl_touch_listener touch_listener = {
    .down = touch_down, .up = touch_up, .motion = touch_motion, .frame = touch_frame, .cancel = touch_cancel};

static void seat_capabilities(void *data, struct wl_seat *s, uint32_t capabilities) {
  (void)data;
  if ((capabilities & WL_SEAT_CAPABILITY_POINTER) && pointer == NULL) {
    pointer = wl_seat_get_pointer(s);
    wl_pointer_add_listener(pointer, &pointer_listener, NULL);
  }
  if ((capabilities & WL_SEAT_CAPABILITY_TOUCH) && touch == NULL) {
    touch = wl_seat_get_touch(s);
    wl_touch_add_listener(touch, &touch_listener, NULL);
  } else if (!(capabilities & WL_SEAT_CAPABILITY_TOUCH) && touch != NULL) {
    // Gone (the touch screen unplugged): a new one gets a new object.
    wl_touch_release(touch);
    touch = NULL;
  }
  if (!(capabilities & WL_SEAT_CAPABILITY_POINTER) && pointer != NULL) {
    wl_pointer_release(pointer);
    pointer = NULL;
  }
  say("seat%s%s", capabilities & WL_SEAT_CAPABILITY_POINTER ? " pointer" : "",
      capabilities & WL_SEAT_CAPABILITY_TOUCH ? " touch" : "");
}
static void seat_name(void *data, struct wl_seat *s, const char *name) { (void)data, (void)s, (void)name; }
static const struct wl_seat_listener seat_listener = {.capabilities = seat_capabilities, .name = seat_name};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version) {
  (void)data;
  if (bind_common(registry, name, interface)) return;
  if (strcmp(interface, wl_seat_interface.name) == 0 && seat == NULL) {
    // Version 4: no pointer frames or axis sources to listen for.
    seat = wl_registry_bind(registry, name, &wl_seat_interface, version < 4 ? version : 4);
    wl_seat_add_listener(seat, &seat_listener, NULL);
  }
}
static const struct wl_registry_listener registry_listener = {.global = global, .global_remove = global_remove};

int main(void) {
  struct wl_display *display = wl_display_connect(NULL);
  if (display == NULL) {
    fprintf(stderr, "input-probe: no Wayland display\n");
    return 1;
  }
  wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
  wl_display_roundtrip(display);
  if (compositor == NULL || shm == NULL || wm_base == NULL || seat == NULL) {
    fprintf(stderr, "input-probe: the compositor lacks wl_compositor, wl_shm, xdg_wm_base or wl_seat\n");
    return 1;
  }
  cursor = wl_compositor_create_surface(compositor);
  wl_surface_attach(cursor, filled(CURSOR, CURSOR, 0xFFFF00FF), 0, 0);
  wl_surface_commit(cursor);
  window = wl_compositor_create_surface(compositor);
  struct xdg_surface *surface = xdg_wm_base_get_xdg_surface(wm_base, window);
  xdg_surface_add_listener(surface, &surface_listener, NULL);
  struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(surface);
  xdg_toplevel_set_title(toplevel, "input-probe");
  wl_surface_commit(window);
  while (wl_display_dispatch(display) != -1) {
    if (configured && !shown) {
      wl_surface_attach(window, filled(WIDTH, HEIGHT, 0xFFFFFF00), 0, 0);
      wl_surface_commit(window);
      shown = 1;
      wl_display_flush(display);
      say("shown %d %d", WIDTH, HEIGHT);
    }
  }
  return 0;
}
