// SPDX-License-Identifier: Apache-2.0
/* A stand-in kiosk program for the QEMU rig's systemd boot test: it takes the
 * screen the way a real kiosk program on a bare framebuffer does (the VT in
 * graphics mode, then /dev/fb0), fills it with one colour, and stays running.
 *
 *     kiosk-colour RRGGBB MARKER
 *
 * Creates MARKER once the colour is on the screen (written and flushed). 32 bpp
 * only, which is what the rig's bochs-drm framebuffer offers. */
#include <fcntl.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static uint32_t channel(unsigned long rgb, int shift, struct fb_bitfield field) {
  uint32_t value = (rgb >> shift) & 0xff;
  return (value >> (8 - field.length)) << field.offset;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: kiosk-colour RRGGBB MARKER\n");
    return 2;
  }
  unsigned long rgb = strtoul(argv[1], NULL, 16);
  int tty = open("/dev/tty0", O_RDWR | O_NOCTTY);
  if (tty < 0 || ioctl(tty, KDSETMODE, KD_GRAPHICS) != 0) perror("kiosk-colour: KDSETMODE /dev/tty0");
  int fb = open("/dev/fb0", O_RDWR);
  struct fb_var_screeninfo var;
  struct fb_fix_screeninfo fix;
  if (fb < 0 || ioctl(fb, FBIOGET_VSCREENINFO, &var) != 0 || ioctl(fb, FBIOGET_FSCREENINFO, &fix) != 0) {
    perror("kiosk-colour: /dev/fb0");
    return 1;
  }
  if (var.bits_per_pixel != 32) {
    fprintf(stderr, "kiosk-colour: /dev/fb0 has %u bpp, not 32\n", var.bits_per_pixel);
    return 1;
  }
  uint8_t *pixels = mmap(NULL, fix.smem_len, PROT_READ | PROT_WRITE, MAP_SHARED, fb, 0);
  if (pixels == MAP_FAILED) {
    perror("kiosk-colour: mmap /dev/fb0");
    return 1;
  }
  uint32_t pixel = channel(rgb, 16, var.red) | channel(rgb, 8, var.green) | channel(rgb, 0, var.blue);
  for (uint32_t y = 0; y < var.yres_virtual && (y + 1) * fix.line_length <= fix.smem_len; y++) {
    uint32_t *row = (uint32_t *)(pixels + y * fix.line_length);
    for (uint32_t x = 0; x < var.xres_virtual; x++) row[x] = pixel;
  }
  /* DRM's fbdev emulation copies its shadow buffer to the screen later unless asked now. */
  fsync(fb);
  int marker = open(argv[2], O_WRONLY | O_CREAT, 0644);
  if (marker >= 0) close(marker);
  printf("kiosk-colour: /dev/fb0 %ux%u filled with #%06lx\n", var.xres, var.yres, rgb);
  fflush(stdout);
  for (;;) pause();
}
