// SPDX-License-Identifier: Apache-2.0
/* The SIGBUS guard of file mappings (see clinux.h). A signal handler, so C:
   only async-signal-safe calls (mmap, write, sigaction) and a fixed table. */
#include "clinux.h"

#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define GUARD_SLOTS 32
#define GUARD_NAME_BYTES 240

struct guard {
  _Atomic(uintptr_t) start; /* 0: the slot is free */
  _Atomic(unsigned long) length;
  atomic_int cut;
  char name[GUARD_NAME_BYTES];
};

static struct guard guards[GUARD_SLOTS];
static atomic_flag taking = ATOMIC_FLAG_INIT;
/* The SA_SIGINFO handler on_bus took the place of, which takes the faults
   that are not a guarded mapping's (libwayland's wl_shm guard, for a
   client's pool being read); none (SIG_DFL) when there was none. */
static struct sigaction before;
/* What ends the process on a SIGBUS nobody takes: the crash hand-off's
   action, or the default. */
static struct sigaction fatal;
static uintptr_t page_size;

static void say_cut(const char *name) {
  static const char head[] = "splashd: ";
  static const char tail[] = " was cut short while it was shown: its lost part shows as black\n";
  char line[sizeof head + GUARD_NAME_BYTES + sizeof tail];
  size_t used = 0;
  memcpy(line, head, sizeof head - 1);
  used += sizeof head - 1;
  size_t name_length = strnlen(name, GUARD_NAME_BYTES - 1);
  memcpy(line + used, name, name_length);
  used += name_length;
  memcpy(line + used, tail, sizeof tail - 1);
  used += sizeof tail - 1;
  ssize_t written = write(2, line, used);
  (void)written;
}

static void on_bus(int signal, siginfo_t *info, void *context) {
  uintptr_t address = (uintptr_t)info->si_addr;
  /* A SIGBUS sent rather than a fault (another guard raising it again for
     a fault not its own, kill) has no address of ours. */
  for (int slot = 0; info->si_code > 0 && slot < GUARD_SLOTS; slot++) {
    uintptr_t start = atomic_load(&guards[slot].start);
    uintptr_t end = start + atomic_load(&guards[slot].length);
    if (start == 0 || address < start || address >= end) continue;
    /* The file was cut at or before this page, so every page from here to
       the mapping's end is gone: zero pages take their place, and the read
       that faulted is done again on them. */
    uintptr_t page = address & ~(page_size - 1);
    uintptr_t last = (end + page_size - 1) & ~(page_size - 1);
    if (mmap((void *)page, last - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
      break;
    if (atomic_exchange(&guards[slot].cut, 1) == 0) say_cut(guards[slot].name);
    return;
  }
  /* A fault of no guarded mapping: the guard installed before takes it,
     called as the kernel would; it raises the signal again when it is not
     its own either (libwayland's does, after putting its own "before"
     back). Never by putting that handler back as SIGBUS's action: it would
     put this one back in turn, and the fault would come again forever. */
  if (info->si_code > 0 && (before.sa_flags & SA_SIGINFO) && before.sa_sigaction != NULL) {
    before.sa_sigaction(signal, info, context);
    return;
  }
  /* Nobody's: the process ends as it would have. A fault comes again as
     soon as this handler returns; a signal sent is raised again (it
     arrives then). */
  sigaction(signal, &fatal, NULL);
  if (info->si_code <= 0) raise(signal);
}

/* Makes on_bus SIGBUS's action; an SA_SIGINFO handler installed since it
   last was (another guard) takes the faults not its own, any other action
   ends the process. */
static void install(void) {
  struct sigaction current;
  sigaction(SIGBUS, NULL, &current);
  if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_bus) return;
  if (current.sa_flags & SA_SIGINFO) {
    before = current;
  } else {
    fatal = current;
  }
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_bus;
  /* On the alternate stack where the thread has one (the crash hand-off's):
     a fault deep in a recursion still finds room for the handler. */
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, NULL);
}

int splashd_guard_mapping(const void *start, unsigned long length, const char *name) {
  if (start == NULL || length == 0) return -1;
  while (atomic_flag_test_and_set(&taking)) {
  }
  if (page_size == 0) page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
  install();
  int taken = -1;
  for (int slot = 0; slot < GUARD_SLOTS && taken < 0; slot++) {
    if (atomic_load(&guards[slot].start) != 0) continue;
    strncpy(guards[slot].name, name, GUARD_NAME_BYTES - 1);
    guards[slot].name[GUARD_NAME_BYTES - 1] = 0;
    atomic_store(&guards[slot].cut, 0);
    atomic_store(&guards[slot].length, length);
    atomic_store(&guards[slot].start, (uintptr_t)start);
    taken = slot;
  }
  atomic_flag_clear(&taking);
  return taken;
}

int splashd_mapping_was_cut(int slot) {
  if (slot < 0 || slot >= GUARD_SLOTS) return 0;
  return atomic_load(&guards[slot].cut);
}

void splashd_unguard_mapping(int slot) {
  if (slot < 0 || slot >= GUARD_SLOTS) return;
  atomic_store(&guards[slot].start, 0);
}

void splashd_mapping_guard_goes_first(const struct sigaction *ending) {
  while (atomic_flag_test_and_set(&taking)) {
  }
  if (page_size == 0) page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
  if (ending != NULL) fatal = *ending;
  install();
  atomic_flag_clear(&taking);
}
