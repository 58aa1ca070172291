// SPDX-License-Identifier: Apache-2.0
// splashd's Wayland host (splashd_wayland_host.h): wlroots 0.15's headless
// back end serving the protocols of one kiosk program; splashd reads the
// program's current buffer and paints it itself, and gives the output what
// the screen shows when a screencopy client asks for it; the machine's
// keyboards (libinput) and clients' virtual ones type into the newest
// window, its pointers (and clients' virtual ones) and touch screens point
// at what lies under them.
// Only glue: what wlroots' listener macros and wl_container_of
// need, which Swift cannot call.
#define _GNU_SOURCE
#include "splashd_wayland_host.h"

#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <libinput.h>
#include <libudev.h>
#include <pixman.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/interfaces/wlr_input_device.h>
#include <wlr/interfaces/wlr_keyboard.h>
#include <wlr/interfaces/wlr_output.h>
#include <wlr/render/allocator.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/types/wlr_viewporter.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_output_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>
#include <xcb/xcb.h>
#include <xkbcommon/xkbcommon.h>

/* A screen's absolute devices: a point (u, v) of the panel on the canvas,
   x = m[0] u + m[1] v + m[2], y = m[3] u + m[4] v + m[5]; where the screen
   shows none of the canvas (`reaches` false), nowhere. */
struct input_map {
  char screen[32];
  bool reaches;
  double m[6];
};

struct splashd_host {
  struct wl_display *display;
  struct wl_event_loop *loop;
  struct wlr_backend *backend;
  struct wlr_renderer *renderer;
  struct wlr_allocator *allocator;
  struct wlr_output_layout *layout;
  struct wlr_output *output;
  struct wlr_presentation *presentation;
  struct wlr_seat *seat;
  int32_t width, height;
  /* The program's connection, and its first window (full screen). */
  struct wl_client *client;
  struct window *first;
  /* Later windows (dialogs, a second window, X11's menus), in the order
     they came: struct window, drawn over the first, the last on top. */
  struct wl_list later;
  struct wlr_compositor *compositor;
  /* X11 programs' server (start_xwayland), and whether it is up. */
  struct wlr_xwayland *xwayland;
  bool xwayland_ready;
  /* The held frame (hold_frame): the program's buffer, locked until the
     next is held or drop_held (it outlives the client that sent it), or
     NULL with `holds_composed` for the window composed below. */
  struct wlr_buffer *held;
  bool holds_composed;
  /* Whether the held frame is being read (begin_held to end_held). */
  bool reading;
  /* The window composed from its surfaces (the toplevel's, its
     subsurfaces' and popups'), when it has more than one: kept while it
     is the held frame (reused by the next composition), remade when the
     toplevel's size changes. */
  pixman_image_t *composed;
  /* What happened since the last dispatch (SPLASHD_HOST_* bits). */
  int events;
  /* In the event loop: made readable when something happens outside a
     dispatch (a client found gone while frame callbacks are flushed), so
     that the caller's poll wakes for it. */
  int wake;
  struct wl_event_source *wake_source;
  bool dispatching;
  /* Presentation feedback of the buffer last read, sent at frame_done. */
  struct wlr_presentation_feedback *feedback;
  uint32_t frames;
  /* The machine's keyboards (start_input): splashd's own libinput context
     on udev's seat0, the devices opened directly (splashd is root), each
     given one keymap; struct machine_keyboard. */
  struct udev *udev;
  struct libinput *libinput;
  struct wl_event_source *libinput_source;
  struct xkb_keymap *keymap;
  struct wl_list machine_keyboards;
  /* Every keyboard whose keys go to the focused window (the machine's and
     clients' virtual ones): struct host_keyboard. */
  struct wl_list keyboards;
  /* No input reaches a window (withhold_input: what is typed answers a
     question on the splash). */
  bool input_withheld;
  /* The machine's pointers (mice, touchpads, tablets) and touch screens
     now, and the clients' virtual pointers: the seat offers what there is. */
  int pointers, touch_screens, virtual_pointers;
  /* Where the pointer is on the window's canvas (the screen turned as
     the splash is), and whether the cursor shows: from the pointer's first
     move to the next touch (hidden until then, as kiosks expect). */
  double pointer_x, pointer_y;
  bool cursor_shown;
  /* The cursor a client set (NULL: none), its hotspot, and the client:
     while that client has the pointer, its cursor is drawn; while one that
     set none has it, the cursor theme's arrow (`arrows`, loaded at the
     pointer's first move). */
  struct wlr_surface *cursor;
  int32_t cursor_hotspot_x, cursor_hotspot_y;
  struct wl_client *cursor_client;
  struct wlr_xcursor_manager *arrows;
  /* Where a point of an absolute device (a touch screen's or a tablet's,
     as fractions u, v of the panel's width and height) lies on the canvas,
     for the devices on each screen (map_input): the first for devices on
     none that is named. */
  struct input_map input_maps[16];
  size_t input_map_count;
  /* Each touch point down: where it went down, as the offset from the
     canvas to its surface's coordinates. */
  struct touch_point {
    int32_t id;
    bool down;
    double dx, dy;
  } touches[16];
  struct wl_listener new_xdg_surface, new_decoration, client_destroy, request_set_cursor, cursor_destroy;
  struct wl_listener new_virtual_keyboard, new_virtual_pointer, new_x11_surface, xwayland_ready_listener;
  struct wl_listener output_frame, new_surface, client_created;
};

/* A client of the display, watched until it goes. */
struct watched_client {
  struct splashd_host *host;
  struct wl_client *client;
  struct wl_listener destroy;
};

/* A window, until it is destroyed: an xdg-shell toplevel or an X11
   window (Xwayland's; `x11` then, `xdg` NULL). The program's is the
   first, host->first (full screen); the others are listed in host->later. */
struct window {
  struct splashd_host *host;
  struct wlr_xdg_surface *xdg;
  struct wlr_xwayland_surface *x11;
  struct wl_list link;
  /* Between its map and unmap signals (Xwayland marks its surfaces mapped
     only after the map signal, xdg-shell before). */
  bool mapped;
  struct wl_listener destroy, map, unmap, request_configure;
};

/* A keyboard whose keys go to the focused window, until it goes. */
struct host_keyboard {
  struct splashd_host *host;
  struct wlr_input_device *device;
  struct wl_list link;
  struct wl_listener key, modifiers, keymap, destroy;
};

/* A client's virtual pointer (wlr-virtual-pointer: remote control such as
   wayvnc's), until its client lets go of it. */
struct virtual_pointer {
  struct splashd_host *host;
  struct wl_listener motion, motion_absolute, button, axis, frame, destroy;
};

/* A keyboard of the machine's (a libinput device), as a wlroots input
   device, until it is unplugged. */
struct machine_keyboard {
  struct wlr_input_device device;
  struct wlr_keyboard keyboard;
  struct libinput_device *handle;
  struct wl_list link;
};

/* A surface of a client, watched for the commits that change what the
   program's window shows (its toplevel's, a subsurface's or a popup's). */
struct watched_surface {
  struct splashd_host *host;
  struct wl_listener commit, destroy;
};

/* Notes what happened, for the next dispatch to return; outside a
   dispatch, the event loop's descriptor is made readable so that one comes. */
static void note(struct splashd_host *host, int events) {
  host->events |= events;
  if (!host->dispatching) {
    uint64_t one = 1;
    if (write(host->wake, &one, sizeof one) < 0) {
      // Already readable (the counter is full): the dispatch comes anyway.
    }
  }
}

static int handle_wake(int fd, uint32_t mask, void *data) {
  (void)mask;
  (void)data;
  uint64_t count;
  if (read(fd, &count, sizeof count) < 0) {
    // Nothing to read: another turn took it.
  }
  return 0;
}

/* wlroots' errors go to one host's callback: there is one host a process.
   wlroots hands a callback every line; those past errors are dropped. */
static splashd_host_log_fn log_function;
static void *log_context;

static void log_line(enum wlr_log_importance importance, const char *format, va_list arguments) {
  if (log_function == NULL || importance > WLR_ERROR) return;
  char line[1024];
  vsnprintf(line, sizeof line, format, arguments);
  log_function(log_context, (int)importance, line);
}

/* The surface a window shows (NULL: an X11 window not associated with
   its surface yet, or no more). */
static struct wlr_surface *window_surface(const struct window *window) {
  return window->xdg != NULL ? window->xdg->surface : window->x11->surface;
}

static bool window_mapped(const struct window *window) { return window->mapped && window_surface(window) != NULL; }

