// SPDX-License-Identifier: Apache-2.0
// What a client may make the compositor do, beyond what wlroots bounds
// itself (docs/host-mode.md, "What a program may not do"): each request is
// seen before it is served (a protocol logger), and one over a bound is a
// protocol error, which cuts the client off once the request is done.
#define _GNU_SOURCE
#include "host.h"

#include <inttypes.h>
#include <wayland-server-protocol.h>

/* The requests watched, as libwayland's tables hold them (wayland.xml's
   order): their messages are compared by address. */
#define POOL_CREATE_BUFFER (&wl_shm_pool_interface.methods[0])

/* The most pixels a side of a shared-memory buffer: more than any screen
   splashd shows (a window is configured at the canvas's size). */
#define BUFFER_MAX_SIDE 16384

/* A request a client sent, before libwayland serves it (a protocol
   logger's call; events sent go by too, and are passed over). */
static void handle_request(void *data, enum wl_protocol_logger_type type,
                           const struct wl_protocol_logger_message *message) {
  (void)data;
  if (type != WL_PROTOCOL_LOGGER_REQUEST) return;
  if (message->message == POOL_CREATE_BUFFER) {
    int32_t width = message->arguments[2].i, height = message->arguments[3].i;
    if (width > BUFFER_MAX_SIDE || height > BUFFER_MAX_SIDE) {
      wl_resource_post_error(message->resource, WL_SHM_ERROR_INVALID_STRIDE,
                             "a buffer of %" PRId32 "x%" PRId32 ": more than %d pixels a side", width, height,
                             BUFFER_MAX_SIDE);
    }
  }
}

void start_budgets(struct splashd_host *host) {
  host->request_logger = wl_display_add_protocol_logger(host->display, handle_request, host);
}

void stop_budgets(struct splashd_host *host) {
  if (host->request_logger != NULL) wl_protocol_logger_destroy(host->request_logger);
  host->request_logger = NULL;
}
