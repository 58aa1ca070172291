// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <stddef.h>
#include <stdint.h>

/* Host mode's Wayland compositor: wlroots 0.15's headless back end as the
   protocol server of one kiosk program (wl_compositor, wl_subcompositor,
   wl_shm, data-device, xdg-shell, xdg-decoration, xdg-output, viewporter,
   presentation-time, wlr-screencopy, virtual-keyboard, virtual-pointer,
   idle-inhibit (idle_inhibited), a seat with the machine's keyboards, pointers and touch
   screens; Xwayland when asked for), whose windows splashd paints into its
   own frames. It lives in its own shared object (libsplashd-wayland-host.so,
   built from wayland-host/, which links wlroots), loaded with dlopen only
   in host mode, so that a plain splash never maps wlroots. Every call comes
   from the thread that made the host.

   Who decides what. The compositor decides which window is the program's
   (the first toplevel, or the first X11 window to show that is not a menu
   or a tooltip), which window has the keyboard, where later windows and
   popups lie over the program's, which cursor is drawn, and which surface
   a pointer or a touch reaches, through the maps splashd gives
   (map_input). splashd decides when to reveal the program, what the screen
   shows, when a frame is done, how the screens are arranged, and those
   maps. */

/* The held frame (hold_frame): what the program's first toplevel showed,
   its buffer or, when subsurfaces or popups showed over it, the window
   composed from all of them at the toplevel's size; read between
   begin_held and end_held. */
struct splashd_host_buffer {
  /* 32-bit pixels, 0xAARRGGBB in memory order of a uint32 (DRM's
     ARGB8888 or XRGB8888: only these two are offered; splashd shows them
     opaque, the program's window being the whole screen). */
  const void *pixels;
  int32_t width;
  int32_t height;
  int32_t stride;
  /* 1 when the top bytes are alpha (ARGB8888), 0 when they mean nothing. */
  int32_t has_alpha;
};

/* The held frame as one buffer in GPU memory (linux-dmabuf: a GL
   program's), as a display can show it without a copy (held_dmabuf). */
struct splashd_host_dmabuf {
  int32_t width, height;
  /* Its DRM format (fourcc) and modifier, as the client gave them
     (DRM_FORMAT_MOD_INVALID when it gave none). */
  uint32_t format;
  uint64_t modifier;
  /* Its planes (1 to 4): the client's descriptors, valid while the frame
     is held or shown as it is, never to be closed by the caller; each
     plane's offset and bytes a row. */
  int32_t planes;
  int32_t fd[4];
  uint32_t offset[4], stride[4];
};

/* A rectangle in pixels, fractions allowed (compose_fill, compose_picture). */
struct splashd_host_rect {
  float x, y, width, height;
};

/* Where the points of a screen's touch panel or tablet lie on the
   window's canvas (map_input). */
struct splashd_host_input_map {
  /* The screen's name, as udev's WL_OUTPUT property of a device names it
     (weston's convention; "HDMI-A-1"); ignored in the first map. */
  const char *screen;
  /* 0 where the screen shows no part of the window: its devices' points
     reach nothing. */
  int32_t reaches_window;
  /* A point (u, v): x = map[0] u + map[1] v + map[2],
     y = map[3] u + map[4] v + map[5]. */
  double map[6];
};

/* What happened since the last dispatch (a bit set). */
enum {
  /* A surface of the program's committed, or one went (a new frame of its
     windows; commits of other clients' surfaces too, which show the same). */
  SPLASHD_HOST_NEW_BUFFER = 1,
  /* A client's connection closed (the program's own: it exited or was
     cut off; or another's). */
  SPLASHD_HOST_CLIENT_GONE = 2,
  /* A screencopy client asked for the screen: call show_screen. */
  SPLASHD_HOST_FRAME_WANTED = 4,
  /* A client connected (to the display's socket, or the program's own
     connection was made). */
  SPLASHD_HOST_CLIENT_CAME = 8,
  /* The program's window's client did not answer a ping (ping) within its
     timeout: it no longer reads what the compositor sends. */
  SPLASHD_HOST_PING_MISSED = 16,
  /* A key, a button, a scroll, a touch or the pointer moving came from
     the machine's devices or a client's virtual keyboard or pointer,
     whether it reached a window or was withheld (withhold_input). */
  SPLASHD_HOST_INPUT = 32,
  /* A client's idle inhibitor came or went (idle_inhibited). */
  SPLASHD_HOST_IDLE_INHIBITION = 64,
  /* A text field of the surface with the keyboard's focus began or ceased
     to take text (text_field_active). */
  SPLASHD_HOST_TEXT_FIELD = 128,
};

