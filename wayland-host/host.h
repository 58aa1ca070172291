// SPDX-License-Identifier: Apache-2.0
// splashd's Wayland host (splashd_wayland_host.h): wlroots 0.15's headless
// back end serving the protocols of one kiosk program; splashd reads the
// program's current buffer and paints it itself, and gives the output what
// the screen shows when a screencopy client asks for it; the machine's
// keyboards (libinput) and clients' virtual ones type into the newest
// window, its pointers (and clients' virtual ones) and touch screens point
// at what lies under them.
// Not only glue (what wlroots' listener macros and wl_container_of need,
// which Swift cannot call): the compositor decides which window is the
// program's, which has the focus, where later windows and popups lie, the
// cursor, and where pointers and touches land (through the maps splashd
// gives); splashd decides when to reveal the program, what to show, when a
// frame is done, the screens' arrangement and those maps.
//
// This header is the compositor's own (the state, and what its files
// share); each file includes it first. A file calls only into the files
// listed below it, never into one above (no circle of calls); what one
// file alone uses is static in it.
//   host.c      the set-up (the display, the back end, the protocols), the
//               API table, dispatch and the clients: calls into all below
//   budgets.c   what a client may make the compositor do (how many may
//               connect; requests seen before they are served, its shared
//               memory counted): xwayland.c, log.c
//   input.c     libinput, keyboards, the pointer, touch, clients' virtual
//               keyboards and pointers: windows.c, cursor.c, events.c, log.c
//   frames.c    commits, the held frame and its composition, frame
//               callbacks and presentation, screencopy: layers.c,
//               windows.c, cursor.c, events.c, renderer/, dmabufs.c
//   text.c      text input (text-input-v3) relayed to an input method
//               (input-method-v2) by the keyboard's focus: log.c
//   layers.c    layer surfaces (wlr-layer-shell: an on-screen keyboard, a
//               bar), arranged on the canvas, the area they leave the
//               program: windows.c, events.c, log.c
//   xwayland.c  Xwayland and its windows: windows.c
//   windows.c   windows (xdg toplevels, X11's) and popups: which is the
//               program's, the focus, where they lie (reading where
//               layers.c put the layer surfaces): events.c
//   cursor.c    the cursor a client sets, the theme's arrow: events.c
//   events.c    what happened, noted for the next dispatch; flush
//   renderer/   the renderer, one of two in each variant: cpu.c (pixman;
//               the plain libsplashd-wayland-host.so) or gpu.c (GLES2 on a
//               render node, linux-dmabuf, GPU buffers read back,
//               splashd's frames composed over them;
//               libsplashd-wayland-host-gpu.so): log.c, dmabufs.c
//   log.c       wlroots', libinput's and libwayland's lines, to splashd's
//               callback
//   dmabufs.c   a GPU buffer described as the API gives it
#pragma once
#include "splashd_wayland_host.h"

#include <libinput.h>
#include <pixman.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/box.h>
#include <wlr/xcursor.h>
#include <wlr/xwayland.h>

/* A screen's absolute devices: a point (u, v) of the panel on the canvas,
   x = m[0] u + m[1] v + m[2], y = m[3] u + m[4] v + m[5]; where the screen
   shows none of the canvas (`reaches` false), nowhere. */
struct input_map {
  char screen[32];
  bool reaches;
  double m[6];
};

