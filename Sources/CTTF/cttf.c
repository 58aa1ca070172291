// SPDX-License-Identifier: Apache-2.0
#include "cttf.h"

#include <SDL2/SDL_surface.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* SDL2_ttf (and FreeType's one library object behind it) is not safe to use
   from two threads at once: every call here holds this lock, and the
   library is loaded once (splashd draws from one thread; its tests do not). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t loaded = PTHREAD_ONCE_INIT;

/* SDL_Color, passed by value to the render call. */
typedef struct {
  unsigned char r, g, b, a;
} color_t;

static struct {
  int ok;
  char error[256];
  int (*init)(void);
  void *(*open)(const char *, int);
  int (*height)(const void *);
  int (*size)(void *, const char *, int *, int *);
  SDL_Surface *(*render)(void *, const char *, color_t);
  void (*close)(void *);
  /* The SDL that SDL2_ttf brings (Debian's shared libSDL2), not splashd's
     own: its surfaces are freed, and its errors read, through it. */
  void (*free_surface)(SDL_Surface *);
  const char *(*get_error)(void);
  void (*tls_cleanup)(void);
} ttf;

static void *symbol(void *library, const char *name) {
  void *address = dlsym(library, name);
  if (!address && !ttf.error[0]) snprintf(ttf.error, sizeof ttf.error, "libSDL2_ttf has no %s", name);
  return address;
}

static void load(void) {
  void *library = dlopen("libSDL2_ttf-2.0.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    snprintf(ttf.error, sizeof ttf.error, "cannot load SDL2_ttf (Debian's libsdl2-ttf-2.0-0): %s",
             why ? why : "not found");
    return;
  }
  ttf.init = (int (*)(void))symbol(library, "TTF_Init");
  ttf.open = (void *(*)(const char *, int))symbol(library, "TTF_OpenFont");
  ttf.height = (int (*)(const void *))symbol(library, "TTF_FontHeight");
  ttf.size = (int (*)(void *, const char *, int *, int *))symbol(library, "TTF_SizeUTF8");
  ttf.render = (SDL_Surface * (*)(void *, const char *, color_t)) symbol(library, "TTF_RenderUTF8_Blended");
  ttf.close = (void (*)(void *))symbol(library, "TTF_CloseFont");
  ttf.free_surface = (void (*)(SDL_Surface *))symbol(library, "SDL_FreeSurface");
  ttf.get_error = (const char *(*)(void))symbol(library, "SDL_GetError");
  ttf.tls_cleanup = (void (*)(void))dlsym(library, "SDL_TLSCleanup");
  if (!ttf.error[0] && ttf.init() != 0) snprintf(ttf.error, sizeof ttf.error, "TTF_Init failed");
  ttf.ok = !ttf.error[0];
}

int splashd_ttf_load(char *error, size_t capacity) {
  pthread_once(&loaded, load);
  if (!ttf.ok && capacity > 0) snprintf(error, capacity, "%s", ttf.error);
  return ttf.ok ? 0 : -1;
}

void *splashd_ttf_open(const char *path, int points) {
  if (!ttf.ok) return NULL;
  pthread_mutex_lock(&lock);
  void *font = ttf.open(path, points);
  pthread_mutex_unlock(&lock);
  return font;
}

int splashd_ttf_height(void *font) {
  pthread_mutex_lock(&lock);
  int height = ttf.height(font);
  pthread_mutex_unlock(&lock);
  return height;
}

int splashd_ttf_size(void *font, const char *text, int *width, int *height) {
  pthread_mutex_lock(&lock);
  int result = ttf.size(font, text, width, height);
  pthread_mutex_unlock(&lock);
  return result;
}

uint32_t *splashd_ttf_render(void *font, const char *text, unsigned char red, unsigned char green,
                             unsigned char blue, int *width, int *height) {
  color_t color = {red, green, blue, 255};
  pthread_mutex_lock(&lock);
  SDL_Surface *surface = ttf.render(font, text, color);
  uint32_t *pixels = NULL;
  if (surface && surface->w > 0 && surface->h > 0 && surface->format->BytesPerPixel == 4 &&
      (pixels = malloc((size_t)surface->w * (size_t)surface->h * 4)) != NULL) {
    for (int y = 0; y < surface->h; y++)
      memcpy(pixels + (size_t)y * (size_t)surface->w, (const char *)surface->pixels + (size_t)y * (size_t)surface->pitch,
             (size_t)surface->w * 4);
    *width = surface->w;
    *height = surface->h;
  }
  if (surface) ttf.free_surface(surface);
  pthread_mutex_unlock(&lock);
  return pixels;
}

void splashd_ttf_thread_cleanup(void) {
  if (ttf.tls_cleanup) ttf.tls_cleanup();
}

const char *splashd_ttf_error(void) {
  return ttf.get_error ? ttf.get_error() : (ttf.error[0] ? ttf.error : "SDL2_ttf is not loaded");
}

void splashd_ttf_close(void *font) {
  pthread_mutex_lock(&lock);
  ttf.close(font);
  pthread_mutex_unlock(&lock);
}
