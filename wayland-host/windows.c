// SPDX-License-Identifier: Apache-2.0
// Windows (xdg-shell toplevels and X11's) and popups: which is the
// program's, which has the keyboard, where each lies on the canvas and what
// lies under a point.
#define _GNU_SOURCE
#include "host.h"

#include <stdlib.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/util/box.h>

/* The surface a window shows (NULL: an X11 window not associated with
   its surface yet, or no more). */
struct wlr_surface *window_surface(const struct window *window) {
  return window->xdg != NULL ? window->xdg->surface : window->x11->surface;
}

bool window_mapped(const struct window *window) { return window->mapped && window_surface(window) != NULL; }

/* Each surface of the window (its subsurfaces and popups too), below it first. */
void window_for_each_surface(struct window *window, wlr_surface_iterator_func_t iterator, void *data) {
  if (window->xdg != NULL) {
    wlr_xdg_surface_for_each_surface(window->xdg, iterator, data);
  } else if (window->x11->surface != NULL) {
    wlr_surface_for_each_surface(window->x11->surface, iterator, data);
  }
}

static struct wlr_surface *window_surface_at(struct window *window, double x, double y, double *sx, double *sy) {
  if (window->xdg != NULL) return wlr_xdg_surface_surface_at(window->xdg, x, y, sx, sy);
  return window->x11->surface != NULL ? wlr_surface_surface_at(window->x11->surface, x, y, sx, sy) : NULL;
}

/* The window's own part of its surface (without the shadows a client
   draws around it). */
static void window_geometry(const struct window *window, struct wlr_box *box) {
  if (window->xdg != NULL) {
    wlr_xdg_surface_get_geometry(window->xdg, box);
  } else {
    *box = (struct wlr_box){.width = window->x11->width, .height = window->x11->height};
  }
}

/* Tells a window whether it is the active one, when that changes (for an
   xdg toplevel each change is a configure; an X11 window is given the X
   input focus). */
static void activate(struct window *window, bool active) {
  if (window->xdg != NULL) {
    if (window->xdg->toplevel->scheduled.activated != active) wlr_xdg_toplevel_set_activated(window->xdg, active);
  } else if (!window->x11->override_redirect) {
    wlr_xwayland_surface_activate(window->x11, active);
  }
}

/* Configures `window` full screen in what the layer surfaces leave of
   the canvas (all of it, without them): the program's. */
void configure_full_screen(struct splashd_host *host, struct window *window) {
  int32_t width = host->usable.width, height = host->usable.height;
  if (window->xdg != NULL) {
    wlr_xdg_toplevel_set_size(window->xdg, (uint32_t)width, (uint32_t)height);
    wlr_xdg_toplevel_set_fullscreen(window->xdg, true);
    wlr_xdg_toplevel_set_activated(window->xdg, true);
  } else {
    wlr_xwayland_surface_configure(window->x11, 0, 0, (uint16_t)width, (uint16_t)height);
    wlr_xwayland_surface_set_fullscreen(window->x11, true);
  }
}

/* The first window is the program's: full screen at the canvas's size. */
void send_configure(struct splashd_host *host) {
  if (host->first != NULL) configure_full_screen(host, host->first);
}

/* Whether a window takes the keyboard: X11's menus and tooltips
   (override-redirect) do not. */
static bool takes_focus(const struct window *window) { return window->xdg != NULL || !window->x11->override_redirect; }

/* The newest layer surface above the windows that asks for the keyboard
   alone (a lock screen's, a dialog an integrator adds); NULL: none. */
static struct wlr_surface *exclusive_layer(const struct splashd_host *host) {
  for (int index = ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY; index >= ZWLR_LAYER_SHELL_V1_LAYER_TOP; index--) {
    struct layer *layer;
    wl_list_for_each_reverse(layer, &host->layers[index], link) {
      if (layer_shown(layer) &&
          layer->surface->current.keyboard_interactive == ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE) {
        return layer->surface->surface;
      }
    }
  }
  return NULL;
}

