// SPDX-License-Identifier: Apache-2.0
// splashd's Wayland host (splashd_wayland_host.h): wlroots 0.15's headless
// back end serving the protocols of one kiosk program; splashd reads the
// program's current buffer and paints it itself, and gives the output what
// the screen shows when a screencopy client asks for it. Only glue: what
// wlroots' listener macros and wl_container_of need, which Swift cannot call.
#define _GNU_SOURCE
#include "splashd_wayland_host.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <pixman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_output.h>
#include <wlr/render/allocator.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

struct splashd_host {
  struct wl_display *display;
  struct wl_event_loop *loop;
  struct wlr_backend *backend;
  struct wlr_renderer *renderer;
  struct wlr_allocator *allocator;
  struct wlr_output_layout *layout;
  struct wlr_output *output;
  struct wlr_presentation *presentation;
  struct wlr_seat *seat;
  int32_t width, height;
  /* The program's connection, and its first toplevel (full screen). */
  struct wl_client *client;
  struct wlr_xdg_surface *toplevel;
  /* Later toplevels (dialogs, a second window), in the order they came:
     struct later_toplevel, drawn centred over the first, the last on top. */
  struct wl_list later;
  /* The buffer being read (begin_read), locked until end_read. */
  struct wlr_buffer *reading;
  /* The window composed from its surfaces (the toplevel's, its
     subsurfaces' and popups'), when it has more than one: kept between
     reads, remade when the toplevel's size changes. */
  pixman_image_t *composed;
  /* What happened since the last dispatch (SPLASHD_HOST_* bits). */
  int events;
  /* In the event loop: made readable when something happens outside a
     dispatch (a client found gone while frame callbacks are flushed), so
     that the caller's poll wakes for it. */
  int wake;
  struct wl_event_source *wake_source;
  bool dispatching;
  /* Presentation feedback of the buffer last read, sent at frame_done. */
  struct wlr_presentation_feedback *feedback;
  uint32_t frames;
  struct wl_listener new_xdg_surface, new_decoration, client_destroy;
  struct wl_listener toplevel_destroy;
  struct wl_listener output_frame, new_surface;
};

/* A toplevel after the first, until it is destroyed. */
struct later_toplevel {
  struct splashd_host *host;
  struct wlr_xdg_surface *surface;
  struct wl_list link;
  struct wl_listener destroy;
};

/* A surface of a client, watched for the commits that change what the
   program's window shows (its toplevel's, a subsurface's or a popup's). */
struct watched_surface {
  struct splashd_host *host;
  struct wl_listener commit, destroy;
};

/* Notes what happened, for the next dispatch to return; outside a
   dispatch, the event loop's descriptor is made readable so that one comes. */
static void note(struct splashd_host *host, int events) {
  host->events |= events;
  if (!host->dispatching) {
    uint64_t one = 1;
    if (write(host->wake, &one, sizeof one) < 0) {
      // Already readable (the counter is full): the dispatch comes anyway.
    }
  }
}

static int handle_wake(int fd, uint32_t mask, void *data) {
  (void)mask;
  (void)data;
  uint64_t count;
  if (read(fd, &count, sizeof count) < 0) {
    // Nothing to read: another turn took it.
  }
  return 0;
}

/* wlroots' errors go to one host's callback: there is one host a process.
   wlroots hands a callback every line; those past errors are dropped. */
static splashd_host_log_fn log_function;
static void *log_context;

static void log_line(enum wlr_log_importance importance, const char *format, va_list arguments) {
  if (log_function == NULL || importance > WLR_ERROR) return;
  char line[1024];
  vsnprintf(line, sizeof line, format, arguments);
  log_function(log_context, (int)importance, line);
}

static void send_configure(struct splashd_host *host) {
  if (host->toplevel == NULL) return;
  wlr_xdg_toplevel_set_size(host->toplevel, (uint32_t)host->width, (uint32_t)host->height);
  wlr_xdg_toplevel_set_fullscreen(host->toplevel, true);
  wlr_xdg_toplevel_set_activated(host->toplevel, true);
}

