// SPDX-License-Identifier: Apache-2.0
#include "splashd_wayland_host.h"

#include <dlfcn.h>
#include <stdio.h>

const struct splashd_host_api *splashd_host_load(const char *path, char *error, size_t capacity) {
  void *object = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (object == NULL) {
    snprintf(error, capacity, "%s", dlerror());
    return NULL;
  }
  const struct splashd_host_api *api = dlsym(object, "splashd_wayland_host_api");
  if (api == NULL || api->version != SPLASHD_HOST_API_VERSION) {
    snprintf(error, capacity, "%s: not splashd's Wayland host (version %d of its table expected)", path,
             SPLASHD_HOST_API_VERSION);
    dlclose(object);
    return NULL;
  }
  return api;
}
