// SPDX-License-Identifier: Apache-2.0
/* Mostly header-only; what needs <linux/netlink.h> is here, out of the
   module Swift imports. */
#define _GNU_SOURCE /* struct ucred, SCM_CREDENTIALS */
#include "clinux.h"

#include <errno.h>
#include <link.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

int splashd_uevent_socket(void) {
  int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_KOBJECT_UEVENT);
  if (fd < 0) return -1;
  struct sockaddr_nl address = {.nl_family = AF_NETLINK, .nl_pid = 0, .nl_groups = 1};
  if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

long splashd_uevent_receive(int fd, void *buffer, unsigned long size, int *from_kernel) {
  struct sockaddr_nl sender;
  socklen_t length = sizeof sender;
  long count = recvfrom(fd, buffer, size, MSG_TRUNC, (struct sockaddr *)&sender, &length);
  *from_kernel = count >= 0 && length == sizeof sender && sender.nl_family == AF_NETLINK && sender.nl_pid == 0;
  return count;
}

long splashd_send_descriptors(int socket, const void *bytes, unsigned long length, const int *descriptors, int count) {
  if (count < 0 || count > SPLASHD_MAX_PASSED_DESCRIPTORS) {
    errno = EINVAL;
    return -1;
  }
  struct iovec part = {.iov_base = (void *)bytes, .iov_len = length};
  union {
    char space[CMSG_SPACE(sizeof(int) * SPLASHD_MAX_PASSED_DESCRIPTORS)];
    struct cmsghdr align;
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr message = {.msg_iov = &part, .msg_iovlen = 1};
  if (count > 0) {
    message.msg_control = control.space;
    message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int) * count);
    memcpy(CMSG_DATA(header), descriptors, sizeof(int) * count);
  }
  return sendmsg(socket, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

long splashd_receive_descriptors(int socket, void *bytes, unsigned long size, int *descriptors, int *count) {
  struct iovec part = {.iov_base = bytes, .iov_len = size};
  union {
    char space[CMSG_SPACE(sizeof(int) * SPLASHD_MAX_PASSED_DESCRIPTORS)];
    struct cmsghdr align;
  } control;
  struct msghdr message = {
      .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space, .msg_controllen = sizeof control.space};
  *count = 0;
  long received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
  if (received < 0) return -1;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    int passed = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    for (int index = 0; index < passed; index++) {
      int descriptor;
      memcpy(&descriptor, CMSG_DATA(header) + sizeof(int) * index, sizeof descriptor);
      /* What does not fit is closed: nothing sent is left open by accident. */
      if (*count < SPLASHD_MAX_PASSED_DESCRIPTORS) {
        descriptors[(*count)++] = descriptor;
      } else {
        close(descriptor);
      }
    }
  }
  return received;
}

long splashd_receive_from(int socket, void *bytes, unsigned long size, int *pid, unsigned int *uid) {
  struct iovec part = {.iov_base = bytes, .iov_len = size};
  union {
    char space[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int) * SPLASHD_MAX_PASSED_DESCRIPTORS)];
    struct cmsghdr align;
  } control;
  struct msghdr message = {
      .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.space, .msg_controllen = sizeof control.space};
  *pid = 0;
  *uid = (unsigned int)-1;
  long received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
  if (received < 0) return -1;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET) continue;
    if (header->cmsg_type == SCM_CREDENTIALS && header->cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
      struct ucred sender;
      memcpy(&sender, CMSG_DATA(header), sizeof sender);
      *pid = sender.pid;
      *uid = sender.uid;
    } else if (header->cmsg_type == SCM_RIGHTS) {
      /* Descriptors nobody asked for are closed at once. */
      int passed = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
      for (int index = 0; index < passed; index++) {
        int descriptor;
        memcpy(&descriptor, CMSG_DATA(header) + sizeof(int) * index, sizeof descriptor);
        close(descriptor);
      }
    }
  }
  return received;
}

static int argument_count;
static char **arguments;

__attribute__((constructor)) static void keep_arguments(int count, char **values, char **environment) {
  (void)environment;
  argument_count = count;
  arguments = values;
}

int splashd_argument_count(void) { return argument_count; }
char **splashd_arguments(void) { return arguments; }

const char *splashd_exec_name(void) { return (const char *)getauxval(AT_EXECFN); }