/* Each surface of the window (its subsurfaces and popups too), below it first. */
static void window_for_each_surface(struct window *window, wlr_surface_iterator_func_t iterator, void *data) {
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

/* Configures `window` full screen at the canvas's size (the program's). */
static void configure_full_screen(struct splashd_host *host, struct window *window) {
  if (window->xdg != NULL) {
    wlr_xdg_toplevel_set_size(window->xdg, (uint32_t)host->width, (uint32_t)host->height);
    wlr_xdg_toplevel_set_fullscreen(window->xdg, true);
    wlr_xdg_toplevel_set_activated(window->xdg, true);
  } else {
    wlr_xwayland_surface_configure(window->x11, 0, 0, (uint16_t)host->width, (uint16_t)host->height);
    wlr_xwayland_surface_set_fullscreen(window->x11, true);
  }
}

/* The first window is the program's: full screen at the canvas's size. */
static void send_configure(struct splashd_host *host) {
  if (host->first != NULL) configure_full_screen(host, host->first);
}

/* Configures an X11 window other than the program's at `width` x `height`,
   centred on the screen (where it is drawn, so that X places its menus
   right). */
static void configure_centred(struct splashd_host *host, struct wlr_xwayland_surface *x11, uint16_t width,
                              uint16_t height) {
  wlr_xwayland_surface_configure(x11, (int16_t)((host->width - width) / 2), (int16_t)((host->height - height) / 2),
                                 width, height);
}

/* A commit anywhere in the program's windows is a new frame of them (a
   commit without a buffer unmaps a surface: what it covered shows again);
   one elsewhere costs a composition that shows the same. */
static void handle_surface_commit(struct wl_listener *listener, void *data) {
  struct watched_surface *watched = wl_container_of(listener, watched, commit);
  (void)data;
  if (watched->host->first != NULL) note(watched->host, SPLASHD_HOST_NEW_BUFFER);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
  struct watched_surface *watched = wl_container_of(listener, watched, destroy);
  (void)data;
  // A closed popup or subsurface: what it covered shows again.
  if (watched->host->first != NULL) note(watched->host, SPLASHD_HOST_NEW_BUFFER);
  wl_list_remove(&watched->commit.link);
  wl_list_remove(&watched->destroy.link);
  free(watched);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_surface);
  struct wlr_surface *surface = data;
  struct watched_surface *watched = calloc(1, sizeof *watched);
  if (watched == NULL) return;
  watched->host = host;
  watched->commit.notify = handle_surface_commit;
  wl_signal_add(&surface->events.commit, &watched->commit);
  watched->destroy.notify = handle_surface_destroy;
  wl_signal_add(&surface->events.destroy, &watched->destroy);
}

/* Whether a window takes the keyboard: X11's menus and tooltips
   (override-redirect) do not. */
static bool takes_focus(const struct window *window) { return window->xdg != NULL || !window->x11->override_redirect; }

/* The keyboard's focus: the newest mapped window (a dialog over the
   program's window) but `leaving` (one being unmapped), else the first;
   none when nothing is mapped or keys are withheld. The window that has
   it is the activated one (drawn as the active window; the others as in
   the backdrop). */
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
  struct wlr_surface *target = active != NULL ? window_surface(active) : NULL;
  if (target == NULL || host->input_withheld) {
    wlr_seat_keyboard_notify_clear_focus(host->seat);
    return;
  }
  if (host->seat->keyboard_state.focused_surface == target) return;
  struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(host->seat);
  if (keyboard != NULL) {
    wlr_seat_keyboard_notify_enter(host->seat, target, keyboard->keycodes, keyboard->num_keycodes,
                                   &keyboard->modifiers);
  } else {
    wlr_seat_keyboard_notify_enter(host->seat, target, NULL, 0, NULL);
  }
}

static void focus(struct splashd_host *host) { focus_except(host, NULL); }

static void handle_window_map(struct wl_listener *listener, void *data) {
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
static void drop_window(struct window *window) {
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
  free(window);
}

static void handle_window_destroy(struct wl_listener *listener, void *data) {
  struct window *window = wl_container_of(listener, window, destroy);
  (void)data;
  struct splashd_host *host = window->host;
  drop_window(window);
  focus(host);
}

/* Xwayland went (its last X client left: it ends with it, and is started
   again by the next) or is being destroyed: its windows go with it
   (wlroots 0.15 does not always destroy them then). */
static void drop_x11_windows(struct splashd_host *host) {
  if (host->first != NULL && host->first->x11 != NULL) drop_window(host->first);
  struct window *window, *next;
  wl_list_for_each_safe(window, next, &host->later, link) {
    if (window->x11 != NULL) drop_window(window);
  }
}

/* A window watched until it is destroyed: the program's (the first) when
   `first`, else a later one. */
static struct window *add_window(struct splashd_host *host, struct wlr_xdg_surface *xdg,
                                 struct wlr_xwayland_surface *x11, bool first) {
  struct window *window = calloc(1, sizeof *window);
  if (window == NULL) return NULL;
  window->host = host;
  window->xdg = xdg;
  window->x11 = x11;
  window->destroy.notify = handle_window_destroy;
  window->map.notify = handle_window_map;
  window->unmap.notify = handle_window_unmap;
  if (xdg != NULL) {
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
  } else {
    wl_list_insert(host->later.prev, &window->link);
  }
  return window;
}

/* Where the program's windows lie on the canvas, as splashd shows them:
   the first toplevel's buffer centred (cut around its middle where larger,
   its picture `picture_width` x `picture_height`), each later toplevel's
   window centred on that picture. false before the first buffer. */
struct window_places {
  int64_t first_x, first_y, picture_x, picture_y, picture_width, picture_height;
};

/* The first window's current buffer (NULL: none yet). */
static struct wlr_buffer *first_buffer(const struct splashd_host *host) {
  if (host->first == NULL) return NULL;
  struct wlr_surface *surface = window_surface(host->first);
  return surface != NULL && surface->buffer != NULL ? surface->buffer->source : NULL;
}

static bool place_windows(const struct splashd_host *host, struct window_places *places) {
  const struct wlr_buffer *main = first_buffer(host);
  if (main == NULL) return false;
  places->picture_width = main->width < host->width ? main->width : host->width;
  places->picture_height = main->height < host->height ? main->height : host->height;
  places->picture_x = ((int64_t)host->width - places->picture_width) / 2;
  places->picture_y = ((int64_t)host->height - places->picture_height) / 2;
  places->first_x = ((int64_t)host->width - main->width) / 2;
  places->first_y = ((int64_t)host->height - main->height) / 2;
  return true;
}

/* Where a later window's surface lies on the canvas: centred on the
   first's picture; an X11 window where X has it, the first window being at
   X's origin (menus and tooltips where their program put them, others
   where they were configured: centred). */
static void place_later(const struct window_places *places, const struct window *later, int64_t *x, int64_t *y) {
  if (later->x11 != NULL) {
    *x = places->first_x + later->x11->x;
    *y = places->first_y + later->x11->y;
    return;
  }
  struct wlr_box box;
  window_geometry(later, &box);
  *x = places->picture_x + (places->picture_width - box.width) / 2 - box.x;
  *y = places->picture_y + (places->picture_height - box.height) / 2 - box.y;
}

/* The surface shown at a point of the canvas (a popup, a subsurface, a
   window: the newest window first), with the point in its coordinates;
   NULL when only the background is there. */
static struct wlr_surface *surface_at(const struct splashd_host *host, double x, double y, double *sx, double *sy) {
  struct window_places places;
  if (host->first == NULL || !window_mapped(host->first) || !place_windows(host, &places)) return NULL;
  struct window *later;
  wl_list_for_each_reverse(later, &host->later, link) {
    if (!window_mapped(later)) continue;
    int64_t left, top;
    place_later(&places, later, &left, &top);
    struct wlr_surface *found = window_surface_at(later, x - (double)left, y - (double)top, sx, sy);
    if (found != NULL) return found;
  }
  return window_surface_at(host->first, x - (double)places.first_x, y - (double)places.first_y, sx, sy);
}

/* A popup (a menu, a select box's list) kept on what is shown of the
   program (the screen, or a smaller window's picture): moved or flipped as
   its positioner allows. */
static void keep_popup_on_screen(struct splashd_host *host, struct wlr_xdg_surface *surface) {
  struct wlr_xdg_surface *root = surface;
  while (root->role == WLR_XDG_SURFACE_ROLE_POPUP && root->popup->parent != NULL &&
         wlr_surface_is_xdg_surface(root->popup->parent)) {
    root = wlr_xdg_surface_from_wlr_surface(root->popup->parent);
  }
  if (root->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) return;
  int64_t left = 0, top = 0;
  struct window_places places = {.picture_width = host->width, .picture_height = host->height};
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
  struct wlr_box screen = {.x = (int)(places.picture_x - left),
                           .y = (int)(places.picture_y - top),
                           .width = (int)places.picture_width,
                           .height = (int)places.picture_height};
  wlr_xdg_popup_unconstrain_from_box(surface->popup, &screen);
}

/* The cursor theme's arrow (left_ptr: the default theme's, else the
   one wlroots carries), loaded when first asked for; NULL without one. */
static struct wlr_xcursor_image *arrow(struct splashd_host *host) {
  if (host->arrows == NULL) {
    host->arrows = wlr_xcursor_manager_create(NULL, 24);
    if (host->arrows == NULL || !wlr_xcursor_manager_load(host->arrows, 1)) return NULL;
  }
  struct wlr_xcursor *cursor = wlr_xcursor_manager_get_xcursor(host->arrows, "left_ptr", 1);
  return cursor != NULL && cursor->image_count > 0 ? cursor->images[0] : NULL;
}

/* Which cursor is drawn: none until the pointer has moved (since the last
   touch); the cursor the client under it set (none, when it set none or
   its surface has nothing); the arrow where the client under it set none
   since it was last given the pointer, or no client is there (as other
   compositors show their theme's). */
enum drawn_cursor { NO_CURSOR, CLIENTS_CURSOR, ARROW };

static enum drawn_cursor drawn_cursor(struct splashd_host *host) {
  if (!host->cursor_shown) return NO_CURSOR;
  const struct wlr_seat_client *focused = host->seat->pointer_state.focused_client;
  if (focused != NULL && focused->client == host->cursor_client) {
    return host->cursor != NULL && host->cursor->buffer != NULL ? CLIENTS_CURSOR : NO_CURSOR;
  }
  return arrow(host) != NULL ? ARROW : NO_CURSOR;
}

/* Tells the surface under the pointer where it is (entering it first). */
static void point_at_pointer(struct splashd_host *host, uint32_t time_msec) {
  if (host->input_withheld || host->first == NULL) return;
  double sx, sy;
  struct wlr_surface *surface = surface_at(host, host->pointer_x, host->pointer_y, &sx, &sy);
  if (surface == NULL) {
    wlr_seat_pointer_notify_clear_focus(host->seat);
  } else {
    // A client given the pointer anew sets its cursor anew (or has the arrow).
    const struct wlr_seat_client *before = host->seat->pointer_state.focused_client;
    if (before == NULL || before->client != wl_resource_get_client(surface->resource)) host->cursor_client = NULL;
    wlr_seat_pointer_notify_enter(host->seat, surface, sx, sy);
    wlr_seat_pointer_notify_motion(host->seat, time_msec, sx, sy);
  }
  wlr_seat_pointer_notify_frame(host->seat);
}

/* The pointer moved to (x, y) on the canvas (kept on it): the cursor shows
   (a new frame only when a cursor is drawn, or was). */
static void move_pointer(struct splashd_host *host, uint32_t time_msec, double x, double y) {
  bool was_visible = drawn_cursor(host) != NO_CURSOR;
  host->pointer_x = x < 0 ? 0 : x > host->width - 1 ? host->width - 1 : x;
  host->pointer_y = y < 0 ? 0 : y > host->height - 1 ? host->height - 1 : y;
  host->cursor_shown = true;
  point_at_pointer(host, time_msec);
  if (host->first != NULL && (was_visible || drawn_cursor(host) != NO_CURSOR)) note(host, SPLASHD_HOST_NEW_BUFFER);
}

/* The map of the absolute device `handle` (NULL: a client's virtual
   one): its screen's, which the machine names (udev's WL_OUTPUT, as for
   weston), or else the first. */
static const struct input_map *input_map(const struct splashd_host *host, struct libinput_device *handle) {
  const char *screen = handle != NULL ? libinput_device_get_output_name(handle) : NULL;
  for (size_t i = 1; screen != NULL && i < host->input_map_count; i++) {
    if (strcmp(host->input_maps[i].screen, screen) == 0) return &host->input_maps[i];
  }
  return &host->input_maps[0];
}

/* A point of an absolute device on the canvas; false where its screen
   shows none of it. */
static bool map_point(const struct input_map *map, double u, double v, double *x, double *y) {
  const double *m = map->m;
  *x = m[0] * u + m[1] * v + m[2];
  *y = m[3] * u + m[4] * v + m[5];
  return map->reaches;
}

static struct touch_point *touch_point(struct splashd_host *host, int32_t id) {
  for (size_t i = 0; i < sizeof host->touches / sizeof host->touches[0]; i++) {
    if (host->touches[i].down && host->touches[i].id == id) return &host->touches[i];
  }
  return NULL;
}

/* A finger down at (u, v) of the touch screen: the surface under it has
   it until it lifts; the cursor hides. */
static void touch_down(struct splashd_host *host, const struct input_map *map, uint32_t time_msec, int32_t id,
                       double u, double v) {
  if (host->cursor_shown) {
    host->cursor_shown = false;
    if (host->first != NULL) note(host, SPLASHD_HOST_NEW_BUFFER);
  }
  if (host->input_withheld || host->first == NULL || touch_point(host, id) != NULL) return;
  double x, y, sx, sy;
  if (!map_point(map, u, v, &x, &y)) return;
  struct wlr_surface *surface = surface_at(host, x, y, &sx, &sy);
  struct touch_point *free_point = NULL;
  for (size_t i = 0; free_point == NULL && i < sizeof host->touches / sizeof host->touches[0]; i++) {
    if (!host->touches[i].down) free_point = &host->touches[i];
  }
  if (surface == NULL || free_point == NULL) return;
  *free_point = (struct touch_point){.id = id, .down = true, .dx = sx - x, .dy = sy - y};
  wlr_seat_touch_notify_down(host->seat, surface, time_msec, id, sx, sy);
}

static void touch_motion(struct splashd_host *host, const struct input_map *map, uint32_t time_msec, int32_t id,
                         double u, double v) {
  struct touch_point *point = touch_point(host, id);
  if (point == NULL) return;
  double x, y;
  map_point(map, u, v, &x, &y);
  wlr_seat_touch_notify_motion(host->seat, time_msec, id, x + point->dx, y + point->dy);
}

static void touch_up(struct splashd_host *host, uint32_t time_msec, int32_t id) {
  struct touch_point *point = touch_point(host, id);
  if (point == NULL) return;
  point->down = false;
  wlr_seat_touch_notify_up(host->seat, time_msec, id);
}

/* The cursor the client under the pointer asked for (NULL: none). */
static void set_cursor(struct splashd_host *host, struct wlr_surface *surface, int32_t hotspot_x, int32_t hotspot_y);

static void handle_cursor_destroy(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, cursor_destroy);
  (void)data;
  set_cursor(host, NULL, 0, 0);
}

