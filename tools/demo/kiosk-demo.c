// SPDX-License-Identifier: Apache-2.0
// The kiosk program `make run`'s demo reveals: splashd in host mode is its
// Wayland compositor, and the splash's doors open onto it, live.
//
//     kiosk-demo [SECONDS]
//
// One xdg toplevel at the size its compositor configures (1280x720 when it
// leaves the size to the client), drawn with wl_shm: a kiosk's screen with a
// header bar and its clock, six tiles and a progress stripe. At each frame
// callback the clock, a dial's sweeping hand, a tile's bar chart and the
// stripe move on. Ends after SECONDS seconds when given (so that `make run`
// ends: splashd, its compositor, ends with it), on SIGTERM or SIGINT, or
// when the compositor closes the window: exit status 0; 1 when the
// connection is lost or fails.
//
// Built by the Makefile (make run) with the xdg-shell glue wayland-scanner
// makes and tools/test/wayland/xdg-client.h, which the test clients share:
//   kiosk-demo.c xdg-shell-protocol.c -lwayland-client -lm
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
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

/* Pixels to draw into, XRGB8888, and the scale from the 1280x720 layout. */
struct canvas {
  uint32_t *pixels;
  int width, height;
  double sx, sy, s;
};

static struct wl_surface *window;
static struct buffer buffers[BUFFERS];
static uint8_t *memory;
static size_t memory_size;
/* The buffers' size, and the size the last configure asked for. */
static int width, height, wanted_width = 1280, wanted_height = 720;
/* What does not move, drawn once a size and copied into each frame. */
static uint32_t *still;
static int waiting_for_a_buffer, closed;
static volatile sig_atomic_t stopped;
static double started;

static void fail(const char *what) {
  fprintf(stderr, "kiosk-demo: %s\n", what);
  exit(1);
}

