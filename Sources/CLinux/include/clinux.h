#pragma once
/* Linux interfaces that Swift's Glibc module leaves out. */
#include <signal.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>

/* Declared by <sys/socket.h> only under _GNU_SOURCE. */
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
#include <sys/pidfd.h>
