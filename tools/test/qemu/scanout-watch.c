// SPDX-License-Identifier: Apache-2.0
// The team's scan-out watcher (from shared/tools/bootpath), kept here for the boot-path figures.
/* splashwatch2: runs a splash program and times its first frame on screen,
 * read back from the buffer the display is scanning out.
 *
 *   splashwatch2 LABEL SETTLE_MS TIMEOUT_MS -- PROGRAM ARGS...
 *
 * Clears /dev/fb0 to black and waits 300 ms; then forks, and the child reads
 * CLOCK_MONOTONIC just before execve. Every 1 ms the parent asks DRM for the
 * primary plane's framebuffer (drmModeGetPlane on /dev/dri/card0), maps that
 * buffer (GETFB + MAP_DUMB: the BO the CRTC scans out, whether it is the
 * fbdev emulation's or the program's own), and samples a 40x25 grid:
 *   scan_first: first poll with any sampled pixel non-black on the scan-out
 *   scan_full:  first poll with >= 99% of the samples non-black
 *   fb0_first:  first poll with any sample of the /dev/fb0 mapping non-black
 *               (what an fbdev program wrote, before any deferred flush)
 *   last:       the last change of the scan-out samples (or plane fb id)
 * It stops SETTLE_MS after the last change once scan_full is seen (or at
 * TIMEOUT_MS), reads the child's VmHWM/VmRSS and counts distinct mapped .so
 * files, optionally has the rig take a screendump (env SW_DUMP=NAME), ends
 * the child (SIGTERM, SIGKILL after 3 s) and prints one "SW ..." line. Times
 * are ms after the child's exec. Each plane fb change is printed as "FLIP".
 * It drops DRM master at once (root may), so the program can take it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fb.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

#define GX 40
#define GY 25
#define N (GX * GY)

struct view { volatile uint8_t *mem; size_t len; unsigned w, h, pitch, bpp; uint32_t handle; };

static int sample(struct view *v, uint32_t *out) {
  int nonblack = 0;
  for (int j = 0; j < GY; j++)
    for (int i = 0; i < GX; i++) {
      unsigned x = (v->w * (2 * i + 1)) / (2 * GX), y = (v->h * (2 * j + 1)) / (2 * GY);
      volatile uint8_t *p = v->mem + (size_t)y * v->pitch + (size_t)x * (v->bpp / 8);
      uint32_t c = 0;
      for (unsigned k = 0; k < v->bpp / 8 && k < 3; k++) c |= (uint32_t)p[k] << (8 * k);
      out[j * GX + i] = c;
      if (c) nonblack++;
    }
  return nonblack;
}

static int dfd;
static int map_fb(uint32_t fb_id, struct view *v) {
  drmModeFBPtr fb = drmModeGetFB(dfd, fb_id);
  if (!fb) return -1;
  v->w = fb->width; v->h = fb->height; v->pitch = fb->pitch; v->bpp = fb->bpp; v->handle = fb->handle;
  drmModeFreeFB(fb);
  if (!v->handle) return -2;
  struct drm_mode_map_dumb m = {.handle = v->handle};
  if (drmIoctl(dfd, DRM_IOCTL_MODE_MAP_DUMB, &m)) return -3;
  v->len = (size_t)v->pitch * v->h;
  v->mem = mmap(NULL, v->len, PROT_READ, MAP_SHARED, dfd, m.offset);
  if (v->mem == MAP_FAILED) { v->mem = NULL; return -4; }
  return 0;
}
static void unmap_fb(struct view *v) {
  if (v->mem) munmap((void *)v->mem, v->len);
  if (v->handle) { struct drm_gem_close c = {.handle = v->handle}; drmIoctl(dfd, DRM_IOCTL_GEM_CLOSE, &c); }
  memset(v, 0, sizeof *v);
}

static void memory(pid_t pid, long *hwm, long *rss, int *libs) {
  char path[64], line[4096];
  static char seen[512][256];
  int count = 0;
  *hwm = *rss = -1; *libs = -1;
  snprintf(path, sizeof path, "/proc/%d/status", pid);
  FILE *f = fopen(path, "r");
  if (!f) return;
  while (fgets(line, sizeof line, f)) { sscanf(line, "VmHWM: %ld", hwm); sscanf(line, "VmRSS: %ld", rss); }
  fclose(f);
  snprintf(path, sizeof path, "/proc/%d/maps", pid);
  if (!(f = fopen(path, "r"))) return;
  while (fgets(line, sizeof line, f)) {
    char *name = strchr(line, '/');
    if (!name || !strstr(name, ".so")) continue;
    name[strcspn(name, "\n")] = 0;
    int dup = 0;
    for (int i = 0; i < count; i++) if (!strncmp(seen[i], name, 255)) dup = 1;
    if (!dup && count < 512) snprintf(seen[count++], 256, "%s", name);
  }
  fclose(f);
  *libs = count;
}

int main(int argc, char **argv) {
  if (argc < 6 || strcmp(argv[4], "--")) {
    fprintf(stderr, "usage: splashwatch2 LABEL SETTLE_MS TIMEOUT_MS -- PROGRAM ARGS...\n");
    return 2;
  }
  const char *label = argv[1];
  double settle = atof(argv[2]) / 1000, timeout = atof(argv[3]) / 1000;
  int fd = open("/dev/fb0", O_RDWR);
  struct fb_var_screeninfo var; struct fb_fix_screeninfo fix;
  if (fd < 0 || ioctl(fd, FBIOGET_VSCREENINFO, &var) || ioctl(fd, FBIOGET_FSCREENINFO, &fix)) { perror("fb0"); return 1; }
  struct view fb0 = {.len = fix.smem_len, .w = var.xres, .h = var.yres, .pitch = fix.line_length, .bpp = var.bits_per_pixel};
  fb0.mem = mmap(NULL, fix.smem_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (fb0.mem == MAP_FAILED) { perror("mmap fb0"); return 1; }
  memset((void *)fb0.mem, 0, fix.smem_len);
  dfd = open("/dev/dri/card0", O_RDWR);
  if (dfd < 0) { perror("card0"); return 1; }
  /* The first opener of a card becomes its DRM master: give that up, so the
   * program under test can set its own mode. */
  drmDropMaster(dfd);
  drmSetClientCap(dfd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
  drmModePlaneResPtr pr = drmModeGetPlaneResources(dfd);
  uint32_t plane = 0;
  for (unsigned i = 0; pr && i < pr->count_planes; i++) {
    drmModePlanePtr p = drmModeGetPlane(dfd, pr->planes[i]);
    if (p && p->fb_id && !plane) plane = p->plane_id;
    if (p) drmModeFreePlane(p);
  }
  if (!plane) { fprintf(stderr, "no plane with a framebuffer\n"); return 1; }
  usleep(300000); /* the fbdev emulation's deferred flush of the clear */
  uint32_t cur[N], prev[N], tmp[N];
  struct view scan = {0};
  uint32_t scan_fb = 0;
  double *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  shared[0] = 0;
  pid_t pid = fork();
  if (pid == 0) {
    shared[0] = now();
    execvp(argv[5], argv + 5);
    perror("execvp");
    _exit(127);
  }
  double start = now(), scan_first = 0, scan_full = 0, fb0_first = 0, last = 0;
  int flips = 0, status = 0, ended = 0, have_prev = 0, maperr = 0;
  uint32_t base_fb = 0;
  struct timespec pause = {0, 1000000};
  for (;;) {
    double t = now();
    drmModePlanePtr p = drmModeGetPlane(dfd, plane);
    uint32_t id = p ? p->fb_id : 0;
    if (p) drmModeFreePlane(p);
    int changed = 0;
    if (id != scan_fb) {
      if (scan_fb) { flips++; changed = 1; }
      else base_fb = id;
      unmap_fb(&scan);
      scan_fb = id;
      if (id) { int e = map_fb(id, &scan); if (e) { maperr = e; unmap_fb(&scan); } }
    }
    int nb = -1;
    if (scan.mem) {
      nb = sample(&scan, cur);
      if (have_prev && memcmp(cur, prev, sizeof cur)) changed = 1;
      memcpy(prev, cur, sizeof cur);
      have_prev = 1;
      if (nb > 0 && !scan_first) scan_first = t;
      if (nb >= N * 99 / 100 && !scan_full) scan_full = t;
    }
    if (changed && flips && id != base_fb) { /* report each flip once, with what it shows */ }
    if (changed) {
      last = t;
      if (id != base_fb || flips) printf("FLIP %s t_ms=%.1f fb=%u nonblack=%d\n", label, (t - shared[0]) * 1000, id, nb);
    }
    if (!fb0_first && sample(&fb0, tmp) > 0) fb0_first = t;
    if (scan_full && t - last > settle) break;
    if (t - start > timeout) break;
    if (!ended && waitpid(pid, &status, WNOHANG) == pid) { ended = 1; if (!scan_full) break; }
    nanosleep(&pause, NULL);
  }
  long hwm, rss; int libs;
  memory(pid, &hwm, &rss, &libs);
  const char *dump = getenv("SW_DUMP");
  if (dump && *dump && !ended) {
    char done[256];
    snprintf(done, sizeof done, "/run/rig/%s.done", dump);
    printf("RIG-SCREENDUMP %s\n", dump);
    fflush(stdout);
    for (int i = 0; i < 300 && access(done, F_OK); i++) usleep(100000);
  }
  if (!ended) {
    kill(pid, SIGTERM);
    int i;
    for (i = 0; i < 30 && waitpid(pid, &status, WNOHANG) != pid; i++) usleep(100000);
    if (i == 30) { kill(pid, SIGKILL); waitpid(pid, &status, 0); }
  }
#define MS(x) ((x) ? ((x) - shared[0]) * 1000 : -1)
  printf("SW label=%s t_exec=%.6f scan_first_ms=%.1f scan_full_ms=%.1f fb0_first_ms=%.1f last_ms=%.1f flips=%d "
         "vmhwm_kb=%ld vmrss_kb=%ld libs=%d ended_early=%d maperr=%d\n",
         label, shared[0], MS(scan_first), MS(scan_full), MS(fb0_first), MS(last), flips, hwm, rss, libs, ended, maperr);
  fflush(stdout);
  return 0;
}
