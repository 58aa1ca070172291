// SPDX-License-Identifier: Apache-2.0
// The plain compositor's renderer (libsplashd-wayland-host.so): pixman's,
// on the CPU. Clients get wl_shm alone; there are no GPU buffers to read,
// and nothing is composed on a GPU.
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

int offer_scanout(struct splashd_host *host, uint64_t device, const struct splashd_host_layout *layouts,
                  size_t count) {
  (void)host, (void)device, (void)layouts, (void)count;
  return 0;
}

void tell_window_of_scanout(struct splashd_host *host) { (void)host; }

pixman_image_t *read_back(struct splashd_host *host, struct wlr_buffer *buffer) {
  (void)host;
  (void)buffer;
  return NULL;
}

int compose_begin(struct splashd_host *host, int32_t width, int32_t height) {
  (void)host, (void)width, (void)height;
  return 0;
}

void compose_fill(struct splashd_host *host, const struct splashd_host_rect *rect, const float rgba[4]) {
  (void)host, (void)rect, (void)rgba;
}

void compose_picture(struct splashd_host *host, int32_t picture, const struct splashd_host_rect *source,
                     const float placement[6], float alpha) {
  (void)host, (void)picture, (void)source, (void)placement, (void)alpha;
}

int compose_end(struct splashd_host *host, struct splashd_host_dmabuf *frame) {
  (void)host, (void)frame;
  return 0;
}

int32_t compose_upload(struct splashd_host *host, const struct splashd_host_buffer *pixels) {
  (void)host, (void)pixels;
  return 0;
}

void compose_release(struct splashd_host *host, int32_t picture) { (void)host, (void)picture; }

void let_go_of_gpu_frames(struct splashd_host *host) { (void)host; }

void stop_renderer(struct splashd_host *host) { (void)host; }
