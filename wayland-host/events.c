// SPDX-License-Identifier: Apache-2.0
// What happened, noted for the next dispatch (the wake descriptor made
// readable outside one), and what was queued, sent.
#define _GNU_SOURCE
#include "host.h"

#include <unistd.h>

/* Notes what happened, for the next dispatch to return; outside a
   dispatch, the event loop's descriptor is made readable so that one comes. */
void note(struct splashd_host *host, int events) {
  host->events |= events;
  if (!host->dispatching) {
    uint64_t one = 1;
    if (write(host->wake, &one, sizeof one) < 0) {
      // Already readable (the counter is full): the dispatch comes anyway.
    }
  }
}

int handle_wake(int fd, uint32_t mask, void *data) {
  (void)mask;
  (void)data;
  uint64_t count;
  if (read(fd, &count, sizeof count) < 0) {
    // Nothing to read: another turn took it.
  }
  return 0;
}

/* Sends what was queued outside a dispatch (configures, frame callbacks). */
void flush(struct splashd_host *host) {
  wl_event_loop_dispatch_idle(host->loop);
  wl_display_flush_clients(host->display);
}
