#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The guest side of the one-unit kiosk with a Wayland program (foot) as its
# own user: kiosk-with-splash.service runs splashd --user kiosk -- cage --
# foot, or splashd --host wayland --user kiosk -- foot. Put in the image as
# /usr/local/lib/rig/wayland-kiosk-boot.sh and run by rig-final.service after
# the kiosk unit (wayland-kiosk-boot.sh final): once
# foot runs and has had a moment to draw, RIG-KIOSK-KEYS on the serial
# console, for the rig to type "touch /home/kiosk/typed" and Enter on the
# guest's keyboard (its --type), and whether foot's shell ran it within 30 s
# (/run/rig/kiosk-typed: yes or no); screendump final; who runs cage
# and foot (/run/rig/kiosk-who: "USER COMMAND" lines), the compositor's
# peak RSS in KiB, its CPU ticks in 5 s with foot idle, the ticks a
# second, then its RSS and that RSS's anonymous, file and shared memory parts
# in KiB (compositor-usage), the kiosk unit's state (kiosk-state) and
# restarts (kiosk-restarts), splashd's last figures in the journal
# (journal-figures: FIELD=value lines); in host mode, the screen switched off and
# woken by a key (screen-power, below), what a second window's seat
# got from a fake pointer and touch screen (input-probe.log, screendumps
# pointer and touched), then foot killed and started again under the splash
# (screendump restarted, splashctl's status in restart-status), then the
# screen turned by the accelerometer (foot's columns before and after in
# turned-columns, a touch through the turn in input-probe.log, screendump
# turned), then where the unit has a watchdog, splashd stopped and
# started again by systemd (watchdog, screendump watchdog);
# tty1's keyboard mode (console-keyboard: one
# word from keyboard-mode, then in host mode a second once splashd has
# crashed), in host mode before that crash foot killed until splashd
# shows the diagnostic screen (diagnostic-status; the screen's watch)
# and the screen switched off (a fake backlight's brightness before and
# after the crash in crash-backlight),
# the journal (journal.txt); then RIG-STATUS 0 and the power off.
# wayland-kiosk-boot.sh browser, with cog as the hosted program instead:
# the page touched, then the same animating client under host mode and
# under cage in turn (the step's own comment says what it writes).
# wayland-kiosk-boot.sh gpu, on virgl with gles-counter as the hosted
# program: its buffers on the plane, then the same client under cage and
# under host mode without the GPU (the step's own comment says what it
# writes).
# Takes no variables.
case $1 in
final)
  i=0; while ! grep -qx foot /proc/[0-9]*/comm 2>/dev/null && [ $i -lt 900 ]; do sleep 0.1; i=$((i+1)); done
  sleep 4
  echo RIG-KIOSK-KEYS > /dev/ttyS0
  i=0; while [ ! -e /home/kiosk/typed ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
  if [ -e /home/kiosk/typed ]; then echo yes; else echo no; fi > /run/rig/kiosk-typed
  echo RIG-SCREENDUMP final > /dev/ttyS0
  while [ ! -e /run/rig/final.done ]; do sleep 0.1; done
  # (minbase has no procps: the owners of /proc's cage and foot)
  for comm in /proc/[0-9]*/comm; do
    case $(cat "$comm" 2>/dev/null) in
    cage | foot) echo "$(stat -c %U "${comm%/comm}") $(cat "$comm")" ;;
    esac
  done > /run/rig/kiosk-who
  # The compositor (the unit's main process: cage, or splashd in host mode)
  # with foot idle: its peak RSS, the CPU it takes in 5 s, its RSS then.
  main=$(systemctl show -P MainPID kiosk-with-splash.service)
  ticks() { awk '{print $14 + $15}' "/proc/$main/stat"; }
  before=$(ticks); sleep 5; after=$(ticks)
  echo "$(awk '/^VmHWM:/ {print $2}' "/proc/$main/status") $((after - before)) $(getconf CLK_TCK)" \
    "$(awk '/^(VmRSS|RssAnon|RssFile|RssShmem):/ {printf "%s ", $2}' "/proc/$main/status")" \
    > /run/rig/compositor-usage
  systemctl is-active kiosk-with-splash.service > /run/rig/kiosk-state
  systemctl show -P NRestarts kiosk-with-splash.service > /run/rig/kiosk-restarts
  # splashd's figures in the journal, as fields (the last entry, export format).
  journalctl -b -o export MESSAGE_ID=5b0c2f3e8d7a4c1e9f6a2b4d8c0e1f37 |
    awk 'BEGIN {RS = ""} {last = $0} END {print last}' > /run/rig/journal-figures
  # In host mode, the screen's power (screen-power, one line each):
  # splashctl screen off, the CRTC's state as the kernel has it (debugfs:
  # active=0), splashd's and foot's CPU ticks in 5 s while off and the
  # ticks a second; then RIG-KIOSK-WAKE, for the rig to type "xtouch
  # /home/kiosk/woke" and Enter on the guest's keyboard: the x wakes the
  # screen and reaches nothing, so foot's shell runs "touch
  # /home/kiosk/woke" (woke=yes); the CRTC's state and splashctl's answer
  # again, and how long splashctl screen on takes (on_ms). After the
  # figures above: the wake draws the whole screen, reading all of foot's
  # buffer, whose pages then count in splashd's RSS (shared, not more).
  if [ "$(cat "/proc/$main/comm")" = splashd ]; then
    mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
    active() {
      cat /sys/kernel/debug/dri/*/state 2>/dev/null |
        awk '/^crtc\[/ {c = 1} c && /\tactive=/ {sub(/.*\tactive=/, ""); print; exit}'
    }
    foot=$(for c in /proc/[0-9]*/comm; do [ "$(cat "$c" 2>/dev/null)" = foot ] && basename "${c%/comm}"; done | head -n 1)
    ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
    {
      splashctl screen off
      echo "active=$(active)"
      splashd_before=$(ticks "$main"); foot_before=$(ticks "$foot"); sleep 5
      echo "off_ticks=$(($(ticks "$main") - splashd_before)) $(($(ticks "$foot") - foot_before)) $(getconf CLK_TCK)"
    } > /run/rig/screen-power 2>&1
    echo RIG-KIOSK-WAKE > /dev/ttyS0
    i=0; while [ ! -e /home/kiosk/woke ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    {
      if [ -e /home/kiosk/woke ]; then echo woke=yes; else echo woke=no; fi
      echo "active=$(active)"
      splashctl screen status
      splashctl screen off > /dev/null
      started=$(date +%s%N); splashctl screen on > /dev/null; ended=$(date +%s%N)
      echo "on_ms=$(((ended - started) / 1000000))"
    } >> /run/rig/screen-power 2>&1
  fi
  # In host mode, pointer and touch: input-probe, a second window of the
  # kiosk user's (320x240, centred over foot: at 240,120), and a fake
  # absolute pointer and touch screen (uinput, 800x480 units: a pixel
  # each) that splashd's libinput takes as they come. Once the probe's seat
  # has both, the pointer goes to 300,150 and clicks (screendump pointer:
  # the probe's cursor there), then a finger touches 500,300 (screendump
  # touched: the cursor hidden); the probe's lines in input-probe.log.
  if [ "$(cat "/proc/$main/comm")" = splashd ]; then
    mkdir -p /run/rig/input
    runuser -u kiosk -- env XDG_RUNTIME_DIR="/run/user/$(id -u kiosk)" WAYLAND_DISPLAY=wayland-0 input-probe \
      > /run/rig/input-probe.log 2>&1 &
    fake-pointer-and-touch /run/rig/input 800 480 &
    i=0; while ! grep -qx 'seat pointer touch' /run/rig/input-probe.log && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
    i=0; while ! grep -q '^shown' /run/rig/input-probe.log && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done
    echo 300 150 > /run/rig/input/point.new && mv /run/rig/input/point.new /run/rig/input/point
    i=0; while ! grep -qx 'presented button' /run/rig/input-probe.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
    echo RIG-SCREENDUMP pointer > /dev/ttyS0
    while [ ! -e /run/rig/pointer.done ]; do sleep 0.1; done
    echo 500 300 > /run/rig/input/touch.new && mv /run/rig/input/touch.new /run/rig/input/touch
    i=0; while ! grep -qx 'presented touch' /run/rig/input-probe.log && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
    echo RIG-SCREENDUMP touched > /dev/ttyS0
    while [ ! -e /run/rig/touched.done ]; do sleep 0.1; done
    touch /run/rig/input/done
    # A crash of the program (foot killed outright): with restart =
    # on-failure the splash comes back and foot starts again under it (the
    # screen's frames show it); screendump restarted once it has been
    # revealed again, splashctl's status then in restart-status.
    for comm in /proc/[0-9]*/comm; do
      [ "$(cat "$comm" 2>/dev/null)" = foot ] && kill -KILL "$(basename "${comm%/comm}")"
    done
    i=0; while ! splashctl status 2>/dev/null | grep -q '^phase=done .*program=shown restarts=1' \
      && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
    splashctl status > /run/rig/restart-status 2>&1
    echo RIG-SCREENDUMP restarted > /dev/ttyS0
    while [ ! -e /run/rig/restarted.done ]; do sleep 0.1; done
    # The sensor turns the screen while foot runs (rotate = auto follows
    # the rig's accelerometer, rig-accelerometer.service): once the status
    # says rotation=90, foot is told its new size (its shell's terminal:
    # columns before and after in turned-columns); a new fake touch screen
    # (the first one gone) touches the panel at 500,100, which the content
    # turned 90 degrees shows at 100,300 of the portrait canvas: 20,20 of
    # the probe's window (at 80,280); screendump turned.
    foot=$(for c in /proc/[0-9]*/comm; do [ "$(cat "$c" 2>/dev/null)" = foot ] && basename "${c%/comm}"; done | head -n 1)
    shell=$(for s in /proc/[0-9]*/stat; do
      [ "$(awk '{print $4}' "$s" 2>/dev/null)" = "$foot" ] && basename "${s%/stat}"
    done | head -n 1)
    pts=$(readlink "/proc/$shell/fd/0")
    columns() { stty -F "$pts" size 2>/dev/null | cut -d' ' -f2; }
    before=$(columns)
    touch /run/accel/tilt
    i=0; while ! splashctl status 2>/dev/null | grep -q ' rotation=90 ' && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
    i=0; while [ "$(columns)" = "$before" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
    echo "$before $(columns)" > /run/rig/turned-columns
    mkdir -p /run/rig/input2
    fake-pointer-and-touch /run/rig/input2 800 480 &
    i=0; while [ "$(grep -cx 'seat pointer touch' /run/rig/input-probe.log)" -lt 2 ] && [ $i -lt 200 ]; do
      sleep 0.1; i=$((i+1))
    done
    echo 790 470 > /run/rig/input2/point.new && mv /run/rig/input2/point.new /run/rig/input2/point
    i=0; while [ ! -e /run/rig/input2/pointed ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
    echo 500 100 > /run/rig/input2/touch.new && mv /run/rig/input2/touch.new /run/rig/input2/touch
    i=0; while [ "$(grep -cx 'presented touch' /run/rig/input-probe.log)" -lt 2 ] && [ $i -lt 100 ]; do
      sleep 0.1; i=$((i+1))
    done
    echo RIG-SCREENDUMP turned > /dev/ttyS0
    while [ ! -e /run/rig/turned.done ]; do sleep 0.1; done
    touch /run/rig/input2/done /run/accel/done
  fi
  # systemd's watchdog, where the unit has one (the test's drop-in:
  # WatchdogSec=, Restart=on-watchdog): splashd stopped (SIGSTOP) sends no
  # WATCHDOG=1, so systemd aborts it and starts the unit again, whose
  # splashd brings foot back under the splash. In watchdog, one line each:
  # the old and the new main PID (pids=), NRestarts (restarts=), the new
  # splashd's status; screendump watchdog once foot is shown again.
  if [ "$(cat "/proc/$main/comm")" = splashd ] &&
    [ "$(systemctl show -P WatchdogUSec kiosk-with-splash.service)" != 0 ]; then
    kill -STOP "$main"
    i=0; while [ "$(systemctl show -P MainPID kiosk-with-splash.service)" = "$main" ] && [ $i -lt 600 ]; do
      sleep 0.1; i=$((i+1))
    done
    # Not ended in 60 s: splashd goes on, and the pids say it was not replaced.
    [ "$(systemctl show -P MainPID kiosk-with-splash.service)" = "$main" ] && kill -CONT "$main"
    # (bounded: a splashd that does not answer is news, not a hang)
    i=0; while ! timeout 5 splashctl status 2>/dev/null | grep -q '^phase=done .*program=shown' && [ $i -lt 900 ]; do
      sleep 0.1; i=$((i+1))
    done
    new=$(systemctl show -P MainPID kiosk-with-splash.service)
    {
      echo "pids=$main $new"
      echo "restarts=$(systemctl show -P NRestarts kiosk-with-splash.service)"
      timeout 5 splashctl status
    } > /run/rig/watchdog 2>&1
    echo RIG-SCREENDUMP watchdog > /dev/ttyS0
    while [ ! -e /run/rig/watchdog.done ]; do sleep 0.1; done
    main=$new
  fi
  # The console's keyboard (tty1, the terminal the kiosk holds) while the
  # compositor runs.
  keyboard-mode /dev/tty1 > /run/rig/console-keyboard 2>&1
  # In host mode, a program that always fails: foot killed each time it
  # comes back until splashd stops starting it (restart-limit = 2, the
  # rig's config) and shows the diagnostic screen (within 120 s):
  # splashctl's status then in diagnostic-status; the screen's watch
  # records the diagnostic screen from then until the screen goes off below.
  if [ "$(cat "/proc/$main/comm")" = splashd ]; then
    end=$(awk '{print $1 + 120}' /proc/uptime)
    until timeout 5 splashctl status 2>/dev/null | grep -q ' program=failed '; do
      awk -v end="$end" '{exit !($1 >= end)}' /proc/uptime && break
      for comm in /proc/[0-9]*/comm; do
        [ "$(cat "$comm" 2>/dev/null)" = foot ] && kill -KILL "$(basename "${comm%/comm}")"
      done
      sleep 0.1
    done
    timeout 5 splashctl status > /run/rig/diagnostic-status 2>&1
    sleep 2
  fi
  # Then, in host mode, a crash while the screen is off: a backlight (a
  # folder laid out as the kernel's, on a tmpfs over /sys/class/backlight,
  # brightness 7) turned down by splashctl screen off, then splashd crashes
  # (SIGSEGV; it still shows the diagnostic screen). crash-backlight:
  # "off=LEVEL crashed=LEVEL", the brightness while off and once splashd
  # has gone; the console's mode is read again then.
  if [ "$(cat "/proc/$main/comm")" = splashd ]; then
    mount -t tmpfs backlights /sys/class/backlight
    mkdir /sys/class/backlight/panel && echo 7 > /sys/class/backlight/panel/brightness
    timeout 5 splashctl screen off > /dev/null 2>&1
    off=$(cat /sys/class/backlight/panel/brightness)
    kill -SEGV "$main"
    i=0; while [ -e "/proc/$main" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
    echo "off=$off crashed=$(cat /sys/class/backlight/panel/brightness)" > /run/rig/crash-backlight
    keyboard-mode /dev/tty1 >> /run/rig/console-keyboard 2>&1
  elif [ -e /run/rig/diagnostic-status ]; then
    # (the diagnostic screen's 30 s ran out first)
    echo "splashd had ended before the crash step" > /run/rig/crash-backlight
  fi
  journalctl -b -o short-monotonic > /run/rig/journal.txt
  echo RIG-STATUS 0 > /dev/ttyS0; systemctl poweroff --force --force
  ;;
browser)
  # Host mode with cog (WPE WebKit) showing /usr/local/share/rig/touch.html,
  # the kiosk's colour until a touch makes it yellow. Once it is revealed
  # (splashctl: phase=done, program=shown): screendump browser; a fake
  # touch screen (fake-pointer-and-touch) touches the middle once splashd
  # has opened it (its fake pointer clicks a corner first), and grim (screencopy, as the kiosk user) is asked for the
  # screen until the page shows yellow there (browser-touched: yes, or no and
  # the colour seen);
  # screendump touched; who runs cog (kiosk-who); then the side-by-side
  # frames below, and the journal.
  i=0; while ! splashctl status 2>/dev/null | grep -q '^phase=done .*program=shown' && [ $i -lt 1200 ]; do
    sleep 0.1; i=$((i+1))
  done
  echo RIG-SCREENDUMP browser > /dev/ttyS0
  while [ ! -e /run/rig/browser.done ]; do sleep 0.1; done
  main=$(systemctl show -P MainPID kiosk-with-splash.service)
  for comm in /proc/[0-9]*/comm; do
    [ "$(cat "$comm" 2>/dev/null)" = cog ] && echo "$(stat -c %U "${comm%/comm}") cog"
  done | sort -u > /run/rig/kiosk-who
  mkdir -p /run/rig/input
  fake-pointer-and-touch /run/rig/input 800 480 &
  i=0; while [ ! -e /run/rig/input/input-ready ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  # The touch screen's event node, once splashd holds it open; the fake
  # pointer clicks in a corner first (the page listens for touches only).
  node=$(awk '/^N: Name="rig touch screen"/ {found=1} found && /^H: Handlers=/ {
    for (i = 1; i <= NF; i++) if ($i ~ /^event/) print $i; exit }' /proc/bus/input/devices)
  i=0; while ! ls -l "/proc/$main/fd" 2>/dev/null | grep -q "/dev/input/$node\$" && [ $i -lt 100 ]; do
    sleep 0.1; i=$((i+1))
  done
  echo 790 470 > /run/rig/input/point.new && mv /run/rig/input/point.new /run/rig/input/point
  i=0; while [ ! -e /run/rig/input/pointed ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
  echo 400 240 > /run/rig/input/touch.new && mv /run/rig/input/touch.new /run/rig/input/touch
  # The pixel in the middle of grim's picture (P6, 800x480: a 15-byte header).
  middle() {
    runuser -u kiosk -- env XDG_RUNTIME_DIR="/run/user/$(id -u kiosk)" WAYLAND_DISPLAY=wayland-0 \
      grim -t ppm - 2>/dev/null | od -An -tx1 -j $((15 + (240 * 800 + 400) * 3)) -N 3 | tr -d ' \n'
  }
  i=0; while [ "$(middle)" != ffff00 ] && [ $i -lt 150 ]; do sleep 0.1; i=$((i+1)); done
  seen=$(middle)
  if [ "$seen" = ffff00 ]; then echo yes; else echo "no: $seen"; fi > /run/rig/browser-touched
  echo RIG-SCREENDUMP touched > /dev/ttyS0
  while [ ! -e /run/rig/touched.done ]; do sleep 0.1; done
  touch /run/rig/input/done
  # The same animating client (frame-counter: the frames it draws from 4 s
  # after its first, for 6 s) under splashd's host mode and under cage in
  # turn, three times each, once the kiosk unit has stopped: their lines in
  # frames-host-N and frames-cage-N (none for a run that failed).
  systemctl stop kiosk-with-splash.service
  systemctl start seatd.service
  install -d -o kiosk -m 0700 /run/rig-frames /run/rig-frames/runtime
  for round in 1 2 3; do
    timeout 60 splashd --config /etc/splashd/splashd.conf --host wayland --user kiosk -- \
      /usr/local/bin/frame-counter 4 6 "/run/rig-frames/host-$round"
    timeout 60 runuser -u kiosk -- env XDG_RUNTIME_DIR=/run/rig-frames/runtime WLR_RENDERER=pixman \
      cage -- /usr/local/bin/frame-counter 4 6 "/run/rig-frames/cage-$round"
  done
  for file in /run/rig-frames/host-* /run/rig-frames/cage-*; do
    [ -e "$file" ] && cp "$file" "/run/rig/frames-${file##*/}"
  done
  journalctl -b -o short-monotonic > /run/rig/journal.txt
  echo RIG-STATUS 0 > /dev/ttyS0; systemctl poweroff --force --force
  ;;
gpu)
  # Host mode on a GPU (virgl) with gles-counter, an animating GLES2
  # client, as the kiosk's program (its files in /run/gles-kiosk). While
  # the splash shows: splashctl's status (gpu-phase-before) and the card's
  # framebuffers (debugfs, mounted here) in gpu-framebuffers-before, each
  # "ID START ALLOCATED-BY" (START: the offset of its buffer object, "-"
  # when it has none). Not scanned out within 120 s (splashctl:
  # scanout=direct): its status and the journal, and the boot ends with
  # status 1. Once revealed and scanned out: gpu-dmabufs, "splashd N": the
  # GPU buffers (dmabufs) splashd holds open ("cage M" is added once cage
  # runs the client); splashctl's status (gpu-status), where
  # splashd's threads wait in the kernel (gpu-splashd-stacks: a splashd
  # that does not answer) and the card's state (gpu-state), screendump
  # gpu-program, the screen's watch stopped; then 10 samples,
  # 0.2 s apart, of the primary plane's framebuffer (gpu-plane-after, the
  # same fields) and the framebuffers then (gpu-framebuffers-after); the
  # figures of splashd (below), then bad GPU buffers (dmabuf-fuzz, the
  # comment there). Then
  # the figures: the same client under four compositors in turn on the
  # same card: splashd in the kiosk unit (gpu), cage 0.1.4 with
  # WLR_RENDERER=gles2 (cage), splashd on the GPU with the client told
  # to render in software, into shared memory (gpu-shm: its status in
  # gpu-shm-status, how many of three snapshots differ in
  # gpu-shm-distinct), splashd with --gpu no (shm: Mesa renders in
  # software). For each, in figures-NAME, once the client has drawn 30
  # frames (within 90 s): "animating" and the compositor's and the
  # client's CPU ticks, the frames drawn, the seconds and the fences the
  # card's driver made (GPU work handed to the host), over 10 s;
  # "idle" and the same over 5 s with the client paused (SIGUSR1);
  # "memory", the compositor's peak and current RSS in KiB and the ticks
  # a second. The client's renderer in renderer-NAME, the linux-dmabuf
  # feedback its window was told in feedback-NAME; splashctl's status
  # with --gpu no in gpu-no-status; cage's and those splashd's output in
  # cage.log, gpu-shm.log and shm.log. Then cog and glxgears on the GPU
  # (below). A run that fails leaves its files out.
  mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
  dri=/sys/kernel/debug/dri/0
  # "ID START ALLOCATED-BY" of each framebuffer debugfs lists.
  framebuffers() {
    awk '/^framebuffer\[/ { if (id != "") print id, start, owner
                             id = $1; gsub(/[^0-9]/, "", id); start = "-"; owner = "-" }
         /allocated by = / { owner = $0; sub(/.*allocated by = /, "", owner); gsub(/ /, "_", owner) }
         /start=/ && start == "-" { start = $0; sub(/.*start=/, "", start) }
         END { if (id != "") print id, start, owner }' "$dri/framebuffer"
  }
  # The same of the primary plane's framebuffer (the first plane the state lists).
  primary() {
    awk '/^plane\[/ { if (seen) exit; seen = 1 }
         seen && /^\tfb=/ { id = $0; sub(/.*fb=/, "", id) }
         seen && /allocated by = / { owner = $0; sub(/.*allocated by = /, "", owner); gsub(/ /, "_", owner) }
         seen && /start=/ && start == "" { start = $0; sub(/.*start=/, "", start) }
         END { print id, (start == "" ? "-" : start), (owner == "" ? "-" : owner) }' "$dri/state"
  }
  ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
  frames() { awk '{print $1 + 0}' "$1/frames" 2>/dev/null || echo 0; }
  uptime_s() { cut -d' ' -f1 /proc/uptime; }
  # The fences the card's driver has made so far: one for each piece of
  # GPU work it hands the host (a flip, a transfer, a submission).
  fences() { awk '{print $3 + 0}' "$dri/virtio-gpu-irq-fence" 2>/dev/null || echo 0; }
  # within SECONDS COMMAND...: COMMAND every 0.1 s until it succeeds (0)
  # or SECONDS have passed by the clock (1).
  within() {
    end=$(awk -v now="$(uptime_s)" -v s="$1" 'BEGIN {print now + s}'); shift
    until "$@"; do
      awk -v now="$(uptime_s)" -v end="$end" 'BEGIN {exit !(now >= end)}' && return 1
      sleep 0.1
    done
  }
  pid_of() {
    for c in /proc/[0-9]*/comm; do [ "$(cat "$c" 2>/dev/null)" = "$1" ] && basename "${c%/comm}"; done | head -n 1
  }
  # window NAME COMPOSITOR CLIENT DIR SECONDS: NAME, the CPU ticks of
  # each, the frames drawn, the seconds and the card's fences, over SECONDS.
  window() {
    c0=$(ticks "$2"); p0=$(ticks "$3"); f0=$(frames "$4"); t0=$(uptime_s); g0=$(fences)
    sleep "$5"
    echo "$1 $(($(ticks "$2") - c0)) $(($(ticks "$3") - p0)) $(($(frames "$4") - f0))" \
      "$(awk -v a="$t0" -v b="$(uptime_s)" 'BEGIN {print b - a}') $(($(fences) - g0))"
  }
  # figures NAME COMPOSITOR CLIENT DIR: figures-NAME, renderer-NAME and feedback-NAME.
  drew_30() { [ "$(frames "$1")" -ge 30 ]; }
  figures() {
    within 90 drew_30 "$4" || return
    cp "$4/renderer" "/run/rig/renderer-$1"
    cp "$4/feedback" "/run/rig/feedback-$1"
    {
      window animating "$2" "$3" "$4" 10
      kill -USR1 "$3"
      window idle "$2" "$3" "$4" 5
      echo "memory $(awk '/^(VmHWM|VmRSS):/ {printf "%s ", $2}' "/proc/$2/status")$(getconf CLK_TCK)"
    } > "/run/rig/figures-$1"
  }
  # splashctl, bounded: a splashd that does not answer is news, not a hang.
  status() { timeout 5 splashctl status; }
  status > /run/rig/gpu-phase-before 2>&1
  framebuffers > /run/rig/gpu-framebuffers-before
  main=$(systemctl show -P MainPID kiosk-with-splash.service)
  # The GPU buffers (dmabufs) process $1 holds open.
  dmabufs() {
    n=0
    for fd in /proc/"$1"/fd/*; do case "$(readlink "$fd")" in *dmabuf*) n=$((n + 1)) ;; esac; done
    echo "$n"
  }
  scanned_out() { status 2>/dev/null | grep -q '^phase=done .*program=shown.* scanout=direct'; }
  if ! within 120 scanned_out; then
    # Nothing after this can be measured: the journal says why, at once.
    status > /run/rig/gpu-status 2>&1
    journalctl -b -o short-monotonic > /run/rig/journal.txt
    echo RIG-STATUS 1 > /dev/ttyS0; systemctl poweroff --force --force
  fi
  status > /run/rig/gpu-status 2>&1
  # The card's and its render node's device numbers, as linux-dmabuf's
  # feedback names them (gles-counter's feedback-NAME).
  stat -c '%t:%T' /dev/dri/card0 /dev/dri/renderD128 > /run/rig/gpu-devices 2>&1
  echo "splashd $(dmabufs "$main")" > /run/rig/gpu-dmabufs
  # Where each of splashd's threads waits in the kernel, and the card's state, then.
  for task in /proc/"$main"/task/*; do
    echo "$(cat "$task/comm") $(cat "$task/wchan")"; cat "$task/stack"
  done > /run/rig/gpu-splashd-stacks 2>&1
  cp "$dri/state" /run/rig/gpu-state 2>/dev/null
  echo RIG-SCREENDUMP gpu-program > /dev/ttyS0
  while [ ! -e /run/rig/gpu-program.done ]; do sleep 0.1; done
  echo RIG-WATCH-STOP > /dev/ttyS0
  for i in 1 2 3 4 5 6 7 8 9 10; do primary; sleep 0.2; done > /run/rig/gpu-plane-after
  framebuffers > /run/rig/gpu-framebuffers-after
  figures gpu "$main" "$(pid_of gles-counter)" /run/gles-kiosk
  # Bad GPU buffers: the program animating again (figures paused it),
  # dmabuf-fuzz (seed 1, 20 s) as the kiosk user on the program's display,
  # its report in dmabuf-fuzz; then in
  # dmabuf-fuzz-after splashd's main PID before and after ("pids=A B"),
  # the program's frames drawn meanwhile ("frames=N") and splashctl's
  # status once its buffer is scanned out again (within 30 s).
  kill -USR1 "$(pid_of gles-counter)"
  drawn=$(frames /run/gles-kiosk)
  install -d -o kiosk -m 0700 /run/rig-fuzz
  runuser -u kiosk -- env XDG_RUNTIME_DIR="/run/user/$(id -u kiosk)" WAYLAND_DISPLAY=wayland-0 \
    timeout 60 dmabuf-fuzz 1 20 /run/rig-fuzz/report > /run/rig/dmabuf-fuzz.log 2>&1
  cp /run/rig-fuzz/report /run/rig/dmabuf-fuzz 2>/dev/null
  within 30 scanned_out
  {
    echo "pids=$main $(systemctl show -P MainPID kiosk-with-splash.service)"
    echo "frames=$(($(frames /run/gles-kiosk) - drawn))"
    status
  } > /run/rig/dmabuf-fuzz-after 2>&1
  systemctl stop kiosk-with-splash.service
  # cage as the kiosk user (seatd gives it the seat), with the GLES2 renderer.
  systemctl start seatd.service
  install -d -o kiosk -m 0700 /run/rig-gpu /run/rig-gpu/runtime /run/rig-gpu/cage /run/rig-gpu/gpu-shm \
    /run/rig-gpu/shm
  runuser -u kiosk -- env XDG_RUNTIME_DIR=/run/rig-gpu/runtime WLR_RENDERER=gles2 \
    cage -- /usr/local/bin/gles-counter /run/rig-gpu/cage > /run/rig/cage.log 2>&1 &
  client_runs() { [ -n "$(pid_of gles-counter)" ]; }
  within 60 client_runs
  figures cage "$(pid_of cage)" "$(pid_of gles-counter)" /run/rig-gpu/cage
  echo "cage $(dmabufs "$(pid_of cage)")" >> /run/rig/gpu-dmabufs
  cage=$(pid_of cage)
  [ -n "$cage" ] && kill "$cage"
  cage_gone() { [ -z "$(pid_of cage)" ]; }
  within 10 cage_gone
  systemctl stop seatd.service
  # Host mode on the GPU with a program in shared memory (Mesa told to
  # render in software), then without the GPU: the plain compositor, no
  # linux-dmabuf.
  LIBGL_ALWAYS_SOFTWARE=true splashd --config /etc/splashd/splashd.conf --host wayland --control /run/rig-gpu/on-gpu \
    --user kiosk --pass-environment LIBGL_ALWAYS_SOFTWARE -- /usr/local/bin/gles-counter /run/rig-gpu/gpu-shm \
    > /run/rig/gpu-shm.log 2>&1 &
  shm=$!
  within 60 client_runs
  # What it shows moves on: once the program is shown, three snapshots
  # 0.3 s apart, the number of different ones in gpu-shm-distinct (its
  # marker moves at each frame).
  within 90 drew_30 /run/rig-gpu/gpu-shm
  on_gpu_shown() { SPLASHD_CONTROL=/run/rig-gpu/on-gpu status 2>/dev/null | grep -q '^phase=done .*program=shown'; }
  within 60 on_gpu_shown
  for n in 1 2 3; do
    SPLASHD_CONTROL=/run/rig-gpu/on-gpu timeout 5 splashctl snapshot "/run/rig/gpu-shm-$n.png"
    sleep 0.3
  done
  md5sum /run/rig/gpu-shm-[123].png | cut -d' ' -f1 | sort -u | wc -l > /run/rig/gpu-shm-distinct
  figures gpu-shm "$shm" "$(pid_of gles-counter)" /run/rig-gpu/gpu-shm
  SPLASHD_CONTROL=/run/rig-gpu/on-gpu status > /run/rig/gpu-shm-status 2>&1
  kill "$shm"
  shm_gone() { [ ! -e "/proc/$shm" ]; }
  within 10 shm_gone
  splashd --config /etc/splashd/splashd.conf --host wayland --gpu no --control /run/rig-gpu/control --user kiosk \
    -- /usr/local/bin/gles-counter /run/rig-gpu/shm > /run/rig/shm.log 2>&1 &
  shm=$!
  within 60 client_runs
  figures shm "$shm" "$(pid_of gles-counter)" /run/rig-gpu/shm
  SPLASHD_CONTROL=/run/rig-gpu/control status > /run/rig/gpu-no-status 2>&1
  kill "$shm"
  within 10 shm_gone
  # cog (WPE WebKit: EGL on Wayland) on the GPU's compositor, showing a
  # page whose square moves each frame (moving.html): splashctl's status
  # once its buffers are scanned out (within 90 s) in gpu-cog-status, that
  # splashd's output in gpu-cog.log.
  splashd --config /etc/splashd/splashd.conf --host wayland --control /run/rig-gpu/cog --user kiosk \
    -- /usr/bin/cog --platform=wl file:///usr/local/share/rig/moving.html > /run/rig/gpu-cog.log 2>&1 &
  compositor=$!
  compositor_gone() { [ ! -e "/proc/$compositor" ]; }
  cog_scanned_out() {
    SPLASHD_CONTROL=/run/rig-gpu/cog status 2>/dev/null | grep -q '^phase=done .*program=shown.* scanout=direct'
  }
  within 90 cog_scanned_out
  SPLASHD_CONTROL=/run/rig-gpu/cog status > /run/rig/gpu-cog-status 2>&1
  kill "$compositor"
  within 10 compositor_gone
  # glxgears, an X11 GL program (GLX on Xwayland, whose glamor renders on
  # the GPU and hands its buffers over by linux-dmabuf): the same, in
  # gpu-x11-status and gpu-x11.log.
  splashd --config /etc/splashd/splashd.conf --host wayland --xwayland --control /run/rig-gpu/x11 --user kiosk \
    -- /usr/bin/glxgears > /run/rig/gpu-x11.log 2>&1 &
  compositor=$!
  x11_scanned_out() {
    SPLASHD_CONTROL=/run/rig-gpu/x11 status 2>/dev/null | grep -q '^phase=done .*program=shown.* scanout=direct'
  }
  within 90 x11_scanned_out
  SPLASHD_CONTROL=/run/rig-gpu/x11 status > /run/rig/gpu-x11-status 2>&1
  kill "$compositor"
  within 10 compositor_gone
  journalctl -b -o short-monotonic > /run/rig/journal.txt
  echo RIG-STATUS 0 > /dev/ttyS0; systemctl poweroff --force --force
  ;;
*)
  echo "$0: no step '$1': final, browser, gpu" >&2
  exit 2
  ;;
esac
