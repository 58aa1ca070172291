// SPDX-License-Identifier: Apache-2.0
// splashd's Wayland host (host.h says what it is, and how its files depend
// on one another): the set-up (the display, the headless back end, the
// protocols), the table of functions splashd calls, dispatch, and the
// clients.
#define _GNU_SOURCE
#include "host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_output.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_output_v1.h>

static void handle_client_destroy(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, client_destroy);
  (void)data;
  wl_list_remove(&host->client_destroy.link);
  host->client = NULL;
  note(host, SPLASHD_HOST_CLIENT_GONE);
}

/* The listening socket is polled again (a connection may be taken). */
static void resume_listener(struct splashd_host *host) {
  if (!host->listener_paused) return;
  host->listener_paused = false;
  wl_event_source_timer_update(host->listener_retry, 0);
  wl_event_source_fd_update(host->listener_source, WL_EVENT_READABLE);
}

static void handle_watched_client_destroy(struct wl_listener *listener, void *data) {
  struct watched_client *watched = wl_container_of(listener, watched, destroy);
  struct splashd_host *host = watched->host;
  (void)data;
  client_gone(watched);
  wl_list_remove(&watched->link);
  // Its descriptors are given back: a connection waiting may be taken.
  resume_listener(host);
  if (is_xwayland(host, watched->client)) {
    drop_x11_windows(host);
    focus(host);
  }
  if (host->cursor_client == watched->client) host->cursor_client = NULL;
  // libwayland tells of a client's going before it destroys its objects:
  // the held frame is copied now, or let go.
  if (host->held != NULL && host->held_client == watched->client && !keep_held_pixels(host)) drop_held(host);
  wl_list_remove(&watched->destroy.link);
  note(host, SPLASHD_HOST_CLIENT_GONE);
  free(watched);
}

/* Every client that connects (the program's own connection, and those
   through the display's socket: the program's other processes, grim,
   wtype) is told to splashd, and so is its going. */
static void handle_client_created(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, client_created);
  struct watched_client *watched = calloc(1, sizeof *watched);
  if (watched == NULL) {
    // Not watched, and so not counted: no memory for it is no memory for
    // its requests either.
    wl_client_post_no_memory(data);
    return;
  }
  watched->host = host;
  watched->client = data;
  watched->destroy.notify = handle_watched_client_destroy;
  wl_client_add_destroy_listener(data, &watched->destroy);
  wl_list_insert(host->watched.prev, &watched->link);
  admit_client(host, watched);
  note(host, SPLASHD_HOST_CLIENT_CAME);
}

