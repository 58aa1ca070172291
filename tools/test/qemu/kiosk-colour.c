// SPDX-License-Identifier: Apache-2.0
/* A stand-in kiosk program for the QEMU rig's systemd boot test: it takes the
 * screen the way a kiosk compositor does (the VT in graphics mode, DRM master
 * on /dev/dri/card0, a dumb buffer of its own on the first connected
 * connector at its preferred mode), or, without a DRM card, the way a program
 * on a bare framebuffer does (/dev/fb0); fills it with one colour, and stays
 * running.
 *
 *     kiosk-colour RRGGBB MARKER
 *
 * Creates MARKER once the colour is on the screen. 32 bpp only, which is what
 * the rig's bochs-drm offers. Build: gcc kiosk-colour.c $(pkg-config --cflags
 * --libs libdrm). */
#include <fcntl.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static uint32_t channel(unsigned long rgb, int shift, struct fb_bitfield field) {
  uint32_t value = (rgb >> shift) & 0xff;
  return (value >> (8 - field.length)) << field.offset;
}

/* The first connected connector of `fd` lit with an XRGB8888 dumb buffer of
 * colour `rgb`; 0 on success. */
static int fill_drm(int fd, unsigned long rgb, char *what, size_t length) {
  /* A splash may still hold master for a moment: wait for it (5 s at most). */
  for (int i = 0; drmSetMaster(fd) != 0 && !drmIsMaster(fd); i++) {
    if (i == 50) {
      perror("kiosk-colour: drmSetMaster");
      return -1;
    }
    nanosleep(&(struct timespec){0, 100000000}, NULL);
  }
  drmModeRes *resources = drmModeGetResources(fd);
  if (!resources) return -1;
  for (int c = 0; c < resources->count_connectors; c++) {
    drmModeConnector *connector = drmModeGetConnector(fd, resources->connectors[c]);
    if (!connector) continue;
    if (connector->connection != DRM_MODE_CONNECTED || connector->count_modes == 0) {
      drmModeFreeConnector(connector);
      continue;
    }
    drmModeModeInfo mode = connector->modes[0];
    for (int m = 0; m < connector->count_modes; m++)
      if (connector->modes[m].type & DRM_MODE_TYPE_PREFERRED) mode = connector->modes[m];
    uint32_t crtc = 0;
    drmModeEncoder *encoder = drmModeGetEncoder(fd, connector->encoder_id ? connector->encoder_id : connector->encoders[0]);
    if (encoder) {
      crtc = encoder->crtc_id;
      for (int i = 0; !crtc && i < resources->count_crtcs; i++)
        if (encoder->possible_crtcs & (1u << i)) crtc = resources->crtcs[i];
      drmModeFreeEncoder(encoder);
    }
    uint32_t handle, pitch, fb;
    uint64_t size, offset;
    if (!crtc || drmModeCreateDumbBuffer(fd, mode.hdisplay, mode.vdisplay, 32, 0, &handle, &pitch, &size) != 0 ||
        drmModeMapDumbBuffer(fd, handle, &offset) != 0) {
      drmModeFreeConnector(connector);
      return -1;
    }
    uint8_t *pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
    if (pixels == MAP_FAILED) return -1;
    for (uint32_t y = 0; y < mode.vdisplay; y++) {
      uint32_t *row = (uint32_t *)(pixels + y * pitch);
      for (uint32_t x = 0; x < mode.hdisplay; x++) row[x] = rgb & 0xffffff;
    }
    if (drmModeAddFB(fd, mode.hdisplay, mode.vdisplay, 24, 32, pitch, handle, &fb) != 0 ||
        drmModeSetCrtc(fd, crtc, fb, 0, 0, &connector->connector_id, 1, &mode) != 0) {
      perror("kiosk-colour: SetCrtc");
      return -1;
    }
    snprintf(what, length, "/dev/dri/card0 %ux%u", mode.hdisplay, mode.vdisplay);
    drmModeFreeConnector(connector);
    return 0;
  }
  return -1;
}

static int fill_framebuffer(unsigned long rgb, char *what, size_t length) {
  int fb = open("/dev/fb0", O_RDWR);
  struct fb_var_screeninfo var;
  struct fb_fix_screeninfo fix;
  if (fb < 0 || ioctl(fb, FBIOGET_VSCREENINFO, &var) != 0 || ioctl(fb, FBIOGET_FSCREENINFO, &fix) != 0) {
    perror("kiosk-colour: /dev/fb0");
    return -1;
  }
  if (var.bits_per_pixel != 32) {
    fprintf(stderr, "kiosk-colour: /dev/fb0 has %u bpp, not 32\n", var.bits_per_pixel);
    return -1;
  }
  uint8_t *pixels = mmap(NULL, fix.smem_len, PROT_READ | PROT_WRITE, MAP_SHARED, fb, 0);
  if (pixels == MAP_FAILED) {
    perror("kiosk-colour: mmap /dev/fb0");
    return -1;
  }
  uint32_t pixel = channel(rgb, 16, var.red) | channel(rgb, 8, var.green) | channel(rgb, 0, var.blue);
  for (uint32_t y = 0; y < var.yres_virtual && (y + 1) * fix.line_length <= fix.smem_len; y++) {
    uint32_t *row = (uint32_t *)(pixels + y * fix.line_length);
    for (uint32_t x = 0; x < var.xres_virtual; x++) row[x] = pixel;
  }
  /* DRM's fbdev emulation copies its shadow buffer to the screen later unless asked now. */
  fsync(fb);
  snprintf(what, length, "/dev/fb0 %ux%u", var.xres, var.yres);
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: kiosk-colour RRGGBB MARKER\n");
    return 2;
  }
  unsigned long rgb = strtoul(argv[1], NULL, 16);
  int tty = open("/dev/tty0", O_RDWR | O_NOCTTY);
  if (tty < 0 || ioctl(tty, KDSETMODE, KD_GRAPHICS) != 0) perror("kiosk-colour: KDSETMODE /dev/tty0");
  char what[64];
  int card = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
  if (card >= 0 && fill_drm(card, rgb, what, sizeof what) != 0) {
    /* Closed, so that the kernel shows its fbdev emulation again. */
    close(card);
    card = -1;
  }
  if (card < 0 && fill_framebuffer(rgb, what, sizeof what) != 0) return 1;
  int marker = open(argv[2], O_WRONLY | O_CREAT, 0644);
  if (marker >= 0) close(marker);
  printf("kiosk-colour: %s filled with #%06lx\n", what, rgb);
  fflush(stdout);
  for (;;) pause();
}