static void set_cursor(struct splashd_host *host, struct wlr_surface *surface, int32_t hotspot_x, int32_t hotspot_y) {
  if (host->cursor != NULL) wl_list_remove(&host->cursor_destroy.link);
  host->cursor = surface;
  host->cursor_hotspot_x = hotspot_x;
  host->cursor_hotspot_y = hotspot_y;
  if (surface != NULL) {
    host->cursor_destroy.notify = handle_cursor_destroy;
    wl_signal_add(&surface->events.destroy, &host->cursor_destroy);
  }
  if (host->cursor_shown && host->first != NULL) note(host, SPLASHD_HOST_NEW_BUFFER);
}

static void handle_request_set_cursor(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, request_set_cursor);
  struct wlr_seat_pointer_request_set_cursor_event *event = data;
  // Only the client the pointer is over picks its cursor.
  if (event->seat_client != host->seat->pointer_state.focused_client) return;
  host->cursor_client = event->seat_client->client;
  set_cursor(host, event->surface, event->hotspot_x, event->hotspot_y);
}

/* The first toplevel is the program's window: configured full screen at
   the output's size before its first buffer. Later toplevels are shown
   over it at their own size. */
static void handle_new_xdg_surface(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_xdg_surface);
  struct wlr_xdg_surface *surface = data;
  if (surface->role == WLR_XDG_SURFACE_ROLE_POPUP) keep_popup_on_screen(host, surface);
  if (surface->role != WLR_XDG_SURFACE_ROLE_TOPLEVEL) return;
  // Sized by the program (wlroots configures it), shown over the first.
  bool first = host->first == NULL;
  if (add_window(host, surface, NULL, first) != NULL && first) send_configure(host);
}

/* An X11 window becomes the program's window (the first) when there is
   none yet and it is not a menu or a tooltip (override-redirect), once it
   shows: X programs make windows that never do. */
static void adopt_x11_window(struct window *window) {
  struct splashd_host *host = window->host;
  if (host->first != NULL || window->x11->override_redirect) return;
  wl_list_remove(&window->link);
  wl_list_init(&window->link);
  host->first = window;
}

/* An X11 window that asks for a place and size: the program's is kept
   full screen; the others get the size they ask, centred. */
static void handle_x11_request_configure(struct wl_listener *listener, void *data) {
  struct window *window = wl_container_of(listener, window, request_configure);
  struct wlr_xwayland_surface_configure_event *event = data;
  struct splashd_host *host = window->host;
  if (host->first == window || (host->first == NULL && !window->x11->override_redirect)) {
    // The program's window, or perhaps the one to be: full screen before
    // its first frame.
    configure_full_screen(host, window);
  } else {
    configure_centred(host, window->x11, event->width, event->height);
  }
}

static void handle_x11_map(struct wl_listener *listener, void *data) {
  struct window *window = wl_container_of(listener, window, map);
  struct splashd_host *host = window->host;
  struct wlr_xwayland_surface *x11 = window->x11;
  adopt_x11_window(window);
  if (host->first == window) {
    send_configure(host);
  } else if (!x11->override_redirect) {
    // Shown where its program made it (no size asked): centred too.
    configure_centred(host, x11, x11->width, x11->height);
  }
  handle_window_map(listener, data);
}

