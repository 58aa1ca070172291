// SPDX-License-Identifier: Apache-2.0
// The files a crash writes first (CrashHandOff.write: a backlight's
// brightness put back; a datagram to systemd through a connected socket). A fixed table whose text lives in the table
// itself: a crash handler, on whichever thread faulted, never reads memory
// being freed. Each slot is published by its descriptor (atomic: stored
// last when it is taken, cleared first when it is let go of); only one
// thread (splashd's main thread) takes and lets go of slots.
#include "clinux.h"

#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

enum { WRITE_SLOTS = 8, WRITE_BYTES = 32 };

static struct {
  /* The descriptor plus one; 0 for a free slot. */
  atomic_int descriptor;
  size_t count;
  char bytes[WRITE_BYTES];
} writes[WRITE_SLOTS];

int splashd_crash_write_add(int descriptor, const char *text, size_t count) {
  if (descriptor < 0 || count > WRITE_BYTES) return -1;
  for (int slot = 0; slot < WRITE_SLOTS; slot++) {
    if (atomic_load(&writes[slot].descriptor) != 0) continue;
    memcpy(writes[slot].bytes, text, count);
    writes[slot].count = count;
    atomic_store(&writes[slot].descriptor, descriptor + 1);
    return 0;
  }
  return -1;
}

void splashd_crash_write_remove(int descriptor) {
  for (int slot = 0; slot < WRITE_SLOTS; slot++) {
    if (atomic_load(&writes[slot].descriptor) == descriptor + 1) atomic_store(&writes[slot].descriptor, 0);
  }
}

void splashd_crash_writes_run(void) {
  for (int slot = 0; slot < WRITE_SLOTS; slot++) {
    int descriptor = atomic_load(&writes[slot].descriptor) - 1;
    if (descriptor < 0) continue;
    // A file that cannot seek (a pipe) is written as it is.
    (void)lseek(descriptor, 0, SEEK_SET);
    ssize_t written = write(descriptor, writes[slot].bytes, writes[slot].count);
    (void)written;
  }
}
