// SPDX-License-Identifier: Apache-2.0
// Xwayland: X11 programs' server, started when asked for, and its windows
// (the program's, or others' shown over it where X puts them).
#define _GNU_SOURCE
#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <xcb/xcb.h>

/* Configures an X11 window other than the program's at `width` x `height`,
   centred on the screen (where it is drawn, so that X places its menus
   right). */
static void configure_centred(struct splashd_host *host, struct wlr_xwayland_surface *x11, uint16_t width,
                              uint16_t height) {
  wlr_xwayland_surface_configure(x11, (int16_t)((host->width - width) / 2), (int16_t)((host->height - height) / 2),
                                 width, height);
}

/* Xwayland went (its last X client left: it ends with it, and is started
   again by the next) or is being destroyed: its windows go with it
   (wlroots 0.15 does not always destroy them then). */
void drop_x11_windows(struct splashd_host *host) {
  if (host->first != NULL && host->first->x11 != NULL) drop_window(host->first);
  struct window *window, *next;
  wl_list_for_each_safe(window, next, &host->later, link) {
    if (window->x11 != NULL) drop_window(window);
  }
}

/* An X11 window becomes the program's window (the first) when there is
   none yet and it is not a menu or a tooltip (override-redirect), once it
   shows: X programs make windows that never do. */
static void adopt_x11_window(struct window *window) {
  struct splashd_host *host = window->host;
  if (host->first != NULL || window->x11->override_redirect) return;
  wl_list_remove(&window->link);
  wl_list_init(&window->link);
  host->first = window;
}

/* An X11 window that asks for a place and size: the program's is kept
   full screen; the others get the size they ask, centred. */
static void handle_x11_request_configure(struct wl_listener *listener, void *data) {
  struct window *window = wl_container_of(listener, window, request_configure);
  struct wlr_xwayland_surface_configure_event *event = data;
  struct splashd_host *host = window->host;
  if (host->first == window || (host->first == NULL && !window->x11->override_redirect)) {
    // The program's window, or perhaps the one to be: full screen before
    // its first frame.
    configure_full_screen(host, window);
  } else {
    configure_centred(host, window->x11, event->width, event->height);
  }
}

static void handle_x11_map(struct wl_listener *listener, void *data) {
  struct window *window = wl_container_of(listener, window, map);
  struct splashd_host *host = window->host;
  struct wlr_xwayland_surface *x11 = window->x11;
  adopt_x11_window(window);
  if (host->first == window) {
    send_configure(host);
  } else if (!x11->override_redirect) {
    // Shown where its program made it (no size asked): centred too.
    configure_centred(host, x11, x11->width, x11->height);
  }
  handle_window_map(listener, data);
}

static void handle_new_x11_surface(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_x11_surface);
  struct window *window = add_window(host, NULL, data, false);
  if (window == NULL) return;
  window->request_configure.notify = handle_x11_request_configure;
  wl_signal_add(&window->x11->events.request_configure, &window->request_configure);
  window->map.notify = handle_x11_map;
}

/* Xwayland's own connection (its credentials are splashd's: wlroots made it). */
bool is_xwayland(const struct splashd_host *host, const struct wl_client *client) {
  return host->xwayland != NULL && host->xwayland->server != NULL && host->xwayland->server->client == client;
}

static void handle_xwayland_ready(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, xwayland_ready_listener);
  (void)data;
  host->xwayland_ready = true;
}

static int64_t monotonic_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Lets `user`'s processes connect to X (as `xhost +si:localuser:USER`
   would): X lets in only the server's own user otherwise. */
static bool allow_x11_user(struct splashd_host *host, const char *user, char *error, size_t capacity) {
  xcb_connection_t *connection = xcb_connect(host->xwayland->display_name, NULL);
  if (xcb_connection_has_error(connection)) {
    xcb_disconnect(connection);
    snprintf(error, capacity, "cannot connect to Xwayland at %s", host->xwayland->display_name);
    return false;
  }
  char address[300];
  int length = snprintf(address, sizeof address, "localuser%c%s", 0, user);
  bool allowed = false;
  if (length > 0 && (size_t)length < sizeof address) {
    xcb_void_cookie_t cookie = xcb_change_hosts_checked(connection, XCB_HOST_MODE_INSERT,
                                                        XCB_FAMILY_SERVER_INTERPRETED, (uint16_t)length, (const uint8_t *)address);
    xcb_generic_error_t *failure = xcb_request_check(connection, cookie);
    allowed = failure == NULL;
    free(failure);
  }
  xcb_disconnect(connection);
  if (!allowed) snprintf(error, capacity, "Xwayland refused to let %s connect", user);
  return allowed;
}

const char *start_xwayland(struct splashd_host *host, const char *user, char *error, size_t capacity) {
  if (host->xwayland == NULL) {
    // Started when the first X client connects, unless another user's
    // program needs to be let in first: then now, and waited for.
    if ((host->xwayland = wlr_xwayland_create(host->display, host->compositor, user == NULL)) == NULL) {
      snprintf(error, capacity, "wlr_xwayland_create failed (X11's sockets in /tmp/.X11-unix)");
      return NULL;
    }
    wlr_xwayland_set_seat(host->xwayland, host->seat);
    host->new_x11_surface.notify = handle_new_x11_surface;
    wl_signal_add(&host->xwayland->events.new_surface, &host->new_x11_surface);
    host->xwayland_ready_listener.notify = handle_xwayland_ready;
    wl_signal_add(&host->xwayland->events.ready, &host->xwayland_ready_listener);
  }
  if (user == NULL) return host->xwayland->display_name;
  // Bounded: Xwayland is up in well under a second.
  int64_t deadline = monotonic_ms() + 5000;
  while (!host->xwayland_ready && monotonic_ms() < deadline) {
    wl_display_flush_clients(host->display);
    wl_event_loop_dispatch(host->loop, 100);
  }
  if (!host->xwayland_ready) {
    snprintf(error, capacity, "Xwayland did not start in 5 s");
    return NULL;
  }
  return allow_x11_user(host, user, error, capacity) ? host->xwayland->display_name : NULL;
}