/* A commit anywhere in the program's windows is a new frame of them (a
   commit without a buffer unmaps a surface: what it covered shows again);
   one elsewhere costs a composition that shows the same. */
static void handle_surface_commit(struct wl_listener *listener, void *data) {
  struct watched_surface *watched = wl_container_of(listener, watched, commit);
  (void)data;
  if (watched->host->toplevel != NULL) note(watched->host, SPLASHD_HOST_NEW_BUFFER);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
  struct watched_surface *watched = wl_container_of(listener, watched, destroy);
  (void)data;
  // A closed popup or subsurface: what it covered shows again.
  if (watched->host->toplevel != NULL) note(watched->host, SPLASHD_HOST_NEW_BUFFER);
  wl_list_remove(&watched->commit.link);
  wl_list_remove(&watched->destroy.link);
  free(watched);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_surface);
  struct wlr_surface *surface = data;
  struct watched_surface *watched = calloc(1, sizeof *watched);
  if (watched == NULL) return;
  watched->host = host;
  watched->commit.notify = handle_surface_commit;
  wl_signal_add(&surface->events.commit, &watched->commit);
  watched->destroy.notify = handle_surface_destroy;
  wl_signal_add(&surface->events.destroy, &watched->destroy);
}

static void handle_toplevel_destroy(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, toplevel_destroy);
  (void)data;
  wl_list_remove(&host->toplevel_destroy.link);
  host->toplevel = NULL;
}

static void handle_later_toplevel_destroy(struct wl_listener *listener, void *data) {
  struct later_toplevel *later = wl_container_of(listener, later, destroy);
  (void)data;
  // What it covered shows again.
  note(later->host, SPLASHD_HOST_NEW_BUFFER);
  wl_list_remove(&later->link);
  wl_list_remove(&later->destroy.link);
  free(later);
}

/* The first toplevel is the program's window: configured full screen at
   the output's size before its first buffer. Later toplevels are shown
   over it at their own size. */
static void handle_new_xdg_surface(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_xdg_surface);
  struct wlr_xdg_surface *surface = data;
  if (surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) return;
  if (host->toplevel != NULL) {
    // Sized by the program (wlroots configures it), shown over the first.
    struct later_toplevel *later = calloc(1, sizeof *later);
    if (later == NULL) return;
    later->host = host;
    later->surface = surface;
    wl_list_insert(host->later.prev, &later->link);
    later->destroy.notify = handle_later_toplevel_destroy;
    wl_signal_add(&surface->events.destroy, &later->destroy);
    return;
  }
  host->toplevel = surface;
  host->toplevel_destroy.notify = handle_toplevel_destroy;
  wl_signal_add(&surface->events.destroy, &host->toplevel_destroy);
  send_configure(host);
}

/* No decorations are drawn: the program's window is the whole screen. */
static void handle_new_decoration(struct wl_listener *listener, void *data) {
  (void)listener;
  wlr_xdg_toplevel_decoration_v1_set_mode(data, WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

/* The output wants a frame: a screencopy client asked for the screen
   (wlroots schedules the output's frame, and copies what is committed). */
static void handle_output_frame(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, output_frame);
  (void)data;
  note(host, SPLASHD_HOST_FRAME_WANTED);
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, client_destroy);
  (void)data;
  wl_list_remove(&host->client_destroy.link);
  host->client = NULL;
  note(host, SPLASHD_HOST_CLIENT_GONE);
}

/* Sends what was queued outside a dispatch (configures, frame callbacks). */
static void flush(struct splashd_host *host) {
  wl_event_loop_dispatch_idle(host->loop);
  wl_display_flush_clients(host->display);
}