/* The keyboard's focus: a layer surface above the windows that asks for
   it alone, else an on-demand one last pressed on, else the newest mapped window (a dialog over the program's
   window) but `leaving` (one being unmapped), else the first; none when
   nothing is mapped or keys are withheld. The window chosen is the
   activated one (drawn as the active window; the others as in the
   backdrop). */
static void focus_except(struct splashd_host *host, const struct window *leaving) {
  struct window *active = NULL;
  struct window *later;
  wl_list_for_each_reverse(later, &host->later, link) {
    if (window_mapped(later) && takes_focus(later) && later != leaving) {
      active = later;
      break;
    }
  }
  if (active == NULL && host->first != NULL && host->first != leaving && window_mapped(host->first)) {
    active = host->first;
  }
  wl_list_for_each(later, &host->later, link) {
    if (later != leaving) activate(later, later == active);
  }
  if (host->first != NULL && host->first != leaving) activate(host->first, host->first == active);
  struct wlr_surface *target = exclusive_layer(host);
  if (target == NULL) target = keyboard_layer_surface(host);
  if (target == NULL) target = active != NULL ? window_surface(active) : NULL;
  if (target == NULL || host->input_withheld) {
    wlr_seat_keyboard_notify_clear_focus(host->seat);
    return;
  }
  if (host->seat->keyboard_state.focused_surface == target) return;
  struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(host->seat);
  if (keyboard != NULL) {
    // The keys down as the window gets the keyboard, but for those the
    // splash took (a waking key still held).
    uint32_t keys[WLR_KEYBOARD_KEYS_CAP];
    wlr_seat_keyboard_notify_enter(host->seat, target, keys, keys_down_for_clients(host, keyboard, keys),
                                   &keyboard->modifiers);
  } else {
    wlr_seat_keyboard_notify_enter(host->seat, target, NULL, 0, NULL);
  }
}

void focus(struct splashd_host *host) { focus_except(host, NULL); }

void handle_window_map(struct wl_listener *listener, void *data) {
  struct window *window = wl_container_of(listener, window, map);
  (void)data;
  window->mapped = true;
  note(window->host, SPLASHD_HOST_NEW_BUFFER);
  focus(window->host);
}

/* A window hidden: the focus goes back to what is under it. */
static void handle_window_unmap(struct wl_listener *listener, void *data) {
  struct window *window = wl_container_of(listener, window, unmap);
  (void)data;
  // What it covered shows again.
  note(window->host, SPLASHD_HOST_NEW_BUFFER);
  focus_except(window->host, window);
  window->mapped = false;
}

/* Forgets a window: out of the host's, its listeners removed, freed. */
void drop_window(struct window *window) {
  struct splashd_host *host = window->host;
  note(host, SPLASHD_HOST_NEW_BUFFER);
  if (host->first == window) {
    host->first = NULL;
  } else {
    wl_list_remove(&window->link);
  }
  wl_list_remove(&window->destroy.link);
  wl_list_remove(&window->map.link);
  wl_list_remove(&window->unmap.link);
  if (window->x11 != NULL) wl_list_remove(&window->request_configure.link);
  if (window->xdg != NULL) wl_list_remove(&window->ping_timeout.link);
  free(window);
}

/* A ping to the window's client went unanswered (wlroots emits it on each
   xdg surface of that client): said once, for the program's window. */
static void handle_ping_timeout(struct wl_listener *listener, void *data) {
  struct window *window = wl_container_of(listener, window, ping_timeout);
  (void)data;
  if (window->host->first == window) note(window->host, SPLASHD_HOST_PING_MISSED);
}

int ping_program(struct splashd_host *host, uint32_t timeout_ms) {
  struct window *window = host->first;
  if (window == NULL || window->xdg == NULL || window->xdg->client == NULL) return 0;
  // wlroots arms its timer with the shell's timeout as each ping goes out.
  window->xdg->client->shell->ping_timeout = timeout_ms;
  wlr_xdg_surface_ping(window->xdg);
  return 1;
}

static void handle_window_destroy(struct wl_listener *listener, void *data) {
  struct window *window = wl_container_of(listener, window, destroy);
  (void)data;
  struct splashd_host *host = window->host;
  drop_window(window);
  focus(host);
}

