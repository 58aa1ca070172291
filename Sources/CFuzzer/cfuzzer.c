/* Header-only: this file gives SwiftPM a C target to build. */
#include "cfuzzer.h"