static struct splashd_host *create(int32_t screen_width, int32_t screen_height, int32_t width, int32_t height,
                                   const char *render_node, splashd_host_log_fn log, void *context, char *error,
                                   size_t capacity) {
  log_start(log, context);
  struct splashd_host *host = calloc(1, sizeof *host);
  if (host == NULL) {
    snprintf(error, capacity, "out of memory");
    return NULL;
  }
  host->wake = -1;
  host->listener_fd = -1;
  host->width = width;
  host->height = height;
  // Absolute devices span the canvas until told how the screens are turned.
  host->input_maps[0] = (struct input_map){.reaches = true, .m = {width, 0, 0, 0, height, 0}};
  host->input_map_count = 1;
  host->pointer_x = width / 2;
  host->pointer_y = height / 2;
  wl_list_init(&host->later);
  pixman_region32_init(&host->pending_damage);
  pixman_region32_init(&host->held_damage);
  host->pending_whole = true;
  host->held_whole = true;
  wl_list_init(&host->watched);
  wl_list_init(&host->keyboards);
  wl_list_init(&host->machine_keyboards);
  const char *failed = NULL;
  if ((host->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
    failed = "eventfd";
  } else if ((host->display = wl_display_create()) == NULL) {
    failed = "wl_display_create";
  } else if ((host->backend = wlr_headless_backend_create(host->display)) == NULL) {
    failed = "wlr_headless_backend_create";
  } else if ((host->renderer = start_renderer(host, render_node, error, capacity)) == NULL) {
    failed = "";
  } else if ((host->allocator = wlr_allocator_autocreate(host->backend, host->renderer)) == NULL) {
    failed = "wlr_allocator_autocreate";
  } else if (wl_display_init_shm(host->display) != 0) {
    // wl_shm with ARGB8888 and XRGB8888 alone: what splashd paints.
    failed = "wl_display_init_shm";
  } else if ((host->compositor = wlr_compositor_create(host->display, surface_renderer(host))) == NULL) {
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
  struct wlr_virtual_keyboard_manager_v1 *virtual_keyboards = NULL;
  struct wlr_virtual_pointer_manager_v1 *virtual_pointers = NULL;
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
    } else if ((virtual_keyboards = wlr_virtual_keyboard_manager_v1_create(host->display)) == NULL) {
      failed = "wlr_virtual_keyboard_manager_v1_create";
    } else if ((virtual_pointers = wlr_virtual_pointer_manager_v1_create(host->display)) == NULL) {
      failed = "wlr_virtual_pointer_manager_v1_create";
    } else if ((host->idle_inhibit = wlr_idle_inhibit_v1_create(host->display)) == NULL) {
      // An inhibitor (a video player's, a browser's) holds off idle-off
      // (idle_inhibited).
      failed = "wlr_idle_inhibit_v1_create";
    }
  }
  if (failed == NULL) {
    offer_gpu_buffers(host);
    start_layers(host);
    start_text_input(host);
  }
  if (failed != NULL) {
    // The renderer said what failed itself.
    if (*failed != '\0') snprintf(error, capacity, "%s failed", failed);
    if (host->display != NULL) wl_display_destroy(host->display);
    if (host->layout != NULL) wlr_output_layout_destroy(host->layout);
    if (host->allocator != NULL) wlr_allocator_destroy(host->allocator);
    if (host->renderer != NULL) wlr_renderer_destroy(host->renderer);
    stop_renderer(host);
    if (host->wake >= 0) close(host->wake);
    free(host);
    log_stop();
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
  wl_signal_add(&host->compositor->events.new_surface, &host->new_surface);
  host->new_decoration.notify = handle_new_decoration;
  wl_signal_add(&decorations->events.new_toplevel_decoration, &host->new_decoration);
  host->request_set_cursor.notify = handle_request_set_cursor;
  wl_signal_add(&host->seat->events.request_set_cursor, &host->request_set_cursor);
  host->new_virtual_keyboard.notify = handle_new_virtual_keyboard;
  wl_signal_add(&virtual_keyboards->events.new_virtual_keyboard, &host->new_virtual_keyboard);
  host->new_virtual_pointer.notify = handle_new_virtual_pointer;
  wl_signal_add(&virtual_pointers->events.new_virtual_pointer, &host->new_virtual_pointer);
  host->client_created.notify = handle_client_created;
  wl_display_add_client_created_listener(host->display, &host->client_created);
  start_budgets(host);
  return host;
}

static int event_fd(struct splashd_host *host) { return wl_event_loop_get_fd(host->loop); }

static int dispatch(struct splashd_host *host) {
  host->dispatching = true;
  wl_event_loop_dispatch(host->loop, 0);
  // What the requests just served queued (a screencopy's frame).
  flush(host);
  host->dispatching = false;
  // An idle inhibitor came or went (its client's request, or its end).
  int inhibitors = wl_list_length(&host->idle_inhibit->inhibitors);
  if (inhibitors != host->inhibitors_seen) host->events |= SPLASHD_HOST_IDLE_INHIBITION;
  host->inhibitors_seen = inhibitors;
  int events = host->events;
  host->events = 0;
  return events;
}

/* No descriptor can be had for a connection (EMFILE, ENFILE, no kernel
   memory): the listening socket, still readable, is not polled until a
   client goes or a second has passed, rather than failing again at every
   turn of the loop (as libwayland's own accepting did, at full speed).
   Said once until no connection waits any more. */
static void pause_listener(struct splashd_host *host, int error) {
  if (!host->listener_starved) {
    char line[200];
    snprintf(line, sizeof line,
             "the Wayland socket: %s; new connections wait (retried each second, and when a client goes)",
             strerror(error));
    log_error(line);
  }
  host->listener_starved = true;
  host->listener_paused = true;
  wl_event_source_fd_update(host->listener_source, 0);
  wl_event_source_timer_update(host->listener_retry, 1000);
}

static int handle_listener_retry(void *data) {
  resume_listener(data);
  return 0;
}

/* Takes the connections waiting (a few at a time: the rest at the next
   turn), each a client of the display. */
static int handle_listener(int fd, uint32_t mask, void *data) {
  struct splashd_host *host = data;
  (void)mask;
  for (int taken = 0; taken < 16; taken++) {
    int connection = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
    if (connection < 0) {
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        pause_listener(host, errno);
      } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
        // None waits any more: a later shortage is news again.
        host->listener_starved = false;
      }
      // (One that gave up, ECONNABORTED, EINTR: the next turn.)
      return 0;
    }
    if (wl_client_create(host->display, connection) == NULL) close(connection);
  }
  return 0;
}

