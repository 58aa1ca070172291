// SPDX-License-Identifier: Apache-2.0
// Input: the machine's keyboards, pointers and touch screens (splashd's own
// libinput context), clients' virtual keyboards and pointers; keys to the
// focused window, the pointer and touches to what lies under them.
#define _GNU_SOURCE
#include "host.h"

#include <errno.h>
#include <fcntl.h>
#include <libudev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server-protocol.h>
#include <wlr/interfaces/wlr_input_device.h>
#include <wlr/interfaces/wlr_keyboard.h>
#include <wlr/types/wlr_input_method_v2.h>
#include <wlr/types/wlr_pointer.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/types/wlr_virtual_pointer_v1.h>
#include <xkbcommon/xkbcommon.h>

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
  // After the seat: a popup's grab the touch ended no longer holds the keyboard.
  layer_pressed(host, surface);
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

/* Whether `key` is among the `count` keys of `keys`. */
static bool key_among(const uint32_t *keys, size_t count, uint32_t key) {
  for (size_t i = 0; i < count; i++) {
    if (keys[i] == key) return true;
  }
  return false;
}

/* Takes `key` out of the `*count` keys of `keys`; whether it was there. */
static bool forget_key(uint32_t *keys, size_t *count, uint32_t key) {
  for (size_t i = 0; i < *count; i++) {
    if (keys[i] != key) continue;
    keys[i] = keys[--*count];
    return true;
  }
  return false;
}

/* Whether `keyboard`'s key `key` was pressed while input was withheld. */
static bool key_withheld(const struct host_keyboard *keyboard, uint32_t key) {
  return key_among(keyboard->withheld_keys, keyboard->withheld_key_count, key);
}

/* `key` is no longer one pressed while input was withheld. */
static void forget_withheld_key(struct host_keyboard *keyboard, uint32_t key) {
  forget_key(keyboard->withheld_keys, &keyboard->withheld_key_count, key);
}

size_t keys_down_for_clients(struct splashd_host *host, const struct wlr_keyboard *keyboard, uint32_t *keys) {
  const struct host_keyboard *ours = NULL;
  struct host_keyboard *each;
  wl_list_for_each(each, &host->keyboards, link) {
    if (each->device->keyboard == keyboard) ours = each;
  }
  size_t count = 0;
  for (size_t i = 0; i < keyboard->num_keycodes; i++) {
    uint32_t key = keyboard->keycodes[i];
    if (ours == NULL || !(key_withheld(ours, key) ||
                          key_among(ours->grabbed_keys, ours->grabbed_key_count, key))) {
      keys[count++] = key;
    }
  }
  return count;
}

/* A key goes to the focused window (or to the input method that grabs the
   keyboard, keyboard_grab_for), unless input is withheld: then neither it
   nor its release does (a key that wakes a dark screen, or answers a
   question, is the splash's, even when let go of after). */
static void handle_key(struct wl_listener *listener, void *data) {
  struct host_keyboard *keyboard = wl_container_of(listener, keyboard, key);
  struct splashd_host *host = keyboard->host;
  struct wlr_event_keyboard_key *event = data;
  note(host, SPLASHD_HOST_INPUT);
  bool pressed = event->state == WL_KEYBOARD_KEY_STATE_PRESSED;
  // A release whose press went to the input method's grab goes there
  // too (withheld or not: it has the key down), or nowhere once it is gone.
  if (!pressed && forget_key(keyboard->grabbed_keys, &keyboard->grabbed_key_count, event->keycode)) {
    if (host->keyboard_grab != NULL) {
      wlr_input_method_keyboard_grab_v2_set_keyboard(host->keyboard_grab, keyboard->device->keyboard);
      wlr_input_method_keyboard_grab_v2_send_key(host->keyboard_grab, event->time_msec, event->keycode, event->state);
    }
    return;
  }
  if (host->input_withheld) {
    if (!pressed) {
      forget_withheld_key(keyboard, event->keycode);
    } else if (!key_withheld(keyboard, event->keycode) &&
               keyboard->withheld_key_count < sizeof keyboard->withheld_keys / sizeof keyboard->withheld_keys[0]) {
      keyboard->withheld_keys[keyboard->withheld_key_count++] = event->keycode;
    }
    return;
  }
  // A release whose press was withheld stays the splash's; a press is the
  // window's (a key's release can be lost: a keyboard reset).
  bool withheld = key_withheld(keyboard, event->keycode);
  forget_withheld_key(keyboard, event->keycode);
  if (withheld && !pressed) return;
  // A press goes to the grab when it applies; a release whose press was
  // the window's (taken above otherwise) stays the window's.
  struct wlr_input_method_keyboard_grab_v2 *grab = pressed ? keyboard_grab_for(host, keyboard->device) : NULL;
  if (grab != NULL) {
    if (keyboard->grabbed_key_count < sizeof keyboard->grabbed_keys / sizeof keyboard->grabbed_keys[0] &&
        !key_among(keyboard->grabbed_keys, keyboard->grabbed_key_count, event->keycode)) {
      keyboard->grabbed_keys[keyboard->grabbed_key_count++] = event->keycode;
    }
    wlr_input_method_keyboard_grab_v2_set_keyboard(grab, keyboard->device->keyboard);
    wlr_input_method_keyboard_grab_v2_send_key(grab, event->time_msec, event->keycode, event->state);
    return;
  }
  wlr_seat_set_keyboard(host->seat, keyboard->device);
  wlr_seat_keyboard_notify_key(host->seat, event->time_msec, event->keycode, event->state);
}

