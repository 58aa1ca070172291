// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <SDL2/SDL_surface.h>
#include <stddef.h>

/* SDL2_ttf, on splashd's own static SDL and a trimmed static FreeType
   (tools/build/build-sdl.sh), behind a lock: SDL2_ttf and FreeType's one library
   object are not safe to use from two threads at once, and every call here
   may come from any thread (splashd draws from one; its tests do not).
   Fonts are TTF_Font pointers, opaque here. */

/* TTF_Init, once; 0 on success, else -1 with the reason in `error`. Later
   calls return the first result. */
int splashd_ttf_init(char *error, size_t capacity);

/* TTF_OpenFont: the font at `path`, `points` high; NULL on error (SDL_GetError). */
void *splashd_ttf_open(const char *path, int points);

/* TTF_FontHeight: the font's line height in pixels. */
int splashd_ttf_height(void *font);

/* TTF_SizeUTF8: the size `text` renders at; 0 on success. */
int splashd_ttf_size(void *font, const char *text, int *width, int *height);

/* TTF_RenderUTF8_Blended: `text` anti-aliased in this colour on
   transparency, an ARGB8888 surface the caller frees; NULL on error
   (SDL_GetError). */
SDL_Surface *splashd_ttf_render(void *font, const char *text, unsigned char red, unsigned char green,
                                unsigned char blue);

/* TTF_CloseFont. */
void splashd_ttf_close(void *font);
