// SPDX-License-Identifier: Apache-2.0
// The GPU variant's renderer (libsplashd-wayland-host-gpu.so, loaded only
// on a card with a render node): wlroots' GLES2 renderer on that node (EGL
// on GBM). Clients get linux-dmabuf (and wl_drm, for Xwayland's glamor and
// older Mesa) beside wl_shm, and render on the GPU; a frame of theirs that
// splashd shows as it is (scanned out) is never read, and one it draws
// itself (under the splash's doors, centred, composed with a popup or the
// cursor) is read back once through a GBM buffer, unless splashd has it
// composed here, over its own pictures, into a buffer it scans out
// (compose_*: the splash's doors over a GPU program's frames).
#define _GNU_SOURCE
#include "../host.h"

#include <drm_fourcc.h>
#include <GLES2/gl2.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wlr/render/allocator.h>
#include <wlr/render/drm_format_set.h>
#include <wlr/render/gles2.h>
#include <wlr/render/interface.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_drm.h>
#include <wlr/types/wlr_linux_dmabuf_v1.h>
#include <wlr/types/wlr_matrix.h>

/* How many buffers splashd's frames composed here go round: one on the
   screen, one whose flip may still be on its way, one being drawn. */
#define COMPOSED_BUFFERS 3

/* What a read-back needs, kept from one to the next: the GPU buffer
   rendered into, and the pixels read from it, both of the last size read;
   the surfaces' renderer (surface_renderer); and what composition needs. */
struct gpu {
  struct wlr_buffer *target;
  pixman_image_t *pixels;
  /* ARGB8888 with the driver's implicit layout: what the target is made as. */
  struct wlr_drm_format *format;
  struct wlr_renderer *surfaces;
  /* XRGB8888 with the driver's implicit layout: what a composed frame is
     made as (what every primary plane shows), the buffers it goes round,
     and the next one drawn. */
  struct wlr_drm_format *composed_format;
  struct wlr_buffer *composed[COMPOSED_BUFFERS];
  int next_composed;
  /* The frame being composed (compose_begin to compose_end) and the held
     frame's texture for it; NULL when none is. */
  struct wlr_buffer *composing;
  struct wlr_texture *held_texture;
  /* compose_upload's pictures: number n at pictures[n - 1], NULL once let go of. */
  struct wlr_texture **pictures;
  int32_t picture_count;
  /* linux-dmabuf (NULL where it cannot be offered), and what the program's
     window is told its buffers may be to be scanned out (offer_scanout):
     the display's card and the layouts of its primary plane the renderer
     also takes; none until told. */
  struct wlr_linux_dmabuf_v1 *dmabuf;
  struct wl_listener dmabuf_destroy;
  dev_t scanout_device;
  struct wlr_drm_format_set scanout_layouts;
};

/* linux-dmabuf's tranche flag for buffers a display scans out
   (zwp_linux_dmabuf_feedback_v1.tranche_flags.scanout). */
#define TRANCHE_SCANOUT 1u

/* The surfaces' renderer. wlroots gives each buffer a client commits a
   texture made by the compositor's renderer: with GLES2's, each
   shared-memory frame would be uploaded into a GL texture (on virgl that
   doubled splashd's CPU for each frame of a program in shared memory),
   and each GPU buffer's image bound again at each commit. splashd never
   draws those textures: it reads a shared-memory buffer where it lies,
   and reads back (with its own texture) or scans out a GPU buffer. So
   the surfaces get empty textures of their buffers' size, made without
   the GPU; linux-dmabuf and wl_drm still check each GPU buffer with the
   GLES2 renderer when the client makes it. It draws nothing.

   An empty texture keeps its buffer until the surface's next buffer
   replaces it, as pixman's does in the plain variant: the client is not
   told it may draw into a buffer splashd may still read, and the
   surface's buffer stays the one last committed. It takes no pixels:
   wlroots then makes a new texture of each commit's buffer rather than
   writing the damage into the last one (which would leave the surface
   naming the last buffer, not the one committed). */
struct empty_texture {
  struct wlr_texture base;
  struct wlr_buffer *buffer;
};

