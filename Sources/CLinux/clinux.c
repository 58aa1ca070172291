// SPDX-License-Identifier: Apache-2.0
/* Header-only: this file gives SwiftPM a C target to build. */
#include "clinux.h"
