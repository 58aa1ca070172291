// SPDX-License-Identifier: Apache-2.0
// An animating GPU client for the QEMU rig's GPU tier: one xdg toplevel at
// the size its compositor gives it (the output's current mode when it
// leaves the size to the client), rendered with GLES2 through EGL on
// Wayland, so that Mesa hands the compositor GPU buffers (linux-dmabuf or
// wl_drm) where it offers them, and falls back to software rendering into
// shared memory where it does not. Each frame fills the window with the
// kiosk's colour (#2080C0) and draws a white 32x32 square in the top 32
// rows, 8 pixels further right than in the frame before (wrapping), then
// swaps (swap interval 1: paced by the compositor's frame callbacks).
//
//   gles-counter DIR
//
// writes DIR/renderer once, before the first frame: "GL_RENDERER\n" and
// "config RxGxBxA\n" (the EGLConfig's channel sizes), and DIR/frames at
// every frame: the frames swapped so far, one line of 19 digits,
// rewritten in place (read it at any time); and DIR/feedback once, before
// the first frame: what linux-dmabuf's feedback (version 4) told its
// window, the last complete set before EGL is made: "main MAJ:MIN" (the
// main device, hexadecimal as `stat -c %t:%T` prints it), then a line a
// tranche, "tranche MAJ:MIN FLAGS FORMAT:MODIFIER..." (FORMAT the fourcc's
// four letters, MODIFIER in hexadecimal); "none" where the compositor
// offers no linux-dmabuf of version 4. SIGUSR1 pauses the animation
// (no frame is drawn; the last stays on the screen) and resumes it. It
// runs until killed (SIGTERM) or its compositor goes (exit 1).
//
// Built by the tests (buildWaylandClient) with the xdg-shell glue
// wayland-scanner makes and tools/test/wayland/xdg-client.h:
//   gles-counter.c xdg-shell-protocol.c linux-dmabuf-unstable-v1-protocol.c -lwayland-client -lwayland-egl
//   -lEGL -lGLESv2
#define _GNU_SOURCE
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-egl.h>

#include "linux-dmabuf-unstable-v1-client-protocol.h"
#include "xdg-client.h"

/* The marker's side and how far it moves each frame, in pixels. */
enum { MARKER = 32, STEP = 8 };

static struct wl_output *output;
static struct zwp_linux_dmabuf_v1 *dmabuf;
static int width, height, mode_width, mode_height;
static volatile sig_atomic_t paused;

static void fail(const char *what) {
  fprintf(stderr, "gles-counter: %s\n", what);
  exit(1);
}