static struct splashd_host *create(int32_t screen_width, int32_t screen_height, int32_t width, int32_t height,
                                   splashd_host_log_fn log, void *context, char *error, size_t capacity) {
  log_function = log;
  log_context = context;
  wlr_log_init(WLR_ERROR, log_line);
  struct splashd_host *host = calloc(1, sizeof *host);
  if (host == NULL) {
    snprintf(error, capacity, "out of memory");
    return NULL;
  }
  host->wake = -1;
  host->width = width;
  host->height = height;
  wl_list_init(&host->later);
  const char *failed = NULL;
  struct wlr_compositor *compositor = NULL;
  if ((host->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
    failed = "eventfd";
  } else if ((host->display = wl_display_create()) == NULL) {
    failed = "wl_display_create";
  } else if ((host->backend = wlr_headless_backend_create(host->display)) == NULL) {
    failed = "wlr_headless_backend_create";
  } else if ((host->renderer = wlr_pixman_renderer_create()) == NULL) {
    failed = "wlr_pixman_renderer_create";
  } else if ((host->allocator = wlr_allocator_autocreate(host->backend, host->renderer)) == NULL) {
    failed = "wlr_allocator_autocreate";
  } else if (wl_display_init_shm(host->display) != 0) {
    // wl_shm with ARGB8888 and XRGB8888 alone: what splashd paints.
    failed = "wl_display_init_shm";
  } else if ((compositor = wlr_compositor_create(host->display, host->renderer)) == NULL) {
    failed = "wlr_compositor_create";
  } else if ((host->layout = wlr_output_layout_create()) == NULL) {
    failed = "wlr_output_layout_create";
  } else if ((host->output = wlr_headless_add_output(host->backend, (unsigned)screen_width,
                                                      (unsigned)screen_height)) == NULL) {
    failed = "wlr_headless_add_output";
  } else if (!wlr_output_init_render(host->output, host->allocator, host->renderer)) {
    failed = "wlr_output_init_render";
  } else if ((host->presentation = wlr_presentation_create(host->display, host->backend)) == NULL) {
    failed = "wlr_presentation_create";
  } else if ((host->seat = wlr_seat_create(host->display, "seat0")) == NULL) {
    failed = "wlr_seat_create";
  }
  struct wlr_xdg_shell *shell = NULL;
  struct wlr_xdg_decoration_manager_v1 *decorations = NULL;
  if (failed == NULL) {
    wlr_output_layout_add_auto(host->layout, host->output);
    wlr_data_device_manager_create(host->display);
    wlr_xdg_output_manager_v1_create(host->display, host->layout);
    wlr_viewporter_create(host->display);
    wlr_screencopy_manager_v1_create(host->display);
    if ((shell = wlr_xdg_shell_create(host->display)) == NULL) {
      failed = "wlr_xdg_shell_create";
    } else if ((decorations = wlr_xdg_decoration_manager_v1_create(host->display)) == NULL) {
      failed = "wlr_xdg_decoration_manager_v1_create";
    }
  }
  if (failed != NULL) {
    snprintf(error, capacity, "%s failed", failed);
    if (host->display != NULL) wl_display_destroy(host->display);
    if (host->layout != NULL) wlr_output_layout_destroy(host->layout);
    if (host->allocator != NULL) wlr_allocator_destroy(host->allocator);
    if (host->renderer != NULL) wlr_renderer_destroy(host->renderer);
    if (host->wake >= 0) close(host->wake);
    free(host);
    return NULL;
  }
  // The headless back end is not started: started, it wakes 60 times a
  // second for frames nobody draws. splashd's own output paces frames; the
  // output is enabled as the started back end would, so that screencopy
  // clients can ask for it.
  wlr_output_update_enabled(host->output, true);
  host->output_frame.notify = handle_output_frame;
  wl_signal_add(&host->output->events.frame, &host->output_frame);
  wlr_seat_set_capabilities(host->seat, 0);
  host->loop = wl_display_get_event_loop(host->display);
  host->wake_source = wl_event_loop_add_fd(host->loop, host->wake, WL_EVENT_READABLE, handle_wake, host);
  host->new_xdg_surface.notify = handle_new_xdg_surface;
  wl_signal_add(&shell->events.new_surface, &host->new_xdg_surface);
  host->new_surface.notify = handle_new_surface;
  wl_signal_add(&compositor->events.new_surface, &host->new_surface);
  host->new_decoration.notify = handle_new_decoration;
  wl_signal_add(&decorations->events.new_toplevel_decoration, &host->new_decoration);
  return host;
}

static int event_fd(struct splashd_host *host) { return wl_event_loop_get_fd(host->loop); }

static int dispatch(struct splashd_host *host) {
  host->dispatching = true;
  wl_event_loop_dispatch(host->loop, 0);
  // What the requests just served queued (a screencopy's frame).
  flush(host);
  host->dispatching = false;
  int events = host->events;
  host->events = 0;
  return events;
}

static int add_listener(struct splashd_host *host, int fd) { return wl_display_add_socket_fd(host->display, fd); }

static int connect_client(struct splashd_host *host) {
  if (host->client != NULL) {
    errno = EBUSY;
    return -1;
  }
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return -1;
  host->client = wl_client_create(host->display, ends[0]);
  if (host->client == NULL) {
    int saved = errno;
    close(ends[0]);
    close(ends[1]);
    errno = saved;
    return -1;
  }
  host->client_destroy.notify = handle_client_destroy;
  wl_client_add_destroy_listener(host->client, &host->client_destroy);
  // The program's end, inherited across exec.
  int theirs = dup(ends[1]);
  int saved = errno;
  close(ends[1]);
  errno = saved;
  return theirs;
}

static void count_shown(struct wlr_surface *surface, int sx, int sy, void *data) {
  (void)sx;
  (void)sy;
  if (surface->buffer != NULL && surface->buffer->source != NULL) ++*(int *)data;
}

/* Whether 32-bit pixels of `buffer` lie within `stride`: libwayland
   checks only that a row has as many bytes as pixels. */
static bool rows_fit(const struct wlr_buffer *buffer, size_t stride) {
  return buffer->width > 0 && buffer->height > 0 && stride % 4 == 0 && stride / 4 >= (size_t)buffer->width;
}

/* Where a window's surfaces go in the composed picture. */
struct placement {
  struct splashd_host *host;
  int x, y;
};

/* Draws one surface over what is composed so far, at its place (those
   wholly outside the picture are passed over). */
static void compose_surface(struct wlr_surface *surface, int sx, int sy, void *data) {
  struct placement *placement = data;
  struct splashd_host *host = placement->host;
  if (surface->buffer == NULL || surface->buffer->source == NULL) return;
  struct wlr_buffer *source = surface->buffer->source;
  void *pixels;
  uint32_t format;
  size_t stride;
  if (!wlr_buffer_begin_data_ptr_access(source, WLR_BUFFER_DATA_PTR_ACCESS_READ, &pixels, &format, &stride)) return;
  if (!rows_fit(source, stride)) {
    wlr_buffer_end_data_ptr_access(source);
    return;
  }
  pixman_format_code_t code = format == DRM_FORMAT_ARGB8888   ? PIXMAN_a8r8g8b8
                              : format == DRM_FORMAT_XRGB8888 ? PIXMAN_x8r8g8b8
                                                              : (pixman_format_code_t)0;
  pixman_image_t *image =
      code != 0 ? pixman_image_create_bits_no_clear(code, source->width, source->height, pixels, (int)stride) : NULL;
  int64_t x = (int64_t)sx + placement->x, y = (int64_t)sy + placement->y;
  int32_t width = pixman_image_get_width(host->composed), height = pixman_image_get_height(host->composed);
  if (image != NULL && x < width && y < height && x + source->width > 0 && y + source->height > 0) {
    pixman_image_composite32(PIXMAN_OP_OVER, image, NULL, host->composed, 0, 0, 0, 0, (int32_t)x, (int32_t)y,
                             source->width, source->height);
    pixman_image_unref(image);
  }
  wlr_buffer_end_data_ptr_access(source);
}

/* The program as one picture: the first toplevel with its subsurfaces and
   popups where they lie (those below it first), then each later toplevel's
   window (with its own) centred over that, on black. The picture is the
   first toplevel's size, cut to the window's configured size around its
   middle (as splashd centres it), so that a client's huge buffer costs no
   more than the screen. */
static int compose(struct splashd_host *host, struct wlr_buffer *main, struct splashd_host_buffer *buffer) {
  int32_t width = main->width < host->width ? main->width : host->width;
  int32_t height = main->height < host->height ? main->height : host->height;
  if (host->composed != NULL &&
      (pixman_image_get_width(host->composed) != width || pixman_image_get_height(host->composed) != height)) {
    pixman_image_unref(host->composed);
    host->composed = NULL;
  }
  if (host->composed == NULL) {
    host->composed = pixman_image_create_bits(PIXMAN_x8r8g8b8, width, height, NULL, 0);
    if (host->composed == NULL) return 0;
  }
  pixman_color_t black = {0, 0, 0, 0xFFFF};
  pixman_box32_t whole = {0, 0, width, height};
  pixman_image_fill_boxes(PIXMAN_OP_SRC, host->composed, &black, 1, &whole);
  struct placement placement = {.host = host, .x = -(main->width - width) / 2, .y = -(main->height - height) / 2};
  wlr_xdg_surface_for_each_surface(host->toplevel, compose_surface, &placement);
  struct later_toplevel *later;
  wl_list_for_each(later, &host->later, link) {
    if (!later->surface->mapped) continue;
    struct wlr_box window;
    wlr_xdg_surface_get_geometry(later->surface, &window);
    placement.x = (int)(((int64_t)width - window.width) / 2 - window.x);
    placement.y = (int)(((int64_t)height - window.height) / 2 - window.y);
    wlr_xdg_surface_for_each_surface(later->surface, compose_surface, &placement);
  }
  buffer->pixels = pixman_image_get_data(host->composed);
  buffer->width = width;
  buffer->height = height;
  buffer->stride = pixman_image_get_stride(host->composed);
  return 1;
}

static int begin_read(struct splashd_host *host, struct splashd_host_buffer *buffer) {
  if (host->toplevel == NULL || host->reading != NULL) return 0;
  struct wlr_surface *surface = host->toplevel->surface;
  // The shm buffer itself (the client buffer wrapping it has no pixels of
  // its own under pixman), kept by its texture until the next commit.
  if (surface->buffer == NULL || surface->buffer->source == NULL) return 0;
  struct wlr_buffer *source = surface->buffer->source;
  void *data;
  uint32_t format;
  size_t stride;
  if (!wlr_buffer_begin_data_ptr_access(source, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) return 0;
  if ((format != DRM_FORMAT_ARGB8888 && format != DRM_FORMAT_XRGB8888) || !rows_fit(source, stride)) {
    wlr_buffer_end_data_ptr_access(source);
    return 0;
  }
  // A window of one surface is read where it lies; one of several is
  // composed first (its own buffer left alone).
  int shown = 0;
  wlr_xdg_surface_for_each_surface(host->toplevel, count_shown, &shown);
  struct later_toplevel *later;
  wl_list_for_each(later, &host->later, link) {
    if (later->surface->mapped) shown++;
  }
  if (shown > 1) {
    wlr_buffer_end_data_ptr_access(source);
    if (!compose(host, source, buffer)) return 0;
  } else {
    if (host->composed != NULL) {
      pixman_image_unref(host->composed);
      host->composed = NULL;
    }
    host->reading = wlr_buffer_lock(source);
    buffer->pixels = data;
    buffer->width = source->width;
    buffer->height = source->height;
    buffer->stride = (int32_t)stride;
  }
  // What is read now is what the next frame shows: its feedback then.
  struct wlr_presentation_feedback *feedback = wlr_presentation_surface_sampled(host->presentation, surface);
  if (feedback != NULL) {
    if (host->feedback != NULL) wlr_presentation_feedback_destroy(host->feedback);
    host->feedback = feedback;
  }
  return 1;
}

static void end_read(struct splashd_host *host) {
  if (host->reading == NULL) return;
  wlr_buffer_end_data_ptr_access(host->reading);
  wlr_buffer_unlock(host->reading);
  host->reading = NULL;
}

static void send_frame_done(struct wlr_surface *surface, int sx, int sy, void *data) {
  (void)sx;
  (void)sy;
  wlr_surface_send_frame_done(surface, data);
}

static void frame_done(struct splashd_host *host, int64_t monotonic_ns, int64_t refresh_ns) {
  struct timespec when = {.tv_sec = monotonic_ns / 1000000000, .tv_nsec = monotonic_ns % 1000000000};
  if (host->toplevel != NULL) wlr_xdg_surface_for_each_surface(host->toplevel, send_frame_done, &when);
  struct later_toplevel *later;
  wl_list_for_each(later, &host->later, link) {
    wlr_xdg_surface_for_each_surface(later->surface, send_frame_done, &when);
  }
  if (host->feedback != NULL) {
    struct wlr_presentation_event event = {
        .output = host->output,
        .tv_sec = (uint64_t)when.tv_sec,
        .tv_nsec = (uint32_t)when.tv_nsec,
        .refresh = (uint32_t)refresh_ns,
        .seq = ++host->frames,
        // No kind flags: whether the frame met a vblank is the output's to say.
        .flags = 0,
    };
    wlr_presentation_feedback_send_presented(host->feedback, &event);
    wlr_presentation_feedback_destroy(host->feedback);
    host->feedback = NULL;
  }
  flush(host);
}

/* The screencopy clients waiting for a frame are told it failed (wlroots
   fails them when their output is disabled), rather than left waiting. */
static void fail_screen_copies(struct splashd_host *host) {
  wlr_output_update_enabled(host->output, false);
  wlr_output_update_enabled(host->output, true);
  flush(host);
}

static int show_screen(struct splashd_host *host, const struct splashd_host_buffer *screen) {
  struct wlr_output *output = host->output;
  if (screen == NULL || screen->pixels == NULL || screen->width <= 0 || screen->height <= 0 ||
      screen->stride < screen->width * 4) {
    fail_screen_copies(host);
    return 0;
  }
  if (output->width != screen->width || output->height != screen->height) {
    wlr_output_set_custom_mode(output, screen->width, screen->height, 0);
  }
  if (!wlr_output_attach_render(output, NULL)) {
    wlr_output_rollback(output);
    fail_screen_copies(host);
    return 0;
  }
  struct wlr_texture *texture = wlr_texture_from_pixels(host->renderer, DRM_FORMAT_XRGB8888, (uint32_t)screen->stride,
                                                        (uint32_t)screen->width, (uint32_t)screen->height,
                                                        screen->pixels);
  if (texture == NULL) {
    wlr_output_rollback(output);
    fail_screen_copies(host);
    return 0;
  }
  wlr_renderer_begin(host->renderer, (uint32_t)screen->width, (uint32_t)screen->height);
  wlr_render_texture(host->renderer, texture, output->transform_matrix, 0, 0, 1.0f);
  wlr_renderer_end(host->renderer);
  wlr_texture_destroy(texture);
  int committed = wlr_output_commit(output);
  // The back end is not started: no timer ends the frame it began, and
  // the next screencopy's frame must be had.
  output->frame_pending = false;
  if (!committed) fail_screen_copies(host);
  // The copies made at the commit go out now, not at the next dispatch.
  flush(host);
  return committed;
}

static void destroy(struct splashd_host *host) {
  end_read(host);
  if (host->composed != NULL) pixman_image_unref(host->composed);
  if (host->feedback != NULL) wlr_presentation_feedback_destroy(host->feedback);
  wl_display_destroy_clients(host->display);
  if (host->wake_source != NULL) wl_event_source_remove(host->wake_source);
  close(host->wake);
  wlr_backend_destroy(host->backend);
  wl_display_destroy(host->display);
  wlr_output_layout_destroy(host->layout);
  wlr_allocator_destroy(host->allocator);
  wlr_renderer_destroy(host->renderer);
  free(host);
  log_function = NULL;
}

__attribute__((visibility("default"))) const struct splashd_host_api splashd_wayland_host_api = {
    .version = SPLASHD_HOST_API_VERSION,
    .create = create,
    .event_fd = event_fd,
    .dispatch = dispatch,
    .add_listener = add_listener,
    .connect_client = connect_client,
    .begin_read = begin_read,
    .end_read = end_read,
    .frame_done = frame_done,
    .show_screen = show_screen,
    .destroy = destroy,
};