struct splashd_host;

/* A pixel layout a display scans out: a DRM fourcc and a format modifier
   (DRM_FORMAT_MOD_INVALID: the driver's implicit one). */
struct splashd_host_layout {
  uint32_t format;
  uint64_t modifier;
};

/* The keyboard layout, as XKB names it (NULL: xkbcommon's default). */
struct splashd_host_keymap {
  const char *rules, *model, *layout, *variant, *options;
};

/* Told each line wlroots logs: its importance (1 error, 2 info, 3 debug). */
typedef void (*splashd_host_log_fn)(void *context, int importance, const char *line);

/* The functions of the shared object, in one table (its only symbol,
   splashd_wayland_host_api). */
struct splashd_host_api {
  /* SPLASHD_HOST_API_VERSION of the object. */
  int version;
  /* A compositor whose one output is a screen of `screen_width` x
     `screen_height` (what screencopy clients get), the program's window
     `width` x `height` (the screen turned as the splash is); NULL with the
     reason in `error`. `log` gets wlroots' errors. With `render_node` (a
     DRM render node's path, the card's splashd shows on) the GPU variant
     (libsplashd-wayland-host-gpu.so) renders with it and offers the
     program linux-dmabuf; the plain one takes NULL only. */
  struct splashd_host *(*create)(int32_t screen_width, int32_t screen_height, int32_t width, int32_t height,
                                 const char *render_node, splashd_host_log_fn log, void *log_context, char *error,
                                 size_t capacity);
  /* The descriptor to poll for readability (the event loop's). */
  int (*event_fd)(struct splashd_host *host);
  /* Serves what the clients sent, without blocking, and sends what is
     queued; returns what happened (SPLASHD_HOST_* bits). */
  int (*dispatch)(struct splashd_host *host);
  /* Serves clients that connect to the listening socket `fd` (bound and
     listening; the host owns it from now on, and closes it); 0, or -1. */
  int (*add_listener)(struct splashd_host *host, int fd);
  /* A connection for the program: the descriptor its WAYLAND_SOCKET names
     (not close-on-exec; the caller closes it once the program has it), or
     -1 with errno. One program at a time. */
  int (*connect_client)(struct splashd_host *host);
  /* Holds what the first toplevel shows now (its buffer locked, or the
     window composed) as the frame splashd draws from, until the next is
     held or drop_held, even after the client has gone (what was shown of
     its buffer, at most the canvas, copied as it went): 1, or 0 when it
     shows nothing (what was held stays held). A buffer the client
     destroyed while it was held is not read: nothing is lent until the
     next is held. */
  int (*hold_frame)(struct splashd_host *host);
  /* 1 with `buffer` filled with the held frame's pixels, readable until
     end_held (a client may move or shrink its memory between two reads);
     0 when none is held. Pair with end_held before anything else is called. */
  int (*begin_held)(struct splashd_host *host, struct splashd_host_buffer *buffer);
  void (*end_held)(struct splashd_host *host);
  /* The bounding box (x, y, width, height, in the held frame's pixels) of
     what changed in it since the frame held before, from the damage its
     client sent: 1, or 0 when all of it may have (the first frame, a
     buffer of another size, a window composed of several surfaces). */
  int (*held_damage)(struct splashd_host *host, int32_t box[4]);
  /* Lets go of the held frame (the client's buffer is its own again). */
  void (*drop_held)(struct splashd_host *host);
  /* 1 with `dmabuf` filled when the held frame is one GPU buffer shown as
     it is (a window of one surface, its buffer a dmabuf, no cursor drawn
     over it): what a display may scan out; 0 otherwise (shared memory, a
     composed window, or a compositor without a GPU). */
  int (*held_dmabuf)(struct splashd_host *host, struct splashd_host_dmabuf *dmabuf);
  /* The held frame is on the screen as it is (scanned out): its buffer stays
     locked, its client not told it may reuse it, until another frame is
     shown so (that one's flip done) or shown_composed. */
  void (*shown_as_is)(struct splashd_host *host);
  /* The screen shows splashd's own frames again (the flip away from the
     buffer shown as it is done): that buffer is let go of. */
  void (*shown_composed)(struct splashd_host *host);
  /* The frame with the program's current buffer was presented at
     `monotonic_ns` (CLOCK_MONOTONIC), the screen refreshing every
     `refresh_ns`: frame callbacks and presentation feedback go out, and
     the output's mode says that refresh. */
  void (*frame_done)(struct splashd_host *host, int64_t monotonic_ns, int64_t refresh_ns);
  /* What the screen shows (32-bit XRGB pixels), for the screencopy
     clients that asked (FRAME_WANTED): the output takes its size. 1 when
     it was given to them, 0 if not (they are told their copy failed); NULL
     when there is nothing to show (the same). */
  int (*show_screen)(struct splashd_host *host, const struct splashd_host_buffer *screen);
  /* Disconnects the program and frees everything. */
  void (*destroy)(struct splashd_host *host);
  /* Takes the machine's keyboards, pointers and touch screens (libinput;
     those plugged in later too): keys in the layout `keymap` go to the
     newest window, the pointer and touches to what lies under them (the
     cursor drawn from the pointer's first move to the next touch); 0, -2
     when the layout does not compile, or -1 when libinput cannot be
     started, with the reason in `error`. Needs root (the devices are opened
     directly) and udev's database; a machine without them is no failure. */
  int (*start_input)(struct splashd_host *host, const struct splashd_host_keymap *keymap, char *error,
                     size_t capacity);
  /* With `withheld` non-zero, no window has the keyboard's or the
     pointer's focus and no touch reaches one, so that nothing typed or
     pressed reaches a client (a question on the splash is being answered);
     with 0, input goes to the windows again. */
  void (*withhold_input)(struct splashd_host *host, int withheld);
  /* Where a point of an absolute device (a touch screen or a tablet: u, v
     the fractions of the panel's width and height it reports) lies on the
     window's canvas, for the devices on each screen: `maps[0]` for those
     the machine puts on no screen named in the others (the first 16 are
     kept; until told, the canvas unturned). */
  void (*map_input)(struct splashd_host *host, const struct splashd_host_input_map *maps, size_t count);
  /* The program's window is `width` x `height` from now on (the screen
     turned): its first toplevel is configured at that size. */
  void (*resize)(struct splashd_host *host, int32_t width, int32_t height);
  /* How many toplevels are mapped (the program's window, dialogs, other
     clients' windows). */
  int (*windows)(struct splashd_host *host);
  /* The process ID of each connected client (from its socket's
     credentials; 0 for the program's own connection, which splashd made),
     the first `capacity` of them in `pids`; returns how many there are. */
  int (*client_processes)(struct splashd_host *host, int32_t *pids, int capacity);
  /* Serves X11 programs too: Xwayland, started when the first X client
     connects (wlroots' lazy mode), its windows shown as the program's (the
     first that is not a menu or a tooltip, once it asks for a size or
     shows, full screen; the others over it). With `user` (the program
     runs as that user; NULL: as splashd's), Xwayland is started now and
     waited for (at most 5 s), and the user is let in (X lets in only its
     own user otherwise). Returns the display's name for DISPLAY (":N"),
     or NULL with the reason in `error`. */
  const char *(*start_xwayland)(struct splashd_host *host, const char *user, char *error, size_t capacity);
  /* Asks the client of the program's window (the first toplevel) whether
     it still answers: xdg_wm_base's ping, its pong awaited `timeout_ms`
     (wlroots' timer in the event loop); a pong that has not come by then
     is reported as SPLASHD_HOST_PING_MISSED, once. 1 when a ping went out,
     or one already awaits its pong; 0 when the program's window is no
     xdg-shell toplevel (none yet, or an X11 window: X has no such ping
     here). When to ask, how long to wait and what a miss means are the
     caller's. */
  int (*ping)(struct splashd_host *host, uint32_t timeout_ms);
  /* 1 while a client holds an idle inhibitor (idle-inhibit: a video
     playing), 0 otherwise: what idle-off asks. */
  int (*idle_inhibited)(struct splashd_host *host);
  /* Composition on the GPU (the GPU variant; the plain one answers 0):
     splashd's own frame drawn by the renderer, over the held frame's GPU
     buffer, into a buffer of the compositor's that a display scans out, so
     that the program's frame is neither read back nor copied. compose_begin
     starts a frame of `width` x `height`: 1, or 0 when none can be drawn
     (no GPU, or the held frame is no single GPU buffer). Between it and
     compose_end only compose_fill and compose_picture may be called. */
  int (*compose_begin)(struct splashd_host *host, int32_t width, int32_t height);
  /* Fills `rect` with `rgba` (each 0 to 1, not premultiplied). */
  void (*compose_fill)(struct splashd_host *host, const struct splashd_host_rect *rect, const float rgba[4]);
  /* Draws part `source` (in its pixels) of `picture` (0: the held frame;
     else a number compose_upload gave) at opacity `alpha`, placed by
     `placement`: the unit square, showing `source` upright, put on the
     frame at x = p[0] u + p[1] v + p[2], y = p[3] u + p[4] v + p[5] (a
     rectangle, or one turned by quarter turns). */
  void (*compose_picture)(struct splashd_host *host, int32_t picture, const struct splashd_host_rect *source,
                          const float placement[6], float alpha);
  /* Ends the frame: 1 with `frame` filled (XRGB8888; its descriptors the
     compositor's, valid until the third compose_begin after this one,
     shown_as_is or destroy), the GPU done with it; 0 when it could not be
     drawn. */
  int (*compose_end)(struct splashd_host *host, struct splashd_host_dmabuf *frame);
  /* A picture for compose_picture made of `pixels` (ARGB8888 with straight
     alpha, or XRGB8888 without), copied: its number (> 0), or 0 when none
     can be made (none is while a frame is being composed). */
  int32_t (*compose_upload)(struct splashd_host *host, const struct splashd_host_buffer *pixels);
  /* Lets go of a picture compose_upload made. */
  void (*compose_release)(struct splashd_host *host, int32_t picture);
  /* The program's window may be scanned out by the card whose device
     number is `device`, whose primary plane shows buffers of `layouts`:
     the GPU variant tells the window so in linux-dmabuf's feedback (a
     tranche flagged scanout, on that card, before the renderer's), now
     and for each program's window after, so that its GPU renders buffers
     the display can show as they are. Of `layouts` only those the
     renderer also takes are offered (wlroots 0.15 adds each of their
     formats in the implicit layout); returns how many (0 with none in
     common, or in the plain variant: the feedback is the renderer's
     alone). Called again, it replaces what was offered. */
  int (*offer_scanout)(struct splashd_host *host, uint64_t device, const struct splashd_host_layout *layouts,
                       size_t count);
  /* 1 while a text field of the surface with the keyboard's focus takes
     text (text-input-v3, enabled: what an input method is activated for),
     0 otherwise: when an on-screen keyboard that is no input method is to
     show. */
  int (*text_field_active)(struct splashd_host *host);
};

#define SPLASHD_HOST_API_VERSION 18

/* Loads the shared object at `path` (dlopen, RTLD_LOCAL) and returns its
   table; NULL with the reason in `error`. */
const struct splashd_host_api *splashd_host_load(const char *path, char *error, size_t capacity);
