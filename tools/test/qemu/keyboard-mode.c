// SPDX-License-Identifier: Apache-2.0
/* For the QEMU rig's Wayland kiosk boot: prints the keyboard mode of a
 * virtual terminal (KDGKBMODE) as one word: raw, xlate, mediumraw, unicode
 * or off. Debian's minimal image has no kbd_mode.
 *
 *     keyboard-mode /dev/tty1
 *
 * Exits 1, saying why, when the terminal cannot be asked. */
#include <fcntl.h>
#include <linux/kd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: keyboard-mode TTY\n");
    return 2;
  }
  int fd = open(argv[1], O_RDONLY | O_NOCTTY);
  int mode = 0;
  if (fd < 0 || ioctl(fd, KDGKBMODE, &mode) != 0) {
    perror(argv[1]);
    return 1;
  }
  close(fd);
  switch (mode) {
  case K_RAW: puts("raw"); break;
  case K_XLATE: puts("xlate"); break;
  case K_MEDIUMRAW: puts("mediumraw"); break;
  case K_UNICODE: puts("unicode"); break;
  case K_OFF: puts("off"); break;
  default: printf("mode-%d\n", mode); break;
  }
  return 0;
}
