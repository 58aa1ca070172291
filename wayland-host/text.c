// SPDX-License-Identifier: Apache-2.0
// Text input (text-input-v3: the program's text field says it takes text)
// relayed to an input method (input-method-v2: an on-screen keyboard or an
// input method that answers with text): the focused window's text inputs
// are told of the keyboard's focus; the one enabled activates the input
// method, which is told what the field holds and wants; what the input
// method commits (text, a preedit, text deleted around the cursor) goes to
// that field. One input method at a time; one that grabs the keyboard (an
// input method engine, composing text from keys) has the keys typed while
// a field takes text, the window then none of them.
#define _GNU_SOURCE
#include "host.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wlr/types/wlr_input_method_v2.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_text_input_v3.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>

/* Commits an input method may make in a second, and bytes of text in
   them: past either it is cut off. Each is relayed to the program, which
   must read it: libwayland cuts off a client whose socket fills, and the
   program's would, under a flood. */
enum { INPUT_METHOD_COMMITS_PER_SECOND = 100, INPUT_METHOD_BYTES_PER_SECOND = 16384 };

/* A text input of a client, until it is destroyed. */
struct text_input {
  struct splashd_host *host;
  struct wlr_text_input_v3 *input;
  /* In host->text_inputs. */
  struct wl_list link;
  struct wl_listener enable, commit, disable, destroy;
};

/* The enabled text input of the focused surface, which the input method
   serves; NULL: none. */
static struct text_input *served(struct splashd_host *host) {
  struct text_input *text;
  wl_list_for_each(text, &host->text_inputs, link) {
    if (text->input->current_enabled && text->input->focused_surface != NULL) return text;
  }
  return NULL;
}

/* Tells the input method what the served field holds and wants, after
   an activate when `activating`. */
static void tell_input_method(struct splashd_host *host, struct text_input *text, bool activating) {
  struct wlr_input_method_v2 *method = host->input_method;
  if (method == NULL) return;
  if (activating) wlr_input_method_v2_send_activate(method);
  const struct wlr_text_input_v3_state *state = &text->input->current;
  uint32_t features = text->input->active_features;
  if (features & WLR_TEXT_INPUT_V3_FEATURE_SURROUNDING_TEXT) {
    wlr_input_method_v2_send_surrounding_text(method, state->surrounding.text != NULL ? state->surrounding.text : "",
                                              state->surrounding.cursor, state->surrounding.anchor);
  }
  wlr_input_method_v2_send_text_change_cause(method, state->text_change_cause);
  if (features & WLR_TEXT_INPUT_V3_FEATURE_CONTENT_TYPE) {
    wlr_input_method_v2_send_content_type(method, state->content_type.hint, state->content_type.purpose);
  }
  wlr_input_method_v2_send_done(method);
}

bool input_popup_anchor(struct splashd_host *host, struct wlr_surface **field, struct wlr_box *cursor) {
  struct text_input *text = served(host);
  if (text == NULL || host->input_method == NULL) return false;
  *field = text->input->focused_surface;
  *cursor = text->input->current.cursor_rectangle;
  return true;
}

int input_popups_shown(struct splashd_host *host) {
  struct wlr_surface *field;
  struct wlr_box cursor;
  if (!input_popup_anchor(host, &field, &cursor)) return 0;
  int shown = 0;
  struct wlr_input_popup_surface_v2 *popup;
  wl_list_for_each(popup, &host->input_method->popup_surfaces, link) shown += popup->mapped ? 1 : 0;
  return shown;
}

/* Tells the input method's popups where the text cursor is: just above
   their top left corner, where they are placed when there is room. */
static void tell_popups_the_cursor(struct splashd_host *host) {
  struct wlr_surface *field;
  struct wlr_box cursor;
  if (!input_popup_anchor(host, &field, &cursor)) return;
  // The client's numbers: no negative size (nor INT32_MIN negated).
  int32_t width = cursor.width > 0 ? cursor.width : 0, height = cursor.height > 0 ? cursor.height : 0;
  struct wlr_box above = {.x = 0, .y = -height, .width = width, .height = height};
  struct wlr_input_popup_surface_v2 *popup;
  wl_list_for_each(popup, &host->input_method->popup_surfaces, link) {
    wlr_input_popup_surface_v2_send_text_input_rectangle(popup, &above);
  }
}