static void handle_new_x11_surface(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_x11_surface);
  struct window *window = add_window(host, NULL, data, false);
  if (window == NULL) return;
  window->request_configure.notify = handle_x11_request_configure;
  wl_signal_add(&window->x11->events.request_configure, &window->request_configure);
  window->map.notify = handle_x11_map;
}

/* No decorations are drawn: the program's window is the whole screen. */
static void handle_new_decoration(struct wl_listener *listener, void *data) {
  (void)listener;
  wlr_xdg_toplevel_decoration_v1_set_mode(data, WLR_XDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
}

/* The output wants a frame: a screencopy client asked for the screen
   (wlroots schedules the output's frame, and copies what is committed). */
static void handle_output_frame(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, output_frame);
  (void)data;
  note(host, SPLASHD_HOST_FRAME_WANTED);
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, client_destroy);
  (void)data;
  wl_list_remove(&host->client_destroy.link);
  host->client = NULL;
  note(host, SPLASHD_HOST_CLIENT_GONE);
}

/* Xwayland's own connection (its credentials are splashd's: wlroots made it). */
static bool is_xwayland(const struct splashd_host *host, const struct wl_client *client) {
  return host->xwayland != NULL && host->xwayland->server != NULL && host->xwayland->server->client == client;
}

static void handle_watched_client_destroy(struct wl_listener *listener, void *data) {
  struct watched_client *watched = wl_container_of(listener, watched, destroy);
  struct splashd_host *host = watched->host;
  (void)data;
  if (is_xwayland(host, watched->client)) {
    drop_x11_windows(host);
    focus(host);
  }
  if (host->cursor_client == watched->client) host->cursor_client = NULL;
  wl_list_remove(&watched->destroy.link);
  note(host, SPLASHD_HOST_CLIENT_GONE);
  free(watched);
}

/* Every client that connects (the program's own connection, and those
   through the display's socket: the program's other processes, grim,
   wtype) is told to splashd, and so is its going. */
static void handle_client_created(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, client_created);
  struct watched_client *watched = calloc(1, sizeof *watched);
  if (watched != NULL) {
    watched->host = host;
    watched->client = data;
    watched->destroy.notify = handle_watched_client_destroy;
    wl_client_add_destroy_listener(data, &watched->destroy);
  }
  note(host, SPLASHD_HOST_CLIENT_CAME);
}

static void handle_key(struct wl_listener *listener, void *data) {
  struct host_keyboard *keyboard = wl_container_of(listener, keyboard, key);
  struct wlr_event_keyboard_key *event = data;
  if (keyboard->host->input_withheld) return;
  wlr_seat_set_keyboard(keyboard->host->seat, keyboard->device);
  wlr_seat_keyboard_notify_key(keyboard->host->seat, event->time_msec, event->keycode, event->state);
}

static void handle_modifiers(struct wl_listener *listener, void *data) {
  struct host_keyboard *keyboard = wl_container_of(listener, keyboard, modifiers);
  (void)data;
  if (keyboard->host->input_withheld) return;
  wlr_seat_set_keyboard(keyboard->host->seat, keyboard->device);
  wlr_seat_keyboard_notify_modifiers(keyboard->host->seat, &keyboard->device->keyboard->modifiers);
}

/* The seat offers a keyboard while there is one with a keymap (a virtual
   keyboard has none until its client sends it: a client told of a keyboard
   before any keymap may crash, and wlroots 0.15 would send it a keymap
   descriptor of -1, which breaks its connection), a pointer and touch
   while the machine has them. */
static void update_capabilities(struct splashd_host *host) {
  uint32_t capabilities = 0;
  if (host->pointers + host->virtual_pointers > 0) capabilities |= WL_SEAT_CAPABILITY_POINTER;
  if (host->touch_screens > 0) capabilities |= WL_SEAT_CAPABILITY_TOUCH;
  struct host_keyboard *keyboard;
  wl_list_for_each(keyboard, &host->keyboards, link) {
    if (keyboard->device->keyboard->keymap != NULL) capabilities |= WL_SEAT_CAPABILITY_KEYBOARD;
  }
  wlr_seat_set_capabilities(host->seat, capabilities);
}

/* A virtual keyboard's keymap came: it may be the seat's keyboard now. */
static void handle_keymap(struct wl_listener *listener, void *data) {
  struct host_keyboard *keyboard = wl_container_of(listener, keyboard, keymap);
  (void)data;
  struct splashd_host *host = keyboard->host;
  if (wlr_seat_get_keyboard(host->seat) == NULL) wlr_seat_set_keyboard(host->seat, keyboard->device);
  update_capabilities(host);
  focus(host);
}

static void handle_keyboard_destroy(struct wl_listener *listener, void *data) {
  struct host_keyboard *keyboard = wl_container_of(listener, keyboard, destroy);
  (void)data;
  struct splashd_host *host = keyboard->host;
  wl_list_remove(&keyboard->key.link);
  wl_list_remove(&keyboard->modifiers.link);
  wl_list_remove(&keyboard->keymap.link);
  wl_list_remove(&keyboard->destroy.link);
  wl_list_remove(&keyboard->link);
  free(keyboard);
  update_capabilities(host);
}

/* A keyboard's keys and modifiers go to the focused window. */
static void add_keyboard(struct splashd_host *host, struct wlr_input_device *device) {
  struct host_keyboard *keyboard = calloc(1, sizeof *keyboard);
  if (keyboard == NULL) return;
  keyboard->host = host;
  keyboard->device = device;
  keyboard->key.notify = handle_key;
  wl_signal_add(&device->keyboard->events.key, &keyboard->key);
  keyboard->modifiers.notify = handle_modifiers;
  wl_signal_add(&device->keyboard->events.modifiers, &keyboard->modifiers);
  keyboard->keymap.notify = handle_keymap;
  wl_signal_add(&device->keyboard->events.keymap, &keyboard->keymap);
  keyboard->destroy.notify = handle_keyboard_destroy;
  wl_signal_add(&device->events.destroy, &keyboard->destroy);
  wl_list_insert(&host->keyboards, &keyboard->link);
  if (device->keyboard->keymap != NULL) wlr_seat_set_keyboard(host->seat, device);
  update_capabilities(host);
  focus(host);
}

/* The keyboard is part of its machine_keyboard: freed with it. */
static void keyboard_destroy(struct wlr_keyboard *keyboard) { (void)keyboard; }

/* Caps Lock and its kin light on the device. */
static void keyboard_led_update(struct wlr_keyboard *keyboard, uint32_t leds) {
  struct machine_keyboard *machine = wl_container_of(keyboard, machine, keyboard);
  enum libinput_led lit = 0;
  if (leds & WLR_LED_NUM_LOCK) lit |= LIBINPUT_LED_NUM_LOCK;
  if (leds & WLR_LED_CAPS_LOCK) lit |= LIBINPUT_LED_CAPS_LOCK;
  if (leds & WLR_LED_SCROLL_LOCK) lit |= LIBINPUT_LED_SCROLL_LOCK;
  libinput_device_led_update(machine->handle, lit);
}

static const struct wlr_keyboard_impl keyboard_impl = {
    .destroy = keyboard_destroy,
    .led_update = keyboard_led_update,
};

/* Last of wlr_input_device_destroy: the device, its keyboard and all. */
static void machine_keyboard_destroy(struct wlr_input_device *device) {
  struct machine_keyboard *machine = wl_container_of(device, machine, device);
  wl_list_remove(&machine->link);
  libinput_device_set_user_data(machine->handle, NULL);
  libinput_device_unref(machine->handle);
  free(machine);
}

static const struct wlr_input_device_impl machine_keyboard_impl = {
    .destroy = machine_keyboard_destroy,
};

/* A keyboard plugged in (or there at the start): the machine's keymap and
   the usual repeat. */
static void add_machine_keyboard(struct splashd_host *host, struct libinput_device *handle) {
  struct machine_keyboard *machine = calloc(1, sizeof *machine);
  if (machine == NULL) return;
  machine->handle = libinput_device_ref(handle);
  libinput_device_set_user_data(handle, machine);
  wl_list_insert(&host->machine_keyboards, &machine->link);
  wlr_keyboard_init(&machine->keyboard, &keyboard_impl);
  wlr_input_device_init(&machine->device, WLR_INPUT_DEVICE_KEYBOARD, &machine_keyboard_impl,
                        libinput_device_get_name(handle), (int)libinput_device_get_id_vendor(handle),
                        (int)libinput_device_get_id_product(handle));
  machine->device.keyboard = &machine->keyboard;
  wlr_keyboard_set_keymap(&machine->keyboard, host->keymap);
  wlr_keyboard_set_repeat_info(&machine->keyboard, 25, 600);
  add_keyboard(host, &machine->device);
}

/* A device of the machine came (added 1) or went (-1): a keyboard of its,
   and what the seat offers. */
