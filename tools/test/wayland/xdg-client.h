// SPDX-License-Identifier: Apache-2.0
// What every Wayland client of the project's (the test clients, and the
// demo's kiosk program, tools/demo/kiosk-demo.c) needs alike, included
// once by each: the compositor, shared memory and xdg_wm_base bound from
// the registry (`bind_common`), xdg_wm_base's pings answered, an
// xdg_surface's configure acknowledged (`configured` set), and a
// registry's globals never removed in a test's life.
#ifndef SPLASHD_XDG_CLIENT_H
#define SPLASHD_XDG_CLIENT_H

#include <string.h>
#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct xdg_wm_base *wm_base;
/* Set once the window's first configure has been acknowledged. */
static int configured;

static void ping(void *data, struct xdg_wm_base *base, uint32_t serial) {
  (void)data;
  xdg_wm_base_pong(base, serial);
}
static const struct xdg_wm_base_listener wm_base_listener = {.ping = ping};

static void surface_configure(void *data, struct xdg_surface *surface, uint32_t serial) {
  (void)data;
  xdg_surface_ack_configure(surface, serial);
  configured = 1;
}
static const struct xdg_surface_listener surface_listener = {.configure = surface_configure};

/* Binds the global `name` when it is one of the three every client needs:
   1 when it was (the caller's own globals are the rest). */
static int bind_common(struct wl_registry *registry, uint32_t name, const char *interface) {
  if (strcmp(interface, wl_compositor_interface.name) == 0) {
    compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
  } else if (strcmp(interface, wl_shm_interface.name) == 0) {
    shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
  } else if (strcmp(interface, xdg_wm_base_interface.name) == 0) {
    wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
    xdg_wm_base_add_listener(wm_base, &wm_base_listener, NULL);
  } else {
    return 0;
  }
  return 1;
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {
  (void)data, (void)registry, (void)name;
}

#endif
