// SPDX-License-Identifier: Apache-2.0
/* Mostly header-only; what needs <linux/netlink.h> is here, out of the
   module Swift imports. */
#include "clinux.h"

#include <errno.h>
#include <linux/netlink.h>
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

/* The git commit splashd was built from: make passes -DSPLASHD_GIT_COMMIT;
 * empty for a build that did not come from git. */
#ifndef SPLASHD_GIT_COMMIT
#define SPLASHD_GIT_COMMIT ""
#endif
const char *splashd_build_commit(void) { return SPLASHD_GIT_COMMIT; }
