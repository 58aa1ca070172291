// SPDX-License-Identifier: Apache-2.0
// A fake accelerometer for the QEMU rig's guest, through uinput, for images
// without Python (guest/fake-accelerometer.py's twin): ABS_X/Y/Z with
// INPUT_PROP_ACCELEROMETER, named "rig accelerometer".
//
//   fake-accelerometer DIR
//
// Reports upright ("normal": 0, -256, 0) and makes DIR/accel-ready; once
// DIR/tilt exists, reports right-up (-256, 0, 0); once DIR/done exists,
// exits (the device goes with it).
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "uinput-events.h"

static int device = -1;

static void report(int x, int y, int z) {
  send_event(device, EV_ABS, ABS_X, x);
  send_event(device, EV_ABS, ABS_Y, y);
  send_event(device, EV_ABS, ABS_Z, z);
  sync_events(device);
}

static void wait_for(const char *folder, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", folder, name);
  while (access(path, F_OK) != 0) usleep(50000);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fake-accelerometer DIR\n");
    return 2;
  }
  device = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
  if (device < 0) fail("/dev/uinput");
  if (ioctl(device, UI_SET_EVBIT, EV_ABS) != 0) fail("UI_SET_EVBIT");
  struct uinput_user_dev setup;
  memset(&setup, 0, sizeof setup);
  snprintf(setup.name, sizeof setup.name, "rig accelerometer");
  setup.id.bustype = BUS_VIRTUAL;
  setup.id.vendor = 1;
  setup.id.product = 1;
  setup.id.version = 1;
  for (int axis = ABS_X; axis <= ABS_Z; axis++) {
    if (ioctl(device, UI_SET_ABSBIT, axis) != 0) fail("UI_SET_ABSBIT");
    setup.absmax[axis] = 512;
    setup.absmin[axis] = -512;
  }
  if (ioctl(device, UI_SET_PROPBIT, INPUT_PROP_ACCELEROMETER) != 0) fail("UI_SET_PROPBIT");
  if (write(device, &setup, sizeof setup) != (ssize_t)sizeof setup) fail("uinput setup");
  if (ioctl(device, UI_DEV_CREATE) != 0) fail("UI_DEV_CREATE");
  // The device node appears (udev) before a reading is worth sending.
  usleep(300000);
  report(0, -256, 0);
  char ready[4096];
  snprintf(ready, sizeof ready, "%s/accel-ready", argv[1]);
  int made = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (made < 0) fail(ready);
  close(made);
  wait_for(argv[1], "tilt");
  report(-256, 0, 0);
  wait_for(argv[1], "done");
  close(device);
  return 0;
}
