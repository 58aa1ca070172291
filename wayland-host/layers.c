// SPDX-License-Identifier: Apache-2.0
// Layer surfaces (wlr-layer-shell): an on-screen keyboard docked at an
// edge, a status bar, a screensaver an integrator adds beside the program.
// Each is arranged on the canvas by its anchors, size and margins; those
// with an exclusive zone take that strip from the area the program's
// window is configured to (`usable`). Stacked by their layer: background
// and bottom below the windows, top and overlay above them (frames.c draws
// them, windows.c finds what lies under a point and gives the keyboard).
#define _GNU_SOURCE
#include "host.h"

#include <stdio.h>
#include <stdlib.h>
#include <wlr/types/wlr_layer_shell_v1.h>

/* At most this many layer surfaces at once, and of one client (a
   keyboard, a bar, an overlay or two): one more is closed as it is made. */
enum { LAYER_SURFACES_CAP = 32, CLIENT_LAYER_SURFACES_CAP = 8 };
/* Configures a layer surface may leave unanswered (wlroots keeps each
   until its ack): past that, it is closed. */
enum { UNACKED_CONFIGURES_CAP = 8 };

/* The edge an exclusive zone is taken from: the surface is anchored to
   that edge alone, or to it and both edges beside it; else none (0). */
static uint32_t exclusive_edge(uint32_t anchor) {
  const uint32_t top = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP, bottom = ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;
  const uint32_t left = ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT, right = ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
  if (anchor == top || anchor == (top | left | right)) return top;
  if (anchor == bottom || anchor == (bottom | left | right)) return bottom;
  if (anchor == left || anchor == (left | top | bottom)) return left;
  if (anchor == right || anchor == (right | top | bottom)) return right;
  return 0;
}

/* One side of a surface's box within `start` .. `start + span`: its size
   (asked, or the span less the margins when 0 and stretched between both
   anchors) and where it begins; at least 1 and at most `limit`. */
static void place_along(int32_t start, int32_t span, uint32_t asked, bool low, bool high, int32_t low_margin,
                        int32_t high_margin, int32_t limit, int32_t *at, int32_t *size) {
  int64_t margins = (int64_t)low_margin + high_margin;
  int64_t wanted = asked != 0 ? (int64_t)asked : (int64_t)span - margins;
  if (wanted > limit) wanted = limit;
  if (wanted < 1) wanted = 1;
  int64_t position;
  if (low && !high) {
    position = start + (int64_t)low_margin;
  } else if (high && !low) {
    position = (int64_t)start + span - wanted - high_margin;
  } else {
    // Centred between both anchors, or neither.
    position = (int64_t)start + (int64_t)low_margin + ((int64_t)span - margins - wanted) / 2;
  }
  *size = (int32_t)wanted;
  // Kept where the canvas's coordinates fit in 32 bits.
  *at = (int32_t)(position < -limit ? -limit : position > 2 * (int64_t)limit ? 2 * (int64_t)limit : position);
}

/* Places `layer` within `bounds` and tells it its size (when that changed,
   or it has none since it was last unmapped). */
static void place(struct layer *layer, const struct wlr_box *bounds) {
  struct splashd_host *host = layer->host;
  const struct wlr_layer_surface_v1_state *state = &layer->surface->current;
  uint32_t anchor = state->anchor;
  int32_t width, height;
  // Margins are the protocol's ints (wlroots keeps them unsigned).
  place_along(bounds->x, bounds->width, state->desired_width, anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT,
              anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT, (int32_t)state->margin.left, (int32_t)state->margin.right,
              host->width, &layer->box.x, &width);
  place_along(bounds->y, bounds->height, state->desired_height, anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP,
              anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM, (int32_t)state->margin.top, (int32_t)state->margin.bottom,
              host->height, &layer->box.y, &height);
  layer->box.width = width;
  layer->box.height = height;
  if (!layer->told || layer->told_width != width || layer->told_height != height) {
    if (wl_list_length(&layer->surface->configure_list) >= UNACKED_CONFIGURES_CAP) {
      // Not answered yet: its size goes at its next commit (which closes
      // it, if it still answers none), not into a list without end.
      layer->told = false;
      return;
    }
    wlr_layer_surface_v1_configure(layer->surface, (uint32_t)width, (uint32_t)height);
    layer->told = true;
    layer->told_width = width;
    layer->told_height = height;
  }
}

