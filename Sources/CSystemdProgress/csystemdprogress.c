// SPDX-License-Identifier: Apache-2.0
#include "csystemdprogress.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* sd-bus's types, opaque here; sd_bus_error is two strings and a flag. */
typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_slot sd_bus_slot;
typedef struct {
  const char *name;
  const char *message;
  int need_free;
} sd_bus_error;
typedef int (*handler_t)(sd_bus_message *, void *, sd_bus_error *);

static struct {
  char error[256];
  int (*bus_new)(sd_bus **);
  int (*set_address)(sd_bus *, const char *);
  int (*start)(sd_bus *);
  int (*open_system)(sd_bus **);
  int (*get_fd)(sd_bus *);
  int (*get_events)(sd_bus *);
  int (*process)(sd_bus *, sd_bus_message **);
  int (*match_signal_async)(sd_bus *, sd_bus_slot **, const char *, const char *, const char *, const char *,
                            handler_t, handler_t, void *);
  int (*call_method_async)(sd_bus *, sd_bus_slot **, const char *, const char *, const char *, const char *, handler_t,
                           void *, const char *, ...);
  int (*message_read)(sd_bus_message *, const char *, ...);
  int (*is_method_error)(sd_bus_message *, const char *);
  void (*close)(sd_bus *);
  sd_bus *(*unref)(sd_bus *);
} sd;

struct splashd_boot_progress {
  sd_bus *bus;
  double newest;
  /* A Get of Progress is on its way; another job ended meanwhile. */
  int asking;
  int ask_again;
};

/* Closes `bus` without waiting for what it has queued. */
static void let_go(sd_bus *bus) {
  sd.close(bus);
  sd.unref(bus);
}

static const char destination[] = "org.freedesktop.systemd1";
static const char object[] = "/org/freedesktop/systemd1";
static const char manager[] = "org.freedesktop.systemd1.Manager";

static pthread_once_t loaded = PTHREAD_ONCE_INIT;

/* Loads libsystemd and its symbols, once. */
static void load_library(void) {
  void *library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    snprintf(sd.error, sizeof sd.error, "cannot load libsystemd: %s", why ? why : "not found");
    return;
  }
#define SYMBOL(field, name)                                                                          \
  do {                                                                                               \
    *(void **)&sd.field = dlsym(library, name);                                                      \
    if (!sd.field && !sd.error[0]) snprintf(sd.error, sizeof sd.error, "libsystemd has no %s", name); \
  } while (0)
  SYMBOL(bus_new, "sd_bus_new");
  SYMBOL(set_address, "sd_bus_set_address");
  SYMBOL(start, "sd_bus_start");
  SYMBOL(open_system, "sd_bus_open_system");
  SYMBOL(get_fd, "sd_bus_get_fd");
  SYMBOL(get_events, "sd_bus_get_events");
  SYMBOL(process, "sd_bus_process");
  SYMBOL(match_signal_async, "sd_bus_match_signal_async");
  SYMBOL(call_method_async, "sd_bus_call_method_async");
  SYMBOL(message_read, "sd_bus_message_read");
  SYMBOL(is_method_error, "sd_bus_message_is_method_error");
  SYMBOL(close, "sd_bus_close");
  SYMBOL(unref, "sd_bus_unref");
#undef SYMBOL
}

static int load(void) {
  pthread_once(&loaded, load_library);
  return sd.error[0] ? -1 : 0;
}

static int ask(splashd_boot_progress *progress);

/* The reply to Get(Manager, Progress): a variant holding a double. */
static int on_progress(sd_bus_message *reply, void *userdata, sd_bus_error *error) {
  (void)error;
  splashd_boot_progress *progress = userdata;
  progress->asking = 0;
  double value = 0;
  if (!sd.is_method_error(reply, NULL) && sd.message_read(reply, "v", "d", &value) >= 0 && value >= 0 &&
      value <= 1)
    progress->newest = value;
  if (progress->ask_again) ask(progress);
  return 0;
}

static int ask(splashd_boot_progress *progress) {
  if (progress->asking) {
    progress->ask_again = 1;
    return 0;
  }
  progress->asking = 1;
  progress->ask_again = 0;
  return sd.call_method_async(progress->bus, NULL, destination, object, "org.freedesktop.DBus.Properties", "Get",
                              on_progress, progress, "ss", manager, "Progress");
}

static int on_job_removed(sd_bus_message *signal, void *userdata, sd_bus_error *error) {
  (void)signal;
  (void)error;
  ask(userdata);
  return 0;
}

static int ignore(sd_bus_message *reply, void *userdata, sd_bus_error *error) {
  (void)reply;
  (void)userdata;
  (void)error;
  return 0;
}

static sd_bus *connect_private(void) {
  sd_bus *bus = NULL;
  if (geteuid() != 0 || access("/run/systemd/private", F_OK) != 0) return NULL;
  if (sd.bus_new(&bus) < 0) return NULL;
  if (sd.set_address(bus, "unix:path=/run/systemd/private") < 0 || sd.start(bus) < 0) {
    let_go(bus);
    return NULL;
  }
  return bus;
}

splashd_boot_progress *splashd_boot_progress_open(char *error, size_t capacity) {
  if (load() != 0) {
    snprintf(error, capacity, "%s", sd.error);
    return NULL;
  }
  sd_bus *bus = connect_private();
  if (!bus) {
    int result = sd.open_system(&bus);
    if (result < 0) {
      snprintf(error, capacity, "cannot reach systemd (no /run/systemd/private as root, no system bus: %s)",
               strerror(-result));
      return NULL;
    }
  }
  splashd_boot_progress *progress = calloc(1, sizeof *progress);
  if (!progress) {
    let_go(bus);
    snprintf(error, capacity, "out of memory");
    return NULL;
  }
  progress->bus = bus;
  progress->newest = -1;
  int result = sd.match_signal_async(bus, NULL, destination, object, manager, "JobRemoved", on_job_removed, NULL,
                                     progress);
  if (result >= 0)
    result = sd.call_method_async(bus, NULL, destination, object, manager, "Subscribe", ignore, NULL, "");
  if (result >= 0) result = ask(progress);
  if (result < 0) {
    snprintf(error, capacity, "cannot ask systemd for the boot's progress: %s", strerror(-result));
    splashd_boot_progress_close(progress);
    return NULL;
  }
  return progress;
}

int splashd_boot_progress_fd(splashd_boot_progress *progress) { return sd.get_fd(progress->bus); }

int splashd_boot_progress_events(splashd_boot_progress *progress) {
  int events = sd.get_events(progress->bus);
  return events < 0 ? POLLIN : events;
}

double splashd_boot_progress_process(splashd_boot_progress *progress, char *error, size_t capacity) {
  progress->newest = -1;
  int result;
  /* A bounded number of rounds: a flood of signals cannot hold the splash here. */
  for (int round = 0; round < 256; round++) {
    result = sd.process(progress->bus, NULL);
    if (result <= 0) break;
  }
  if (result < 0) {
    snprintf(error, capacity, "the connection to systemd failed: %s", strerror(-result));
    return -2;
  }
  return progress->newest;
}

void splashd_boot_progress_close(splashd_boot_progress *progress) {
  if (!progress) return;
  let_go(progress->bus);
  free(progress);
}