static int add_listener(struct splashd_host *host, int fd) {
  if (host->listener_fd >= 0) {
    errno = EBUSY;
    return -1;
  }
  host->listener_source = wl_event_loop_add_fd(host->loop, fd, WL_EVENT_READABLE, handle_listener, host);
  host->listener_retry = wl_event_loop_add_timer(host->loop, handle_listener_retry, host);
  if (host->listener_source == NULL || host->listener_retry == NULL) {
    int saved = errno;
    if (host->listener_source != NULL) wl_event_source_remove(host->listener_source);
    if (host->listener_retry != NULL) wl_event_source_remove(host->listener_retry);
    host->listener_source = host->listener_retry = NULL;
    errno = saved;
    return -1;
  }
  host->listener_fd = fd;
  return 0;
}

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

static void resize(struct splashd_host *host, int32_t width, int32_t height) {
  host->width = width;
  host->height = height;
  host->pointer_x = host->pointer_x < width - 1 ? host->pointer_x : width - 1;
  host->pointer_y = host->pointer_y < height - 1 ? host->pointer_y : height - 1;
  arrange_layers(host);
  send_configure(host);
  if (host->first != NULL) note(host, SPLASHD_HOST_NEW_BUFFER);
  flush(host);
}

static int client_processes(struct splashd_host *host, int32_t *pids, int capacity) {
  int count = 0;
  struct wl_client *client;
  wl_client_for_each(client, wl_display_get_client_list(host->display)) {
    pid_t pid = 0;
    // The program's own connection and Xwayland's (the program's X
    // server) were made by splashd (their credentials are splashd's): 0
    // stands for them.
    if (client != host->client && !is_xwayland(host, client)) wl_client_get_credentials(client, &pid, NULL, NULL);
    if (count < capacity) pids[count] = pid;
    count++;
  }
  return count;
}

static int ping(struct splashd_host *host, uint32_t timeout_ms) {
  int sent = ping_program(host, timeout_ms);
  // Outside a dispatch: the ping goes out now.
  if (sent) flush(host);
  return sent;
}

static int idle_inhibited(struct splashd_host *host) { return !wl_list_empty(&host->idle_inhibit->inhibitors); }

static int text_field_active(struct splashd_host *host) { return host->text_input_active; }

static void destroy(struct splashd_host *host) {
  end_held(host);
  drop_held(host);
  shown_composed(host);
  if (host->composed != NULL) pixman_image_unref(host->composed);
  pixman_region32_fini(&host->pending_damage);
  pixman_region32_fini(&host->held_damage);
  if (host->feedback != NULL) wlr_presentation_feedback_destroy(host->feedback);
  if (host->xwayland != NULL) {
    drop_x11_windows(host);
    wl_list_remove(&host->new_x11_surface.link);
    wl_list_remove(&host->xwayland_ready_listener.link);
    wlr_xwayland_destroy(host->xwayland);
  }
  if (host->listener_source != NULL) wl_event_source_remove(host->listener_source);
  if (host->listener_retry != NULL) wl_event_source_remove(host->listener_retry);
  if (host->listener_fd >= 0) close(host->listener_fd);
  wl_display_destroy_clients(host->display);
  stop_budgets(host);
  wl_list_remove(&host->request_set_cursor.link);
  if (host->wake_source != NULL) wl_event_source_remove(host->wake_source);
  close(host->wake);
  stop_input(host);
  wlr_backend_destroy(host->backend);
  wl_display_destroy(host->display);
  wlr_output_layout_destroy(host->layout);
  stop_renderer(host);
  wlr_allocator_destroy(host->allocator);
  wlr_renderer_destroy(host->renderer);
  if (host->arrows != NULL) wlr_xcursor_manager_destroy(host->arrows);
  free(host);
  log_stop();
}

__attribute__((visibility("default"))) const struct splashd_host_api splashd_wayland_host_api = {
    .version = SPLASHD_HOST_API_VERSION,
    .create = create,
    .event_fd = event_fd,
    .dispatch = dispatch,
    .add_listener = add_listener,
    .connect_client = connect_client,
    .hold_frame = hold_frame,
    .begin_held = begin_held,
    .held_damage = held_damage,
    .held_dmabuf = held_dmabuf,
    .shown_as_is = shown_as_is,
    .shown_composed = shown_composed,
    .end_held = end_held,
    .drop_held = drop_held,
    .frame_done = frame_done,
    .show_screen = show_screen,
    .start_input = start_input,
    .withhold_input = withhold_input,
    .map_input = map_input,
    .resize = resize,
    .windows = count_windows,
    .client_processes = client_processes,
    .start_xwayland = start_xwayland,
    .ping = ping,
    .idle_inhibited = idle_inhibited,
    .compose_begin = compose_begin,
    .compose_fill = compose_fill,
    .compose_picture = compose_picture,
    .compose_end = compose_end,
    .compose_upload = compose_upload,
    .compose_release = compose_release,
    .offer_scanout = offer_scanout,
    .text_field_active = text_field_active,
    .destroy = destroy,
};