/* Takes a mapped surface's exclusive zone (with its margin on that edge)
   from `usable`, as far as the program keeps half the canvas across that
   edge (all the zones together, however many surfaces ask). */
static void take_zone(struct splashd_host *host, const struct layer *layer, struct wlr_box *usable) {
  const struct wlr_layer_surface_v1_state *state = &layer->surface->current;
  uint32_t edge = exclusive_edge(state->anchor);
  if (!layer_shown(layer) || state->exclusive_zone <= 0 || edge == 0) return;
  bool across = edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP || edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;
  int32_t margin = (int32_t)(edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP      ? state->margin.top
                              : edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM ? state->margin.bottom
                              : edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT   ? state->margin.left
                                                                            : state->margin.right);
  int64_t zone = (int64_t)state->exclusive_zone + margin;
  int32_t canvas = across ? host->height : host->width;
  int32_t *extent = across ? &usable->height : &usable->width;
  int64_t kept = canvas - canvas / 2;
  if (zone > *extent - kept) zone = *extent - kept;
  if (zone <= 0) return;
  *extent -= (int32_t)zone;
  if (edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP) usable->y += (int32_t)zone;
  if (edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT) usable->x += (int32_t)zone;
}

void arrange_layers(struct splashd_host *host) {
  struct wlr_box canvas = {.x = 0, .y = 0, .width = host->width, .height = host->height};
  struct wlr_box usable = canvas;
  // Those with an exclusive zone first, the overlay's before the
  // background's, each in the area the ones before left; then the rest, in
  // what is left (or, with a zone of -1, the whole canvas).
  for (int index = LAYER_COUNT - 1; index >= 0; index--) {
    struct layer *layer;
    wl_list_for_each(layer, &host->layers[index], link) {
      // One being unmapped is told nothing (wlroots forgets the configures
      // it has not acknowledged as it unmaps it: its ack would be refused).
      if (layer->unmapping || layer->surface->current.exclusive_zone <= 0) continue;
      place(layer, &usable);
      take_zone(host, layer, &usable);
    }
  }
  for (int index = LAYER_COUNT - 1; index >= 0; index--) {
    struct layer *layer;
    wl_list_for_each(layer, &host->layers[index], link) {
      if (layer->unmapping || layer->surface->current.exclusive_zone > 0) continue;
      place(layer, layer->surface->current.exclusive_zone < 0 ? &canvas : &usable);
    }
  }
  bool changed = usable.x != host->usable.x || usable.y != host->usable.y || usable.width != host->usable.width ||
                 usable.height != host->usable.height;
  host->usable = usable;
  if (changed) send_configure(host);
  note(host, SPLASHD_HOST_NEW_BUFFER);
}

static void handle_layer_map(struct wl_listener *listener, void *data) {
  struct layer *layer = wl_container_of(listener, layer, map);
  (void)data;
  layer->host->layers_shown++;
  arrange_layers(layer->host);
  focus(layer->host);
}

static void handle_layer_unmap(struct wl_listener *listener, void *data) {
  struct layer *layer = wl_container_of(listener, layer, unmap);
  (void)data;
  // Sized again at its next commit (wlroots forgets its configures).
  layer->told = false;
  // wlroots marks it unmapped only after this signal.
  layer->unmapping = true;
  layer->host->layers_shown--;
  // Mapped again, it is pressed on again before it has the keyboard.
  if (layer->host->keyboard_layer == layer) layer->host->keyboard_layer = NULL;
  arrange_layers(layer->host);
  focus(layer->host);
  layer->unmapping = false;
}

