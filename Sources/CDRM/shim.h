// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

/* DRM_IOCTL_MODE_CLOSEFB (Linux 6.8): frees a framebuffer without turning off
   the planes that show it. Debian 12's libdrm (2.4.114) predates it; the
   layout is the kernel's uAPI (struct drm_mode_closefb). Older kernels
   answer EINVAL or ENOTTY. */
struct splashd_drm_mode_closefb {
  uint32_t fb_id;
  uint32_t pad;
};
static inline int splashd_drm_close_fb(int fd, uint32_t fb_id) {
  struct splashd_drm_mode_closefb request = {.fb_id = fb_id, .pad = 0};
  return drmIoctl(fd, DRM_IOWR(0xD0, struct splashd_drm_mode_closefb), &request);
}