static void toggle_pause(int signal) {
  (void)signal;
  paused = !paused;
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
  (void)data, (void)o, (void)refresh;
  if (flags & WL_OUTPUT_MODE_CURRENT) {
    mode_width = w;
    mode_height = h;
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
  if (strcmp(interface, zwp_linux_dmabuf_v1_interface.name) == 0 && version >= 4) {
    dmabuf = wl_registry_bind(registry, name, &zwp_linux_dmabuf_v1_interface, 4);
  } else if (strcmp(interface, wl_output_interface.name) == 0 && output == NULL) {
    output = wl_registry_bind(registry, name, &wl_output_interface, 2);
    wl_output_add_listener(output, &output_listener, NULL);
  }
}
static const struct wl_registry_listener registry_listener = {.global = global, .global_remove = global_remove};

/* linux-dmabuf's feedback as it comes (`building`, grown with each event)
   and the last complete set (`told`, at each done); the format table. */
static char building[65536], told[65536];
static size_t built;
static const uint8_t *table;
static size_t table_size;

static void add(const char *format, ...) __attribute__((format(printf, 1, 2)));
static void add(const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  int n = vsnprintf(building + built, sizeof building - built, format, arguments);
  va_end(arguments);
  if (n > 0) built = built + (size_t)n < sizeof building ? built + (size_t)n : sizeof building - 1;
}
static void add_device(struct wl_array *device) {
  dev_t number = 0;
  if (device->size == sizeof number) memcpy(&number, device->data, sizeof number);
  add(" %x:%x", major(number), minor(number));
}
static void feedback_done(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback) {
  (void)data, (void)feedback;
  memcpy(told, building, built + 1);
  built = 0;
  building[0] = 0;
}
static void feedback_format_table(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback, int32_t fd,
                                  uint32_t size) {
  (void)data, (void)feedback;
  if (table != NULL) munmap((void *)table, table_size);
  table = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
  table_size = size;
  if (table == MAP_FAILED) table = NULL;
  close(fd);
}
static void feedback_main_device(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback, struct wl_array *device) {
  (void)data, (void)feedback;
  add("main");
  add_device(device);
}
static void feedback_tranche_done(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback) {
  (void)data, (void)feedback;
}
static void feedback_tranche_target_device(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback,
                                           struct wl_array *device) {
  (void)data, (void)feedback;
  add("\ntranche");
  add_device(device);
}
static void feedback_tranche_formats(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback,
                                     struct wl_array *indices) {
  (void)data, (void)feedback;
  uint16_t *index;
  wl_array_for_each(index, indices) {
    // Each entry of the table: the format (32 bits), 32 bits of padding, the modifier.
    if (table == NULL || ((size_t)*index + 1) * 16 > table_size) {
      add(" ?");
      continue;
    }
    uint32_t format;
    uint64_t modifier;
    memcpy(&format, table + (size_t)*index * 16, sizeof format);
    memcpy(&modifier, table + (size_t)*index * 16 + 8, sizeof modifier);
    add(" %c%c%c%c:%llx", (char)format, (char)(format >> 8), (char)(format >> 16), (char)(format >> 24),
        (unsigned long long)modifier);
  }
}
static void feedback_tranche_flags(void *data, struct zwp_linux_dmabuf_feedback_v1 *feedback, uint32_t flags) {
  (void)data, (void)feedback;
  add(" %u", flags);
}
static const struct zwp_linux_dmabuf_feedback_v1_listener feedback_listener = {
    .done = feedback_done,
    .format_table = feedback_format_table,
    .main_device = feedback_main_device,
    .tranche_done = feedback_tranche_done,
    .tranche_target_device = feedback_tranche_target_device,
    .tranche_formats = feedback_tranche_formats,
    .tranche_flags = feedback_tranche_flags};

/* An RGB config of 8 bits a channel and no alpha (XRGB8888, what a
   primary plane shows): Mesa may list a 10-bit one first. */
static EGLConfig choose_config(EGLDisplay egl) {
  const EGLint wanted[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
                           EGL_RED_SIZE,     8,              EGL_GREEN_SIZE,      8,
                           EGL_BLUE_SIZE,    8,              EGL_NONE};
  EGLConfig configs[64];
  EGLint count = 0;
  if (!eglChooseConfig(egl, wanted, configs, 64, &count)) fail("eglChooseConfig failed");
  for (EGLint i = 0; i < count; i++) {
    EGLint red = 0, green = 0, blue = 0, alpha = 0;
    eglGetConfigAttrib(egl, configs[i], EGL_RED_SIZE, &red);
    eglGetConfigAttrib(egl, configs[i], EGL_GREEN_SIZE, &green);
    eglGetConfigAttrib(egl, configs[i], EGL_BLUE_SIZE, &blue);
    eglGetConfigAttrib(egl, configs[i], EGL_ALPHA_SIZE, &alpha);
    if (red == 8 && green == 8 && blue == 8 && alpha == 0) return configs[i];
  }
  fail("no 8-bit RGB EGLConfig without alpha");
  return NULL;
}

/* Answers the compositor (pings, configures) while paused, until resumed. */
static void wait_while_paused(struct wl_display *display) {
  while (paused) {
    while (wl_display_prepare_read(display) != 0) wl_display_dispatch_pending(display);
    wl_display_flush(display);
    struct pollfd ready = {.fd = wl_display_get_fd(display), .events = POLLIN};
    // SIGUSR1 interrupts the wait (its action is installed without SA_RESTART).
    if (poll(&ready, 1, -1) > 0) {
      if (wl_display_read_events(display) != 0) fail("the compositor went");
    } else {
      wl_display_cancel_read(display);
      if (errno != EINTR) fail("poll failed");
    }
    if (wl_display_dispatch_pending(display) < 0) fail("the compositor went");
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gles-counter DIR\n");
    return 2;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/frames", argv[1]);
  int counter = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (counter < 0) fail("cannot write DIR/frames");
  struct sigaction action = {.sa_handler = toggle_pause};
  sigemptyset(&action.sa_mask);
  sigaction(SIGUSR1, &action, NULL);

  struct wl_display *display = wl_display_connect(NULL);
  if (display == NULL) fail("no Wayland display");
  wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
  wl_display_roundtrip(display);
  wl_display_roundtrip(display);
  if (compositor == NULL || wm_base == NULL) fail("the compositor lacks wl_compositor or xdg_wm_base");
  struct wl_surface *surface = wl_compositor_create_surface(compositor);
  struct xdg_surface *xdg = xdg_wm_base_get_xdg_surface(wm_base, surface);
  xdg_surface_add_listener(xdg, &surface_listener, NULL);
  struct xdg_toplevel *toplevel = xdg_surface_get_toplevel(xdg);
  xdg_toplevel_add_listener(toplevel, &toplevel_listener, NULL);
  xdg_toplevel_set_title(toplevel, "gles-counter");
  if (dmabuf != NULL) {
    struct zwp_linux_dmabuf_feedback_v1 *feedback = zwp_linux_dmabuf_v1_get_surface_feedback(dmabuf, surface);
    zwp_linux_dmabuf_feedback_v1_add_listener(feedback, &feedback_listener, NULL);
  }
  wl_surface_commit(surface);
  while (!configured && wl_display_dispatch(display) != -1) continue;
  wl_display_roundtrip(display);
  snprintf(path, sizeof path, "%s/feedback", argv[1]);
  FILE *told_file = fopen(path, "w");
  if (told_file == NULL) fail("cannot write DIR/feedback");
  fprintf(told_file, "%s\n", dmabuf == NULL ? "none" : told);
  fclose(told_file);
  if (width == 0) {
    width = mode_width > 0 ? mode_width : 800;
    height = mode_height > 0 ? mode_height : 480;
  }

  EGLDisplay egl = eglGetDisplay((EGLNativeDisplayType)display);
  if (egl == EGL_NO_DISPLAY || !eglInitialize(egl, NULL, NULL)) fail("no EGL display on Wayland");
  if (!eglBindAPI(EGL_OPENGL_ES_API)) fail("no OpenGL ES");
  EGLConfig config = choose_config(egl);
  const EGLint context_attributes[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(egl, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) fail("no GLES2 context");
  struct wl_egl_window *window = wl_egl_window_create(surface, width, height);
  EGLSurface target = eglCreateWindowSurface(egl, config, (EGLNativeWindowType)window, NULL);
  if (target == EGL_NO_SURFACE || !eglMakeCurrent(egl, target, target, context)) fail("no EGL window surface");
  eglSwapInterval(egl, 1);

  snprintf(path, sizeof path, "%s/renderer", argv[1]);
  FILE *renderer = fopen(path, "w");
  if (renderer == NULL) fail("cannot write DIR/renderer");
  EGLint red = 0, green = 0, blue = 0, alpha = 0;
  eglGetConfigAttrib(egl, config, EGL_RED_SIZE, &red);
  eglGetConfigAttrib(egl, config, EGL_GREEN_SIZE, &green);
  eglGetConfigAttrib(egl, config, EGL_BLUE_SIZE, &blue);
  eglGetConfigAttrib(egl, config, EGL_ALPHA_SIZE, &alpha);
  fprintf(renderer, "%s\nconfig R%dG%dB%dA%d\n", (const char *)glGetString(GL_RENDERER), red, green, blue, alpha);
  fclose(renderer);

  glViewport(0, 0, width, height);
  long frames = 0;
  for (;;) {
    wait_while_paused(display);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(0x20 / 255.0f, 0x80 / 255.0f, 0xC0 / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    // GL's rows count from the bottom: the top 32 rows are height - 32 up.
    int span = width > MARKER ? width - MARKER : 1;
    glEnable(GL_SCISSOR_TEST);
    glScissor((int)((frames * STEP) % span), height - MARKER, MARKER, MARKER);
    glClearColor(1.0f, 1.0f, 1.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (!eglSwapBuffers(egl, target)) fail("eglSwapBuffers failed: the compositor went");
    frames++;
    char line[21];
    snprintf(line, sizeof line, "%019ld\n", frames);
    if (pwrite(counter, line, 20, 0) != 20) fail("cannot write DIR/frames");
  }
}