static void handle_layer_destroy(struct wl_listener *listener, void *data) {
  struct layer *layer = wl_container_of(listener, layer, destroy);
  (void)data;
  struct splashd_host *host = layer->host;
  if (host->keyboard_layer == layer) host->keyboard_layer = NULL;
  wl_list_remove(&layer->link);
  wl_list_remove(&layer->map.link);
  wl_list_remove(&layer->unmap.link);
  wl_list_remove(&layer->destroy.link);
  wl_list_remove(&layer->commit.link);
  wl_list_remove(&layer->new_popup.link);
  // wlroots 0.15.1 destroys a layer surface's popups as it unmaps it, not
  // as it destroys one never mapped: those would stay in its freed list.
  struct wlr_xdg_popup *popup, *next;
  wl_list_for_each_safe(popup, next, &layer->surface->popups, link) wlr_xdg_popup_destroy(popup->base);
  layer->surface->data = NULL;
  free(layer);
  host->layer_surfaces--;
  arrange_layers(host);
  focus(host);
}

void keep_layer_popup_on_screen(struct wlr_layer_surface_v1 *surface, struct wlr_xdg_popup *popup) {
  // NULL: the layer surface is gone, its surface keeping the role.
  struct layer *layer = surface != NULL ? surface->data : NULL;
  if (layer == NULL) return;
  // In the layer surface's coordinates, as wlroots takes it.
  struct wlr_box canvas = {
      .x = -layer->box.x, .y = -layer->box.y, .width = layer->host->width, .height = layer->host->height};
  wlr_xdg_popup_unconstrain_from_box(popup, &canvas);
}

/* A popup given to the surface (get_popup) is kept on the canvas. */
static void handle_layer_new_popup(struct wl_listener *listener, void *data) {
  struct layer *layer = wl_container_of(listener, layer, new_popup);
  keep_layer_popup_on_screen(layer->surface, data);
}

/* A commit that changed the surface's state (its anchors, size, zone,
   layer), or its first since it was made or unmapped (it waits for a
   configure), arranges the layers again; one that leaves too many configures
   unanswered closes it. */
static void handle_layer_commit(struct wl_listener *listener, void *data) {
  struct layer *layer = wl_container_of(listener, layer, commit);
  (void)data;
  struct wlr_layer_surface_v1 *surface = layer->surface;
  if (wl_list_length(&surface->configure_list) > UNACKED_CONFIGURES_CAP) {
    log_limited("a layer surface left its configures unanswered: closed");
    wlr_layer_surface_v1_destroy(surface);
    return;
  }
  const struct wlr_layer_surface_v1_state *state = &surface->current;
  bool stretched = (state->anchor & (ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT)) ==
                   (ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
  bool tall = (state->anchor & (ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM)) ==
              (ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM);
  if ((state->desired_width == 0 && !stretched) || (state->desired_height == 0 && !tall)) {
    // The protocol's own rule, which wlroots 0.15 leaves to compositors.
    wl_resource_post_error(surface->resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE,
                           "a width or height of 0 needs the surface anchored to both edges across it");
    return;
  }
  if (state->layer != layer->layer) {
    wl_list_remove(&layer->link);
    layer->layer = (uint32_t)state->layer < LAYER_COUNT ? state->layer : ZWLR_LAYER_SHELL_V1_LAYER_TOP;
    wl_list_insert(layer->host->layers[layer->layer].prev, &layer->link);
  }
  if (state->committed != 0 || !layer->told) arrange_layers(layer->host);
  // Whether it asks for the keyboard, or lies above the windows, changed.
  if (state->committed & (WLR_LAYER_SURFACE_V1_STATE_KEYBOARD_INTERACTIVITY | WLR_LAYER_SURFACE_V1_STATE_LAYER)) {
    // One that no longer asks on demand is pressed on again before it has
    // the keyboard, should it ask again.
    if (layer->host->keyboard_layer == layer &&
        state->keyboard_interactive != ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND) {
      layer->host->keyboard_layer = NULL;
    }
    focus(layer->host);
  }
}

/* How many layer surfaces `client` has. */
static int layer_surfaces_of(const struct splashd_host *host, const struct wl_client *client) {
  int count = 0;
  for (int index = 0; index < LAYER_COUNT; index++) {
    struct layer *layer;
    wl_list_for_each(layer, &host->layers[index], link) {
      if (wl_resource_get_client(layer->surface->resource) == client) count++;
    }
  }
  return count;
}

static void handle_new_layer_surface(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_layer_surface);
  struct wlr_layer_surface_v1 *surface = data;
  bool within = host->layer_surfaces < LAYER_SURFACES_CAP &&
                layer_surfaces_of(host, wl_resource_get_client(surface->resource)) < CLIENT_LAYER_SURFACES_CAP;
  struct layer *layer = within ? calloc(1, sizeof *layer) : NULL;
  if (layer == NULL) {
    log_limited("a layer surface over the compositor's 32, or its client's 8 (or no memory for it): closed");
    wlr_layer_surface_v1_destroy(surface);
    return;
  }
  // On the one output there is, whichever the client named.
  surface->output = host->output;
  layer->host = host;
  layer->surface = surface;
  layer->layer = (uint32_t)surface->current.layer < LAYER_COUNT ? surface->current.layer : ZWLR_LAYER_SHELL_V1_LAYER_TOP;
  wl_list_insert(host->layers[layer->layer].prev, &layer->link);
  host->layer_surfaces++;
  layer->map.notify = handle_layer_map;
  wl_signal_add(&surface->events.map, &layer->map);
  layer->unmap.notify = handle_layer_unmap;
  wl_signal_add(&surface->events.unmap, &layer->unmap);
  layer->destroy.notify = handle_layer_destroy;
  wl_signal_add(&surface->events.destroy, &layer->destroy);
  layer->new_popup.notify = handle_layer_new_popup;
  wl_signal_add(&surface->events.new_popup, &layer->new_popup);
  surface->data = layer;
  layer->commit.notify = handle_layer_commit;
  // Its first commit (this one: its commit signal comes next) is
  // answered with its size.
  wl_signal_add(&surface->surface->events.commit, &layer->commit);
}

