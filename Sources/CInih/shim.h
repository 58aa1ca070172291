#pragma once
#include <stdbool.h>
#include <ini.h>

/* Debian's libinih makes its compile-time options run-time globals.
   splashd wants: stop at the first error, no continuation lines, comments
   starting a line with ';' or '#' and inline comments after " ;" only (an
   inline '#' would swallow "#RRGGBB" colours), lines of up to 4096 bytes on
   the heap. */
static inline void splashd_configure_inih(void) {
  ini_stop_on_first_error = true;
  ini_allow_multiline = false;
  ini_allow_no_value = false;
  ini_allow_inline_comments = true;
  ini_inline_comment_prefixes = (char *)";";
  ini_use_stack = false;
  ini_max_line = 4096;
}
