// SPDX-License-Identifier: Apache-2.0
// Runs a command as on a kernel older than Linux 5.3, which has no
// pidfd_open: a seccomp filter makes that call fail with ENOSYS for the
// command and everything it starts; every other call goes through. Built by
// the tests (and tools/build/text-order.sh, since valgrind 3.19 has no pidfd_open
// either):
//
//     without-pidfd COMMAND [ARGUMENT...]
//
// Exits 127 with a line when the filter cannot be installed or COMMAND
// cannot be run.
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

int main(int count, char **arguments) {
  if (count < 2) {
    fprintf(stderr, "usage: without-pidfd COMMAND [ARGUMENT...]\n");
    return 2;
  }
  struct sock_filter program[] = {
    // Another architecture's calls (their numbers differ) go through.
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog filter = {.len = sizeof program / sizeof program[0], .filter = program};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) != 0) {
    fprintf(stderr, "without-pidfd: cannot install the filter: %s\n", strerror(errno));
    return 127;
  }
  execvp(arguments[1], arguments + 1);
  fprintf(stderr, "without-pidfd: cannot run %s: %s\n", arguments[1], strerror(errno));
  return 127;
}