void layer_pressed(struct splashd_host *host, struct wlr_surface *surface) {
  // A press on a subsurface is its parent's, and one on a popup (or a
  // subsurface of one) the popup's parent's: a launcher's menu keeps its
  // keyboard.
  while (surface != NULL) {
    surface = wlr_surface_get_root_surface(surface);
    struct wlr_xdg_surface *xdg = wlr_surface_is_xdg_surface(surface) ? wlr_xdg_surface_from_wlr_surface(surface) : NULL;
    if (xdg == NULL || xdg->role != WLR_XDG_SURFACE_ROLE_POPUP) break;
    surface = xdg->popup->parent;
  }
  if (surface == NULL) return;
  for (int index = 0; index < LAYER_COUNT; index++) {
    struct layer *layer;
    wl_list_for_each(layer, &host->layers[index], link) {
      if (layer->surface->surface != surface) continue;
      if (layer->surface->current.keyboard_interactive != ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND) return;
      host->keyboard_layer = layer;
      focus(host);
      return;
    }
  }
  if (host->keyboard_layer == NULL) return;
  host->keyboard_layer = NULL;
  focus(host);
}

struct wlr_surface *keyboard_layer_surface(const struct splashd_host *host) {
  const struct layer *layer = host->keyboard_layer;
  if (layer == NULL || !layer_shown(layer) ||
      layer->surface->current.keyboard_interactive != ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND) {
    return NULL;
  }
  return layer->surface->surface;
}

void start_layers(struct splashd_host *host) {
  for (int index = 0; index < LAYER_COUNT; index++) wl_list_init(&host->layers[index]);
  host->usable = (struct wlr_box){.width = host->width, .height = host->height};
  struct wlr_layer_shell_v1 *shell = wlr_layer_shell_v1_create(host->display);
  if (shell == NULL) {
    log_error("wlr_layer_shell_v1_create failed: no layer surfaces (on-screen keyboards, bars)");
    return;
  }
  host->new_layer_surface.notify = handle_new_layer_surface;
  wl_signal_add(&shell->events.new_surface, &host->new_layer_surface);
}