/* A window watched until it is destroyed: the program's (the first) when
   `first`, else a later one. */
struct window *add_window(struct splashd_host *host, struct wlr_xdg_surface *xdg, struct wlr_xwayland_surface *x11,
                          bool first) {
  struct window *window = calloc(1, sizeof *window);
  if (window == NULL) return NULL;
  window->host = host;
  window->xdg = xdg;
  window->x11 = x11;
  window->destroy.notify = handle_window_destroy;
  window->map.notify = handle_window_map;
  window->unmap.notify = handle_window_unmap;
  if (xdg != NULL) {
    window->ping_timeout.notify = handle_ping_timeout;
    wl_signal_add(&xdg->events.ping_timeout, &window->ping_timeout);
    wl_signal_add(&xdg->events.destroy, &window->destroy);
    wl_signal_add(&xdg->events.map, &window->map);
    wl_signal_add(&xdg->events.unmap, &window->unmap);
  } else {
    wl_signal_add(&x11->events.destroy, &window->destroy);
    wl_signal_add(&x11->events.map, &window->map);
    wl_signal_add(&x11->events.unmap, &window->unmap);
  }
  if (first) {
    host->first = window;
    wl_list_init(&window->link);
    tell_window_of_scanout(host);
  } else {
    wl_list_insert(host->later.prev, &window->link);
  }
  return window;
}

/* The first window's current buffer (NULL: none yet). */
static struct wlr_buffer *first_buffer(const struct splashd_host *host) {
  if (host->first == NULL) return NULL;
  struct wlr_surface *surface = window_surface(host->first);
  return surface != NULL && surface->buffer != NULL ? surface->buffer->source : NULL;
}

bool place_windows(const struct splashd_host *host, struct window_places *places) {
  const struct wlr_buffer *main = first_buffer(host);
  if (main == NULL) return false;
  if (host->layers_shown > 0) {
    // The whole canvas, the first window centred in what the layer
    // surfaces leave it.
    const struct wlr_box *usable = &host->usable;
    *places = (struct window_places){.picture_width = host->width, .picture_height = host->height};
    places->first_x = usable->x + ((int64_t)usable->width - main->width) / 2;
    places->first_y = usable->y + ((int64_t)usable->height - main->height) / 2;
    places->area = *usable;
    return true;
  }
  places->picture_width = main->width < host->width ? main->width : host->width;
  places->picture_height = main->height < host->height ? main->height : host->height;
  places->picture_x = ((int64_t)host->width - places->picture_width) / 2;
  places->picture_y = ((int64_t)host->height - places->picture_height) / 2;
  places->first_x = ((int64_t)host->width - main->width) / 2;
  places->first_y = ((int64_t)host->height - main->height) / 2;
  places->area = (struct wlr_box){.x = (int)places->picture_x,
                                  .y = (int)places->picture_y,
                                  .width = (int)places->picture_width,
                                  .height = (int)places->picture_height};
  return true;
}

/* Where a later window's surface lies on the canvas: centred on the
   first's area; an X11 window where X has it, the first window being at
   X's origin (menus and tooltips where their program put them, others
   where they were configured: centred). */
void place_later(const struct window_places *places, const struct window *later, int64_t *x, int64_t *y) {
  if (later->x11 != NULL) {
    *x = places->first_x + later->x11->x;
    *y = places->first_y + later->x11->y;
    return;
  }
  struct wlr_box box;
  window_geometry(later, &box);
  *x = places->area.x + ((int64_t)places->area.width - box.width) / 2 - box.x;
  *y = places->area.y + ((int64_t)places->area.height - box.height) / 2 - box.y;
}

/* The surface of a layer surface of layers `from` down to `to` at a point
   of the canvas (the newest first); NULL: none. */
static struct wlr_surface *layer_surface_at(const struct splashd_host *host, int from, int to, double x, double y,
                                            double *sx, double *sy) {
  for (int index = from; index >= to; index--) {
    struct layer *layer;
    wl_list_for_each_reverse(layer, &host->layers[index], link) {
      if (!layer_shown(layer)) continue;
      struct wlr_surface *found =
          wlr_layer_surface_v1_surface_at(layer->surface, x - layer->box.x, y - layer->box.y, sx, sy);
      if (found != NULL) return found;
    }
  }
  return NULL;
}

