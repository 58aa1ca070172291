// SPDX-License-Identifier: Apache-2.0
// The plain compositor's renderer (libsplashd-wayland-host.so): pixman's,
// on the CPU. Clients get wl_shm alone; there are no GPU buffers to read.
#define _GNU_SOURCE
#include "../host.h"

#include <stdio.h>
#include <wlr/render/pixman.h>

struct wlr_renderer *start_renderer(struct splashd_host *host, const char *render_node, char *error,
                                    size_t capacity) {
  (void)host;
  if (render_node != NULL) {
    snprintf(error, capacity, "this compositor renders without a GPU; %s is not for it", render_node);
    return NULL;
  }
  struct wlr_renderer *renderer = wlr_pixman_renderer_create();
  if (renderer == NULL) snprintf(error, capacity, "wlr_pixman_renderer_create failed");
  return renderer;
}

struct wlr_renderer *surface_renderer(struct splashd_host *host) { return host->renderer; }

void offer_gpu_buffers(struct splashd_host *host) { (void)host; }

pixman_image_t *read_back(struct splashd_host *host, struct wlr_buffer *buffer) {
  (void)host;
  (void)buffer;
  return NULL;
}

void stop_renderer(struct splashd_host *host) { (void)host; }
