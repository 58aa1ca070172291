// SPDX-License-Identifier: Apache-2.0
// The log: wlroots' and libinput's lines, to the callback splashd gives.
#define _GNU_SOURCE
#include "host.h"

#include <stdio.h>
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

void log_start(splashd_host_log_fn log, void *context) {
  log_function = log;
  log_context = context;
  wlr_log_init(WLR_ERROR, log_line);
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
