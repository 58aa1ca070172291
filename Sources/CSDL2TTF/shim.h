// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <SDL2/SDL_ttf.h>