static double seconds(clockid_t clock) {
  struct timespec time;
  clock_gettime(clock, &time);
  return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

/* --- Drawing: shapes by their distance, anti-aliased over a pixel. --- */

static double coverage(double distance) {
  double c = 0.5 - distance;
  return c < 0 ? 0 : c > 1 ? 1 : c;
}

static void blend(uint32_t *pixel, uint32_t colour, double alpha) {
  if (alpha <= 0) return;
  if (alpha >= 1) {
    *pixel = 0xFF000000u | colour;
    return;
  }
  uint32_t result = 0xFF000000u;
  for (int shift = 0; shift <= 16; shift += 8) {
    double under = (double)((*pixel >> shift) & 0xFF), over = (double)((colour >> shift) & 0xFF);
    result |= (uint32_t)lround(under + (over - under) * alpha) << shift;
  }
  *pixel = result;
}

/* The pixels a shape's bounding box covers, clipped to the canvas. */
struct box {
  int x0, y0, x1, y1;
};
static struct box box_of(const struct canvas *c, double left, double top, double right, double bottom) {
  struct box b = {(int)floor(left) - 1, (int)floor(top) - 1, (int)ceil(right) + 1, (int)ceil(bottom) + 1};
  if (b.x0 < 0) b.x0 = 0;
  if (b.y0 < 0) b.y0 = 0;
  if (b.x1 > c->width) b.x1 = c->width;
  if (b.y1 > c->height) b.y1 = c->height;
  return b;
}

/* A rectangle at layout coordinates (x, y, w, h) with corners of radius r
   (at the layout's uniform scale). */
static void rounded(const struct canvas *c, double x, double y, double w, double h, double r, uint32_t colour,
                    double alpha) {
  x *= c->sx, y *= c->sy, w *= c->sx, h *= c->sy, r *= c->s;
  if (r > w / 2) r = w / 2;
  if (r > h / 2) r = h / 2;
  double cx = x + w / 2, cy = y + h / 2, hw = w / 2 - r, hh = h / 2 - r;
  struct box b = box_of(c, x, y, x + w, y + h);
  for (int py = b.y0; py < b.y1; py++) {
    uint32_t *row = c->pixels + (size_t)py * c->width;
    double qy = fabs(py + 0.5 - cy) - hh;
    for (int px = b.x0; px < b.x1; px++) {
      double qx = fabs(px + 0.5 - cx) - hw;
      double ox = qx > 0 ? qx : 0, oy = qy > 0 ? qy : 0;
      double inside = qx > qy ? qx : qy;
      double distance = sqrt(ox * ox + oy * oy) + (inside < 0 ? inside : 0) - r;
      blend(row + px, colour, alpha * coverage(distance));
    }
  }
}

/* A disc of radius r (uniform scale) around layout point (x, y). */
static void disc(const struct canvas *c, double x, double y, double r, uint32_t colour, double alpha) {
  double rx = r * c->s / c->sx, ry = r * c->s / c->sy;
  rounded(c, x - rx, y - ry, 2 * rx, 2 * ry, r, colour, alpha);
}

/* A line from layout point a to b, `thickness` wide, round-ended. */
static void stroke(const struct canvas *c, double ax, double ay, double bx, double by, double thickness,
                   uint32_t colour, double alpha) {
  ax *= c->sx, ay *= c->sy, bx *= c->sx, by *= c->sy;
  double r = thickness * c->s / 2;
  struct box b = box_of(c, fmin(ax, bx) - r, fmin(ay, by) - r, fmax(ax, bx) + r, fmax(ay, by) + r);
  double dx = bx - ax, dy = by - ay, length2 = dx * dx + dy * dy;
  for (int py = b.y0; py < b.y1; py++) {
    for (int px = b.x0; px < b.x1; px++) {
      double vx = px + 0.5 - ax, vy = py + 0.5 - ay;
      double t = length2 > 0 ? (vx * dx + vy * dy) / length2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      double ex = vx - t * dx, ey = vy - t * dy;
      blend(c->pixels + (size_t)py * c->width + px, colour, alpha * coverage(sqrt(ex * ex + ey * ey) - r));
    }
  }
}

/* A ring of radius r around layout point (x, y), `thickness` wide. */
static void ring(const struct canvas *c, double x, double y, double r, double thickness, uint32_t colour,
                 double alpha) {
  x *= c->sx, y *= c->sy, r *= c->s, thickness *= c->s;
  struct box b = box_of(c, x - r - thickness, y - r - thickness, x + r + thickness, y + r + thickness);
  for (int py = b.y0; py < b.y1; py++) {
    for (int px = b.x0; px < b.x1; px++) {
      double d = hypot(px + 0.5 - x, py + 0.5 - y);
      blend(c->pixels + (size_t)py * c->width + px, colour, alpha * coverage(fabs(d - r) - thickness / 2));
    }
  }
}

/* The sector of the disc of radius r around (x, y) that trails a hand at
   `angle` (radians, clockwise from twelve o'clock) by up to `span`,
   fading from `alpha` at the hand to nothing. */
static void sweep(const struct canvas *c, double x, double y, double r, double angle, double span, uint32_t colour,
                  double alpha) {
  x *= c->sx, y *= c->sy, r *= c->s;
  struct box b = box_of(c, x - r, y - r, x + r, y + r);
  for (int py = b.y0; py < b.y1; py++) {
    for (int px = b.x0; px < b.x1; px++) {
      double dx = px + 0.5 - x, dy = py + 0.5 - y;
      double at = atan2(dx, -dy);
      double behind = fmod(angle - at + 4 * M_PI, 2 * M_PI);
      if (behind > span) continue;
      double edge = coverage(hypot(dx, dy) - r);
      blend(c->pixels + (size_t)py * c->width + px, colour, alpha * edge * (1 - behind / span));
    }
  }
}

/* A line of text, as a kiosk's screen seen from a few steps away. */
static void text(const struct canvas *c, double x, double y, double w, double h, uint32_t colour, double alpha) {
  rounded(c, x, y, w, h, h / 2, colour, alpha);
}

/* A seven-segment digit in the box (x, y, w, h). */
static void digit(const struct canvas *c, double x, double y, double w, double h, int value, uint32_t colour) {
  static const uint8_t segments[10] = {0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F};
  double t = h * 0.13, gap = t * 0.7;
  double left = x + t / 2, right = x + w - t / 2, top = y + t / 2, middle = y + h / 2, bottom = y + h - t / 2;
  const double lines[7][4] = {
      {left + gap, top, right - gap, top},       {right, top + gap, right, middle - gap},
      {right, middle + gap, right, bottom - gap}, {left + gap, bottom, right - gap, bottom},
      {left, middle + gap, left, bottom - gap},   {left, top + gap, left, middle - gap},
      {left + gap, middle, right - gap, middle},
  };
  for (int i = 0; i < 7; i++) {
    if (segments[value] & 1 << i) stroke(c, lines[i][0], lines[i][1], lines[i][2], lines[i][3], t, colour, 1);
  }
}

/* --- The screen, in a 1280x720 layout scaled to the window. --- */

enum {
  PAPER_TOP = 0xE9EEF4,
  PAPER_BOTTOM = 0xD3DCE7,
  TEAL = 0x0E6E7A,
  GOLD = 0xE8B04A,
  WHITE = 0xFFFFFF,
  INK = 0x1E293B,
  TRACK = 0xC2CCD8,
  MUTED = 0x94A3B8,
};

/* The six tiles: their colours, and where each is (column, row). */
static const uint32_t tile_colours[6] = {0x2563EB, INK, 0xF59E0B, 0x16A34A, 0xE11D48, 0x7C3AED};
static double tile_x(int i) { return 40 + (i % 3) * (384 + 24); }
static double tile_y(int i) { return 116 + (i / 3) * (208 + 24); }

static const double dial_x = 40 + 408 + 104, dial_y = 116 + 104, dial_r = 76;

/* Everything that does not move. */
static void draw_still(const struct canvas *c) {
  for (int y = 0; y < c->height; y++) {
    double t = c->height > 1 ? (double)y / (c->height - 1) : 0;
    uint32_t colour = 0;
    for (int shift = 0; shift <= 16; shift += 8) {
      double top = (PAPER_TOP >> shift) & 0xFF, bottom = (PAPER_BOTTOM >> shift) & 0xFF;
      colour |= (uint32_t)lround(top + (bottom - top) * t) << shift;
    }
    for (int x = 0; x < c->width; x++) c->pixels[(size_t)y * c->width + x] = 0xFF000000u | colour;
  }
  // The header: the logo, the kiosk's name, a gold rule under it.
  rounded(c, 0, 0, 1280, 84, 0, TEAL, 1);
  rounded(c, 0, 84, 1280, 4, 0, GOLD, 1);
  disc(c, 48, 42, 22, GOLD, 1);
  disc(c, 48, 42, 9, TEAL, 1);
  text(c, 86, 24, 260, 18, WHITE, 0.95);
  text(c, 86, 52, 170, 10, WHITE, 0.6);
  // The tiles, and what does not move in them.
  for (int i = 0; i < 6; i++) {
    double x = tile_x(i), y = tile_y(i);
    rounded(c, x + 3, y + 5, 384, 208, 18, 0x0F172A, 0.12);
    rounded(c, x, y, 384, 208, 18, tile_colours[i], 1);
    switch (i) {
    case 0:
    case 4:
      disc(c, x + 52, y + 52, 24, WHITE, 0.9);
      text(c, x + 92, y + 36, 190, 16, WHITE, 0.95);
      text(c, x + 92, y + 60, 120, 10, WHITE, 0.6);
      for (int line = 0; line < 3; line++) text(c, x + 28, y + 118 + line * 22, 320 - line * 60, 10, WHITE, 0.5);
      break;
    case 1:
      ring(c, dial_x, dial_y, dial_r, 6, 0x334155, 1);
      for (int hour = 0; hour < 12; hour++) {
        double a = hour * M_PI / 6, inner = hour % 3 == 0 ? 56 : 62;
        stroke(c, dial_x + sin(a) * inner * c->s / c->sx, dial_y - cos(a) * inner * c->s / c->sy,
               dial_x + sin(a) * 68 * c->s / c->sx, dial_y - cos(a) * 68 * c->s / c->sy, 3, 0x64748B, 1);
      }
      text(c, x + 212, y + 62, 140, 16, WHITE, 0.95);
      text(c, x + 212, y + 88, 96, 10, WHITE, 0.55);
      text(c, x + 212, y + 132, 120, 10, WHITE, 0.35);
      text(c, x + 212, y + 150, 80, 10, WHITE, 0.35);
      break;
    case 2:
      rounded(c, x + 28, y + 28, 48, 48, 12, WHITE, 0.9);
      text(c, x + 92, y + 36, 170, 16, WHITE, 0.95);
      text(c, x + 92, y + 60, 110, 10, WHITE, 0.65);
      for (int line = 0; line < 3; line++) text(c, x + 28, y + 118 + line * 22, 300 - line * 40, 10, WHITE, 0.55);
      break;
    case 3:
      text(c, x + 28, y + 24, 150, 14, WHITE, 0.95);
      rounded(c, x + 24, y + 184, 336, 2, 0, WHITE, 0.5);
      break;
    case 5:
      text(c, x + 28, y + 32, 200, 16, WHITE, 0.95);
      text(c, x + 28, y + 58, 260, 10, WHITE, 0.6);
      text(c, x + 28, y + 78, 220, 10, WHITE, 0.6);
      rounded(c, x + 28, y + 136, 170, 44, 22, WHITE, 0.95);
      text(c, x + 60, y + 153, 106, 10, 0x7C3AED, 0.9);
      break;
    }
  }
  // The progress stripe's track, and the footer.
  rounded(c, 40, 596, 1200, 18, 9, TRACK, 1);
  text(c, 40, 640, 220, 12, MUTED, 1);
  text(c, 1020, 640, 220, 12, MUTED, 1);
}

/* What moves, at `t` seconds from the start. */
static void draw_moving(const struct canvas *c, double t) {
  // The header's clock: the time of day, the colons blinking.
  double now = seconds(CLOCK_REALTIME);
  time_t whole = (time_t)now;
  struct tm local;
  localtime_r(&whole, &local);
  int values[3] = {local.tm_hour, local.tm_min, local.tm_sec};
  double x = 1024;
  for (int pair = 0; pair < 3; pair++) {
    digit(c, x, 19, 26, 46, values[pair] / 10, WHITE);
    digit(c, x + 34, 19, 26, 46, values[pair] % 10, WHITE);
    x += 60;
    if (pair < 2) {
      double on = fmod(now, 1.0) < 0.5 ? 1 : 0.35;
      disc(c, x + 9, 33, 3.5, WHITE, on);
      disc(c, x + 9, 51, 3.5, WHITE, on);
      x += 18;
    }
  }
  // The dial: a hand sweeping round every three seconds, a fading trail behind it.
  double angle = fmod(t / 3.0, 1.0) * 2 * M_PI;
  sweep(c, dial_x, dial_y, 66, angle, 1.8, GOLD, 0.45);
  stroke(c, dial_x, dial_y, dial_x + sin(angle) * 64 * c->s / c->sx, dial_y - cos(angle) * 64 * c->s / c->sy, 7,
         GOLD, 1);
  disc(c, dial_x, dial_y, 9, GOLD, 1);
  disc(c, dial_x, dial_y, 3.5, INK, 1);
  // The chart: eight bars rising and falling.
  double cx = tile_x(3), cy = tile_y(3);
  for (int bar = 0; bar < 8; bar++) {
    double level = 0.5 + 0.5 * sin(t * 2.4 + bar * 0.85);
    double h = 28 + 112 * level;
    rounded(c, cx + 32 + bar * 41, cy + 182 - h, 28, h, 5, WHITE, 0.9);
  }
  // The stripe: a segment sliding along its track.
  double position = fmod(t / 2.0, 1.0) * 1500 - 300;
  double left = fmax(40, 40 + position), right = fmin(1240, 40 + position + 300);
  if (right - left > 1) rounded(c, left, 596, right - left, 18, 9, TEAL, 1);
}

/* --- Wayland. --- */

static void released(void *data, struct wl_buffer *wl);
static const struct wl_buffer_listener buffer_listener = {.release = released};

/* Buffers and the still picture at the size last configured. */
static void resize(void) {
  for (int i = 0; i < BUFFERS; i++) {
    if (buffers[i].wl != NULL) wl_buffer_destroy(buffers[i].wl);
    buffers[i] = (struct buffer){0};
  }
  if (memory != NULL) munmap(memory, memory_size);
  width = wanted_width, height = wanted_height;
  size_t one = (size_t)width * height * 4;
  memory_size = one * BUFFERS;
  int fd = memfd_create("kiosk-demo", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)memory_size) != 0) fail("no memory for the buffers");
  memory = mmap(NULL, memory_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED) fail("no memory for the buffers");
  struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)memory_size);
  for (int i = 0; i < BUFFERS; i++) {
    buffers[i].pixels = (uint32_t *)(memory + one * i);
    buffers[i].wl = wl_shm_pool_create_buffer(pool, (int32_t)(one * i), width, height, width * 4,
                                              WL_SHM_FORMAT_XRGB8888);
    wl_buffer_add_listener(buffers[i].wl, &buffer_listener, &buffers[i]);
  }
  wl_shm_pool_destroy(pool);
  close(fd);
  free(still);
  still = malloc(one);
  if (still == NULL) fail("no memory for the picture");
  double sx = width / 1280.0, sy = height / 720.0;
  struct canvas c = {still, width, height, sx, sy, sx < sy ? sx : sy};
  draw_still(&c);
}

