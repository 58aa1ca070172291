// SPDX-License-Identifier: Apache-2.0
#pragma once
/* Linux interfaces that Swift's Glibc module leaves out. */
#include <malloc.h>
#include <sys/fsuid.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>

/* Declared by <sys/socket.h> only under _GNU_SOURCE. */
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/* Declared by <unistd.h> and <spawn.h> only under _GNU_SOURCE (glibc 2.34+
   for the second): for the tests, which spawn children that inherit nothing
   but their standard streams. */
#include <spawn.h>
extern int pipe2(int fds[2], int flags);
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/* Declared by <stdlib.h> only under _XOPEN_SOURCE: for the tests, whose
   pseudo-terminals stand in for the console's. */
extern int posix_openpt(int flags);
extern int grantpt(int fd);
extern int unlockpt(int fd);
extern int ptsname_r(int fd, char *buffer, size_t size);

/* Whether child `pid` has ended (or is no child of this process any more),
   leaving its status to be reaped (waitid's WNOWAIT). */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
static inline int splashd_child_ended(int pid) {
  siginfo_t info;
  memset(&info, 0, sizeof info);
  if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD;
  return info.si_pid == pid;
}

/* The process and user ids of a Unix socket's peer, as it connected
   (SO_PEERCRED's struct ucred, _GNU_SOURCE only: pid, uid, gid). 0 on success. */
static inline int splashd_peer(int fd, int *pid, unsigned int *uid) {
  struct {
    int pid;
    unsigned int uid;
    unsigned int gid;
  } credentials;
  socklen_t size = sizeof credentials;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return -1;
  *pid = credentials.pid;
  *uid = credentials.uid;
  return 0;
}

/* The most descriptors one message carries (SCM_RIGHTS). */
#define SPLASHD_MAX_PASSED_DESCRIPTORS 16

/* Sends `length` bytes of `bytes` with `count` descriptors attached
   (SCM_RIGHTS), without blocking or SIGPIPE: the bytes sent, or -1 and
   errno. (In clinux.c: the CMSG macros do not reach Swift.) */
long splashd_send_descriptors(int socket, const void *bytes, unsigned long length, const int *descriptors, int count);

/* Receives at most `size` bytes into `bytes` and up to
   SPLASHD_MAX_PASSED_DESCRIPTORS descriptors into `descriptors` (their
   number in `*count`, close-on-exec), blocking as the socket does: the
   bytes received, or -1 and errno. */
long splashd_receive_descriptors(int socket, void *bytes, unsigned long size, int *descriptors, int *count);

/* One datagram from `socket` (SO_PASSCRED on), without blocking: its
   bytes into `bytes` (at most `size`), the sender's process and user IDs
   (checked by the kernel) into `pid` and `uid`, 0 and -1 when it came
   without; descriptors sent with it are closed. The bytes received, or -1
   and errno. */
long splashd_receive_from(int socket, void *bytes, unsigned long size, int *pid, unsigned int *uid);
#include <sys/pidfd.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <sys/ioctl.h>

/* ioctl is variadic, which Swift cannot call: one wrapper per argument kind. */
static inline int splashd_ioctl_pointer(int fd, unsigned long request, void *argument) {
  return ioctl(fd, request, argument);
}
static inline int splashd_ioctl_value(int fd, unsigned long request, unsigned long argument) {
  return ioctl(fd, request, argument);
}
/* FBIO_WAITFORVSYNC is _IOW('F', 0x20, __u32), which Swift cannot import. */
static inline unsigned long splashd_fbio_waitforvsync(void) { return FBIO_WAITFORVSYNC; }

#include <linux/input.h>
/* The evdev requests are function-like macros, which Swift cannot import. */
static inline unsigned long splashd_eviocgprop(unsigned int length) { return EVIOCGPROP(length); }
static inline unsigned long splashd_eviocgbit(unsigned int type, unsigned int length) {
  return EVIOCGBIT(type, length);
}
static inline unsigned long splashd_eviocgabs(unsigned int axis) { return EVIOCGABS(axis); }
static inline unsigned long splashd_eviocgsw(unsigned int length) { return EVIOCGSW(length); }
static inline unsigned long splashd_eviocgkey(unsigned int length) { return EVIOCGKEY(length); }
static inline unsigned long splashd_eviocgname(unsigned int length) { return EVIOCGNAME(length); }
static inline unsigned long splashd_eviocgversion(void) { return EVIOCGVERSION; }

/* A socket that receives the kernel's device events (netlink uevents,
   multicast group 1), non-blocking and close-on-exec; -1 and errno on failure.
   (In clinux.c: <linux/netlink.h> would clash with glibc's socket names here.) */
int splashd_uevent_socket(void);

/* Receives one message into `buffer`: its length (more than `size` when it
   was cut), or -1 and errno. `*from_kernel` says whether the kernel sent it
   (netlink port 0), not a process. */
