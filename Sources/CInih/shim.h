// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <stdbool.h>
#include <ini.h>

/* Debian's libinih makes its compile-time options run-time globals.
   splashd wants: stop at the first error, no continuation lines, comments
   starting a line with ';' or '#' and inline comments after " ;" only (an
   inline '#' would swallow "#RRGGBB" colours), a heap buffer of max_line
   bytes for each line ('\r', '\n' and NUL included). */
static inline void splashd_configure_inih(int max_line) {
  ini_stop_on_first_error = true;
  ini_allow_multiline = false;
  ini_allow_no_value = false;
  ini_allow_inline_comments = true;
  ini_inline_comment_prefixes = (char *)";";
  ini_use_stack = false;
  ini_allow_realloc = false;
  ini_initial_alloc = max_line;
  ini_max_line = max_line;
}
