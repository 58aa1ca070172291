// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <stddef.h>
#include <stdint.h>

/* SDL2_ttf, loaded with dlopen the first time a message is drawn, so that a
   splash without text never maps it (nor FreeType and HarfBuzz behind it).
   Fonts are TTF_Font pointers, opaque here. SDL2_ttf brings Debian's shared
   libSDL2 with it, a copy of SDL other than the one linked into splashd
   (whose symbols are not exported): no SDL object crosses between the two,
   rendered text comes back as plain pixels. */

/* Loads libSDL2_ttf-2.0.so.0 and initialises it, once; 0 on success, else
   -1 with the reason in `error`. Later calls return the first result. Every
   call here may come from any thread: they take turns. */
int splashd_ttf_load(char *error, size_t capacity);

/* TTF_OpenFont: the font at `path`, `points` high; NULL on error (splashd_ttf_error). */
void *splashd_ttf_open(const char *path, int points);

/* TTF_FontHeight: the font's line height in pixels. */
int splashd_ttf_height(void *font);

/* TTF_SizeUTF8: the size `text` renders at; 0 on success. */
int splashd_ttf_size(void *font, const char *text, int *width, int *height);

/* TTF_RenderUTF8_Blended: `text` anti-aliased in this colour on
   transparency, as `*width` × `*height` ARGB8888 pixels, rows packed, in
   memory the caller frees (free); NULL on error (splashd_ttf_error). */
uint32_t *splashd_ttf_render(void *font, const char *text, unsigned char red, unsigned char green,
                             unsigned char blue, int *width, int *height);

/* The last error of the SDL that SDL2_ttf uses. */
const char *splashd_ttf_error(void);

/* Frees what the SDL that SDL2_ttf uses keeps for the calling thread (its
   last error), as SDL does only for threads it made; nothing before the
   library is loaded. For threads that end before the process (the tests'). */
void splashd_ttf_thread_cleanup(void);

/* TTF_CloseFont. */
void splashd_ttf_close(void *font);