/* wlr-layer-shell's layers: background, bottom, top, overlay. */
enum { LAYER_COUNT = 4 };

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
  /* Clients' idle inhibitors (idle_inhibited). */
  struct wlr_idle_inhibit_manager_v1 *idle_inhibit;
  /* How many inhibitors the last dispatch found. */
  int inhibitors_seen;
  int32_t width, height;
  /* The program's connection, and its first window (full screen). */
  struct wl_client *client;
  struct window *first;
  /* Later windows (dialogs, a second window, X11's menus), in the order
     they came: struct window, drawn over the first, the last on top. */
  struct wl_list later;
  struct wlr_compositor *compositor;
  /* The layer surfaces of each layer (struct layer; background, bottom,
     top, overlay), the newest last, how many there are and are shown; the part of
     the canvas their exclusive zones leave the program's window. */
  struct wl_list layers[LAYER_COUNT];
  int layer_surfaces, layers_shown;
  struct wlr_box usable;
  /* The layer surface with on-demand keyboard interactivity last pressed
     on (a launcher's field): it has the keyboard until a press on a window
     (or it goes, or asks no more); NULL: none. */
  struct layer *keyboard_layer;
  /* The clients' text inputs (text.c's struct text_input), whether one
     of the focused surface's is enabled, and the input method served
     (NULL: none), with its commits and their bytes in the current second,
     and whether it was cut off for them (it goes after the dispatch). */
  struct wl_list text_inputs;
  bool text_input_active;
  struct wlr_input_method_v2 *input_method;
  int64_t input_method_second;
  int input_method_commits;
  size_t input_method_bytes;
  bool input_method_flooded;
  /* X11 programs' server (start_xwayland), and whether it is up. */
  struct wlr_xwayland *xwayland;
  bool xwayland_ready;
  /* The held frame (hold_frame): the program's buffer, locked until the
     next is held or drop_held, and the client it is of; or NULL with
     `holds_composed` for the window composed below, or for what was shown
     of the buffer, copied as its client went (keep_held_pixels: a buffer
     whose wl_buffer is gone is not read). */
  struct wlr_buffer *held;
  struct wl_client *held_client;
  bool holds_composed;
  /* What changed in the program's window since the frame held before
     (hold_frame), in its coordinates: the damage of its surface's commits
     since (`pending_damage`), handed over at each hold (`held_damage`);
     `*_whole` when it cannot be told (another surface committed, a buffer
     of another size, a composed window), and at first. */
  pixman_region32_t pending_damage, held_damage;
  bool pending_whole, held_whole;
  /* The buffer on the screen as it is (scanned out: shown_as_is), locked
     until another is shown so or the screen shows splashd's frames again. */
  struct wlr_buffer *shown;
  /* Whether the held frame is being read (begin_held to end_held), and
     whether from what read_back read of it. */
  bool reading, reading_back;
  /* The GPU variant's renderer's own state (renderer/gpu.c); NULL in the
     plain one. */
  struct gpu *gpu;
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
  struct wl_listener output_frame, new_surface, client_created, new_layer_surface;
  struct wl_listener new_text_input, new_input_method, input_method_commit, input_method_destroy;
  /* The input method's keyboard grab, while it holds one (keyboard_grab_for). */
  struct wlr_input_method_keyboard_grab_v2 *keyboard_grab;
  struct wl_listener input_method_grab, keyboard_grab_destroy, input_method_popup;
  struct wl_listener keyboard_focus_change;
  /* Sees each request before it is served (budgets.c). */
  struct wl_protocol_logger *request_logger;
  /* Every client of the display: struct watched_client. */
  struct wl_list watched;
  /* The display's listening socket (add_listener; -1: none), served by
     host.c itself: accepting pauses while there is no descriptor to take
     a connection into (`listener_paused`: not polled, retried by the
     timer or when a client goes), rather than failing again at every
     turn; `listener_starved` (said) until no connection waits any more. */
  int listener_fd;
  struct wl_event_source *listener_source, *listener_retry;
  bool listener_paused, listener_starved;
};

struct pool_record;

/* A client of the display, watched until it goes. */
struct watched_client {
  struct splashd_host *host;
  struct wl_client *client;
  /* In host->watched. */
  struct wl_list link;
  /* One of splashd's own connections (the program's, Xwayland's: their
     peer is splashd itself), which no cap counts; else the process it
     connected from (its socket's credentials). */
  bool own;
  pid_t pid;
  /* The idle callback that cuts it off (it came over a cap), until it runs. */
  struct wl_event_source *cut;
  /* Its wl_shm pools (budgets.c's struct pool_record) and how many bytes
     and pools they are; what the last create_pool or create_buffer asked,
     for the resource it makes next (resource_created). */
  struct wl_list pool_records;
  int64_t shm_bytes;
  int pools;
  int64_t pending_pool_size;
  struct pool_record *pending_buffer_pool;
  struct wl_listener destroy, resource_created;
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
  /* An xdg toplevel's: its client missed a pong (wlroots' ping_timeout). */
  struct wl_listener ping_timeout;
  struct wl_listener destroy, map, unmap, request_configure;
};

