// SPDX-License-Identifier: Apache-2.0
/* SDL does not say which descriptor its X11 or Wayland events arrive on;
   SDL_GetWindowWMInfo gives the display, and the display gives the
   descriptor: Xlib's ConnectionNumber (a field read from the header, so
   nothing links libX11), or libwayland-client's wl_display_get_fd, looked
   up in the copy SDL has already loaded (never loading one itself). */
#include <dlfcn.h>
#include <SDL2/SDL.h>
#include <SDL2/SDL_syswm.h>
#include "csdlwindow.h"

int splashd_window_connection(void *window) {
  SDL_SysWMinfo info;
  SDL_VERSION(&info.version);
  if (!SDL_GetWindowWMInfo((SDL_Window *)window, &info)) return -1;
  switch (info.subsystem) {
#if defined(SDL_VIDEO_DRIVER_X11)
  case SDL_SYSWM_X11:
    return info.info.x11.display ? ConnectionNumber(info.info.x11.display) : -1;
#endif
#if defined(SDL_VIDEO_DRIVER_WAYLAND)
  case SDL_SYSWM_WAYLAND: {
    void *library = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_NOLOAD);
    if (!library) return -1;
    int (*get_fd)(struct wl_display *) = (int (*)(struct wl_display *))dlsym(library, "wl_display_get_fd");
    int fd = get_fd && info.info.wl.display ? get_fd(info.info.wl.display) : -1;
    dlclose(library);
    return fd;
  }
#endif
  default:
    return -1;
  }
}