static void count_device(struct splashd_host *host, struct libinput_device *handle, int added) {
  if (libinput_device_has_capability(handle, LIBINPUT_DEVICE_CAP_POINTER)) host->pointers += added;
  if (libinput_device_has_capability(handle, LIBINPUT_DEVICE_CAP_TOUCH)) host->touch_screens += added;
  struct machine_keyboard *machine = libinput_device_get_user_data(handle);
  if (added > 0 && libinput_device_has_capability(handle, LIBINPUT_DEVICE_CAP_KEYBOARD)) {
    add_machine_keyboard(host, handle);
  } else if (added < 0 && machine != NULL) {
    wlr_input_device_destroy(&machine->device);
  }
  update_capabilities(host);
}

/* A wheel's, a finger's or a trackpoint's scroll, on both axes. */
static void scroll(struct splashd_host *host, struct libinput_event_pointer *event, enum wlr_axis_source source) {
  if (host->input_withheld) return;
  const enum libinput_pointer_axis axes[] = {LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL,
                                             LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL};
  const enum wlr_axis_orientation orientations[] = {WLR_AXIS_ORIENTATION_VERTICAL, WLR_AXIS_ORIENTATION_HORIZONTAL};
  uint32_t time_msec = (uint32_t)(libinput_event_pointer_get_time_usec(event) / 1000);
  for (size_t i = 0; i < 2; i++) {
    if (!libinput_event_pointer_has_axis(event, axes[i])) continue;
    int32_t discrete = source == WLR_AXIS_SOURCE_WHEEL
                           ? (int32_t)(libinput_event_pointer_get_scroll_value_v120(event, axes[i]) / 120)
                           : 0;
    wlr_seat_pointer_notify_axis(host->seat, time_msec, orientations[i],
                                 libinput_event_pointer_get_scroll_value(event, axes[i]), discrete, source);
  }
  wlr_seat_pointer_notify_frame(host->seat);
}

static void handle_pointer_event(struct splashd_host *host, enum libinput_event_type type,
                                 struct libinput_event_pointer *event) {
  uint32_t time_msec = (uint32_t)(libinput_event_pointer_get_time_usec(event) / 1000);
  switch (type) {
  case LIBINPUT_EVENT_POINTER_MOTION:
    move_pointer(host, time_msec, host->pointer_x + libinput_event_pointer_get_dx(event),
                 host->pointer_y + libinput_event_pointer_get_dy(event));
    break;
  case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE: {
    double x, y;
    if (map_point(input_map(host, libinput_event_get_device(libinput_event_pointer_get_base_event(event))),
                  libinput_event_pointer_get_absolute_x_transformed(event, 1),
                  libinput_event_pointer_get_absolute_y_transformed(event, 1), &x, &y)) {
      move_pointer(host, time_msec, x, y);
    }
    break;
  }
  case LIBINPUT_EVENT_POINTER_BUTTON:
    if (host->input_withheld) break;
    wlr_seat_pointer_notify_button(host->seat, time_msec, libinput_event_pointer_get_button(event),
                                   libinput_event_pointer_get_button_state(event) == LIBINPUT_BUTTON_STATE_PRESSED
                                       ? WLR_BUTTON_PRESSED
                                       : WLR_BUTTON_RELEASED);
    wlr_seat_pointer_notify_frame(host->seat);
    break;
  case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
    scroll(host, event, WLR_AXIS_SOURCE_WHEEL);
    break;
  case LIBINPUT_EVENT_POINTER_SCROLL_FINGER:
    scroll(host, event, WLR_AXIS_SOURCE_FINGER);
    break;
  case LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
    scroll(host, event, WLR_AXIS_SOURCE_CONTINUOUS);
    break;
  default:
    break;
  }
}

static void handle_touch_event(struct splashd_host *host, enum libinput_event_type type,
                               struct libinput_event_touch *event) {
  uint32_t time_msec = (uint32_t)(libinput_event_touch_get_time_usec(event) / 1000);
  const struct input_map *map = input_map(host, libinput_event_get_device(libinput_event_touch_get_base_event(event)));
  switch (type) {
  case LIBINPUT_EVENT_TOUCH_DOWN:
    touch_down(host, map, time_msec, libinput_event_touch_get_seat_slot(event),
               libinput_event_touch_get_x_transformed(event, 1), libinput_event_touch_get_y_transformed(event, 1));
    break;
  case LIBINPUT_EVENT_TOUCH_MOTION:
    touch_motion(host, map, time_msec, libinput_event_touch_get_seat_slot(event),
                 libinput_event_touch_get_x_transformed(event, 1), libinput_event_touch_get_y_transformed(event, 1));
    break;
  case LIBINPUT_EVENT_TOUCH_UP:
  case LIBINPUT_EVENT_TOUCH_CANCEL:
    touch_up(host, time_msec, libinput_event_touch_get_seat_slot(event));
    break;
  case LIBINPUT_EVENT_TOUCH_FRAME:
    wlr_seat_touch_notify_frame(host->seat);
    break;
  default:
    break;
  }
}

static void handle_libinput_event(struct splashd_host *host, struct libinput_event *event) {
  struct libinput_device *handle = libinput_event_get_device(event);
  struct machine_keyboard *machine = libinput_device_get_user_data(handle);
  enum libinput_event_type type = libinput_event_get_type(event);
  switch (type) {
  case LIBINPUT_EVENT_DEVICE_ADDED:
    count_device(host, handle, 1);
    break;
  case LIBINPUT_EVENT_DEVICE_REMOVED:
    count_device(host, handle, -1);
    break;
  case LIBINPUT_EVENT_POINTER_MOTION:
  case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
  case LIBINPUT_EVENT_POINTER_BUTTON:
  case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
  case LIBINPUT_EVENT_POINTER_SCROLL_FINGER:
  case LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
    handle_pointer_event(host, type, libinput_event_get_pointer_event(event));
    break;
  case LIBINPUT_EVENT_TOUCH_DOWN:
  case LIBINPUT_EVENT_TOUCH_MOTION:
  case LIBINPUT_EVENT_TOUCH_UP:
  case LIBINPUT_EVENT_TOUCH_CANCEL:
  case LIBINPUT_EVENT_TOUCH_FRAME:
    handle_touch_event(host, type, libinput_event_get_touch_event(event));
    break;
  case LIBINPUT_EVENT_KEYBOARD_KEY:
    if (machine != NULL) {
      struct libinput_event_keyboard *key = libinput_event_get_keyboard_event(event);
      struct wlr_event_keyboard_key notice = {
          .time_msec = (uint32_t)(libinput_event_keyboard_get_time_usec(key) / 1000),
          .keycode = libinput_event_keyboard_get_key(key),
          .update_state = true,
          .state = libinput_event_keyboard_get_key_state(key) == LIBINPUT_KEY_STATE_PRESSED
                       ? WL_KEYBOARD_KEY_STATE_PRESSED
                       : WL_KEYBOARD_KEY_STATE_RELEASED,
      };
      wlr_keyboard_notify_key(&machine->keyboard, &notice);
    }
    break;
  default:
    break;
  }
}

static int handle_libinput_readable(int fd, uint32_t mask, void *data) {
  struct splashd_host *host = data;
  (void)fd;
  (void)mask;
  if (libinput_dispatch(host->libinput) != 0 && log_function != NULL) {
    log_function(log_context, 1, "libinput: its events could not be read");
  }
  struct libinput_event *event;
  while ((event = libinput_get_event(host->libinput)) != NULL) {
    handle_libinput_event(host, event);
    libinput_event_destroy(event);
  }
  return 0;
}

/* libinput opens the devices itself, as asked (non-blocking), as root. */
static int open_device(const char *path, int flags, void *data) {
  (void)data;
  int fd = open(path, flags | O_CLOEXEC);
  return fd < 0 ? -errno : fd;
}

static void close_device(int fd, void *data) {
  (void)data;
  close(fd);
}

static const struct libinput_interface device_access = {
    .open_restricted = open_device,
    .close_restricted = close_device,
};

static void libinput_log_line(struct libinput *libinput, enum libinput_log_priority priority, const char *format,
                              va_list arguments) {
  (void)libinput;
  (void)priority;
  if (log_function == NULL) return;
  char line[1024];
  int length = vsnprintf(line, sizeof line, format, arguments);
  if (length > 0 && (size_t)length < sizeof line && line[length - 1] == '\n') line[length - 1] = '\0';
  log_function(log_context, 1, line);
}

/* A client's virtual keyboard (an on-screen keyboard, wtype), with the
   keymap it gives. */
static void handle_new_virtual_keyboard(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_virtual_keyboard);
  struct wlr_virtual_keyboard_v1 *keyboard = data;
  add_keyboard(host, &keyboard->input_device);
}

/* A virtual pointer moves and clicks as a mouse does; its absolute
   positions are fractions of the screen as splashctl snapshot and
   screencopy show it, mapped as a touch screen's are. */
static void handle_virtual_motion(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, motion);
  struct wlr_event_pointer_motion *event = data;
  struct splashd_host *host = pointer->host;
  move_pointer(host, event->time_msec, host->pointer_x + event->delta_x, host->pointer_y + event->delta_y);
}

static void handle_virtual_motion_absolute(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, motion_absolute);
  struct wlr_event_pointer_motion_absolute *event = data;
  double x, y;
  if (map_point(input_map(pointer->host, NULL), event->x, event->y, &x, &y)) {
    move_pointer(pointer->host, event->time_msec, x, y);
  }
}

