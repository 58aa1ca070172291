// SPDX-License-Identifier: Apache-2.0
// What the QEMU rig's fake uinput devices (fake-accelerometer.c,
// fake-pointer-and-touch.c) share: failing with the reason, and writing
// events to a device.
#pragma once
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void fail(const char *what) {
  perror(what);
  exit(1);
}

static void send_event(int fd, int type, int code, int value) {
  struct input_event event;
  memset(&event, 0, sizeof event);
  event.type = (unsigned short)type;
  event.code = (unsigned short)code;
  event.value = value;
  if (write(fd, &event, sizeof event) != (ssize_t)sizeof event) fail("uinput event");
}

/* Ends a report: what was sent since the last one happened at once. */
static void sync_events(int fd) { send_event(fd, EV_SYN, SYN_REPORT, 0); }
