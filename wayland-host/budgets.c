// SPDX-License-Identifier: Apache-2.0
// What a client may make the compositor do, beyond what wlroots bounds
// itself (docs/host-mode.md, "What a program may not do"): how many may
// connect; and each request is seen before it is served (a protocol
// logger), one over a bound a protocol error, which cuts the client off
// once the request is done. libwayland's wl_shm keeps no count of what a
// client has mapped: its pools are counted here, from the requests that
// make and grow them and the resources those make (each client's
// resource-created signal), until libwayland unmaps them.
#define _GNU_SOURCE
#include "host.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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
#define SHM_CREATE_POOL (&wl_shm_interface.methods[0])
#define POOL_CREATE_BUFFER (&wl_shm_pool_interface.methods[0])
#define POOL_RESIZE (&wl_shm_pool_interface.methods[2])

/* The most pixels a side of a shared-memory buffer: more than any screen
   splashd shows (a window is configured at the canvas's size). */
#define BUFFER_MAX_SIDE 16384

/* The most a client may have mapped in wl_shm pools at once: 2 GiB, or
   16 pictures of the canvas if more (foot maps a pool of 512 MiB, mostly
   never touched, to scroll by moving its buffers in it, and may hold two
   while it resizes; a browser keeps a few screen-sized buffers, and its
   popups'); and the most pools it may have (each a mapping of splashd's,
   of which a process may have 65,530). Mapped is not resident: splashd
   touches only what it shows. */
#define SHM_BUDGET_MIN ((int64_t)2 << 30)
#define SHM_BUDGET_CANVASES 16
#define POOLS_MAX 1024

/* A client's wl_shm pool, counted against its budget until libwayland
   unmaps it: until the pool and every buffer made from it are destroyed. */
struct pool_record {
  /* Whose: NULL once the client has gone (its resources go after it). */
  struct watched_client *owner;
  /* In owner->pools. */
  struct wl_list link;
  int64_t size;
  /* The pool's resource and its buffers' still there. */
  int refs;
  struct wl_listener pool_destroy;
};

/* A wl_buffer made from a counted pool, until it is destroyed. */
struct buffer_record {
  struct pool_record *pool;
  struct wl_listener destroy;
};

static int64_t shm_budget(const struct splashd_host *host) {
  int64_t canvases = (int64_t)SHM_BUDGET_CANVASES * host->width * host->height * 4;
  return canvases > SHM_BUDGET_MIN ? canvases : SHM_BUDGET_MIN;
}

/* The watched client of `client` (a walk of at most the clients connected:
   only shm requests ask). */
static struct watched_client *watched_of(struct splashd_host *host, struct wl_client *client) {
  struct watched_client *watched;
  wl_list_for_each(watched, &host->watched, link) {
    if (watched->client == client) return watched;
  }
  return NULL;
}

static void drop_reference(struct pool_record *pool) {
  if (--pool->refs > 0) return;
  if (pool->owner != NULL) {
    pool->owner->shm_bytes -= pool->size;
    pool->owner->pools--;
    wl_list_remove(&pool->link);
  }
  free(pool);
}

static void handle_pool_destroy(struct wl_listener *listener, void *data) {
  struct pool_record *pool = wl_container_of(listener, pool, pool_destroy);
  (void)data;
  wl_list_remove(&pool->pool_destroy.link);
  drop_reference(pool);
}

static void handle_buffer_destroy(struct wl_listener *listener, void *data) {
  struct buffer_record *buffer = wl_container_of(listener, buffer, destroy);
  (void)data;
  wl_list_remove(&buffer->destroy.link);
  drop_reference(buffer->pool);
  free(buffer);
}

/* The pool record of a wl_shm_pool resource; NULL when it is not counted. */
static struct pool_record *pool_of(struct wl_resource *resource) {
  struct wl_listener *listener = wl_resource_get_destroy_listener(resource, handle_pool_destroy);
  if (listener == NULL) return NULL;
  struct pool_record *pool = wl_container_of(listener, pool, pool_destroy);
  return pool;
}

/* A resource a client made: a pool or a buffer from one, counted (the
   request that made it was the last of its kind the logger saw). */
