// SPDX-License-Identifier: Apache-2.0
// The cursor: the one a client sets, the cursor theme's arrow, and which is
// drawn.
#define _GNU_SOURCE
#include "host.h"

#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xcursor_manager.h>

/* The cursor theme's arrow (left_ptr: the default theme's, else the
   one wlroots carries), loaded when first asked for; NULL without one. */
struct wlr_xcursor_image *arrow(struct splashd_host *host) {
  if (host->arrows == NULL) {
    host->arrows = wlr_xcursor_manager_create(NULL, 24);
    if (host->arrows == NULL || !wlr_xcursor_manager_load(host->arrows, 1)) return NULL;
  }
  struct wlr_xcursor *cursor = wlr_xcursor_manager_get_xcursor(host->arrows, "left_ptr", 1);
  return cursor != NULL && cursor->image_count > 0 ? cursor->images[0] : NULL;
}

/* Which cursor is drawn (host.h's enum drawn_cursor: when each is). */
enum drawn_cursor drawn_cursor(struct splashd_host *host) {
  if (!host->cursor_shown) return NO_CURSOR;
  const struct wlr_seat_client *focused = host->seat->pointer_state.focused_client;
  if (focused != NULL && focused->client == host->cursor_client) {
    return host->cursor != NULL && host->cursor->buffer != NULL ? CLIENTS_CURSOR : NO_CURSOR;
  }
  return arrow(host) != NULL ? ARROW : NO_CURSOR;
}

/* The cursor the client under the pointer asked for (NULL: none). */
static void set_cursor(struct splashd_host *host, struct wlr_surface *surface, int32_t hotspot_x, int32_t hotspot_y);

static void handle_cursor_destroy(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, cursor_destroy);
  (void)data;
  set_cursor(host, NULL, 0, 0);
}

static void set_cursor(struct splashd_host *host, struct wlr_surface *surface, int32_t hotspot_x, int32_t hotspot_y) {
  if (host->cursor != NULL) wl_list_remove(&host->cursor_destroy.link);
  host->cursor = surface;
  host->cursor_hotspot_x = hotspot_x;
  host->cursor_hotspot_y = hotspot_y;
  if (surface != NULL) {
    host->cursor_destroy.notify = handle_cursor_destroy;
    wl_signal_add(&surface->events.destroy, &host->cursor_destroy);
  }
  if (host->cursor_shown && host->first != NULL) note(host, SPLASHD_HOST_NEW_BUFFER);
}

void handle_request_set_cursor(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, request_set_cursor);
  struct wlr_seat_pointer_request_set_cursor_event *event = data;
  // Only the client the pointer is over picks its cursor.
  if (event->seat_client != host->seat->pointer_state.focused_client) return;
  host->cursor_client = event->seat_client->client;
  set_cursor(host, event->surface, event->hotspot_x, event->hotspot_y);
}