/* The surface shown at a point of the canvas (a layer surface above the
   windows, a popup, a subsurface, a window: the newest window first; a
   layer surface below them), with the point in its coordinates; NULL when
   only the background is there. */
struct wlr_surface *surface_at(const struct splashd_host *host, double x, double y, double *sx, double *sy) {
  struct window_places places;
  if (host->first == NULL || !window_mapped(host->first) || !place_windows(host, &places)) return NULL;
  struct wlr_surface *found =
      layer_surface_at(host, ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY, ZWLR_LAYER_SHELL_V1_LAYER_TOP, x, y, sx, sy);
  if (found != NULL) return found;
  struct window *later;
  wl_list_for_each_reverse(later, &host->later, link) {
    if (!window_mapped(later)) continue;
    int64_t left, top;
    place_later(&places, later, &left, &top);
    found = window_surface_at(later, x - (double)left, y - (double)top, sx, sy);
    if (found != NULL) return found;
  }
  found = window_surface_at(host->first, x - (double)places.first_x, y - (double)places.first_y, sx, sy);
  if (found != NULL) return found;
  return layer_surface_at(host, ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM, ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND, x, y, sx, sy);
}

/* A popup (a menu, a select box's list) kept on what is shown of the
   program (the screen, or a smaller window's picture, less the layer
   surfaces' zones), or, in a layer surface's tree, on the canvas: moved or
   flipped as its positioner allows. */
static void keep_popup_on_screen(struct splashd_host *host, struct wlr_xdg_surface *surface) {
  struct wlr_xdg_surface *root = surface;
  while (root->role == WLR_XDG_SURFACE_ROLE_POPUP && root->popup->parent != NULL &&
         wlr_surface_is_xdg_surface(root->popup->parent)) {
    root = wlr_xdg_surface_from_wlr_surface(root->popup->parent);
  }
  if (root->role == WLR_XDG_SURFACE_ROLE_POPUP && root->popup->parent != NULL &&
      wlr_surface_is_layer_surface(root->popup->parent)) {
    // A menu of a layer surface's popup: on the canvas, as its root is.
    keep_layer_popup_on_screen(wlr_layer_surface_v1_from_wlr_surface(root->popup->parent), surface->popup);
    return;
  }
  if (root->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) return;
  int64_t left = 0, top = 0;
  struct window_places places = {.area = host->usable};
  if (place_windows(host, &places)) {
    if (host->first != NULL && root == host->first->xdg) {
      left = places.first_x;
      top = places.first_y;
    } else {
      struct window *later;
      wl_list_for_each(later, &host->later, link) {
        if (later->xdg == root) place_later(&places, later, &left, &top);
      }
    }
  }
  struct wlr_box screen = {.x = (int)(places.area.x - left),
                           .y = (int)(places.area.y - top),
                           .width = places.area.width,
                           .height = places.area.height};
  wlr_xdg_popup_unconstrain_from_box(surface->popup, &screen);
}

/* The first toplevel is the program's window: configured full screen at
   the output's size before its first buffer. Later toplevels are shown
   over it at their own size. */
void handle_new_xdg_surface(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_xdg_surface);
  struct wlr_xdg_surface *surface = data;
  if (surface->role == WLR_XDG_SURFACE_ROLE_POPUP) keep_popup_on_screen(host, surface);
  if (surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) return;
  // Sized by the program (wlroots configures it), shown over the first.
  bool first = host->first == NULL;
  if (add_window(host, surface, NULL, first) != NULL && first) send_configure(host);
}

/* No decorations are drawn: the program's window is the whole screen. */
void handle_new_decoration(struct wl_listener *listener, void *data) {
  (void)listener;
  wlr_xdg_toplevel_decoration_v1_set_mode(data, WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

int count_windows(struct splashd_host *host) {
  int count = host->first != NULL && window_mapped(host->first) ? 1 : 0;
  struct window *later;
  wl_list_for_each(later, &host->later, link) {
    if (window_mapped(later)) count++;
  }
  return count;
}