static void draw(void);

static void frame_done(void *data, struct wl_callback *callback, uint32_t time) {
  (void)data, (void)time;
  wl_callback_destroy(callback);
  draw();
}
static const struct wl_callback_listener frame_listener = {.done = frame_done};

static void released(void *data, struct wl_buffer *wl) {
  (void)wl;
  ((struct buffer *)data)->busy = 0;
  if (waiting_for_a_buffer) {
    waiting_for_a_buffer = 0;
    draw();
  }
}

/* The next frame: the still picture, what moves over it, the whole window
   damaged, the next callback asked for. */
static void draw(void) {
  if (wanted_width != width || wanted_height != height) resize();
  struct buffer *free_buffer = NULL;
  for (int i = 0; i < BUFFERS && free_buffer == NULL; i++) {
    if (!buffers[i].busy) free_buffer = &buffers[i];
  }
  if (free_buffer == NULL) {
    waiting_for_a_buffer = 1;
    return;
  }
  memcpy(free_buffer->pixels, still, (size_t)width * height * 4);
  double sx = width / 1280.0, sy = height / 720.0;
  struct canvas c = {free_buffer->pixels, width, height, sx, sy, sx < sy ? sx : sy};
  draw_moving(&c, seconds(CLOCK_MONOTONIC) - started);
  free_buffer->busy = 1;
  wl_surface_attach(window, free_buffer->wl, 0, 0);
  wl_surface_damage_buffer(window, 0, 0, width, height);
  wl_callback_add_listener(wl_surface_frame(window), &frame_listener, NULL);
  wl_surface_commit(window);
}

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h,
                               struct wl_array *states) {
  (void)data, (void)toplevel, (void)states;
  if (w > 0 && h > 0) wanted_width = w, wanted_height = h;
}
static void toplevel_close(void *data, struct xdg_toplevel *toplevel) {
  (void)data, (void)toplevel;
  closed = 1;
}
static const struct xdg_toplevel_listener toplevel_listener = {.configure = toplevel_configure,
                                                               .close = toplevel_close};

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version) {
  (void)data, (void)version;
  bind_common(registry, name, interface);
}
static const struct wl_registry_listener registry_listener = {.global = global, .global_remove = global_remove};