/* Whether a field takes text now changed: the input method is told. */
static void update_activity(struct splashd_host *host) {
  struct text_input *text = served(host);
  bool active = text != NULL;
  if (active == host->text_input_active) return;
  host->text_input_active = active;
  note(host, SPLASHD_HOST_TEXT_FIELD);
  // The input method's popups show only while a field is served.
  if (host->input_method != NULL && !wl_list_empty(&host->input_method->popup_surfaces)) note_whole_frame(host);
  if (host->input_method == NULL) return;
  if (active) {
    tell_input_method(host, text, true);
  } else {
    wlr_input_method_v2_send_deactivate(host->input_method);
    wlr_input_method_v2_send_done(host->input_method);
  }
}

static void handle_text_enable(struct wl_listener *listener, void *data) {
  struct text_input *text = wl_container_of(listener, text, enable);
  (void)data;
  update_activity(text->host);
}

/* A commit of the served field (its text, cursor, content type changed)
   is told to the input method. */
static void handle_text_commit(struct wl_listener *listener, void *data) {
  struct text_input *text = wl_container_of(listener, text, commit);
  (void)data;
  struct splashd_host *host = text->host;
  bool was_active = host->text_input_active;
  update_activity(host);
  if (was_active && host->text_input_active && served(host) == text) {
    tell_input_method(host, text, false);
    // The text cursor may have moved, and the popups under it with it.
    if (host->input_method != NULL && !wl_list_empty(&host->input_method->popup_surfaces)) {
      tell_popups_the_cursor(host);
      note_whole_frame(host);
    }
  }
}

static void handle_text_disable(struct wl_listener *listener, void *data) {
  struct text_input *text = wl_container_of(listener, text, disable);
  (void)data;
  update_activity(text->host);
}

static void handle_text_destroy(struct wl_listener *listener, void *data) {
  struct text_input *text = wl_container_of(listener, text, destroy);
  (void)data;
  struct splashd_host *host = text->host;
  wl_list_remove(&text->link);
  wl_list_remove(&text->enable.link);
  wl_list_remove(&text->commit.link);
  wl_list_remove(&text->disable.link);
  wl_list_remove(&text->destroy.link);
  free(text);
  update_activity(host);
}

/* The surface with the keyboard's focus, when it is `text`'s client's. */
static struct wlr_surface *focus_of(const struct splashd_host *host, const struct text_input *text) {
  struct wlr_surface *focused = host->seat->keyboard_state.focused_surface;
  if (focused == NULL || focused->resource == NULL) return NULL;
  return wl_resource_get_client(focused->resource) == wl_resource_get_client(text->input->resource) ? focused : NULL;
}

static void handle_new_text_input(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_text_input);
  struct wlr_text_input_v3 *input = data;
  struct text_input *text = calloc(1, sizeof *text);
  if (text == NULL) {
    wl_client_post_no_memory(wl_resource_get_client(input->resource));
    return;
  }
  text->host = host;
  text->input = input;
  text->enable.notify = handle_text_enable;
  wl_signal_add(&input->events.enable, &text->enable);
  text->commit.notify = handle_text_commit;
  wl_signal_add(&input->events.commit, &text->commit);
  text->disable.notify = handle_text_disable;
  wl_signal_add(&input->events.disable, &text->disable);
  text->destroy.notify = handle_text_destroy;
  wl_signal_add(&input->events.destroy, &text->destroy);
  wl_list_insert(&host->text_inputs, &text->link);
  struct wlr_surface *focused = focus_of(host, text);
  if (focused != NULL) wlr_text_input_v3_send_enter(input, focused);
}

/* The keyboard's focus moved: the text inputs of the surface that has it
   are entered, the others left. */
static void handle_keyboard_focus_change(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, keyboard_focus_change);
  (void)data;
  struct text_input *text;
  wl_list_for_each(text, &host->text_inputs, link) {
    struct wlr_surface *focused = focus_of(host, text);
    if (text->input->focused_surface == focused) continue;
    if (text->input->focused_surface != NULL) wlr_text_input_v3_send_leave(text->input);
    if (focused != NULL) wlr_text_input_v3_send_enter(text->input, focused);
  }
  update_activity(host);
}

