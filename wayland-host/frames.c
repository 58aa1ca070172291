// SPDX-License-Identifier: Apache-2.0
// Frames: commits noted as new frames, the held frame (a buffer, or the
// windows composed with the cursor), frame callbacks and presentation
// feedback, and the screen given to screencopy clients.
#define _GNU_SOURCE
#include "host.h"

#include <drm_fourcc.h>
#include <stdlib.h>
#include <time.h>
#include <wlr/interfaces/wlr_output.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_input_method_v2.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_seat.h>

/* Takes note of what a commit of `surface` changed in the program's
   window: its buffer's damage when it is the first window's surface shown
   as it is (unscaled, unturned, no subsurface moved), else all of it. */
static void note_damage(struct splashd_host *host, struct wlr_surface *surface) {
  if (host->pending_whole) return;
  struct wlr_surface *main = host->first != NULL ? window_surface(host->first) : NULL;
  if (surface != main || surface->current.scale != 1 || surface->current.transform != WL_OUTPUT_TRANSFORM_NORMAL ||
      pixman_region32_not_empty(&surface->external_damage)) {
    host->pending_whole = true;
    return;
  }
  pixman_box32_t *extents = pixman_region32_extents(&surface->buffer_damage);
  if (extents->x2 > extents->x1 && extents->y2 > extents->y1) {
    pixman_region32_union_rect(&host->pending_damage, &host->pending_damage, extents->x1, extents->y1,
                               (unsigned)(extents->x2 - extents->x1), (unsigned)(extents->y2 - extents->y1));
  }
}

/* A commit anywhere in the program's windows is a new frame of them (a
   commit without a buffer unmaps a surface: what it covered shows again);
   one elsewhere costs a composition that shows the same. */
static void handle_surface_commit(struct wl_listener *listener, void *data) {
  struct watched_surface *watched = wl_container_of(listener, watched, commit);
  (void)data;
  if (watched->host->first == NULL) return;
  note_damage(watched->host, watched->surface);
  note(watched->host, SPLASHD_HOST_NEW_BUFFER);
}

void note_whole_frame(struct splashd_host *host) {
  host->pending_whole = true;
  if (host->first != NULL) note(host, SPLASHD_HOST_NEW_BUFFER);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
  struct watched_surface *watched = wl_container_of(listener, watched, destroy);
  (void)data;
  // A closed popup or subsurface: what it covered shows again.
  note_whole_frame(watched->host);
  wl_list_remove(&watched->commit.link);
  wl_list_remove(&watched->destroy.link);
  free(watched);
}

void handle_new_surface(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_surface);
  struct wlr_surface *surface = data;
  struct watched_surface *watched = calloc(1, sizeof *watched);
  if (watched == NULL) return;
  watched->host = host;
  watched->surface = surface;
  watched->commit.notify = handle_surface_commit;
  wl_signal_add(&surface->events.commit, &watched->commit);
  watched->destroy.notify = handle_surface_destroy;
  wl_signal_add(&surface->events.destroy, &watched->destroy);
}

/* The output wants a frame: a screencopy client asked for the screen
   (wlroots schedules the output's frame, and copies what is committed). */
void handle_output_frame(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, output_frame);
  (void)data;
  note(host, SPLASHD_HOST_FRAME_WANTED);
}

static void count_shown(struct wlr_surface *surface, int sx, int sy, void *data) {
  (void)sx;
  (void)sy;
  if (surface->buffer != NULL && surface->buffer->source != NULL) ++*(int *)data;
}

/* Whether 32-bit pixels of `buffer` lie within `stride`: libwayland
   checks only that a row has as many bytes as pixels. */
static bool rows_fit(const struct wlr_buffer *buffer, size_t stride) {
  return buffer->width > 0 && buffer->height > 0 && stride % 4 == 0 && stride / 4 >= (size_t)buffer->width;
}

/* Where a window's surfaces go in the composed picture. */
struct placement {
  struct splashd_host *host;
  int x, y;
};

/* A buffer's pixels open for reading: a client's shared memory as it is,
   or its GPU buffer read back (read_back: the GPU variant's). */
struct opened_pixels {
  void *data;
  pixman_format_code_t code;
  size_t stride;
  bool read_back;
};

/* Opens `buffer`'s pixels (32-bit, rows inside the buffer); false when
   they cannot be read. */