/* A layer surface (wlr-layer-shell's), until it is destroyed: where it
   lies on the canvas (`box`), and the size it was last told (none, `told`
   false, since it was made or unmapped). */
struct layer {
  struct splashd_host *host;
  struct wlr_layer_surface_v1 *surface;
  /* In host->layers[layer]. */
  struct wl_list link;
  uint32_t layer;
  struct wlr_box box;
  bool told;
  int32_t told_width, told_height;
  /* Within its unmap signal (wlroots marks it unmapped after). */
  bool unmapping;
  struct wl_listener map, unmap, destroy, commit, new_popup;
};

/* Whether a layer surface is shown: mapped, and not being unmapped. */
static inline bool layer_shown(const struct layer *layer) { return layer->surface->mapped && !layer->unmapping; }

/* A keyboard whose keys go to the focused window, until it goes. */
struct host_keyboard {
  struct splashd_host *host;
  struct wlr_input_device *device;
  struct wl_list link;
  struct wl_listener key, modifiers, keymap, destroy;
  /* Its keys pressed while input was withheld (at most 16 at a time):
     neither their being down nor their release reaches a client. */
  uint32_t withheld_keys[16];
  size_t withheld_key_count;
  /* Its keys pressed to the input method's keyboard grab (at most 16 at a
     time): their release goes there too, whatever the grab then applies
     to, and the window never has them down. */
  uint32_t grabbed_keys[16];
  size_t grabbed_key_count;
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
  struct wlr_surface *surface;
  struct wl_listener commit, destroy;
};

/* Where the program's windows lie on the canvas, as splashd shows them:
   the first toplevel's buffer centred (cut around its middle where larger,
   its picture `picture_width` x `picture_height`), each later toplevel's
   window centred on the `area` that picture gives them. While layer
   surfaces show, the picture is the whole canvas and the area what their
   exclusive zones leave (the first window centred in it). */
struct window_places {
  int64_t first_x, first_y, picture_x, picture_y, picture_width, picture_height;
  struct wlr_box area;
};

/* Which cursor is drawn: none until the pointer has moved (since the last
   touch); the cursor the client under it set (none, when it set none or
   its surface has nothing); the arrow where the client under it set none
   since it was last given the pointer, or no client is there (as other
   compositors show their theme's). */
enum drawn_cursor { NO_CURSOR, CLIENTS_CURSOR, ARROW };

// renderer/cpu.c or renderer/gpu.c

/* The renderer: pixman's in the plain variant (`render_node` NULL), GLES2's
   on `render_node` in the GPU variant; NULL with the reason in `error`. */
struct wlr_renderer *start_renderer(struct splashd_host *host, const char *render_node, char *error,
                                    size_t capacity);
/* The renderer the compositor makes its surfaces' textures with: the
   renderer itself in the plain variant (pixman wraps a shared-memory
   buffer where it lies), one that makes empty textures in the GPU
   variant (splashd never draws a surface's texture). */
struct wlr_renderer *surface_renderer(struct splashd_host *host);
/* Offers clients the GPU's buffers beside wl_shm (the GPU variant:
   linux-dmabuf, wl_drm); what cannot be offered is said, not fatal. */
void offer_gpu_buffers(struct splashd_host *host);
/* The API's offer_scanout: the layouts of `layouts` the renderer also
   takes are what the program's window is told a display scans out, on
   card `device` (the GPU variant; the plain one offers none). */
int offer_scanout(struct splashd_host *host, uint64_t device, const struct splashd_host_layout *layouts,
                  size_t count);
