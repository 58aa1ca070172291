// SPDX-License-Identifier: Apache-2.0
// A seeded random walk of bad GPU buffers against a compositor's
// linux-dmabuf (zwp_linux_dmabuf_v1, version 3), for the QEMU rig's GPU
// tier: issue #42's "bad buffers are the program's problem". Half the
// tries ask for a buffer with a GPU buffer's right parameters (made, shown,
// sometimes destroyed while shown); each other try makes a params object
// and adds zero to five planes, each with a
// descriptor that is a real GPU buffer's (made with GBM on the render
// node), a memfd, a pipe or /dev/null, at a random plane index, offset,
// stride and modifier (the buffer's own often enough to pass); then asks
// for a buffer (create, answered by created or failed, or create_immed)
// of a random size, format and flags, and attaches what it got to one of
// its surfaces (role-less, or a toplevel's) and commits, the buffer
// sometimes destroyed while shown. A protocol error ends the connection
// (counted as cut off) and a new one takes its place; a round trip of
// more than 10 s is a hang.
//
//   dmabuf-fuzz SEED SECONDS REPORT
//
// writes REPORT once SECONDS are over: `name: value` lines: seed, tries,
// created, failed (the compositor's failed event), cut_off, hangs. Exits 0
// (1 when it could not start: no render node, no linux-dmabuf).
//
// Built by the tests (buildWaylandClient) with the xdg-shell and
// linux-dmabuf glue wayland-scanner makes and tools/test/wayland/xdg-client.h:
//   dmabuf-fuzz.c xdg-shell-protocol.c linux-dmabuf-unstable-v1-protocol.c -lwayland-client -lgbm
#define _GNU_SOURCE
#include <libdrm/drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <gbm.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "xdg-client.h"

enum { SURFACES = 4, BUFFERS = 3 };

static struct zwp_linux_dmabuf_v1 *dmabuf;
static long created, failed;

static void fail(const char *what) {
  fprintf(stderr, "dmabuf-fuzz: %s\n", what);
  exit(1);
}

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface,
                   uint32_t version) {
  (void)data;
  if (bind_common(registry, name, interface)) return;
  if (strcmp(interface, zwp_linux_dmabuf_v1_interface.name) == 0 && version >= 3) {
    dmabuf = wl_registry_bind(registry, name, &zwp_linux_dmabuf_v1_interface, 3);
  }
}
static const struct wl_registry_listener registry_listener = {.global = global, .global_remove = global_remove};

/* The buffer a create was answered with (NULL: none, or failed). */
static struct wl_buffer *answered;

static void params_created(void *data, struct zwp_linux_buffer_params_v1 *params, struct wl_buffer *buffer) {
  (void)data, (void)params;
  created++;
  answered = buffer;
}
static void params_failed(void *data, struct zwp_linux_buffer_params_v1 *params) {
  (void)data, (void)params;
  failed++;
}
static const struct zwp_linux_buffer_params_v1_listener params_listener = {.created = params_created,
                                                                           .failed = params_failed};

static void sync_done(void *data, struct wl_callback *callback, uint32_t serial) {
  (void)serial;
  *(int *)data = 1;
  wl_callback_destroy(callback);
}
static const struct wl_callback_listener sync_listener = {.done = sync_done};