static bool open_pixels(struct splashd_host *host, struct wlr_buffer *buffer, struct opened_pixels *opened) {
  uint32_t format;
  if (wlr_buffer_begin_data_ptr_access(buffer, WLR_BUFFER_DATA_PTR_ACCESS_READ, &opened->data, &format,
                                       &opened->stride)) {
    opened->read_back = false;
    opened->code = format == DRM_FORMAT_ARGB8888   ? PIXMAN_a8r8g8b8
                   : format == DRM_FORMAT_XRGB8888 ? PIXMAN_x8r8g8b8
                                                   : (pixman_format_code_t)0;
    if (opened->code != 0 && rows_fit(buffer, opened->stride)) return true;
    wlr_buffer_end_data_ptr_access(buffer);
    return false;
  }
  pixman_image_t *image = read_back(host, buffer);
  if (image == NULL) return false;
  struct wlr_dmabuf_attributes attributes;
  bool alpha = wlr_buffer_get_dmabuf(buffer, &attributes) &&
               (attributes.format == DRM_FORMAT_ARGB8888 || attributes.format == DRM_FORMAT_ABGR8888);
  opened->data = pixman_image_get_data(image);
  opened->code = alpha ? PIXMAN_a8r8g8b8 : PIXMAN_x8r8g8b8;
  opened->stride = (size_t)pixman_image_get_stride(image);
  opened->read_back = true;
  return true;
}

static void close_pixels(struct wlr_buffer *buffer, struct opened_pixels *opened) {
  if (!opened->read_back) wlr_buffer_end_data_ptr_access(buffer);
}

/* Draws one surface over what is composed so far, at its place. One
   wholly outside the picture is passed over before anything is made or
   read (its buffer's size is known without reading it); every image made
   is drawn and released on one path. */
static void compose_surface(struct wlr_surface *surface, int sx, int sy, void *data) {
  struct placement *placement = data;
  struct splashd_host *host = placement->host;
  if (surface->buffer == NULL || surface->buffer->source == NULL) return;
  struct wlr_buffer *source = surface->buffer->source;
  int64_t x = (int64_t)sx + placement->x, y = (int64_t)sy + placement->y;
  int32_t width = pixman_image_get_width(host->composed), height = pixman_image_get_height(host->composed);
  if (x >= width || y >= height || x + source->width <= 0 || y + source->height <= 0) return;
  struct opened_pixels opened;
  if (!open_pixels(host, source, &opened)) return;
  // NULL too when pixman refuses the buffer (a stride past what it takes): not drawn.
  pixman_image_t *image = pixman_image_create_bits_no_clear(opened.code, source->width, source->height, opened.data,
                                                            (int)opened.stride);
  if (image != NULL) {
    // x and y lie within (-the buffer's size, the picture's): int32_t.
    pixman_image_composite32(PIXMAN_OP_OVER, image, NULL, host->composed, 0, 0, 0, 0, (int32_t)x, (int32_t)y,
                             source->width, source->height);
    pixman_image_unref(image);
  }
  close_pixels(source, &opened);
}

/* Draws the shown layer surfaces of layers `from` to `to` (the oldest of
   each first), each with its popups, at their places on the canvas (the
   picture is the canvas while they show). */
static void compose_layers(struct splashd_host *host, int from, int to, struct placement *placement) {
  for (int index = from; index <= to; index++) {
    struct layer *layer;
    wl_list_for_each(layer, &host->layers[index], link) {
      if (!layer_shown(layer)) continue;
      placement->x = layer->box.x;
      placement->y = layer->box.y;
      wlr_layer_surface_v1_for_each_surface(layer->surface, compose_surface, placement);
    }
  }
}

/* Where the surface `field` lies in the picture `places` describes: a
   window's main surface, or a layer surface's; false for another. */
static bool surface_place(struct splashd_host *host, const struct window_places *places, struct wlr_surface *field,
                          int64_t *x, int64_t *y) {
  if (host->first != NULL && window_surface(host->first) == field) {
    *x = places->first_x - places->picture_x;
    *y = places->first_y - places->picture_y;
    return true;
  }
  struct window *later;
  wl_list_for_each(later, &host->later, link) {
    if (window_mapped(later) && window_surface(later) == field) {
      place_later(places, later, x, y);
      *x -= places->picture_x;
      *y -= places->picture_y;
      return true;
    }
  }
  for (int index = 0; index < LAYER_COUNT; index++) {
    struct layer *layer;
    wl_list_for_each(layer, &host->layers[index], link) {
      if (layer_shown(layer) && layer->surface->surface == field) {
        *x = layer->box.x - places->picture_x;
        *y = layer->box.y - places->picture_y;
        return true;
      }
    }
  }
  return false;
}