/* What the input method commits goes to the served field, once; its
   strings are freed here (wlroots 0.15.1 replaces them at the next commit
   without freeing them). One that commits too often is cut off. */
static void handle_input_method_commit(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, input_method_commit);
  struct wlr_input_method_v2 *method = data;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  if (now.tv_sec != host->input_method_second) {
    host->input_method_second = now.tv_sec;
    host->input_method_commits = 0;
    host->input_method_bytes = 0;
  }
  struct wlr_input_method_v2_state *state = &method->current;
  host->input_method_bytes += (state->commit_text != NULL ? strlen(state->commit_text) : 0) +
                              (state->preedit.text != NULL ? strlen(state->preedit.text) : 0);
  bool flooding = host->input_method_flooded || ++host->input_method_commits > INPUT_METHOD_COMMITS_PER_SECOND ||
                  host->input_method_bytes > INPUT_METHOD_BYTES_PER_SECOND;
  struct text_input *text = served(host);
  if (text != NULL && !flooding) {
    if (state->preedit.text != NULL) {
      wlr_text_input_v3_send_preedit_string(text->input, state->preedit.text, state->preedit.cursor_begin,
                                            state->preedit.cursor_end);
    }
    if (state->commit_text != NULL) wlr_text_input_v3_send_commit_string(text->input, state->commit_text);
    if (state->delete.before_length != 0 || state->delete.after_length != 0) {
      wlr_text_input_v3_send_delete_surrounding_text(text->input, state->delete.before_length,
                                                     state->delete.after_length);
    }
    wlr_text_input_v3_send_done(text->input);
  }
  free(method->current.commit_text);
  method->current.commit_text = NULL;
  free(method->current.preedit.text);
  method->current.preedit.text = NULL;
  if (flooding && !host->input_method_flooded) {
    // Said once; the client goes after this dispatch.
    host->input_method_flooded = true;
    log_limited("an input method committed more than 100 times or 16 KiB of text in a second: cut off");
    wl_resource_post_error(method->resource, 0, "more than %d commits or %d bytes of text in a second",
                           INPUT_METHOD_COMMITS_PER_SECOND, INPUT_METHOD_BYTES_PER_SECOND);
  }
}

struct wlr_input_method_keyboard_grab_v2 *keyboard_grab_for(struct splashd_host *host,
                                                            struct wlr_input_device *device) {
  if (host->keyboard_grab == NULL || host->input_method == NULL || served(host) == NULL) return NULL;
  struct wlr_virtual_keyboard_v1 *virtual = wlr_input_device_get_virtual_keyboard(device);
  if (virtual != NULL &&
      wl_resource_get_client(virtual->resource) == wl_resource_get_client(host->input_method->resource)) {
    return NULL;
  }
  return host->keyboard_grab;
}

/* The grab ended (let go of, or its input method gone): keys go to the
   window again. */
static void handle_keyboard_grab_destroy(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, keyboard_grab_destroy);
  (void)data;
  wl_list_remove(&host->keyboard_grab_destroy.link);
  host->keyboard_grab = NULL;
}

/* The input method grabs the keyboard: told the seat's keyboard's keymap
   now, and another's when a key comes from another. */
static void handle_input_method_grab(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, input_method_grab);
  struct wlr_input_method_keyboard_grab_v2 *grab = data;
  // One grab at a time: wlroots refuses a second while one is held.
  host->keyboard_grab = grab;
  host->keyboard_grab_destroy.notify = handle_keyboard_grab_destroy;
  wl_signal_add(&grab->events.destroy, &host->keyboard_grab_destroy);
  struct wlr_keyboard *keyboard = wlr_seat_get_keyboard(host->seat);
  if (keyboard != NULL) wlr_input_method_keyboard_grab_v2_set_keyboard(grab, keyboard);
}

/* A popup of the input method's, followed until it goes: its showing,
   hiding and going are new frames. */
struct input_popup {
  struct splashd_host *host;
  struct wl_listener map, unmap, destroy;
};

