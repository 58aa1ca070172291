// SPDX-License-Identifier: Apache-2.0
#pragma once
/* The connection an SDL window has to its display server. */

/* The file descriptor of the X11 or Wayland connection behind `window` (an
   SDL_Window *), readable when the server has sent events; -1 when the
   window has none or it cannot be found. */
int splashd_window_connection(void *window);