/* Tells the program's window (the first, an xdg toplevel) what
   offer_scanout offered, in linux-dmabuf's feedback: a scan-out tranche
   before the renderer's; nothing when nothing was offered. */
void tell_window_of_scanout(struct splashd_host *host);
/* `buffer`'s pixels, when it is a client's GPU buffer: read back into an
   a8r8g8b8 image the renderer keeps until the next read; NULL otherwise. */
pixman_image_t *read_back(struct splashd_host *host, struct wlr_buffer *buffer);
/* Composition on the GPU (the table's compose_*): the plain variant
   composes nothing (compose_begin and compose_end answer 0, compose_upload 0). */
int compose_begin(struct splashd_host *host, int32_t width, int32_t height);
void compose_fill(struct splashd_host *host, const struct splashd_host_rect *rect, const float rgba[4]);
void compose_picture(struct splashd_host *host, int32_t picture, const struct splashd_host_rect *source,
                     const float placement[6], float alpha);
int compose_end(struct splashd_host *host, struct splashd_host_dmabuf *frame);
int32_t compose_upload(struct splashd_host *host, const struct splashd_host_buffer *pixels);
void compose_release(struct splashd_host *host, int32_t picture);
/* Lets go of the buffers frames are composed and read back into (the
   GPU variant; made again when next needed): the program's own buffer is
   scanned out after frames of splashd's (shown_as_is), and a 1080p
   screen's three composed frames and read-back are 32 MB of the GPU's
   memory and 8 MB of splashd's. */
void let_go_of_gpu_frames(struct splashd_host *host);
/* Frees what start_renderer made beside the renderer. */
void stop_renderer(struct splashd_host *host);

// log.c

/* Sends wlroots' errors (and libinput's) to `log` from now on. */
void log_start(splashd_host_log_fn log, void *context);
/* Sends nothing to the log any more (its host is gone). */
void log_stop(void);
/* Sends `line` to the log as an error (when there is a log). */
void log_error(const char *line);
/* The same for a line a client can cause again and again: at most 20 at
   once, then one a second (the rest counted, and said). */
void log_limited(const char *line);
/* libinput's log handler (libinput_log_set_handler): its lines, as errors. */
void log_libinput_line(struct libinput *libinput, enum libinput_log_priority priority, const char *format,
                       va_list arguments);

// events.c

/* Notes what happened (SPLASHD_HOST_* bits) for the next dispatch to return. */
void note(struct splashd_host *host, int events);
/* Reads the wake descriptor (host->wake) in the event loop. */
int handle_wake(int fd, uint32_t mask, void *data);
/* Sends what was queued outside a dispatch (configures, frame callbacks). */
void flush(struct splashd_host *host);

// cursor.c

/* The cursor theme's arrow, loaded when first asked for; NULL without one. */
struct wlr_xcursor_image *arrow(struct splashd_host *host);
/* Which cursor is drawn now (enum drawn_cursor). */
enum drawn_cursor drawn_cursor(struct splashd_host *host);
/* The seat's request_set_cursor: the client under the pointer sets its cursor. */
void handle_request_set_cursor(struct wl_listener *listener, void *data);

// text.c

/* Relays text inputs to an input method from now on; what cannot be
   served is said, not fatal. */
void start_text_input(struct splashd_host *host);
/* Where the keys and modifiers of `device` go instead of the focused
   window: the input method's keyboard grab while it holds one and a field
   takes text, unless `device` is the input method's own virtual keyboard
   (whose keys it sends for the field); NULL: the window. */
struct wlr_input_method_keyboard_grab_v2 *keyboard_grab_for(struct splashd_host *host,
                                                            struct wlr_input_device *device);
/* The surface of the field the input method serves and its text cursor
   (in that surface's coordinates), where the input method's popups go;
   false when none is served. */
bool input_popup_anchor(struct splashd_host *host, struct wlr_surface **field, struct wlr_box *cursor);
/* The input method's popup surfaces shown (mapped, a field served). */
int input_popups_shown(struct splashd_host *host);

// layers.c

/* Serves layer surfaces from now on (wlr-layer-shell); what cannot be
   served is said, not fatal. */