long splashd_uevent_receive(int fd, void *buffer, unsigned long size, int *from_kernel);

/* The process's arguments as the kernel gave them to main, kept by an ELF
   constructor (glibc passes argc and argv to those): the real argv, so that
   argv[0] can be marked, and there without /proc (Swift's CommandLine reads
   /proc/self/cmdline on Linux, and sees no arguments in a chroot without it). */
int splashd_argument_count(void);
/* The file name the kernel exec'd (AT_EXECFN: no /proc needed); NULL if none. */
const char *splashd_exec_name(void);
/* The executable's segments mapped without write access (its code and
   read-only data), found through the auxiliary vector (AT_PHDR; no /proc
   needed), their bounds rounded out to whole pages: up to `capacity` of
   them into `starts` and `lengths`; returns how many there are. */
int splashd_program_read_only_segments(unsigned long *starts, unsigned long *lengths, int capacity);
/* The calling thread's id (gettid), unique among live processes and threads. */
int splashd_thread_id(void);
char **splashd_arguments(void);

/* The git commit of the build ("" when not built from git). */
const char *splashd_build_commit(void);

/* Makes the calling thread `uid`, `gid` and `groups` (supplementary
   groups), real, effective and saved, with raw system calls (async-signal-
   safe: the crash hand-off calls it before execve). 0, or -1 and errno. */
int splashd_become(unsigned int uid, unsigned int gid, int group_count, const unsigned int *groups);

/* The files a crash writes first (crash_writes.c): `text` (`count` bytes,
   at most 32, copied) to be written at the start of the file open at
   `descriptor`; 0, or -1 when the 8 slots are taken or the text too long.
   Called by one thread only. */
int splashd_crash_write_add(int descriptor, const char *text, size_t count);
/* Lets go of `descriptor`'s slot (it is about to be closed). */
void splashd_crash_write_remove(int descriptor);
/* Writes each slot's text at its file's start. Async-signal-safe (the
   crash hand-off calls it), on any thread. */
void splashd_crash_writes_run(void);

/* Raises this process's soft limit of open descriptors (RLIMIT_NOFILE) to
   its hard limit, keeping the soft limit it had for the programs it starts
   (splashd_descriptor_limit_for_programs): clients cannot exhaust 1,024
   then, and programs that use select() still get the limit they expect.
   0, or -1 and errno. */
int splashd_raise_descriptor_limit(void);
/* With `programs` non-zero, puts back the soft limit of open descriptors
   this process started with (before starting or becoming a program); with
   0, the raised one again. Nothing before splashd_raise_descriptor_limit.
   Async-signal-safe (the crash hand-off and a forked child call it). */
void splashd_descriptor_limit_for_programs(int programs);

/* Gives the calling thread an alternate signal stack (sigaltstack) of its
   own, so that a handler installed with SA_ONSTACK (the crash hand-off's)
   runs even when the thread's stack is what overflowed: 256 KiB (or four
   times the kernel's minimum, if more), reserved without being committed
   (MAP_NORESERVE: resident only once used), an inaccessible guard page
   below it. Once a thread, at its start. 0, or -1 and errno. */
int splashd_alternate_signal_stack(void);

/* Starts `path` as `uid`/`gid`/`groups` with `argv`, `envp` and the signal
   mask `mask` (every signal's action the default): fork, then in the child
   the credentials and execve; with `stderr_fd` (not -1), its standard
   error is that descriptor; with `own_process_group`, it leads a process
   group of its own. The child's pid, or -errno when it could not be
   started (the credentials or execve failed: told back through a pipe). */
int splashd_spawn_as(const char *path, char *const argv[], char *const envp[], const sigset_t *mask, unsigned int uid,
                     unsigned int gid, int group_count, const unsigned int *groups, int stderr_fd,
                     int own_process_group);

/* Guards a file mapping against the file being cut short under it (a
   truncated file's pages beyond its end raise SIGBUS when read): a read
   there finds zero bytes instead, `name` is said once on standard error, and
   splashd_mapping_was_cut tells it. A fault anywhere else goes to the
   SA_SIGINFO handler installed before, if any (libwayland's wl_shm guard),
   then to the action that ends the process (the crash hand-off's). The
   guard's slot, or -1 when all are taken (the mapping is then left
   unguarded). (In mapping_guard.c.) */
int splashd_guard_mapping(const void *start, unsigned long length, const char *name);
/* Whether the guarded mapping in `slot` lost pages to its file being cut. */
int splashd_mapping_was_cut(int slot);
/* Ends the guard in `slot` (before the mapping is unmapped). */
void splashd_unguard_mapping(int slot);
/* Makes `ending` (the crash hand-off's action; NULL: the one it was) what
   a SIGBUS nobody takes ends in, and the guard SIGBUS's action in front of
   any other guard installed since (which then takes the faults not a
   mapping's). Set SIGBUS's action only through here. */
void splashd_mapping_guard_goes_first(const struct sigaction *ending);
