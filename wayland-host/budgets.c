// SPDX-License-Identifier: Apache-2.0
// What a client may make the compositor do, beyond what wlroots bounds
// itself (docs/host-mode.md, "What a program may not do"): each request is
// seen before it is served (a protocol logger), and one over a bound is a
// protocol error, which cuts the client off once the request is done.
#define _GNU_SOURCE
#include "host.h"

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>
#include <wayland-server-protocol.h>

/* The most clients connected at once, and from one process (splashd's
   own connections, the program's and Xwayland's, apart): a client holds
   descriptors (its socket, and up to ~1,000 sent in messages it has not
   finished), which splashd has a bounded number of. */
#define CLIENTS_MAX 64
#define CLIENTS_PER_PROCESS_MAX 16

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

/* Cuts a client off that came over a cap: told why, and destroyed. */
static void cut_client(void *data) {
  struct watched_client *watched = data;
  // The idle source goes by itself once this returns.
  watched->cut = NULL;
  wl_client_post_implementation_error(watched->client, "too many connections (at most %d, and %d from a process)",
                                      CLIENTS_MAX, CLIENTS_PER_PROCESS_MAX);
  wl_client_destroy(watched->client);
}

void admit_client(struct splashd_host *host, struct watched_client *watched) {
  pid_t pid = 0;
  wl_client_get_credentials(watched->client, &pid, NULL, NULL);
  watched->pid = pid;
  watched->own = pid == getpid();
  if (watched->own) return;
  int all = 0, same = 0;
  struct watched_client *other;
  wl_list_for_each(other, &host->watched, link) {
    if (other == watched || other->own || other->cut != NULL) continue;
    all++;
    if (other->pid == pid) same++;
  }
  if (all < CLIENTS_MAX && same < CLIENTS_PER_PROCESS_MAX) return;
  // Not in the signal that tells of it: wlroots and host.c use a client
  // they made once wl_client_create returns it.
  watched->cut = wl_event_loop_add_idle(host->loop, cut_client, watched);
  char line[160];
  if (same >= CLIENTS_PER_PROCESS_MAX) {
    snprintf(line, sizeof line, "a client of process %d cut off: that process has %d connections already", (int)pid,
             CLIENTS_PER_PROCESS_MAX);
  } else {
    snprintf(line, sizeof line, "a client of process %d cut off: %d clients are connected already", (int)pid,
             CLIENTS_MAX);
  }
  log_limited(line);
}

void client_gone(struct watched_client *watched) {
  if (watched->cut != NULL) wl_event_source_remove(watched->cut);
  watched->cut = NULL;
}