void start_layers(struct splashd_host *host);
/* Places the layer surfaces on the canvas (each told its size when it
   changed) and the area they leave the program's window (configured
   again when that changed). */
void arrange_layers(struct splashd_host *host);
/* A press (a button, a touch) on `surface`: an on-demand layer surface
   takes the keyboard, a window (or a popup of one) gives it back to the
   windows, a layer surface that takes no keys (an on-screen keyboard's)
   changes nothing. */
void layer_pressed(struct splashd_host *host, struct wlr_surface *surface);
/* Keeps `popup`, in the tree of popups of the layer surface `surface`
   (a bar's menu, or a menu of that), on the canvas: moved or flipped as
   its positioner allows. */
void keep_layer_popup_on_screen(struct wlr_layer_surface_v1 *surface, struct wlr_xdg_popup *popup);
/* The on-demand layer surface that has the keyboard (`keyboard_layer`, while
   it still asks for it); NULL: none. */
struct wlr_surface *keyboard_layer_surface(const struct splashd_host *host);

// windows.c

/* The surface a window shows (NULL: none yet, or no more). */
struct wlr_surface *window_surface(const struct window *window);
/* Whether a window is shown: between its map and unmap, with a surface. */
bool window_mapped(const struct window *window);
/* Calls `iterator` on each surface of the window (subsurfaces, popups), below it first. */
void window_for_each_surface(struct window *window, wlr_surface_iterator_func_t iterator, void *data);
/* Configures `window` full screen at the canvas's size (the program's). */
void configure_full_screen(struct splashd_host *host, struct window *window);
/* Configures the program's window (the first), if there is one, full screen. */
void send_configure(struct splashd_host *host);
/* Gives the keyboard to the newest mapped window that takes it, else the program's. */
void focus(struct splashd_host *host);
/* A window's map signal: it shows, and takes the focus. */
void handle_window_map(struct wl_listener *listener, void *data);
/* Forgets a window: out of the host's, its listeners removed, freed. */
void drop_window(struct window *window);
/* A window watched until it is destroyed: the program's when `first`, else a later one. */
struct window *add_window(struct splashd_host *host, struct wlr_xdg_surface *xdg, struct wlr_xwayland_surface *x11,
                          bool first);
/* Pings the client of the program's window (an xdg toplevel), its pong
   awaited `timeout_ms`: 1, or 0 when that window is none or not xdg-shell's. */
int ping_program(struct splashd_host *host, uint32_t timeout_ms);
/* Where the program's windows lie on the canvas; false before the first buffer. */
bool place_windows(const struct splashd_host *host, struct window_places *places);
/* Where a later window's surface lies on the canvas. */
void place_later(const struct window_places *places, const struct window *later, int64_t *x, int64_t *y);
/* The surface shown at a point of the canvas, the point in its coordinates; NULL: the background. */
struct wlr_surface *surface_at(const struct splashd_host *host, double x, double y, double *sx, double *sy);
/* xdg-shell's new surface: a toplevel is a window (the first the program's), a popup kept on screen. */
void handle_new_xdg_surface(struct wl_listener *listener, void *data);
/* xdg-decoration's new toplevel decoration: none is drawn. */
void handle_new_decoration(struct wl_listener *listener, void *data);
/* How many windows are mapped (the table's `windows`). */
int count_windows(struct splashd_host *host);

// xwayland.c

/* Whether `client` is Xwayland's own connection. */
bool is_xwayland(const struct splashd_host *host, const struct wl_client *client);
/* Forgets the X11 windows (Xwayland went, or is being destroyed). */
void drop_x11_windows(struct splashd_host *host);
/* Starts serving X11 programs (the table's start_xwayland). */
const char *start_xwayland(struct splashd_host *host, const char *user, char *error, size_t capacity);

// frames.c

/* The compositor's new surface: watched for the commits that make new frames. */
void handle_new_surface(struct wl_listener *listener, void *data);
/* Something shown changed without a commit of the program's (a popup came,
   went or moved): a new frame, drawn whole. */