static void handle_input_popup_map(struct wl_listener *listener, void *data) {
  struct input_popup *popup = wl_container_of(listener, popup, map);
  (void)data;
  note_whole_frame(popup->host);
}

static void handle_input_popup_unmap(struct wl_listener *listener, void *data) {
  struct input_popup *popup = wl_container_of(listener, popup, unmap);
  (void)data;
  note_whole_frame(popup->host);
}

static void handle_input_popup_destroy(struct wl_listener *listener, void *data) {
  struct input_popup *popup = wl_container_of(listener, popup, destroy);
  (void)data;
  note_whole_frame(popup->host);
  wl_list_remove(&popup->map.link);
  wl_list_remove(&popup->unmap.link);
  wl_list_remove(&popup->destroy.link);
  free(popup);
}

/* A popup of the input method's (a candidate list) is followed and told
   where the text cursor is; it is drawn under it (frames.c). */
static void handle_input_popup(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, input_method_popup);
  struct wlr_input_popup_surface_v2 *surface = data;
  struct input_popup *popup = calloc(1, sizeof *popup);
  if (popup == NULL) {
    wl_resource_post_no_memory(surface->resource);
    return;
  }
  popup->host = host;
  popup->map.notify = handle_input_popup_map;
  wl_signal_add(&surface->events.map, &popup->map);
  popup->unmap.notify = handle_input_popup_unmap;
  wl_signal_add(&surface->events.unmap, &popup->unmap);
  popup->destroy.notify = handle_input_popup_destroy;
  wl_signal_add(&surface->events.destroy, &popup->destroy);
  tell_popups_the_cursor(host);
}

static void handle_input_method_destroy(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, input_method_destroy);
  (void)data;
  wl_list_remove(&host->input_method_commit.link);
  wl_list_remove(&host->input_method_grab.link);
  wl_list_remove(&host->input_method_popup.link);
  wl_list_remove(&host->input_method_destroy.link);
  host->input_method = NULL;
}

/* The first input method is served; one more while it lasts is told it
   is unavailable (wlroots 0.15 does not check that itself). */
static void handle_new_input_method(struct wl_listener *listener, void *data) {
  struct splashd_host *host = wl_container_of(listener, host, new_input_method);
  struct wlr_input_method_v2 *method = data;
  if (host->input_method != NULL) {
    wlr_input_method_v2_send_unavailable(method);
    return;
  }
  host->input_method = method;
  // Its own budget, from its first commit.
  host->input_method_second = 0;
  host->input_method_commits = 0;
  host->input_method_bytes = 0;
  host->input_method_flooded = false;
  host->input_method_commit.notify = handle_input_method_commit;
  wl_signal_add(&method->events.commit, &host->input_method_commit);
  host->input_method_popup.notify = handle_input_popup;
  wl_signal_add(&method->events.new_popup_surface, &host->input_method_popup);
  host->input_method_grab.notify = handle_input_method_grab;
  wl_signal_add(&method->events.grab_keyboard, &host->input_method_grab);
  host->input_method_destroy.notify = handle_input_method_destroy;
  wl_signal_add(&method->events.destroy, &host->input_method_destroy);
  struct text_input *text = served(host);
  if (text != NULL) tell_input_method(host, text, true);
}

void start_text_input(struct splashd_host *host) {
  wl_list_init(&host->text_inputs);
  struct wlr_text_input_manager_v3 *texts = wlr_text_input_manager_v3_create(host->display);
  struct wlr_input_method_manager_v2 *methods = wlr_input_method_manager_v2_create(host->display);
  if (texts == NULL || methods == NULL) {
    log_error("text-input or input-method could not be served: no input methods");
    return;
  }
  host->new_text_input.notify = handle_new_text_input;
  wl_signal_add(&texts->events.text_input, &host->new_text_input);
  host->new_input_method.notify = handle_new_input_method;
  wl_signal_add(&methods->events.input_method, &host->new_input_method);
  host->keyboard_focus_change.notify = handle_keyboard_focus_change;
  wl_signal_add(&host->seat->keyboard_state.events.focus_change, &host->keyboard_focus_change);
}