static bool takes_no_pixels(struct wlr_texture *texture, uint32_t stride, uint32_t width, uint32_t height,
                            uint32_t src_x, uint32_t src_y, uint32_t dst_x, uint32_t dst_y, const void *data) {
  (void)texture, (void)stride, (void)width, (void)height, (void)src_x, (void)src_y, (void)dst_x, (void)dst_y,
      (void)data;
  return false;
}

static void empty_texture_destroy(struct wlr_texture *texture) {
  struct empty_texture *empty = wl_container_of(texture, empty, base);
  wlr_buffer_unlock(empty->buffer);
  free(empty);
}

static const struct wlr_texture_impl empty_texture_impl = {.write_pixels = takes_no_pixels,
                                                           .destroy = empty_texture_destroy};

static struct wlr_texture *empty_texture_from_buffer(struct wlr_renderer *renderer, struct wlr_buffer *buffer) {
  (void)renderer;
  struct empty_texture *texture = calloc(1, sizeof *texture);
  if (texture == NULL) return NULL;
  wlr_texture_init(&texture->base, &empty_texture_impl, (uint32_t)buffer->width, (uint32_t)buffer->height);
  texture->buffer = wlr_buffer_lock(buffer);
  return &texture->base;
}

static void draws_nothing(struct wlr_renderer *renderer, uint32_t width, uint32_t height) {
  (void)renderer, (void)width, (void)height;
}
static void clears_nothing(struct wlr_renderer *renderer, const float color[static 4]) { (void)renderer, (void)color; }
static void cuts_nothing(struct wlr_renderer *renderer, struct wlr_box *box) { (void)renderer, (void)box; }
static bool renders_no_texture(struct wlr_renderer *renderer, struct wlr_texture *texture, const struct wlr_fbox *box,
                               const float matrix[static 9], float alpha) {
  (void)renderer, (void)texture, (void)box, (void)matrix, (void)alpha;
  return false;
}
static void renders_no_quad(struct wlr_renderer *renderer, const float color[static 4], const float matrix[static 9]) {
  (void)renderer, (void)color, (void)matrix;
}
static const uint32_t *shm_formats(struct wlr_renderer *renderer, size_t *count) {
  (void)renderer;
  static const uint32_t formats[] = {DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888};
  *count = sizeof formats / sizeof formats[0];
  return formats;
}
static uint32_t no_buffer_caps(struct wlr_renderer *renderer) {
  (void)renderer;
  return 0;
}
static void destroy_surface_renderer(struct wlr_renderer *renderer) { free(renderer); }

static const struct wlr_renderer_impl surface_renderer_impl = {
    .begin = draws_nothing,
    .clear = clears_nothing,
    .scissor = cuts_nothing,
    .render_subtexture_with_matrix = renders_no_texture,
    .render_quad_with_matrix = renders_no_quad,
    .get_shm_texture_formats = shm_formats,
    .get_render_buffer_caps = no_buffer_caps,
    .texture_from_buffer = empty_texture_from_buffer,
    .destroy = destroy_surface_renderer,
};

struct wlr_renderer *surface_renderer(struct splashd_host *host) { return host->gpu->surfaces; }

/* `format` with the driver's implicit layout (no modifier), as a GPU
   buffer is made; NULL without memory. */
static struct wlr_drm_format *implicit_format(uint32_t format) {
  struct wlr_drm_format *made = calloc(1, sizeof *made + sizeof(uint64_t));
  if (made == NULL) return NULL;
  made->format = format;
  made->len = 1;
  made->capacity = 1;
  made->modifiers[0] = DRM_FORMAT_MOD_INVALID;
  return made;
}

struct wlr_renderer *start_renderer(struct splashd_host *host, const char *render_node, char *error,
                                    size_t capacity) {
  if (render_node == NULL) {
    snprintf(error, capacity, "this compositor renders with a GPU: it needs a render node");
    return NULL;
  }
  int fd = open(render_node, O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    snprintf(error, capacity, "%s: %s", render_node, strerror(errno));
    return NULL;
  }
  // The renderer keeps its own descriptor of the node.
  struct wlr_renderer *renderer = wlr_gles2_renderer_create_with_drm_fd(fd);
  close(fd);
  if (renderer == NULL) {
    snprintf(error, capacity, "%s: no GLES2 renderer (EGL on GBM) can be made there", render_node);
    return NULL;
  }
  host->gpu = calloc(1, sizeof *host->gpu);
  if (host->gpu != NULL) {
    host->gpu->format = implicit_format(DRM_FORMAT_ARGB8888);
    host->gpu->composed_format = implicit_format(DRM_FORMAT_XRGB8888);
    host->gpu->surfaces = calloc(1, sizeof *host->gpu->surfaces);
    if (host->gpu->surfaces != NULL) wlr_renderer_init(host->gpu->surfaces, &surface_renderer_impl);
  }
  if (host->gpu == NULL || host->gpu->format == NULL || host->gpu->composed_format == NULL ||
      host->gpu->surfaces == NULL) {
    stop_renderer(host);
    wlr_renderer_destroy(renderer);
    snprintf(error, capacity, "out of memory");
    return NULL;
  }
  return renderer;
}

