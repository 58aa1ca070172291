// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <stdint.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
