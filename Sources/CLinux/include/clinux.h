#pragma once
/* Linux interfaces that Swift's Glibc module leaves out. */
#include <signal.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
