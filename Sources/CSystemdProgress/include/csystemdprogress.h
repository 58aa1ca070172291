// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <stddef.h>
#include <stdint.h>

/* The boot's progress from systemd, through sd-bus (libsystemd, loaded with
   dlopen when first used, so that a splash that does not ask for it never
   maps it): the manager's Progress property (0 to 1), read at once and again
   each time a job finishes (the JobRemoved signal, after Subscribe), never by
   polling. Every call is asynchronous: nothing here waits for systemd. */

typedef struct splashd_boot_progress splashd_boot_progress;

/* Connects to systemd: its private socket (/run/systemd/private, as root,
   there from the first moment of a boot) or else the system bus; NULL with
   the reason in `error` when neither can be reached. */
splashd_boot_progress *splashd_boot_progress_open(char *error, size_t capacity);

/* The connection's descriptor, for poll. */
int splashd_boot_progress_fd(splashd_boot_progress *progress);

/* The poll events the connection waits for now (POLLIN, and POLLOUT while
   it has messages to send). */
int splashd_boot_progress_events(splashd_boot_progress *progress);

/* Handles what has arrived and sends what is queued; returns the newest
   Progress value read (0 to 1), or -1 when none came. On a broken
   connection returns -2 with the reason in `error`. */
double splashd_boot_progress_process(splashd_boot_progress *progress, char *error, size_t capacity);

/* Closes the connection. */
void splashd_boot_progress_close(splashd_boot_progress *progress);
