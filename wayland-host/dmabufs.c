// SPDX-License-Identifier: Apache-2.0
// A GPU buffer described as the API gives it (struct splashd_host_dmabuf).
#define _GNU_SOURCE
#include "host.h"

#include <wlr/types/wlr_buffer.h>

bool describe_dmabuf(struct wlr_buffer *buffer, struct splashd_host_dmabuf *dmabuf) {
  struct wlr_dmabuf_attributes attributes;
  if (!wlr_buffer_get_dmabuf(buffer, &attributes) || attributes.n_planes < 1 || attributes.n_planes > 4) return false;
  dmabuf->width = attributes.width;
  dmabuf->height = attributes.height;
  dmabuf->format = attributes.format;
  dmabuf->modifier = attributes.modifier;
  dmabuf->planes = attributes.n_planes;
  for (int plane = 0; plane < attributes.n_planes; plane++) {
    dmabuf->fd[plane] = attributes.fd[plane];
    dmabuf->offset[plane] = attributes.offset[plane];
    dmabuf->stride[plane] = attributes.stride[plane];
  }
  return true;
}
