// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <stddef.h>

/* SDL2_ttf, loaded with dlopen the first time a message is drawn, so that a
   splash without text never maps it (nor FreeType and HarfBuzz behind it).
   Fonts are TTF_Font pointers and rendered text SDL_Surface pointers, both
   opaque here. */

/* Loads libSDL2_ttf-2.0.so.0 and initialises it, once; 0 on success, else
   -1 with the reason in `error`. Later calls return the first result. Every
   call here may come from any thread: they take turns. */
int splashd_ttf_load(char *error, size_t capacity);

/* TTF_OpenFont: the font at `path`, `points` high; NULL on error (SDL_GetError). */
void *splashd_ttf_open(const char *path, int points);

/* TTF_FontHeight: the font's line height in pixels. */
int splashd_ttf_height(void *font);

/* TTF_SizeUTF8: the size `text` renders at; 0 on success. */
int splashd_ttf_size(void *font, const char *text, int *width, int *height);

/* TTF_RenderUTF8_Blended: `text` anti-aliased in this colour on a
   transparent ARGB8888 surface; NULL on error. */
void *splashd_ttf_render(void *font, const char *text, unsigned char red, unsigned char green, unsigned char blue);

/* TTF_CloseFont. */
void splashd_ttf_close(void *font);