/* linux-dmabuf goes with the display (or the renderer): not told of again. */
static void handle_dmabuf_destroy(struct wl_listener *listener, void *data) {
  (void)data;
  struct gpu *gpu = wl_container_of(listener, gpu, dmabuf_destroy);
  wl_list_remove(&gpu->dmabuf_destroy.link);
  gpu->dmabuf = NULL;
}

void offer_gpu_buffers(struct splashd_host *host) {
  // Both need the renderer's DMA-BUF formats; linux-dmabuf's feedback
  // table also needs shared memory (/dev/shm). Without them the program
  // renders into shared memory, as under the plain compositor.
  if (wlr_drm_create(host->display, host->renderer) == NULL) log_error("wl_drm cannot be offered");
  host->gpu->dmabuf = wlr_linux_dmabuf_v1_create(host->display, host->renderer);
  if (host->gpu->dmabuf == NULL) {
    log_error("linux-dmabuf cannot be offered (is /dev/shm mounted?): programs render into shared memory");
    return;
  }
  host->gpu->dmabuf_destroy.notify = handle_dmabuf_destroy;
  wl_signal_add(&host->gpu->dmabuf->events.destroy, &host->gpu->dmabuf_destroy);
}

void tell_window_of_scanout(struct splashd_host *host) {
  struct gpu *gpu = host->gpu;
  if (gpu == NULL || gpu->dmabuf == NULL || host->first == NULL || host->first->xdg == NULL) return;
  struct wlr_surface *surface = host->first->xdg->surface;
  struct stat rendered_on;
  const struct wlr_drm_format_set *rendered = wlr_renderer_get_dmabuf_texture_formats(host->renderer);
  if (gpu->scanout_layouts.len == 0 || rendered == NULL ||
      fstat(wlr_renderer_get_drm_fd(host->renderer), &rendered_on) != 0) {
    // Nothing (any more) to scan out: linux-dmabuf's default feedback.
    wlr_linux_dmabuf_v1_set_surface_feedback(gpu->dmabuf, surface, NULL);
    return;
  }
  // The scan-out tranche first (what the program's GPU prefers), then
  // every layout the renderer takes (linux-dmabuf's default tranche).
  // wlroots 0.15 lists each format of a tranche in the implicit layout
  // too, beside the modifiers given.
  const struct wlr_linux_dmabuf_feedback_v1_tranche tranches[] = {
      {.target_device = gpu->scanout_device, .flags = TRANCHE_SCANOUT, .formats = &gpu->scanout_layouts},
      {.target_device = rendered_on.st_rdev, .flags = 0, .formats = rendered},
  };
  const struct wlr_linux_dmabuf_feedback_v1 feedback = {
      .main_device = rendered_on.st_rdev, .tranches_len = 2, .tranches = tranches};
  if (!wlr_linux_dmabuf_v1_set_surface_feedback(gpu->dmabuf, surface, &feedback)) {
    log_error("the program's window cannot be told which buffers are scanned out (linux-dmabuf feedback)");
  }
}

