#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Runs a program and measures it, for the reliability tests.

    measure.py RESULT TIMEOUT PROGRAM [ARGS...]

Forks and execs PROGRAM (its standard streams are this one's), writes its
pid to RESULT.pid at once, waits at most TIMEOUT seconds (then kills it),
and writes to RESULT one line: "status S peak_rss_kb K cpu_s C timed_out T"
(S is 128 + the signal for a program a signal ended). The peak is the
program's own (wait4's ru_maxrss): forked from this small process, not from
the test process, whose size a child would otherwise start from.
"""
import os
import signal
import sys

result, timeout, program = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    try:
        os.execv(program[0], program)
    finally:
        os._exit(127)
# Written whole and then renamed, so that a reader never sees it empty.
with open(result + ".pid.new", "w") as f:
    f.write(str(pid))
os.rename(result + ".pid.new", result + ".pid")
timed_out = False


def expire(*_):
    global timed_out
    timed_out = True
    os.kill(pid, signal.SIGKILL)


signal.signal(signal.SIGALRM, expire)
signal.setitimer(signal.ITIMER_REAL, timeout)
while True:
    try:
        _, status, usage = os.wait4(pid, 0)
        break
    except InterruptedError:
        continue
signal.setitimer(signal.ITIMER_REAL, 0)
code = 128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
with open(result, "w") as f:
    f.write("status %d peak_rss_kb %d cpu_s %.3f timed_out %d\n"
            % (code, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, timed_out))
