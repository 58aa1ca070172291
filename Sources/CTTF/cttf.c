// SPDX-License-Identifier: Apache-2.0
#include "cttf.h"

#include <SDL2/SDL_ttf.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t initialised = PTHREAD_ONCE_INIT;
static char init_error[256];

static void init(void) {
  if (TTF_Init() != 0) snprintf(init_error, sizeof init_error, "TTF_Init: %s", SDL_GetError());
}

int splashd_ttf_init(char *error, size_t capacity) {
  pthread_once(&initialised, init);
  if (init_error[0] && capacity > 0) snprintf(error, capacity, "%s", init_error);
  return init_error[0] ? -1 : 0;
}

void *splashd_ttf_open(const char *path, int points) {
  pthread_mutex_lock(&lock);
  TTF_Font *font = TTF_OpenFont(path, points);
  pthread_mutex_unlock(&lock);
  return font;
}

int splashd_ttf_height(void *font) {
  pthread_mutex_lock(&lock);
  int height = TTF_FontHeight(font);
  pthread_mutex_unlock(&lock);
  return height;
}

int splashd_ttf_size(void *font, const char *text, int *width, int *height) {
  pthread_mutex_lock(&lock);
  int result = TTF_SizeUTF8(font, text, width, height);
  pthread_mutex_unlock(&lock);
  return result;
}

SDL_Surface *splashd_ttf_render(void *font, const char *text, unsigned char red, unsigned char green,
                                unsigned char blue) {
  SDL_Color color = {red, green, blue, 255};
  pthread_mutex_lock(&lock);
  SDL_Surface *surface = TTF_RenderUTF8_Blended(font, text, color);
  pthread_mutex_unlock(&lock);
  return surface;
}

void splashd_ttf_close(void *font) {
  pthread_mutex_lock(&lock);
  TTF_CloseFont(font);
  pthread_mutex_unlock(&lock);
}