int offer_scanout(struct splashd_host *host, uint64_t device, const struct splashd_host_layout *layouts,
                  size_t count) {
  struct gpu *gpu = host->gpu;
  const struct wlr_drm_format_set *rendered = wlr_renderer_get_dmabuf_texture_formats(host->renderer);
  wlr_drm_format_set_finish(&gpu->scanout_layouts);
  gpu->scanout_device = (dev_t)device;
  int offered = 0;
  for (size_t index = 0; gpu->dmabuf != NULL && rendered != NULL && index < count; index++) {
    uint32_t format = layouts[index].format;
    uint64_t modifier = layouts[index].modifier;
    if (format == DRM_FORMAT_INVALID || !wlr_drm_format_set_has(rendered, format, modifier)) continue;
    if (!wlr_drm_format_set_add(&gpu->scanout_layouts, format, modifier)) {
      wlr_drm_format_set_finish(&gpu->scanout_layouts);
      return 0;
    }
    offered++;
  }
  tell_window_of_scanout(host);
  return offered;
}

/* The target and the pixels for a read of `width` x `height`, made anew
   when the size changed. */
static bool prepare(struct splashd_host *host, int32_t width, int32_t height) {
  struct gpu *gpu = host->gpu;
  if (gpu->target != NULL && (gpu->target->width != width || gpu->target->height != height)) {
    wlr_buffer_drop(gpu->target);
    gpu->target = NULL;
    pixman_image_unref(gpu->pixels);
    gpu->pixels = NULL;
  }
  if (gpu->target == NULL) {
    gpu->target = wlr_allocator_create_buffer(host->allocator, width, height, gpu->format);
    if (gpu->target == NULL) return false;
    gpu->pixels = pixman_image_create_bits_no_clear(PIXMAN_a8r8g8b8, width, height, NULL, 0);
    if (gpu->pixels == NULL) {
      wlr_buffer_drop(gpu->target);
      gpu->target = NULL;
      return false;
    }
  }
  return true;
}

pixman_image_t *read_back(struct splashd_host *host, struct wlr_buffer *buffer) {
  struct wlr_dmabuf_attributes attributes;
  if (host->gpu == NULL || !wlr_buffer_get_dmabuf(buffer, &attributes)) return NULL;
  // Larger than the screen needs is not read: a GPU buffer is cut to the
  // picture as shm ones are (budgets.c caps both sides at 16384).
  if (!prepare(host, buffer->width, buffer->height)) return NULL;
  struct wlr_texture *texture = wlr_texture_from_buffer(host->renderer, buffer);
  if (texture == NULL) return NULL;
  bool read = false;
  if (wlr_renderer_begin_with_buffer(host->renderer, host->gpu->target)) {
    float identity[9];
    wlr_matrix_identity(identity);
    // Cleared to nothing: a frame with nothing in it still reads as nothing.
    wlr_renderer_clear(host->renderer, (float[4]){0, 0, 0, 0});
    wlr_render_texture(host->renderer, texture, identity, 0, 0, 1.0f);
    uint32_t flags = 0;
    pixman_image_t *pixels = host->gpu->pixels;
    read = wlr_renderer_read_pixels(host->renderer, DRM_FORMAT_ARGB8888, &flags,
                                    (uint32_t)pixman_image_get_stride(pixels), (uint32_t)buffer->width,
                                    (uint32_t)buffer->height, 0, 0, 0, 0, pixman_image_get_data(pixels));
    wlr_renderer_end(host->renderer);
    if (read && (flags & WLR_RENDERER_READ_PIXELS_Y_INVERT)) {
      // Rows bottom-up: turned upright in place.
      int32_t stride = pixman_image_get_stride(pixels) / 4;
      uint32_t *rows = pixman_image_get_data(pixels);
      for (int32_t top = 0, bottom = buffer->height - 1; top < bottom; top++, bottom--) {
        for (int32_t x = 0; x < buffer->width; x++) {
          uint32_t kept = rows[top * stride + x];
          rows[top * stride + x] = rows[bottom * stride + x];
          rows[bottom * stride + x] = kept;
        }
      }
    }
  }
  wlr_texture_destroy(texture);
  return read ? host->gpu->pixels : NULL;
}

/* Whether the buffer held is one GPU buffer (a dmabuf), as the program gave it. */
static bool holds_gpu_buffer(struct splashd_host *host) {
  struct wlr_dmabuf_attributes attributes;
  return host->held != NULL && !host->holds_composed && wlr_buffer_get_dmabuf(host->held, &attributes);
}

