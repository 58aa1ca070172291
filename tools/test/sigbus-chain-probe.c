// SPDX-License-Identifier: Apache-2.0
// The SIGBUS chain of splashd's guard of mapped files
// (Sources/CLinux/mapping_guard.c), with a second guard installed after it
// as libwayland installs its wl_shm one: that guard takes faults in its
// "pool" (zero pages over it) and, for any other, puts back the action it
// found and raises SIGBUS again. Built by the test with the guard's source:
//
//     sigbus-chain-probe FOLDER
//
// Three files in FOLDER, each mapped and then cut to nothing: the pool's
// (read through the second guard), a guarded one (read through splashd's),
// and one nobody guards, whose read must end the process through the action
// given to splashd_mapping_guard_goes_first (it exits 42). A chain that
// handed the fault back and forth would never end: the test's timeout
// catches that. Exits 1 with a line when a step goes wrong.
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clinux.h"

#define SIZE 8192

static char *pool;
static struct sigaction found;

static void second_guard(int signal, siginfo_t *info, void *context) {
  (void)context;
  char *address = info->si_addr;
  if (info->si_code > 0 && address >= pool && address < pool + SIZE) {
    mmap(pool, SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    return;
  }
  sigaction(signal, &found, NULL);
  raise(signal);
}

static void ending(int signal) {
  (void)signal;
  _exit(42);
}

static char *mapped(const char *folder, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", folder, name);
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0 || ftruncate(fd, SIZE) != 0) return NULL;
  char *start = mmap(NULL, SIZE, PROT_READ, MAP_SHARED, fd, 0);
  if (start == MAP_FAILED || ftruncate(fd, 0) != 0) return NULL;
  close(fd);
  return start;
}

static int fail(const char *step) {
  fprintf(stderr, "sigbus-chain-probe: %s\n", step);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: sigbus-chain-probe FOLDER\n");
    return 2;
  }
  char *guarded = mapped(argv[1], "guarded");
  char *nobodys = mapped(argv[1], "nobodys");
  pool = mapped(argv[1], "pool");
  if (guarded == NULL || nobodys == NULL || pool == NULL) return fail("cannot map the files");
  int slot = splashd_guard_mapping(guarded, SIZE, "guarded");
  struct sigaction crash;
  memset(&crash, 0, sizeof crash);
  crash.sa_handler = ending;
  sigemptyset(&crash.sa_mask);
  splashd_mapping_guard_goes_first(&crash);
  struct sigaction second;
  memset(&second, 0, sizeof second);
  second.sa_sigaction = second_guard;
  second.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&second.sa_mask);
  sigaction(SIGBUS, &second, &found);
  if (*(volatile char *)pool != 0) return fail("the pool's guard did not take its fault");
  // The guard of mapped files goes first again (a mapping made since, or
  // host mode's program's first frame).
  splashd_mapping_guard_goes_first(NULL);
  if (*(volatile char *)(pool + 4096) != 0) return fail("the pool's guard did not take its fault through the chain");
  if (*(volatile char *)guarded != 0 || !splashd_mapping_was_cut(slot)) return fail("the guarded file's fault");
  (void)*(volatile char *)nobodys;
  return fail("a fault nobody guards did not end the process");
}