static double now(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

/* A round trip of at most 10 s: 1 done, 0 a protocol error or a closed
   connection, -1 a hang. Other than done, the connection is to be let go
   of (the callback is destroyed: nothing is written later). */
static int bounded_roundtrip(struct wl_display *display) {
  int done = 0;
  struct wl_callback *callback = wl_display_sync(display);
  wl_callback_add_listener(callback, &sync_listener, &done);
  double end = now() + 10;
  int outcome = 1;
  while (!done) {
    int flushed = wl_display_flush(display);
    if ((flushed < 0 && errno != EAGAIN) || wl_display_dispatch_pending(display) < 0) {
      outcome = 0;
      break;
    }
    if (done) break;
    double left = end - now();
    if (left <= 0) {
      outcome = -1;
      break;
    }
    if (wl_display_prepare_read(display) != 0) continue;
    // Until all is sent, waiting to send too.
    struct pollfd poller = {.fd = wl_display_get_fd(display), .events = POLLIN | (flushed < 0 ? POLLOUT : 0)};
    if (poll(&poller, 1, (int)(left * 1000) + 1) <= 0 || !(poller.revents & (POLLIN | POLLERR | POLLHUP))) {
      wl_display_cancel_read(display);
      continue;
    }
    if (wl_display_read_events(display) < 0) {
      outcome = 0;
      break;
    }
  }
  if (!done) wl_callback_destroy(callback);
  if (outcome == 1 && wl_display_get_error(display) != 0) outcome = 0;
  return outcome;
}



/* One connection's objects. */
struct walk {
  struct wl_display *display;
  struct wl_surface *surfaces[SURFACES];
  struct wl_buffer *shown[SURFACES];
};

static bool connect_walk(struct walk *walk) {
  memset(walk, 0, sizeof *walk);
  compositor = NULL, shm = NULL, dmabuf = NULL, wm_base = NULL;
  walk->display = wl_display_connect(NULL);
  if (walk->display == NULL) return false;
  wl_registry_add_listener(wl_display_get_registry(walk->display), &registry_listener, NULL);
  if (bounded_roundtrip(walk->display) != 1 || compositor == NULL || dmabuf == NULL) return false;
  for (int index = 0; index < SURFACES; index++) {
    walk->surfaces[index] = wl_compositor_create_surface(compositor);
    // The last one a toplevel's: shown as a window when it has a buffer.
    if (index == SURFACES - 1 && wm_base != NULL) {
      struct xdg_surface *xdg = xdg_wm_base_get_xdg_surface(wm_base, walk->surfaces[index]);
      xdg_surface_add_listener(xdg, &surface_listener, NULL);
      xdg_toplevel_set_title(xdg_surface_get_toplevel(xdg), "dmabuf-fuzz");
      wl_surface_commit(walk->surfaces[index]);
    }
  }
  return bounded_roundtrip(walk->display) == 1;
}

/* The GPU buffers the planes may name: their descriptors, sizes, strides, modifiers. */
struct gpu_buffer {
  int fd;
  uint32_t width, height, stride, format;
  uint64_t modifier;
};

static uint32_t pick(const uint32_t *choices, size_t count) { return choices[(size_t)rand() % count]; }

/* A descriptor for a plane (the caller's to close): most often a GPU
   buffer's, else a memfd, a pipe's end or /dev/null. */
static int plane_descriptor(const struct gpu_buffer *buffers) {
  int kind = rand() % 8;
  if (kind < 5) return dup(buffers[rand() % BUFFERS].fd);
  if (kind == 5) {
    int memory = memfd_create("dmabuf-fuzz", MFD_CLOEXEC);
    if (memory >= 0 && ftruncate(memory, 1 << 22) != 0) {
      close(memory);
      return -1;
    }
    return memory;
  }
  if (kind == 6) {
    int ends[2];
    if (pipe(ends) != 0) return -1;
    close(ends[1]);
    return ends[0];
  }
  return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* A random 64-bit modifier (two draws, in order). */
static uint64_t random_modifier(void) {
  uint64_t high = (uint64_t)rand();
  return high << 32 | (uint64_t)rand();
}

/* One try: a params object, its planes and a buffer asked for, attached.
   Half the tries are a whole buffer's right parameters, for buffers that
   are made and shown (and destroyed while shown); the rest are random.
   1, or what a round trip that failed said (0 cut off, -1 a hang). */
static int try_once(struct walk *walk, const struct gpu_buffer *buffers) {
  const struct gpu_buffer *model = &buffers[rand() % BUFFERS];
  bool right = rand() % 2 == 0;
  struct zwp_linux_buffer_params_v1 *params = zwp_linux_dmabuf_v1_create_params(dmabuf);
  int planes = right ? 1 : rand() % 6;
  for (int plane = 0; plane < planes; plane++) {
    int fd = right ? dup(model->fd) : plane_descriptor(buffers);
    if (fd < 0) continue;
    uint32_t index = !right && rand() % 4 == 0 ? (uint32_t)(rand() % 6) : (uint32_t)plane;
    uint32_t offset =
        right ? 0 : pick((const uint32_t[]){0, 0, 0, 4096, model->stride * model->height, 0x7FFFFFFF, 0xFFFFFFF0}, 7);
    uint32_t stride =
        right ? model->stride
              : pick((const uint32_t[]){model->stride, model->stride, 0, 4, model->stride * 2, 0x10000000, 0xFFFFFFFF},
                     7);
    uint64_t modifier = model->modifier;
    if (!right && rand() % 2 == 0) {
      int kind = rand() % 3;
      modifier = kind == 0 ? DRM_FORMAT_MOD_LINEAR : kind == 1 ? DRM_FORMAT_MOD_INVALID : random_modifier();
    }
    zwp_linux_buffer_params_v1_add(params, fd, index, offset, stride, (uint32_t)(modifier >> 32),
                                   (uint32_t)modifier);
    close(fd);
  }
  int32_t width =
      right ? (int32_t)model->width : (int32_t)pick((const uint32_t[]){model->width, 0, 1, 16384, 0x7FFFFFFF}, 5);
  int32_t height =
      right ? (int32_t)model->height : (int32_t)pick((const uint32_t[]){model->height, 0, 1, 16384, 0x80000000}, 5);
  uint32_t format =
      right ? model->format
            : pick((const uint32_t[]){model->format, DRM_FORMAT_ARGB8888, DRM_FORMAT_NV12, DRM_FORMAT_RGB565,
                                      0x20202020},
                   5);
  uint32_t flags = !right && rand() % 4 == 0 ? (uint32_t)(rand() % 8) : 0;
  struct wl_buffer *buffer = NULL;
  if (rand() % 2 == 0) {
    buffer = zwp_linux_buffer_params_v1_create_immed(params, width, height, format, flags);
  } else {
    answered = NULL;
    zwp_linux_buffer_params_v1_add_listener(params, &params_listener, NULL);
    zwp_linux_buffer_params_v1_create(params, width, height, format, flags);
    int outcome = bounded_roundtrip(walk->display);
    // (The connection is let go of when it failed: nothing comes later.)
    if (outcome != 1) return outcome;
    buffer = answered;
  }
  zwp_linux_buffer_params_v1_destroy(params);
  if (buffer == NULL) return 1;
  int surface = rand() % SURFACES;
  wl_surface_attach(walk->surfaces[surface], buffer, 0, 0);
  wl_surface_damage_buffer(walk->surfaces[surface], 0, 0, INT32_MAX, INT32_MAX);
  wl_surface_commit(walk->surfaces[surface]);
  // Sometimes destroyed while it is shown; else kept until the next one.
  if (rand() % 3 == 0) {
    wl_buffer_destroy(buffer);
    buffer = NULL;
  }
  if (walk->shown[surface] != NULL) wl_buffer_destroy(walk->shown[surface]);
  walk->shown[surface] = buffer;
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 4) fail("usage: dmabuf-fuzz SEED SECONDS REPORT");
  unsigned seed = (unsigned)strtoul(argv[1], NULL, 10);
  double seconds = strtod(argv[2], NULL);
  srand(seed);
  int node = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
  struct gbm_device *device = node >= 0 ? gbm_create_device(node) : NULL;
  if (device == NULL) fail("no GBM device on /dev/dri/renderD128");
  struct gpu_buffer buffers[BUFFERS];
  const uint32_t sizes[BUFFERS][2] = {{64, 64}, {800, 480}, {256, 1024}};
  for (int index = 0; index < BUFFERS; index++) {
    uint32_t format = index == 2 ? GBM_FORMAT_ARGB8888 : GBM_FORMAT_XRGB8888;
    struct gbm_bo *bo = gbm_bo_create(device, sizes[index][0], sizes[index][1], format, GBM_BO_USE_RENDERING);
    if (bo == NULL) fail("gbm_bo_create failed");
    buffers[index] = (struct gpu_buffer){.fd = gbm_bo_get_fd(bo),
                                         .width = sizes[index][0],
                                         .height = sizes[index][1],
                                         .stride = gbm_bo_get_stride(bo),
                                         .format = format,
                                         .modifier = gbm_bo_get_modifier(bo)};
    if (buffers[index].fd < 0) fail("gbm_bo_get_fd failed");
  }
  long tries = 0, cut_off = 0, hangs = 0;
  struct walk walk;
  if (!connect_walk(&walk)) fail("no compositor with linux-dmabuf (version 3) on WAYLAND_DISPLAY");
  double end = now() + seconds;
  bool connected = true;
  while (now() < end) {
    int outcome = 1;
    for (int batch = 0; batch < 8 && outcome == 1 && now() < end; batch++, tries++) {
      outcome = try_once(&walk, buffers);
    }
    if (outcome == 1) outcome = bounded_roundtrip(walk.display);
    if (outcome == 1) continue;
    if (outcome < 0) hangs++;
    else cut_off++;
    wl_display_disconnect(walk.display);
    if (!(connected = connect_walk(&walk))) break;
  }
  FILE *report = fopen(argv[3], "w");
  if (report == NULL) fail("cannot write the report");
  fprintf(report, "seed: %u\ntries: %ld\ncreated: %ld\nfailed: %ld\ncut_off: %ld\nhangs: %ld\n", seed, tries,
          created, failed, cut_off, hangs);
  fclose(report);
  if (connected) wl_display_disconnect(walk.display);
  return 0;
}