int compose_begin(struct splashd_host *host, int32_t width, int32_t height) {
  struct gpu *gpu = host->gpu;
  if (gpu == NULL || gpu->composing != NULL || width <= 0 || height <= 0 || width > 16384 || height > 16384 ||
      !holds_gpu_buffer(host)) {
    return 0;
  }
  struct wlr_buffer **buffer = &gpu->composed[gpu->next_composed];
  if (*buffer != NULL && ((*buffer)->width != width || (*buffer)->height != height)) {
    // A display still showing it keeps its memory (its framebuffer does).
    wlr_buffer_drop(*buffer);
    *buffer = NULL;
  }
  if (*buffer == NULL) *buffer = wlr_allocator_create_buffer(host->allocator, width, height, gpu->composed_format);
  if (*buffer == NULL) return 0;
  // The renderer keeps each buffer's texture (and its import) while the
  // buffer lives: made once for each of the program's buffers.
  struct wlr_texture *held = wlr_texture_from_buffer(host->renderer, host->held);
  if (held == NULL) return 0;
  if (!wlr_renderer_begin_with_buffer(host->renderer, *buffer)) {
    wlr_texture_destroy(held);
    return 0;
  }
  gpu->next_composed = (gpu->next_composed + 1) % COMPOSED_BUFFERS;
  gpu->composing = *buffer;
  gpu->held_texture = held;
  wlr_renderer_clear(host->renderer, (float[4]){0, 0, 0, 1});
  return 1;
}

/* The matrix that puts the unit square on `rect` (the renderer projects
   pixels onto the buffer). */
static void rect_matrix(float matrix[static 9], const struct splashd_host_rect *rect) {
  wlr_matrix_identity(matrix);
  wlr_matrix_translate(matrix, rect->x, rect->y);
  wlr_matrix_scale(matrix, rect->width, rect->height);
}

void compose_fill(struct splashd_host *host, const struct splashd_host_rect *rect, const float rgba[4]) {
  if (host->gpu == NULL || host->gpu->composing == NULL) return;
  // The renderer blends premultiplied colours.
  const float alpha = rgba[3];
  const float color[4] = {rgba[0] * alpha, rgba[1] * alpha, rgba[2] * alpha, alpha};
  float matrix[9];
  rect_matrix(matrix, rect);
  wlr_render_quad_with_matrix(host->renderer, color, matrix);
}

void compose_picture(struct splashd_host *host, int32_t picture, const struct splashd_host_rect *source,
                     const float placement[6], float alpha) {
  struct gpu *gpu = host->gpu;
  if (gpu == NULL || gpu->composing == NULL) return;
  struct wlr_texture *texture = picture == 0                                      ? gpu->held_texture
                                : picture > 0 && picture <= gpu->picture_count ? gpu->pictures[picture - 1]
                                                                               : NULL;
  if (texture == NULL) return;
  // The unit square placed as splashd said (the renderer projects pixels onto the buffer).
  const float matrix[9] = {placement[0], placement[1], placement[2], placement[3], placement[4], placement[5], 0, 0, 1};
  const struct wlr_fbox box = {.x = source->x, .y = source->y, .width = source->width, .height = source->height};
  wlr_render_subtexture_with_matrix(host->renderer, texture, &box, matrix, alpha);
}

int compose_end(struct splashd_host *host, struct splashd_host_dmabuf *frame) {
  struct gpu *gpu = host->gpu;
  if (gpu == NULL || gpu->composing == NULL) return 0;
  // Drawn to its end before a display shows it.
  glFinish();
  wlr_renderer_end(host->renderer);
  wlr_texture_destroy(gpu->held_texture);
  gpu->held_texture = NULL;
  struct wlr_buffer *buffer = gpu->composing;
  gpu->composing = NULL;
  return describe_dmabuf(buffer, frame) ? 1 : 0;
}