static void handle_resource_created(struct wl_listener *listener, void *data) {
  struct watched_client *watched = wl_container_of(listener, watched, resource_created);
  struct wl_resource *resource = data;
  // libwayland keeps the interface's own name pointer: one comparison.
  const char *class = wl_resource_get_class(resource);
  if (class == wl_shm_pool_interface.name && watched->pending_pool_size > 0) {
    struct pool_record *pool = calloc(1, sizeof *pool);
    if (pool == NULL) {
      wl_client_post_no_memory(watched->client);
      return;
    }
    pool->owner = watched;
    pool->size = watched->pending_pool_size;
    pool->refs = 1;
    pool->pool_destroy.notify = handle_pool_destroy;
    wl_resource_add_destroy_listener(resource, &pool->pool_destroy);
    wl_list_insert(&watched->pool_records, &pool->link);
    watched->shm_bytes += pool->size;
    watched->pools++;
    watched->pending_pool_size = 0;
  } else if (class == wl_buffer_interface.name && watched->pending_buffer_pool != NULL) {
    struct buffer_record *buffer = calloc(1, sizeof *buffer);
    if (buffer == NULL) {
      wl_client_post_no_memory(watched->client);
      return;
    }
    buffer->pool = watched->pending_buffer_pool;
    buffer->pool->refs++;
    buffer->destroy.notify = handle_buffer_destroy;
    wl_resource_add_destroy_listener(resource, &buffer->destroy);
    watched->pending_buffer_pool = NULL;
  }
}

/* Whether `watched` may map `more` bytes more; if not, its request is a
   protocol error on `resource` (it is served, then the client cut off,
   which unmaps all it had). */
static bool within_shm_budget(struct splashd_host *host, struct watched_client *watched, struct wl_resource *resource,
                              int64_t more, bool new_pool) {
  int64_t budget = shm_budget(host);
  if (watched->shm_bytes + more <= budget && (!new_pool || watched->pools < POOLS_MAX)) return true;
  if (new_pool && watched->pools >= POOLS_MAX) {
    wl_resource_post_error(resource, WL_SHM_ERROR_INVALID_FD, "more than %d shared-memory pools at once", POOLS_MAX);
  } else {
    wl_resource_post_error(resource, WL_SHM_ERROR_INVALID_FD,
                           "shared memory over splashd's budget: %" PRId64 " MiB mapped, %" PRId64
                           " MiB more asked, %" PRId64 " MiB at most",
                           watched->shm_bytes >> 20, more >> 20, budget >> 20);
  }
  return false;
}

/* A request a client sent, before libwayland serves it (a protocol
   logger's call; events sent go by too, and are passed over). */
static void handle_request(void *data, enum wl_protocol_logger_type type,
                           const struct wl_protocol_logger_message *message) {
  struct splashd_host *host = data;
  if (type != WL_PROTOCOL_LOGGER_REQUEST) return;
  const struct wl_message *request = message->message;
  if (request != SHM_CREATE_POOL && request != POOL_CREATE_BUFFER && request != POOL_RESIZE) return;
  struct wl_client *client = wl_resource_get_client(message->resource);
  struct watched_client *watched = watched_of(host, client);
  // Xwayland's pools are its X clients' (cutting it off would end them
  // all): not counted.
  bool counted = watched != NULL && !is_xwayland(host, client);
  if (request == SHM_CREATE_POOL) {
    int32_t size = message->arguments[2].i;
    if (!counted || size <= 0) return;
    if (within_shm_budget(host, watched, message->resource, size, true)) watched->pending_pool_size = size;
  } else if (request == POOL_CREATE_BUFFER) {
    int32_t width = message->arguments[2].i, height = message->arguments[3].i;
    if (width > BUFFER_MAX_SIDE || height > BUFFER_MAX_SIDE) {
      wl_resource_post_error(message->resource, WL_SHM_ERROR_INVALID_STRIDE,
                             "a buffer of %" PRId32 "x%" PRId32 ": more than %d pixels a side", width, height,
                             BUFFER_MAX_SIDE);
      return;
    }
    if (counted) watched->pending_buffer_pool = pool_of(message->resource);
  } else {
    struct pool_record *pool = pool_of(message->resource);
    int32_t size = message->arguments[0].i;
    // Only growing is served (libwayland refuses to shrink a pool).
    if (!counted || pool == NULL || size <= pool->size) return;
    if (within_shm_budget(host, watched, message->resource, size - pool->size, false)) {
      watched->shm_bytes += size - pool->size;
      pool->size = size;
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
  wl_list_init(&watched->pool_records);
  watched->resource_created.notify = handle_resource_created;
  wl_client_add_resource_created_listener(watched->client, &watched->resource_created);
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
  // libwayland drops the signal's list without touching its listeners.
  wl_list_remove(&watched->resource_created.link);
  // Its pools' resources go after it: they count against nobody now.
  struct pool_record *pool, *next;
  wl_list_for_each_safe(pool, next, &watched->pool_records, link) {
    wl_list_remove(&pool->link);
    wl_list_init(&pool->link);
    pool->owner = NULL;
  }
}