static void handle_virtual_button(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, button);
  struct wlr_event_pointer_button *event = data;
  if (pointer->host->input_withheld) return;
  wlr_seat_pointer_notify_button(pointer->host->seat, event->time_msec, event->button, event->state);
}

static void handle_virtual_axis(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, axis);
  struct wlr_event_pointer_axis *event = data;
  if (pointer->host->input_withheld) return;
  wlr_seat_pointer_notify_axis(pointer->host->seat, event->time_msec, event->orientation, event->delta,
                               event->delta_discrete, event->source);
}

/* The client's frame ends a group of its events, as libinput's each do. */
static void handle_virtual_frame(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, frame);
  (void)data;
  wlr_seat_pointer_notify_frame(pointer->host->seat);
}

static void handle_virtual_pointer_destroy(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, destroy);
  (void)data;
  struct wl_listener *listeners[] = {&pointer->motion, &pointer->motion_absolute, &pointer->button,
                                     &pointer->axis,   &pointer->frame,           &pointer->destroy};
  for (size_t i = 0; i < sizeof listeners / sizeof listeners[0]; i++) wl_list_remove(&listeners[i]->link);
  pointer->host->virtual_pointers--;
  update_capabilities(pointer->host);
  free(pointer);
}

/* A client's virtual pointer: the seat offers a pointer while it lasts. */
static void handle_new_virtual_pointer(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_virtual_pointer);
  struct wlr_virtual_pointer_v1_new_pointer_event *event = data;
  struct wlr_input_device *device = &event->new_pointer->input_device;
  struct virtual_pointer *pointer = calloc(1, sizeof *pointer);
  if (pointer == NULL) return;
  pointer->host = host;
  pointer->motion.notify = handle_virtual_motion;
  wl_signal_add(&device->pointer->events.motion, &pointer->motion);
  pointer->motion_absolute.notify = handle_virtual_motion_absolute;
  wl_signal_add(&device->pointer->events.motion_absolute, &pointer->motion_absolute);
  pointer->button.notify = handle_virtual_button;
  wl_signal_add(&device->pointer->events.button, &pointer->button);
  pointer->axis.notify = handle_virtual_axis;
  wl_signal_add(&device->pointer->events.axis, &pointer->axis);
  pointer->frame.notify = handle_virtual_frame;
  wl_signal_add(&device->pointer->events.frame, &pointer->frame);
  pointer->destroy.notify = handle_virtual_pointer_destroy;
  wl_signal_add(&device->events.destroy, &pointer->destroy);
  host->virtual_pointers++;
  update_capabilities(host);
}

/* Lets go of the keyboards, libinput, udev and the keymap (what was had). */
static void stop_input(struct splashd_host *host) {
  struct machine_keyboard *machine, *next;
  wl_list_for_each_safe(machine, next, &host->machine_keyboards, link) wlr_input_device_destroy(&machine->device);
  if (host->libinput_source != NULL) wl_event_source_remove(host->libinput_source);
  host->libinput_source = NULL;
  if (host->libinput != NULL) libinput_unref(host->libinput);
  host->libinput = NULL;
  if (host->udev != NULL) udev_unref(host->udev);
  host->udev = NULL;
  if (host->keymap != NULL) xkb_keymap_unref(host->keymap);
  host->keymap = NULL;
  host->pointers = 0;
  host->touch_screens = 0;
}

static int start_input(struct splashd_host *host, const struct splashd_host_keymap *names, char *error,
                       size_t capacity) {
  if (host->libinput != NULL) {
    snprintf(error, capacity, "the keyboards are already taken");
    return -1;
  }
  struct xkb_rule_names rules = {
      .rules = names->rules, .model = names->model, .layout = names->layout, .variant = names->variant,
      .options = names->options};
  struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES);
  if (context == NULL) {
    snprintf(error, capacity, "xkb_context_new failed");
    return -1;
  }
  // What does not compile is said once, by the caller, not line by line.
  xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL);
  host->keymap = xkb_keymap_new_from_names(context, &rules, XKB_KEYMAP_COMPILE_NO_FLAGS);
  xkb_context_unref(context);
  if (host->keymap == NULL) {
    snprintf(error, capacity,
             "the keyboard layout (rules %s, model %s, layout %s, variant %s, options %s) does not compile",
             names->rules ? names->rules : "-", names->model ? names->model : "-",
             names->layout ? names->layout : "-", names->variant ? names->variant : "-",
             names->options ? names->options : "-");
    return -2;
  }
  // Devices are found through udev's database (its seat0: the default),
  // those plugged in later through its monitor; none is no failure.
  const char *failed = NULL;
  if ((host->udev = udev_new()) == NULL) {
    failed = "udev_new failed";
  } else if ((host->libinput = libinput_udev_create_context(&device_access, host, host->udev)) == NULL) {
    failed = "libinput_udev_create_context failed";
  } else {
    libinput_log_set_handler(host->libinput, libinput_log_line);
    libinput_log_set_priority(host->libinput, LIBINPUT_LOG_PRIORITY_ERROR);
    if (libinput_udev_assign_seat(host->libinput, "seat0") != 0) {
      failed = "libinput cannot take udev's seat0";
    } else if ((host->libinput_source = wl_event_loop_add_fd(host->loop, libinput_get_fd(host->libinput),
                                                             WL_EVENT_READABLE, handle_libinput_readable, host)) ==
               NULL) {
      failed = "wl_event_loop_add_fd failed";
    }
  }
  if (failed != NULL) {
    snprintf(error, capacity, "%s", failed);
    stop_input(host);
    return -1;
  }
  // The keyboards there now.
  handle_libinput_readable(-1, 0, host);
  return 0;
}

/* Sends what was queued outside a dispatch (configures, frame callbacks). */
static void flush(struct splashd_host *host) {
  wl_event_loop_dispatch_idle(host->loop);
  wl_display_flush_clients(host->display);
}