int splashd_program_read_only_segments(unsigned long *starts, unsigned long *lengths, int capacity) {
  const ElfW(Phdr) *headers = (const ElfW(Phdr) *)getauxval(AT_PHDR);
  unsigned long count = getauxval(AT_PHNUM);
  unsigned long page = getauxval(AT_PAGESZ);
  if (headers == NULL || page == 0) return 0;
  // The load bias: where the headers are against where they were linked.
  uintptr_t bias = 0;
  for (unsigned long index = 0; index < count; index++) {
    if (headers[index].p_type == PT_PHDR) bias = (uintptr_t)headers - headers[index].p_vaddr;
  }
  int found = 0;
  for (unsigned long index = 0; index < count; index++) {
    const ElfW(Phdr) *header = &headers[index];
    if (header->p_type != PT_LOAD || (header->p_flags & PF_W) != 0 || header->p_memsz == 0) continue;
    uintptr_t start = (bias + header->p_vaddr) & ~(uintptr_t)(page - 1);
    uintptr_t end = (bias + header->p_vaddr + header->p_memsz + page - 1) & ~(uintptr_t)(page - 1);
    if (found < capacity) {
      starts[found] = start;
      lengths[found] = end - start;
    }
    found++;
  }
  return found;
}

int splashd_thread_id(void) { return (int)syscall(SYS_gettid); }

/* The git commit splashd was built from: make passes -DSPLASHD_GIT_COMMIT;
 * empty for a build that did not come from git. */
#ifndef SPLASHD_GIT_COMMIT
#define SPLASHD_GIT_COMMIT ""
#endif
const char *splashd_build_commit(void) { return SPLASHD_GIT_COMMIT; }

int splashd_become(unsigned int uid, unsigned int gid, int group_count, const unsigned int *groups) {
  /* Raw system calls: glibc's setuid and friends signal every thread of the
   * process to change with it, which a crash handler must not rely on; the
   * calling thread's credentials are what execve keeps. */
  if (syscall(SYS_setgroups, group_count, groups) != 0) return -1;
  if (syscall(SYS_setresgid, gid, gid, gid) != 0) return -1;
  if (syscall(SYS_setresuid, uid, uid, uid) != 0) return -1;
  return 0;
}

/* The descriptor limits: as splashd started, and as raised (0: not raised). */
static struct rlimit descriptors_at_start, descriptors_raised;

int splashd_raise_descriptor_limit(void) {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
  descriptors_at_start = limit;
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return -1;
  descriptors_raised = limit;
  return 0;
}

void splashd_descriptor_limit_for_programs(int programs) {
  if (descriptors_raised.rlim_cur == 0) return;
  setrlimit(RLIMIT_NOFILE, programs ? &descriptors_at_start : &descriptors_raised);
}

int splashd_spawn_as(const char *path, char *const argv[], char *const envp[], const sigset_t *mask, unsigned int uid,
                     unsigned int gid, int group_count, const unsigned int *groups, int stderr_fd,
                     int own_process_group) {
  int report[2];
  if (pipe2(report, O_CLOEXEC) != 0) return -errno;
  pid_t pid = fork();
  if (pid < 0) {
    int error = errno;
    close(report[0]);
    close(report[1]);
    return -error;
  }
  if (pid == 0) {
    /* The child: only async-signal-safe calls until execve. */
    close(report[0]);
    struct sigaction plain;
    memset(&plain, 0, sizeof plain);
    plain.sa_handler = SIG_DFL;
    for (int signal = 1; signal < NSIG; signal++) sigaction(signal, &plain, NULL);
    sigprocmask(SIG_SETMASK, mask, NULL);
    splashd_descriptor_limit_for_programs(1);
    int error = 0;
    if (stderr_fd >= 0 && dup2(stderr_fd, 2) < 0) {
      error = errno;
    } else if (own_process_group && setpgid(0, 0) != 0) {
      error = errno;
    } else if (splashd_become(uid, gid, group_count, groups) != 0) {
      error = errno;
    } else {
      execve(path, argv, envp);
      error = errno;
    }
    (void)!write(report[1], &error, sizeof error);
    _exit(127);
  }
  close(report[1]);
  int error = 0;
  ssize_t got;
  do {
    got = read(report[0], &error, sizeof error);
  } while (got < 0 && errno == EINTR);
  close(report[0]);
  if (got == (ssize_t)sizeof error) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return -error;
  }
  return pid;
}

int splashd_alternate_signal_stack(void) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t size = 256 * 1024;
  long minimum = sysconf(_SC_MINSIGSTKSZ);
  if (minimum > 0 && (size_t)minimum * 4 > size) size = ((size_t)minimum * 4 + page - 1) / page * page;
  char *base = mmap(NULL, size + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK | MAP_NORESERVE,
                    -1, 0);
  if (base == MAP_FAILED) return -1;
  /* A handler that overflows the alternate stack in turn faults on the
     guard page (and the kernel ends the process) rather than writing over
     whatever lies below. */
  if (mprotect(base, page, PROT_NONE) != 0) {
    int saved = errno;
    munmap(base, size + page);
    errno = saved;
    return -1;
  }
  stack_t stack = {.ss_sp = base + page, .ss_size = size, .ss_flags = 0};
  if (sigaltstack(&stack, NULL) != 0) {
    int saved = errno;
    munmap(base, size + page);
    errno = saved;
    return -1;
  }
  return 0;
}