/* Draws the input method's popups (a candidate list) under the served
   field's text cursor, or above it where they would pass the picture's
   bottom, moved up and left as far as needed to stay in it. */
static void compose_input_popups(struct splashd_host *host, const struct window_places *places,
                                 struct placement *placement) {
  struct wlr_surface *field;
  struct wlr_box cursor;
  int64_t x, y;
  if (!input_popup_anchor(host, &field, &cursor) || !surface_place(host, places, field, &x, &y)) return;
  struct wlr_input_popup_surface_v2 *popup;
  wl_list_for_each(popup, &host->input_method->popup_surfaces, link) {
    if (!popup->mapped) continue;
    int64_t width = popup->surface->current.width, height = popup->surface->current.height;
    int64_t left = x + cursor.x, top = y + cursor.y + cursor.height;
    if (top + height > places->picture_height && y + cursor.y - height >= 0) top = y + cursor.y - height;
    // A cursor the client put anywhere: the popup still in the picture.
    if (top + height > places->picture_height) top = places->picture_height - height;
    if (top < 0) top = 0;
    if (left + width > places->picture_width) left = places->picture_width - width;
    if (left < 0) left = 0;
    // Within the picture: int.
    placement->x = (int)left;
    placement->y = (int)top;
    wlr_surface_for_each_surface(popup->surface, compose_surface, placement);
  }
}

/* The program as one picture: the layer surfaces below the windows, the
   first toplevel with its subsurfaces and popups where they lie (those
   below it first), then each later toplevel's window (with its own)
   centred over that, the layer surfaces above the windows, the input
   method's popups, then the cursor, on black. The picture is the first toplevel's size, cut to the
   window's configured size around its middle (as splashd centres it), so
   that a client's huge buffer costs no more than the screen; the whole
   canvas while layer surfaces show. */
static int compose(struct splashd_host *host) {
  struct window_places places;
  place_windows(host, &places);
  int32_t width = (int32_t)places.picture_width, height = (int32_t)places.picture_height;
  if (host->composed != NULL &&
      (pixman_image_get_width(host->composed) != width || pixman_image_get_height(host->composed) != height ||
       pixman_image_get_format(host->composed) != PIXMAN_x8r8g8b8)) {
    pixman_image_unref(host->composed);
    host->composed = NULL;
  }
  if (host->composed == NULL) {
    host->composed = pixman_image_create_bits(PIXMAN_x8r8g8b8, width, height, NULL, 0);
    if (host->composed == NULL) return 0;
  }
  pixman_color_t black = {0, 0, 0, 0xFFFF};
  pixman_box32_t whole = {0, 0, width, height};
  pixman_image_fill_boxes(PIXMAN_OP_SRC, host->composed, &black, 1, &whole);
  struct placement placement = {.host = host};
  compose_layers(host, ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND, ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM, &placement);
  placement.x = (int)(places.first_x - places.picture_x);
  placement.y = (int)(places.first_y - places.picture_y);
  window_for_each_surface(host->first, compose_surface, &placement);
  struct window *later;
  wl_list_for_each(later, &host->later, link) {
    if (!window_mapped(later)) continue;
    int64_t x, y;
    place_later(&places, later, &x, &y);
    placement.x = (int)(x - places.picture_x);
    placement.y = (int)(y - places.picture_y);
    window_for_each_surface(later, compose_surface, &placement);
  }
  compose_layers(host, ZWLR_LAYER_SHELL_V1_LAYER_TOP, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY, &placement);
  compose_input_popups(host, &places, &placement);
  // The cursor's hotspot at the pointer, the picture being centred on the canvas.
  int64_t pointer_x = (int64_t)host->pointer_x - places.picture_x;
  int64_t pointer_y = (int64_t)host->pointer_y - places.picture_y;
  switch (drawn_cursor(host)) {
  case CLIENTS_CURSOR:
    placement.x = (int)(pointer_x - host->cursor_hotspot_x);
    placement.y = (int)(pointer_y - host->cursor_hotspot_y);
    wlr_surface_for_each_surface(host->cursor, compose_surface, &placement);
    break;
  case ARROW: {
    struct wlr_xcursor_image *image = arrow(host);
    pixman_image_t *picture = pixman_image_create_bits_no_clear(
        PIXMAN_a8r8g8b8, (int)image->width, (int)image->height, (uint32_t *)image->buffer, (int)image->width * 4);
    if (picture != NULL) {
      pixman_image_composite32(PIXMAN_OP_OVER, picture, NULL, host->composed, 0, 0, 0, 0,
                               (int32_t)(pointer_x - image->hotspot_x), (int32_t)(pointer_y - image->hotspot_y),
                               (int32_t)image->width, (int32_t)image->height);
      pixman_image_unref(picture);
    }
    break;
  }
  case NO_CURSOR:
    break;
  }
  return 1;
}