void note_whole_frame(struct splashd_host *host);
/* The output's frame signal: a screencopy client asked for the screen. */
void handle_output_frame(struct wl_listener *listener, void *data);
/* Holds what the program's window shows now (the table's hold_frame). */
int hold_frame(struct splashd_host *host);
/* Opens the held frame's pixels for reading (the table's begin_held). */
int begin_held(struct splashd_host *host, struct splashd_host_buffer *buffer);
/* The bounding box (x, y, width, height) of what changed in the held frame
   since the one held before: 1, or 0 when all of it may have. */
int held_damage(struct splashd_host *host, int32_t box[4]);
/* The held frame as one GPU buffer shown as it is (the API's held_dmabuf). */
int held_dmabuf(struct splashd_host *host, struct splashd_host_dmabuf *dmabuf);
/* The held frame is scanned out; the screen shows splashd's own frames
   again (the API's shown_as_is, shown_composed). */
void shown_as_is(struct splashd_host *host);
void shown_composed(struct splashd_host *host);
/* Ends the read begin_held opened (the table's end_held). */
void end_held(struct splashd_host *host);
/* Lets go of the held frame (the table's drop_held). */
void drop_held(struct splashd_host *host);
/* The held frame's client is going (its objects, the held buffer's
   wl_buffer among them, are destroyed next, after which the buffer cannot
   be read): what splashd shows of it, cut to the canvas around its middle,
   is copied while wl_shm still guards it, and held instead of the buffer.
   false when nothing was copied (nothing held, or no memory). */
bool keep_held_pixels(struct splashd_host *host);
/* Sends frame callbacks and presentation feedback (the table's frame_done). */
void frame_done(struct splashd_host *host, int64_t monotonic_ns, int64_t refresh_ns);
/* Gives the screencopy clients what the screen shows (the table's show_screen). */
int show_screen(struct splashd_host *host, const struct splashd_host_buffer *screen);

// budgets.c

/* Bounds what clients may ask of the compositor from now on. */
void start_budgets(struct splashd_host *host);
/* Stops that (before the display is destroyed). */
void stop_budgets(struct splashd_host *host);
/* A client connected (its `watched` listed in the host's): its wl_shm
   pools are counted from now on; one over a cap (too many clients, or too
   many from its process) is cut off, from an idle callback (the client's
   maker uses it when it is made). */
void admit_client(struct splashd_host *host, struct watched_client *watched);
/* A client is going: what admit_client left for it is undone. */
void client_gone(struct watched_client *watched);

// input.c

/* The virtual-keyboard manager's new keyboard: it types into the focused window. */
void handle_new_virtual_keyboard(struct wl_listener *listener, void *data);
/* The virtual-pointer manager's new pointer: it moves and clicks as a mouse does. */
void handle_new_virtual_pointer(struct wl_listener *listener, void *data);
/* Takes the machine's input devices (the table's start_input). */
int start_input(struct splashd_host *host, const struct splashd_host_keymap *names, char *error, size_t capacity);
/* Lets go of the machine's input devices, libinput, udev and the keymap. */
void stop_input(struct splashd_host *host);
/* Keeps input from the windows, or lets it through again (the table's withhold_input). */
void withhold_input(struct splashd_host *host, int withheld);
/* Of `keyboard`'s keys down now, those whose press reached the clients
   (not one withheld), in `keys` (room for all of its keys): how many. */
size_t keys_down_for_clients(struct splashd_host *host, const struct wlr_keyboard *keyboard, uint32_t *keys);
/* Where absolute devices' points lie on the canvas (the table's map_input). */
void map_input(struct splashd_host *host, const struct splashd_host_input_map *maps, size_t count);

// dmabufs.c

/* `buffer`'s DMA-BUF attributes in `dmabuf` (its descriptors the
   buffer's own): true, or false when it is no GPU buffer of 1 to 4 planes. */
bool describe_dmabuf(struct wlr_buffer *buffer, struct splashd_host_dmabuf *dmabuf);
