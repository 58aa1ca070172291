// SPDX-License-Identifier: Apache-2.0
// The log: wlroots', libinput's and libwayland's lines, to the callback
// splashd gives.
#define _GNU_SOURCE
#include "host.h"

#include <stdio.h>
#include <time.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

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

/* The lines clients can cause (libwayland's, a client refused): at most
   `LIMITED_BURST` at once, then one a second, the rest counted and said in
   the next line let through, so that no client floods the log. */
#define LIMITED_BURST 20
static double allowance = LIMITED_BURST;
static double allowance_time;
static unsigned long left_out;

void log_limited(const char *line) {
  if (log_function == NULL) return;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  double seconds = (double)now.tv_sec + (double)now.tv_nsec / 1e9;
  allowance += seconds - allowance_time;
  allowance_time = seconds;
  if (allowance > LIMITED_BURST) allowance = LIMITED_BURST;
  if (allowance < 1) {
    left_out++;
    return;
  }
  allowance -= 1;
  if (left_out > 0) {
    char note[96];
    snprintf(note, sizeof note, "(%lu lines like the next left out)", left_out);
    log_function(log_context, 1, note);
    left_out = 0;
  }
  log_function(log_context, 1, line);
}

/* libwayland's own lines (a client cut off for an error, a connection
   that failed), rate-limited: its default handler would print every one
   to standard error. */
static void log_wayland_line(const char *format, va_list arguments) {
  char line[1024];
  int length = vsnprintf(line, sizeof line, format, arguments);
  if (length > 0 && (size_t)length < sizeof line && line[length - 1] == '\n') line[length - 1] = '\0';
  log_limited(line);
}

void log_start(splashd_host_log_fn log, void *context) {
  log_function = log;
  log_context = context;
  wlr_log_init(WLR_ERROR, log_line);
  wl_log_set_handler_server(log_wayland_line);
}

void log_stop(void) { log_function = NULL; }

void log_error(const char *line) {
  if (log_function != NULL) log_function(log_context, 1, line);
}

void log_libinput_line(struct libinput *libinput, enum libinput_log_priority priority, const char *format,
                       va_list arguments) {
  (void)libinput;
  (void)priority;
  if (log_function == NULL) return;
  char line[1024];
  int length = vsnprintf(line, sizeof line, format, arguments);
  if (length > 0 && (size_t)length < sizeof line && line[length - 1] == '\n') line[length - 1] = '\0';
  log_function(log_context, 1, line);
}