/* A button's press or release goes to the window under the pointer;
   whether it went to the seat. A press withheld, or over no window (the
   window under a pointer that has not moved since input was given back,
   or since the window came, is entered first) with no popup's grab to
   end, is not the seat's; nor is a release of a button the seat does not
   have down (wlroots 0.15 would pass it on to whatever the pointer has
   come to since: the end of the click that woke the screen). A release
   while input is withheld still goes to the seat, whose buttons stay
   true; no window has the pointer then. */
static bool press_button(struct splashd_host *host, uint32_t time_msec, uint32_t button, enum wlr_button_state state) {
  const struct wlr_seat_pointer_state *pointer = &host->seat->pointer_state;
  if (state == WLR_BUTTON_RELEASED) {
    bool down = false;
    for (size_t i = 0; i < pointer->button_count; i++) down = down || pointer->buttons[i] == button;
    if (!down) return false;
  } else if (host->input_withheld) {
    return false;
  } else if (pointer->focused_surface == NULL && pointer->grab == pointer->default_grab) {
    point_at_pointer(host, time_msec);
    if (pointer->focused_surface == NULL) return false;
  }
  struct wlr_surface *pressed = state == WLR_BUTTON_PRESSED ? pointer->focused_surface : NULL;
  wlr_seat_pointer_notify_button(host->seat, time_msec, button, state);
  // After the seat: a popup's grab the press ended no longer holds the keyboard.
  if (pressed != NULL) layer_pressed(host, pressed);
  return true;
}

static void handle_modifiers(struct wl_listener *listener, void *data) {
  struct host_keyboard *keyboard = wl_container_of(listener, keyboard, modifiers);
  (void)data;
  if (keyboard->host->input_withheld) return;
  // The grab is told, and the window too: its modifiers stay true for
  // when keys reach it again.
  struct wlr_input_method_keyboard_grab_v2 *grab = keyboard_grab_for(keyboard->host, keyboard->device);
  if (grab != NULL) {
    wlr_input_method_keyboard_grab_v2_set_keyboard(grab, keyboard->device->keyboard);
    wlr_input_method_keyboard_grab_v2_send_modifiers(grab, &keyboard->device->keyboard->modifiers);
  }
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
  note(host, SPLASHD_HOST_INPUT);
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
    if (press_button(host, time_msec, libinput_event_pointer_get_button(event),
                     libinput_event_pointer_get_button_state(event) == LIBINPUT_BUTTON_STATE_PRESSED
                         ? WLR_BUTTON_PRESSED
                         : WLR_BUTTON_RELEASED)) {
      wlr_seat_pointer_notify_frame(host->seat);
    }
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
  if (type != LIBINPUT_EVENT_TOUCH_FRAME) note(host, SPLASHD_HOST_INPUT);
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
  if (libinput_dispatch(host->libinput) != 0) log_error("libinput: its events could not be read");
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

/* A client's virtual keyboard (an on-screen keyboard, wtype), with the
   keymap it gives. */
void handle_new_virtual_keyboard(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_virtual_keyboard);
  struct wlr_virtual_keyboard_v1 *keyboard = data;
  add_keyboard(host, &keyboard->input_device);
}

/* A virtual pointer moves and clicks as a mouse does; its absolute
   positions are fractions of the screen as splashctl snapshot and
   screencopy show it, mapped as a touch screen's are. */
static void handle_virtual_motion(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, motion);
  note(pointer->host, SPLASHD_HOST_INPUT);
  struct wlr_event_pointer_motion *event = data;
  struct splashd_host *host = pointer->host;
  move_pointer(host, event->time_msec, host->pointer_x + event->delta_x, host->pointer_y + event->delta_y);
}

static void handle_virtual_motion_absolute(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, motion_absolute);
  note(pointer->host, SPLASHD_HOST_INPUT);
  struct wlr_event_pointer_motion_absolute *event = data;
  double x, y;
  if (map_point(input_map(pointer->host, NULL), event->x, event->y, &x, &y)) {
    move_pointer(pointer->host, event->time_msec, x, y);
  }
}

static void handle_virtual_button(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, button);
  note(pointer->host, SPLASHD_HOST_INPUT);
  struct wlr_event_pointer_button *event = data;
  press_button(pointer->host, event->time_msec, event->button, event->state);
}

static void handle_virtual_axis(struct wl_listener *listener, void *data) {
  struct virtual_pointer *pointer = wl_container_of(listener, pointer, axis);
  note(pointer->host, SPLASHD_HOST_INPUT);
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
void handle_new_virtual_pointer(struct wl_listener *listener, void *data) {
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
void stop_input(struct splashd_host *host) {
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

int start_input(struct splashd_host *host, const struct splashd_host_keymap *names, char *error, size_t capacity) {
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
    libinput_log_set_handler(host->libinput, log_libinput_line);
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

void withhold_input(struct splashd_host *host, int withheld) {
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

void map_input(struct splashd_host *host, const struct splashd_host_input_map *maps, size_t count) {
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