static struct splashd_host *create(int32_t screen_width, int32_t screen_height, int32_t width, int32_t height,
                                   splashd_host_log_fn log, void *context, char *error, size_t capacity) {
  log_function = log;
  log_context = context;
  wlr_log_init(WLR_ERROR, log_line);
  struct splashd_host *host = calloc(1, sizeof *host);
  if (host == NULL) {
    snprintf(error, capacity, "out of memory");
    return NULL;
  }
  host->wake = -1;
  host->width = width;
  host->height = height;
  // Absolute devices span the canvas until told how the screens are turned.
  host->input_maps[0] = (struct input_map){.reaches = true, .m = {width, 0, 0, 0, height, 0}};
  host->input_map_count = 1;
  host->pointer_x = width / 2;
  host->pointer_y = height / 2;
  wl_list_init(&host->later);
  wl_list_init(&host->keyboards);
  wl_list_init(&host->machine_keyboards);
  const char *failed = NULL;
  if ((host->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
    failed = "eventfd";
  } else if ((host->display = wl_display_create()) == NULL) {
    failed = "wl_display_create";
  } else if ((host->backend = wlr_headless_backend_create(host->display)) == NULL) {
    failed = "wlr_headless_backend_create";
  } else if ((host->renderer = wlr_pixman_renderer_create()) == NULL) {
    failed = "wlr_pixman_renderer_create";
  } else if ((host->allocator = wlr_allocator_autocreate(host->backend, host->renderer)) == NULL) {
    failed = "wlr_allocator_autocreate";
  } else if (wl_display_init_shm(host->display) != 0) {
    // wl_shm with ARGB8888 and XRGB8888 alone: what splashd paints.
    failed = "wl_display_init_shm";
  } else if ((host->compositor = wlr_compositor_create(host->display, host->renderer)) == NULL) {
    failed = "wlr_compositor_create";
  } else if ((host->layout = wlr_output_layout_create()) == NULL) {
    failed = "wlr_output_layout_create";
  } else if ((host->output = wlr_headless_add_output(host->backend, (unsigned)screen_width,
                                                      (unsigned)screen_height)) == NULL) {
    failed = "wlr_headless_add_output";
  } else if (!wlr_output_init_render(host->output, host->allocator, host->renderer)) {
    failed = "wlr_output_init_render";
  } else if ((host->presentation = wlr_presentation_create(host->display, host->backend)) == NULL) {
    failed = "wlr_presentation_create";
  } else if ((host->seat = wlr_seat_create(host->display, "seat0")) == NULL) {
    failed = "wlr_seat_create";
  }
  struct wlr_xdg_shell *shell = NULL;
  struct wlr_xdg_decoration_manager_v1 *decorations = NULL;
  struct wlr_virtual_keyboard_manager_v1 *virtual_keyboards = NULL;
  struct wlr_virtual_pointer_manager_v1 *virtual_pointers = NULL;
  if (failed == NULL) {
    wlr_output_layout_add_auto(host->layout, host->output);
    wlr_data_device_manager_create(host->display);
    wlr_xdg_output_manager_v1_create(host->display, host->layout);
    wlr_viewporter_create(host->display);
    wlr_screencopy_manager_v1_create(host->display);
    if ((shell = wlr_xdg_shell_create(host->display)) == NULL) {
      failed = "wlr_xdg_shell_create";
    } else if ((decorations = wlr_xdg_decoration_manager_v1_create(host->display)) == NULL) {
      failed = "wlr_xdg_decoration_manager_v1_create";
    } else if ((virtual_keyboards = wlr_virtual_keyboard_manager_v1_create(host->display)) == NULL) {
      failed = "wlr_virtual_keyboard_manager_v1_create";
    } else if ((virtual_pointers = wlr_virtual_pointer_manager_v1_create(host->display)) == NULL) {
      failed = "wlr_virtual_pointer_manager_v1_create";
    } else if (wlr_idle_inhibit_v1_create(host->display) == NULL) {
      // splashd never blanks the screen on its own: an inhibitor (a video
      // player's, a browser's) holds off nothing, but the program gets
      // what it asks for, as under cage.
      failed = "wlr_idle_inhibit_v1_create";
    }
  }
  if (failed != NULL) {
    snprintf(error, capacity, "%s failed", failed);
    if (host->display != NULL) wl_display_destroy(host->display);
    if (host->layout != NULL) wlr_output_layout_destroy(host->layout);
    if (host->allocator != NULL) wlr_allocator_destroy(host->allocator);
    if (host->renderer != NULL) wlr_renderer_destroy(host->renderer);
    if (host->wake >= 0) close(host->wake);
    free(host);
    return NULL;
  }
  // The headless back end is not started: started, it wakes 60 times a
  // second for frames nobody draws. splashd's own output paces frames; the
  // output is enabled as the started back end would, so that screencopy
  // clients can ask for it.
  wlr_output_update_enabled(host->output, true);
  host->output_frame.notify = handle_output_frame;
  wl_signal_add(&host->output->events.frame, &host->output_frame);
  wlr_seat_set_capabilities(host->seat, 0);
  host->loop = wl_display_get_event_loop(host->display);
  host->wake_source = wl_event_loop_add_fd(host->loop, host->wake, WL_EVENT_READABLE, handle_wake, host);
  host->new_xdg_surface.notify = handle_new_xdg_surface;
  wl_signal_add(&shell->events.new_surface, &host->new_xdg_surface);
  host->new_surface.notify = handle_new_surface;
  wl_signal_add(&host->compositor->events.new_surface, &host->new_surface);
  host->new_decoration.notify = handle_new_decoration;
  wl_signal_add(&decorations->events.new_toplevel_decoration, &host->new_decoration);
  host->request_set_cursor.notify = handle_request_set_cursor;
  wl_signal_add(&host->seat->events.request_set_cursor, &host->request_set_cursor);
  host->new_virtual_keyboard.notify = handle_new_virtual_keyboard;
  wl_signal_add(&virtual_keyboards->events.new_virtual_keyboard, &host->new_virtual_keyboard);
  host->new_virtual_pointer.notify = handle_new_virtual_pointer;
  wl_signal_add(&virtual_pointers->events.new_virtual_pointer, &host->new_virtual_pointer);
  host->client_created.notify = handle_client_created;
  wl_display_add_client_created_listener(host->display, &host->client_created);
  return host;
}

static int event_fd(struct splashd_host *host) { return wl_event_loop_get_fd(host->loop); }

static int dispatch(struct splashd_host *host) {
  host->dispatching = true;
  wl_event_loop_dispatch(host->loop, 0);
  // What the requests just served queued (a screencopy's frame).
  flush(host);
  host->dispatching = false;
  int events = host->events;
  host->events = 0;
  return events;
}

static int add_listener(struct splashd_host *host, int fd) { return wl_display_add_socket_fd(host->display, fd); }

static int connect_client(struct splashd_host *host) {
  if (host->client != NULL) {
    errno = EBUSY;
    return -1;
  }
  int ends[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0) return -1;
  host->client = wl_client_create(host->display, ends[0]);
  if (host->client == NULL) {
    int saved = errno;
    close(ends[0]);
    close(ends[1]);
    errno = saved;
    return -1;
  }
  host->client_destroy.notify = handle_client_destroy;
  wl_client_add_destroy_listener(host->client, &host->client_destroy);
  // The program's end, inherited across exec.
  int theirs = dup(ends[1]);
  int saved = errno;
  close(ends[1]);
  errno = saved;
  return theirs;
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

/* Draws one surface over what is composed so far, at its place (those
   wholly outside the picture are passed over). */
static void compose_surface(struct wlr_surface *surface, int sx, int sy, void *data) {
  struct placement *placement = data;
  struct splashd_host *host = placement->host;
  if (surface->buffer == NULL || surface->buffer->source == NULL) return;
  struct wlr_buffer *source = surface->buffer->source;
  void *pixels;
  uint32_t format;
  size_t stride;
  if (!wlr_buffer_begin_data_ptr_access(source, WLR_BUFFER_DATA_PTR_ACCESS_READ, &pixels, &format, &stride)) return;
  if (!rows_fit(source, stride)) {
    wlr_buffer_end_data_ptr_access(source);
    return;
  }
  pixman_format_code_t code = format == DRM_FORMAT_ARGB8888   ? PIXMAN_a8r8g8b8
                              : format == DRM_FORMAT_XRGB8888 ? PIXMAN_x8r8g8b8
                                                              : (pixman_format_code_t)0;
  pixman_image_t *image =
      code != 0 ? pixman_image_create_bits_no_clear(code, source->width, source->height, pixels, (int)stride) : NULL;
  int64_t x = (int64_t)sx + placement->x, y = (int64_t)sy + placement->y;
  int32_t width = pixman_image_get_width(host->composed), height = pixman_image_get_height(host->composed);
  if (image != NULL && x < width && y < height && x + source->width > 0 && y + source->height > 0) {
    pixman_image_composite32(PIXMAN_OP_OVER, image, NULL, host->composed, 0, 0, 0, 0, (int32_t)x, (int32_t)y,
                             source->width, source->height);
    pixman_image_unref(image);
  }
  wlr_buffer_end_data_ptr_access(source);
}

/* The program as one picture: the first toplevel with its subsurfaces and
   popups where they lie (those below it first), then each later toplevel's
   window (with its own) centred over that, then the cursor, on black. The picture is the
   first toplevel's size, cut to the window's configured size around its
   middle (as splashd centres it), so that a client's huge buffer costs no
   more than the screen. */
static int compose(struct splashd_host *host, struct wlr_buffer *main) {
  int32_t width = main->width < host->width ? main->width : host->width;
  int32_t height = main->height < host->height ? main->height : host->height;
  if (host->composed != NULL &&
      (pixman_image_get_width(host->composed) != width || pixman_image_get_height(host->composed) != height)) {
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
  struct placement placement = {.host = host, .x = -(main->width - width) / 2, .y = -(main->height - height) / 2};
  window_for_each_surface(host->first, compose_surface, &placement);
  struct window_places places;
  place_windows(host, &places);
  struct window *later;
  wl_list_for_each(later, &host->later, link) {
    if (!window_mapped(later)) continue;
    int64_t x, y;
    place_later(&places, later, &x, &y);
    placement.x = (int)(x - places.picture_x);
    placement.y = (int)(y - places.picture_y);
    window_for_each_surface(later, compose_surface, &placement);
  }
  // The cursor's hotspot at the pointer, the picture being centred on the canvas.
  int64_t pointer_x = (int64_t)host->pointer_x - ((int64_t)host->width - width) / 2;
  int64_t pointer_y = (int64_t)host->pointer_y - ((int64_t)host->height - height) / 2;
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
static void drop_held(struct splashd_host *host) {
  if (host->reading) return;
  if (host->held != NULL) wlr_buffer_unlock(host->held);
  host->held = NULL;
  if (host->holds_composed && host->composed != NULL) {
    pixman_image_unref(host->composed);
    host->composed = NULL;
  }
  host->holds_composed = false;
}

/* Whether `source`'s pixels can be shown: 32-bit, rows inside the buffer. */
static bool readable(struct wlr_buffer *source) {
  void *data;
  uint32_t format;
  size_t stride;
  if (!wlr_buffer_begin_data_ptr_access(source, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) return false;
  bool fits = (format == DRM_FORMAT_ARGB8888 || format == DRM_FORMAT_XRGB8888) && rows_fit(source, stride);
  wlr_buffer_end_data_ptr_access(source);
  return fits;
}

static int hold_frame(struct splashd_host *host) {
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
  if (shown > 1 || drawn_cursor(host) != NO_CURSOR) {
    // Composed first: should that fail, what was held stays held.
    if (!compose(host, source)) return 0;
    if (host->held != NULL) wlr_buffer_unlock(host->held);
    host->held = NULL;
    host->holds_composed = true;
  } else {
    struct wlr_buffer *locked = wlr_buffer_lock(source);
    drop_held(host);
    host->held = locked;
  }
  // What is held now is what the next frame shows: its feedback then.
  struct wlr_presentation_feedback *feedback = wlr_presentation_surface_sampled(host->presentation, surface);
  if (feedback != NULL) {
    if (host->feedback != NULL) wlr_presentation_feedback_destroy(host->feedback);
    host->feedback = feedback;
  }
  return 1;
}

static int begin_held(struct splashd_host *host, struct splashd_host_buffer *buffer) {
  if (host->reading) return 0;
  if (host->holds_composed && host->composed != NULL) {
    buffer->pixels = pixman_image_get_data(host->composed);
    buffer->width = pixman_image_get_width(host->composed);
    buffer->height = pixman_image_get_height(host->composed);
    buffer->stride = pixman_image_get_stride(host->composed);
    buffer->has_alpha = 0;
    host->reading = true;
    return 1;
  }
  if (host->held == NULL) return 0;
  void *data;
  uint32_t format;
  size_t stride;
  // Taken again at each read: a client may move its memory between reads
  // (a resized pool), and its shrinking the memory is caught only while
  // the buffer is being accessed.
  if (!wlr_buffer_begin_data_ptr_access(host->held, WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) return 0;
  if ((format != DRM_FORMAT_ARGB8888 && format != DRM_FORMAT_XRGB8888) || !rows_fit(host->held, stride)) {
    wlr_buffer_end_data_ptr_access(host->held);
    return 0;
  }
  buffer->pixels = data;
  buffer->width = host->held->width;
  buffer->height = host->held->height;
  buffer->stride = (int32_t)stride;
  buffer->has_alpha = format == DRM_FORMAT_ARGB8888;
  host->reading = true;
  return 1;
}

static void end_held(struct splashd_host *host) {
  if (!host->reading) return;
  if (host->held != NULL) wlr_buffer_end_data_ptr_access(host->held);
  host->reading = false;
}

static void send_frame_done(struct wlr_surface *surface, int sx, int sy, void *data) {
  (void)sx;
  (void)sy;
  wlr_surface_send_frame_done(surface, data);
}

static void frame_done(struct splashd_host *host, int64_t monotonic_ns, int64_t refresh_ns) {
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

static int show_screen(struct splashd_host *host, const struct splashd_host_buffer *screen) {
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

static void withhold_input(struct splashd_host *host, int withheld) {
  host->input_withheld = withheld != 0;
  if (host->input_withheld) {
    // A popup's grabs keep sending keys and clicks to its client whatever
    // the focus: they end (the popups are dismissed).
    wlr_seat_keyboard_end_grab(host->seat);
    wlr_seat_pointer_end_grab(host->seat);
    wlr_seat_pointer_notify_clear_focus(host->seat);
  }
  focus(host);
}

static void resize(struct splashd_host *host, int32_t width, int32_t height) {
  host->width = width;
  host->height = height;
  host->pointer_x = host->pointer_x < width - 1 ? host->pointer_x : width - 1;
  host->pointer_y = host->pointer_y < height - 1 ? host->pointer_y : height - 1;
  send_configure(host);
  if (host->first != NULL) note(host, SPLASHD_HOST_NEW_BUFFER);
  flush(host);
}

static int windows(struct splashd_host *host) {
  int count = host->first != NULL && window_mapped(host->first) ? 1 : 0;
  struct window *later;
  wl_list_for_each(later, &host->later, link) {
    if (window_mapped(later)) count++;
  }
  return count;
}

static void handle_xwayland_ready(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, xwayland_ready_listener);
  (void)data;
  host->xwayland_ready = true;
}

static int64_t monotonic_ms(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

/* Lets `user`'s processes connect to X (as `xhost +si:localuser:USER`
   would): X lets in only the server's own user otherwise. */
static bool allow_x11_user(struct splashd_host *host, const char *user, char *error, size_t capacity) {
  xcb_connection_t *connection = xcb_connect(host->xwayland->display_name, NULL);
  if (xcb_connection_has_error(connection)) {
    xcb_disconnect(connection);
    snprintf(error, capacity, "cannot connect to Xwayland at %s", host->xwayland->display_name);
    return false;
  }
  char address[300];
  int length = snprintf(address, sizeof address, "localuser%c%s", 0, user);
  bool allowed = false;
  if (length > 0 && (size_t)length < sizeof address) {
    xcb_void_cookie_t cookie = xcb_change_hosts_checked(connection, XCB_HOST_MODE_INSERT,
                                                        XCB_FAMILY_SERVER_INTERPRETED, (uint16_t)length, (const uint8_t *)address);
    xcb_generic_error_t *failure = xcb_request_check(connection, cookie);
    allowed = failure == NULL;
    free(failure);
  }
  xcb_disconnect(connection);
  if (!allowed) snprintf(error, capacity, "Xwayland refused to let %s connect", user);
  return allowed;
}

static const char *start_xwayland(struct splashd_host *host, const char *user, char *error, size_t capacity) {
  if (host->xwayland == NULL) {
    // Started when the first X client connects, unless another user's
    // program needs to be let in first: then now, and waited for.
    if ((host->xwayland = wlr_xwayland_create(host->display, host->compositor, user == NULL)) == NULL) {
      snprintf(error, capacity, "wlr_xwayland_create failed (X11's sockets in /tmp/.X11-unix)");
      return NULL;
    }
    wlr_xwayland_set_seat(host->xwayland, host->seat);
    host->new_x11_surface.notify = handle_new_x11_surface;
    wl_signal_add(&host->xwayland->events.new_surface, &host->new_x11_surface);
    host->xwayland_ready_listener.notify = handle_xwayland_ready;
    wl_signal_add(&host->xwayland->events.ready, &host->xwayland_ready_listener);
  }
  if (user == NULL) return host->xwayland->display_name;
  // Bounded: Xwayland is up in well under a second.
  int64_t deadline = monotonic_ms() + 5000;
  while (!host->xwayland_ready && monotonic_ms() < deadline) {
    wl_display_flush_clients(host->display);
    wl_event_loop_dispatch(host->loop, 100);
  }
  if (!host->xwayland_ready) {
    snprintf(error, capacity, "Xwayland did not start in 5 s");
    return NULL;
  }
  return allow_x11_user(host, user, error, capacity) ? host->xwayland->display_name : NULL;
}

static int client_processes(struct splashd_host *host, int32_t *pids, int capacity) {
  int count = 0;
  struct wl_client *client;
  wl_client_for_each(client, wl_display_get_client_list(host->display)) {
    pid_t pid = 0;
    // The program's own connection and Xwayland's (the program's X
    // server) were made by splashd (their credentials are splashd's): 0
    // stands for them.
    if (client != host->client && !is_xwayland(host, client)) wl_client_get_credentials(client, &pid, NULL, NULL);
    if (count < capacity) pids[count] = pid;
    count++;
  }
  return count;
}

static void map_input(struct splashd_host *host, const struct splashd_host_input_map *maps, size_t count) {
  if (count == 0) return;
  host->input_map_count = 0;
  for (size_t i = 0; i < count && host->input_map_count < sizeof host->input_maps / sizeof host->input_maps[0]; i++) {
    struct input_map *map = &host->input_maps[host->input_map_count];
    // A screen named longer than connectors are is one no device names.
    if (i > 0 && (maps[i].screen == NULL || strlen(maps[i].screen) >= sizeof map->screen)) continue;
    snprintf(map->screen, sizeof map->screen, "%s", i > 0 ? maps[i].screen : "");
    map->reaches = maps[i].reaches_window != 0;
    memcpy(map->m, maps[i].map, sizeof map->m);
    host->input_map_count++;
  }
}

static void destroy(struct splashd_host *host) {
  end_held(host);
  drop_held(host);
  if (host->composed != NULL) pixman_image_unref(host->composed);
  if (host->feedback != NULL) wlr_presentation_feedback_destroy(host->feedback);
  if (host->xwayland != NULL) {
    drop_x11_windows(host);
    wl_list_remove(&host->new_x11_surface.link);
    wl_list_remove(&host->xwayland_ready_listener.link);
    wlr_xwayland_destroy(host->xwayland);
  }
  wl_display_destroy_clients(host->display);
  wl_list_remove(&host->request_set_cursor.link);
  if (host->wake_source != NULL) wl_event_source_remove(host->wake_source);
  close(host->wake);
  stop_input(host);
  wlr_backend_destroy(host->backend);
  wl_display_destroy(host->display);
  wlr_output_layout_destroy(host->layout);
  wlr_allocator_destroy(host->allocator);
  wlr_renderer_destroy(host->renderer);
  if (host->arrows != NULL) wlr_xcursor_manager_destroy(host->arrows);
  free(host);
  log_function = NULL;
}

__attribute__((visibility("default"))) const struct splashd_host_api splashd_wayland_host_api = {
    .version = SPLASHD_HOST_API_VERSION,
    .create = create,
    .event_fd = event_fd,
    .dispatch = dispatch,
    .add_listener = add_listener,
    .connect_client = connect_client,
    .hold_frame = hold_frame,
    .begin_held = begin_held,
    .end_held = end_held,
    .drop_held = drop_held,
    .frame_done = frame_done,
    .show_screen = show_screen,
    .start_input = start_input,
    .withhold_input = withhold_input,
    .map_input = map_input,
    .resize = resize,
    .windows = windows,
    .client_processes = client_processes,
    .start_xwayland = start_xwayland,
    .destroy = destroy,
};
