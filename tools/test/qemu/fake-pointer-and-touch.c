// SPDX-License-Identifier: Apache-2.0
// A fake absolute pointer (ABS_X/Y and a left button, as QEMU's usb-tablet:
// udev calls it a mouse) and a fake touch screen (multitouch, direct), made
// through uinput for the QEMU rig's guest, each spanning WIDTH x HEIGHT
// units (a unit a pixel of the screen), named "NAME pointer" and "NAME
// touch screen" (NAME: rig unless given):
//
//   fake-pointer-and-touch DIR WIDTH HEIGHT [NAME]
//
// Makes both, then DIR/input-ready; once DIR/point exists ("X Y"), moves
// the pointer there and clicks, then makes DIR/pointed; once DIR/touch
// exists ("X Y"), touches there and lifts, then makes DIR/touched (each
// once, in the order their files come); once DIR/done exists, exits (the
// devices go with it).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "uinput-events.h"

static const char *folder;

static void control(int fd, unsigned long request, int value) {
  if (ioctl(fd, request, value) != 0) fail("uinput ioctl");
}

/* A uinput device named `name` with the keys, absolute axes (0 to the
   limit given) and property given. */
static int device(const char *name, const int *keys, size_t key_count, const int *axes, const int *limits,
                  size_t axis_count, int property) {
  int fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail("/dev/uinput");
  control(fd, UI_SET_EVBIT, EV_KEY);
  control(fd, UI_SET_EVBIT, EV_ABS);
  for (size_t i = 0; i < key_count; i++) control(fd, UI_SET_KEYBIT, keys[i]);
  struct uinput_user_dev setup;
  memset(&setup, 0, sizeof setup);
  snprintf(setup.name, sizeof setup.name, "%s", name);
  setup.id.bustype = BUS_VIRTUAL;
  setup.id.vendor = 1;
  setup.id.product = 2;
  for (size_t i = 0; i < axis_count; i++) {
    control(fd, UI_SET_ABSBIT, axes[i]);
    setup.absmax[axes[i]] = limits[i];
  }
  if (property >= 0) control(fd, UI_SET_PROPBIT, property);
  if (write(fd, &setup, sizeof setup) != (ssize_t)sizeof setup) fail("uinput setup");
  control(fd, UI_DEV_CREATE, 0);
  return fd;
}

static char *path(const char *name) {
  static char buffer[4096];
  snprintf(buffer, sizeof buffer, "%s/%s", folder, name);
  return buffer;
}

static void make(const char *name) {
  int fd = open(path(name), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) fail(name);
  close(fd);
}

/* Whether DIR/NAME exists, and the point in it (when `x` is not NULL). */
static bool given(const char *name, int *x, int *y) {
  FILE *file = fopen(path(name), "r");
  if (file == NULL) return false;
  if (x != NULL && fscanf(file, "%d %d", x, y) != 2) fail(name);
  fclose(file);
  return true;
}

int main(int argc, char **argv) {
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: fake-pointer-and-touch DIR WIDTH HEIGHT [NAME]\n");
    return 2;
  }
  folder = argv[1];
  int width = atoi(argv[2]), height = atoi(argv[3]);
  const char *name = argc == 5 ? argv[4] : "rig";
  char pointer_name[UINPUT_MAX_NAME_SIZE], touch_name[UINPUT_MAX_NAME_SIZE];
  snprintf(pointer_name, sizeof pointer_name, "%s pointer", name);
  snprintf(touch_name, sizeof touch_name, "%s touch screen", name);
  const int pointer_keys[] = {BTN_LEFT, BTN_RIGHT, BTN_MIDDLE};
  const int pointer_axes[] = {ABS_X, ABS_Y};
  const int pointer_limits[] = {width - 1, height - 1};
  int pointer = device(pointer_name, pointer_keys, 3, pointer_axes, pointer_limits, 2, -1);
  const int touch_keys[] = {BTN_TOUCH};
  const int touch_axes[] = {ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID};
  const int touch_limits[] = {width - 1, height - 1, 9, width - 1, height - 1, 65535};
  int touch = device(touch_name, touch_keys, 1, touch_axes, touch_limits, 6, INPUT_PROP_DIRECT);
  make("input-ready");

  bool pointed = false, touched = false;
  int x, y;
  while (!given("done", NULL, NULL)) {
    if (!pointed && given("point", &x, &y)) {
      send_event(pointer, EV_ABS, ABS_X, x);
      send_event(pointer, EV_ABS, ABS_Y, y);
      sync_events(pointer);
      send_event(pointer, EV_KEY, BTN_LEFT, 1);
      sync_events(pointer);
      send_event(pointer, EV_KEY, BTN_LEFT, 0);
      sync_events(pointer);
      make("pointed");
      pointed = true;
    } else if (!touched && given("touch", &x, &y)) {
      send_event(touch, EV_ABS, ABS_MT_SLOT, 0);
      send_event(touch, EV_ABS, ABS_MT_TRACKING_ID, 1);
      send_event(touch, EV_ABS, ABS_MT_POSITION_X, x);
      send_event(touch, EV_ABS, ABS_MT_POSITION_Y, y);
      send_event(touch, EV_ABS, ABS_X, x);
      send_event(touch, EV_ABS, ABS_Y, y);
      send_event(touch, EV_KEY, BTN_TOUCH, 1);
      sync_events(touch);
      send_event(touch, EV_ABS, ABS_MT_TRACKING_ID, -1);
      send_event(touch, EV_KEY, BTN_TOUCH, 0);
      sync_events(touch);
      make("touched");
      touched = true;
    } else {
      usleep(50000);
    }
  }
  close(pointer);
  close(touch);
  return 0;
}