int32_t compose_upload(struct splashd_host *host, const struct splashd_host_buffer *pixels) {
  struct gpu *gpu = host->gpu;
  // wlroots makes no texture while it renders.
  if (gpu == NULL || gpu->composing != NULL || pixels == NULL || pixels->pixels == NULL || pixels->width <= 0 ||
      pixels->height <= 0 || pixels->width > 16384 || pixels->height > 16384 || pixels->stride < pixels->width * 4) {
    return 0;
  }
  const void *data = pixels->pixels;
  uint32_t stride = (uint32_t)pixels->stride;
  uint32_t *premultiplied = NULL;
  if (pixels->has_alpha) {
    // The renderer blends premultiplied pixels; splashd's are straight.
    premultiplied = malloc((size_t)pixels->width * (size_t)pixels->height * 4);
    if (premultiplied == NULL) return 0;
    for (int32_t y = 0; y < pixels->height; y++) {
      const uint32_t *row = (const uint32_t *)((const uint8_t *)pixels->pixels + (size_t)y * (size_t)pixels->stride);
      uint32_t *out = premultiplied + (size_t)y * (size_t)pixels->width;
      for (int32_t x = 0; x < pixels->width; x++) {
        uint32_t pixel = row[x], alpha = pixel >> 24;
        uint32_t red = ((pixel >> 16 & 0xFF) * alpha + 127) / 255;
        uint32_t green = ((pixel >> 8 & 0xFF) * alpha + 127) / 255;
        uint32_t blue = ((pixel & 0xFF) * alpha + 127) / 255;
        out[x] = alpha << 24 | red << 16 | green << 8 | blue;
      }
    }
    data = premultiplied;
    stride = (uint32_t)pixels->width * 4;
  }
  struct wlr_texture *texture =
      wlr_texture_from_pixels(host->renderer, pixels->has_alpha ? DRM_FORMAT_ARGB8888 : DRM_FORMAT_XRGB8888, stride,
                              (uint32_t)pixels->width, (uint32_t)pixels->height, data);
  free(premultiplied);
  if (texture == NULL) return 0;
  for (int32_t index = 0; index < gpu->picture_count; index++) {
    if (gpu->pictures[index] == NULL) {
      gpu->pictures[index] = texture;
      return index + 1;
    }
  }
  struct wlr_texture **grown = realloc(gpu->pictures, (size_t)(gpu->picture_count + 1) * sizeof *grown);
  if (grown == NULL) {
    wlr_texture_destroy(texture);
    return 0;
  }
  gpu->pictures = grown;
  gpu->pictures[gpu->picture_count++] = texture;
  return gpu->picture_count;
}

void compose_release(struct splashd_host *host, int32_t picture) {
  struct gpu *gpu = host->gpu;
  if (gpu == NULL || picture <= 0 || picture > gpu->picture_count || gpu->pictures[picture - 1] == NULL) return;
  wlr_texture_destroy(gpu->pictures[picture - 1]);
  gpu->pictures[picture - 1] = NULL;
}

void let_go_of_gpu_frames(struct splashd_host *host) {
  struct gpu *gpu = host->gpu;
  if (gpu == NULL || gpu->composing != NULL) return;
  // The screen's framebuffer keeps the memory of a composed frame it still shows.
  for (int index = 0; index < COMPOSED_BUFFERS; index++) {
    if (gpu->composed[index] != NULL) wlr_buffer_drop(gpu->composed[index]);
    gpu->composed[index] = NULL;
  }
  gpu->next_composed = 0;
  if (host->reading || gpu->target == NULL) return;
  wlr_buffer_drop(gpu->target);
  gpu->target = NULL;
  pixman_image_unref(gpu->pixels);
  gpu->pixels = NULL;
}

void stop_renderer(struct splashd_host *host) {
  struct gpu *gpu = host->gpu;
  if (gpu == NULL) return;
  for (int32_t index = 0; index < gpu->picture_count; index++) {
    if (gpu->pictures[index] != NULL) wlr_texture_destroy(gpu->pictures[index]);
  }
  free(gpu->pictures);
  if (gpu->dmabuf != NULL) wl_list_remove(&gpu->dmabuf_destroy.link);
  wlr_drm_format_set_finish(&gpu->scanout_layouts);
  if (gpu->held_texture != NULL) wlr_texture_destroy(gpu->held_texture);
  for (int index = 0; index < COMPOSED_BUFFERS; index++) {
    if (gpu->composed[index] != NULL) wlr_buffer_drop(gpu->composed[index]);
  }
  free(gpu->composed_format);
  if (gpu->target != NULL) wlr_buffer_drop(gpu->target);
  if (gpu->pixels != NULL) pixman_image_unref(gpu->pixels);
  // Its surfaces are gone with the display's clients.
  if (gpu->surfaces != NULL) wlr_renderer_destroy(gpu->surfaces);
  free(gpu->format);
  free(gpu);
  host->gpu = NULL;
}