/* Lets go of the held frame. */
void drop_held(struct splashd_host *host) {
  if (host->reading) return;
  if (host->held != NULL) wlr_buffer_unlock(host->held);
  host->held = NULL;
  host->held_client = NULL;
  if (host->holds_composed && host->composed != NULL) {
    pixman_image_unref(host->composed);
    host->composed = NULL;
  }
  host->holds_composed = false;
}

/* Whether `source`'s pixels can be shown: 32-bit, rows inside the buffer,
   or a GPU buffer's. */
static bool readable(struct wlr_buffer *source) {
  // A GPU buffer is read back only when drawn (never when scanned out).
  struct wlr_dmabuf_attributes attributes;
  if (wlr_buffer_get_dmabuf(source, &attributes)) return true;
  void *data;
  uint32_t format;
  size_t stride;
  if (!wlr_buffer_begin_data_ptr_access(source, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) return false;
  bool fits = (format == DRM_FORMAT_ARGB8888 || format == DRM_FORMAT_XRGB8888) && rows_fit(source, stride);
  wlr_buffer_end_data_ptr_access(source);
  return fits;
}

int hold_frame(struct splashd_host *host) {
  if (host->first == NULL || host->reading) return 0;
  struct wlr_surface *surface = window_surface(host->first);
  if (surface == NULL) return 0;
  // The shm buffer itself (the client buffer wrapping it has no pixels of
  // its own under pixman), kept by its texture until the next commit.
  if (surface->buffer == NULL || surface->buffer->source == NULL) return 0;
  struct wlr_buffer *source = surface->buffer->source;
  if (!readable(source)) return 0;
  // A window of one surface is held as it is; one of several, or one
  // under the cursor, is composed first (its own buffer left alone).
  int shown = 0;
  window_for_each_surface(host->first, count_shown, &shown);
  struct window *later;
  wl_list_for_each(later, &host->later, link) {
    if (window_mapped(later)) shown++;
  }
  shown += host->layers_shown + input_popups_shown(host);
  // What changed since the frame held before: the surface's damage, when
  // this frame is its buffer as it is and the one before was one of the
  // same size.
  bool whole = host->pending_whole || host->holds_composed || host->held == NULL ||
               host->held->width != source->width || host->held->height != source->height;
  if (shown > 1 || drawn_cursor(host) != NO_CURSOR) {
    // Composed first: should that fail, what was held stays held.
    if (!compose(host)) return 0;
    if (host->held != NULL) wlr_buffer_unlock(host->held);
    host->held = NULL;
    host->held_client = NULL;
    host->holds_composed = true;
    whole = true;
  } else {
    struct wlr_buffer *locked = wlr_buffer_lock(source);
    drop_held(host);
    host->held = locked;
    host->held_client = wl_resource_get_client(surface->resource);
  }
  host->held_whole = whole;
  pixman_region32_copy(&host->held_damage, &host->pending_damage);
  pixman_region32_clear(&host->pending_damage);
  host->pending_whole = false;
  // What is held now is what the next frame shows: its feedback then.
  struct wlr_presentation_feedback *feedback = wlr_presentation_surface_sampled(host->presentation, surface);
  if (feedback != NULL) {
    if (host->feedback != NULL) wlr_presentation_feedback_destroy(host->feedback);
    host->feedback = feedback;
  }
  return 1;
}

int held_damage(struct splashd_host *host, int32_t box[4]) {
  if (host->held_whole) return 0;
  pixman_box32_t *extents = pixman_region32_extents(&host->held_damage);
  box[0] = extents->x1;
  box[1] = extents->y1;
  box[2] = extents->x2 - extents->x1;
  box[3] = extents->y2 - extents->y1;
  return 1;
}

int held_dmabuf(struct splashd_host *host, struct splashd_host_dmabuf *dmabuf) {
  // A composed window is splashd's own picture, never the client's buffer.
  if (host->held == NULL || host->holds_composed) return 0;
  return describe_dmabuf(host->held, dmabuf) ? 1 : 0;
}

void shown_as_is(struct splashd_host *host) {
  if (host->held == NULL || host->holds_composed || host->held == host->shown) return;
  // The first of the program's buffers scanned out after frames of splashd's.
  bool first = host->shown == NULL;
  struct wlr_buffer *locked = wlr_buffer_lock(host->held);
  shown_composed(host);
  host->shown = locked;
  if (first) let_go_of_gpu_frames(host);
}

void shown_composed(struct splashd_host *host) {
  if (host->shown != NULL) wlr_buffer_unlock(host->shown);
  host->shown = NULL;
}

bool keep_held_pixels(struct splashd_host *host) {
  struct wlr_buffer *held = host->held;
  if (held == NULL || host->reading) return false;
  int32_t width = held->width < host->width ? held->width : host->width;
  int32_t height = held->height < host->height ? held->height : host->height;
  struct opened_pixels opened;
  if (!open_pixels(host, held, &opened)) return false;
  pixman_image_t *copy = NULL;
  pixman_image_t *source =
      pixman_image_create_bits_no_clear(opened.code, held->width, held->height, opened.data, (int)opened.stride);
  if (source != NULL) {
    // The middle, as splashd centres a larger frame on the canvas; in the
    // held buffer's format, its alpha too (a frame with nothing in it
    // still shows nothing).
    copy = pixman_image_create_bits_no_clear(opened.code, width, height, NULL, 0);
    if (copy != NULL) {
      pixman_image_composite32(PIXMAN_OP_SRC, source, NULL, copy, (held->width - width) / 2,
                               (held->height - height) / 2, 0, 0, 0, 0, width, height);
    }
    pixman_image_unref(source);
  }
  close_pixels(held, &opened);
  if (copy == NULL) return false;
  if (host->composed != NULL) pixman_image_unref(host->composed);
  host->composed = copy;
  host->holds_composed = true;
  wlr_buffer_unlock(held);
  host->held = NULL;
  host->held_client = NULL;
  return true;
}

int begin_held(struct splashd_host *host, struct splashd_host_buffer *buffer) {
  if (host->reading) return 0;
  if (host->holds_composed && host->composed != NULL) {
    buffer->pixels = pixman_image_get_data(host->composed);
    buffer->width = pixman_image_get_width(host->composed);
    buffer->height = pixman_image_get_height(host->composed);
    buffer->stride = pixman_image_get_stride(host->composed);
    // Composed: opaque; a frame kept as its client went: as it was.
    buffer->has_alpha = pixman_image_get_format(host->composed) == PIXMAN_a8r8g8b8;
    host->reading = true;
    return 1;
  }
  if (host->held == NULL) return 0;
  // Taken again at each read: a client may move its memory between reads
  // (a resized pool), and its shrinking the memory is caught only while
  // the buffer is being accessed. A GPU buffer is read back at each read.
  struct opened_pixels opened;
  if (!open_pixels(host, host->held, &opened)) return 0;
  buffer->pixels = opened.data;
  buffer->width = host->held->width;
  buffer->height = host->held->height;
  buffer->stride = (int32_t)opened.stride;
  buffer->has_alpha = opened.code == PIXMAN_a8r8g8b8;
  host->reading = true;
  host->reading_back = opened.read_back;
  return 1;
}

void end_held(struct splashd_host *host) {
  if (!host->reading) return;
  if (host->held != NULL && !host->reading_back) wlr_buffer_end_data_ptr_access(host->held);
  host->reading = false;
}

static void send_frame_done(struct wlr_surface *surface, int sx, int sy, void *data) {
  (void)sx;
  (void)sy;
  wlr_surface_send_frame_done(surface, data);
}

void frame_done(struct splashd_host *host, int64_t monotonic_ns, int64_t refresh_ns) {
  struct timespec when = {.tv_sec = monotonic_ns / 1000000000, .tv_nsec = monotonic_ns % 1000000000};
  // The output's refresh (wl_output's mode, for clients that time by it)
  // is the screen's, not the headless back end's 60 Hz.
  int32_t refresh_mhz = refresh_ns > 0 ? (int32_t)((1000000000000LL + refresh_ns / 2) / refresh_ns) : 0;
  if (refresh_mhz > 0 && host->output->refresh != refresh_mhz) {
    wlr_output_update_custom_mode(host->output, host->output->width, host->output->height, refresh_mhz);
  }
  if (host->first != NULL) window_for_each_surface(host->first, send_frame_done, &when);
  struct window *later;
  wl_list_for_each(later, &host->later, link) { window_for_each_surface(later, send_frame_done, &when); }
  for (int index = 0; index < LAYER_COUNT; index++) {
    struct layer *layer;
    wl_list_for_each(layer, &host->layers[index], link) {
      if (layer_shown(layer)) wlr_layer_surface_v1_for_each_surface(layer->surface, send_frame_done, &when);
    }
  }
  if (input_popups_shown(host) > 0) {
    struct wlr_input_popup_surface_v2 *popup;
    wl_list_for_each(popup, &host->input_method->popup_surfaces, link) {
      if (popup->mapped) wlr_surface_for_each_surface(popup->surface, send_frame_done, &when);
    }
  }
  if (drawn_cursor(host) == CLIENTS_CURSOR) wlr_surface_for_each_surface(host->cursor, send_frame_done, &when);
  if (host->feedback != NULL) {
    struct wlr_presentation_event event = {
        .output = host->output,
        .tv_sec = (uint64_t)when.tv_sec,
        .tv_nsec = (uint32_t)when.tv_nsec,
        .refresh = (uint32_t)refresh_ns,
        .seq = ++host->frames,
        // No kind flags: whether the frame met a vblank is the output's to say.
        .flags = 0,
    };
    wlr_presentation_feedback_send_presented(host->feedback, &event);
    wlr_presentation_feedback_destroy(host->feedback);
    host->feedback = NULL;
  }
  flush(host);
}

/* The screencopy clients waiting for a frame are told it failed (wlroots
   fails them when their output is disabled), rather than left waiting. */
static void fail_screen_copies(struct splashd_host *host) {
  wlr_output_update_enabled(host->output, false);
  wlr_output_update_enabled(host->output, true);
  flush(host);
}

int show_screen(struct splashd_host *host, const struct splashd_host_buffer *screen) {
  struct wlr_output *output = host->output;
  if (screen == NULL || screen->pixels == NULL || screen->width <= 0 || screen->height <= 0 ||
      screen->stride < screen->width * 4) {
    fail_screen_copies(host);
    return 0;
  }
  if (output->width != screen->width || output->height != screen->height) {
    wlr_output_set_custom_mode(output, screen->width, screen->height, output->refresh);
  }
  if (!wlr_output_attach_render(output, NULL)) {
    wlr_output_rollback(output);
    fail_screen_copies(host);
    return 0;
  }
  struct wlr_texture *texture = wlr_texture_from_pixels(host->renderer, DRM_FORMAT_XRGB8888, (uint32_t)screen->stride,
                                                        (uint32_t)screen->width, (uint32_t)screen->height,
                                                        screen->pixels);
  if (texture == NULL) {
    wlr_output_rollback(output);
    fail_screen_copies(host);
    return 0;
  }
  wlr_renderer_begin(host->renderer, (uint32_t)screen->width, (uint32_t)screen->height);
  wlr_render_texture(host->renderer, texture, output->transform_matrix, 0, 0, 1.0f);
  wlr_renderer_end(host->renderer);
  wlr_texture_destroy(texture);
  int committed = wlr_output_commit(output);
  // The back end is not started: no timer ends the frame it began, and
  // the next screencopy's frame must be had.
  output->frame_pending = false;
  if (!committed) fail_screen_copies(host);
  // The copies made at the commit go out now, not at the next dispatch.
  flush(host);
  return committed;
}