static void stop(int signal) {
  (void)signal;
  stopped = 1;
}

int main(int argc, char **argv) {
  double limit = 0;
  char *end = NULL;
  if (argc == 2) limit = strtod(argv[1], &end);
  if (argc > 2 || (argc == 2 && (end == argv[1] || *end != '\0' || !(limit > 0) || !isfinite(limit)))) {
    fprintf(stderr, "usage: kiosk-demo [SECONDS]\n");
    return 2;
  }
  struct sigaction action = {.sa_handler = stop};
  sigemptyset(&action.sa_mask);
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  started = seconds(CLOCK_MONOTONIC);

  struct wl_display *display = wl_display_connect(NULL);
  if (display == NULL) fail("no Wayland display");
  wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
  wl_display_roundtrip(display);
  if (compositor == NULL || shm == NULL || wm_base == NULL) {
    fail("the compositor lacks wl_compositor, wl_shm or xdg_wm_base");
  }
  window = wl_compositor_create_surface(compositor);
  struct xdg_surface *surface = xdg_wm_base_get_xdg_surface(wm_base, window);
  xdg_surface_add_listener(surface, &surface_listener, NULL);
  struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(surface);
  xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
  xdg_toplevel_set_title(toplevel, "kiosk-demo");
  xdg_toplevel_set_app_id(toplevel, "kiosk-demo");
  wl_surface_commit(window);

  // Events until the end: the time given, a signal, the window closed.
  int drawn = 0;
  while (!stopped && !closed) {
    if (configured && !drawn) {
      draw();
      drawn = 1;
    }
    while (wl_display_prepare_read(display) != 0) {
      if (wl_display_dispatch_pending(display) == -1) fail("the connection failed");
    }
    if (wl_display_flush(display) == -1 && errno != EAGAIN) {
      wl_display_cancel_read(display);
      fail("the connection failed");
    }
    int timeout = -1;
    if (limit > 0) {
      double left = limit - (seconds(CLOCK_MONOTONIC) - started);
      if (left <= 0) {
        wl_display_cancel_read(display);
        break;
      }
      timeout = (int)ceil(left * 1000);
    }
    struct pollfd connection = {.fd = wl_display_get_fd(display), .events = POLLIN};
    int ready = poll(&connection, 1, timeout);
    if (ready > 0) {
      if (wl_display_read_events(display) == -1) fail("the connection was lost");
    } else {
      wl_display_cancel_read(display);
      if (ready < 0 && errno != EINTR) fail("poll failed");
    }
    if (wl_display_dispatch_pending(display) == -1) fail("the connection failed");
  }
  wl_display_disconnect(display);
  return 0;
}
