// Test-only: a preloaded library (LD_PRELOAD on Linux, DYLD_INSERT_LIBRARIES on a Mac) that
// interrupts the real ditto-recover at a chosen stage. A stage is one file-system call (open,
// read, write, sync, mkdir, link, unlink, rename, …), counted from the moment the program has
// installed a handler for SIGINT, SIGTERM or SIGHUP; at stage N it sends the chosen
// signal to its own process, then makes the call, as a signal from a terminal would arrive.
//
//   DITTO_STAGE_SIGNAL_AT=N   the stage to interrupt at (unset: only count)
//   DITTO_STAGE_SIGNAL=2      the signal (SIGINT by default)
//   DITTO_STAGE_COUNT_FILE=p  at a normal exit, the number of stages is written to p
//
// Compiled by the interrupt tests at test time (cc or clang); never part of a product.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static long stage_target = 0;
static int stage_signal = SIGINT;
static const char *count_file = NULL;
static atomic_long stage_count = 0;
static atomic_int armed = 0;
static atomic_int fired = 0;

__attribute__((constructor)) static void stage_setup(void) {
  const char *at = getenv("DITTO_STAGE_SIGNAL_AT");
  if (at) stage_target = atol(at);
  const char *signal_number = getenv("DITTO_STAGE_SIGNAL");
  if (signal_number) stage_signal = atoi(signal_number);
  count_file = getenv("DITTO_STAGE_COUNT_FILE");
}

static void stage(void) {
  if (!atomic_load(&armed) || atomic_load(&fired)) return;
  long number = atomic_fetch_add(&stage_count, 1) + 1;
  if (stage_target > 0 && number == stage_target && !atomic_exchange(&fired, 1)) {
    kill(getpid(), stage_signal);
  }
}

#if defined(__APPLE__)
#define WRAP(name) ditto_stage_##name
#define REAL(name) name
#define INTERPOSE(name)                                                                  \
  __attribute__((used)) static const struct {                                           \
    const void *replacement;                                                             \
    const void *replacee;                                                                \
  } ditto_interpose_##name __attribute__((section("__DATA,__interpose"))) = {            \
      (const void *)(unsigned long)&ditto_stage_##name, (const void *)(unsigned long)&name};
#else
#define WRAP(name) name
#define REAL(name) real_##name()
#define INTERPOSE(name)
#endif

#if !defined(__APPLE__)
#define DECLARE_REAL(name)                                                   \
  static __typeof__(&name) real_##name(void) {                               \
    static __typeof__(&name) pointer = NULL;                                 \
    if (!pointer) pointer = (__typeof__(&name))dlsym(RTLD_NEXT, #name);      \
    return pointer;                                                          \
  }
#else
#define DECLARE_REAL(name)
#endif

// sigaction: arms the stages once the program's SIGHUP handler is in place.
DECLARE_REAL(sigaction)
int WRAP(sigaction)(int signal_number, const struct sigaction *action, struct sigaction *old) {
  int result = REAL(sigaction)(signal_number, action, old);
  if (result == 0 && action && action->sa_handler != SIG_DFL && action->sa_handler != SIG_IGN &&
      (signal_number == SIGINT || signal_number == SIGTERM || signal_number == SIGHUP))
    atomic_store(&armed, 1);
  return result;
}
INTERPOSE(sigaction)

// open and openat take a mode only with O_CREAT.
#define MODE_ARGUMENT(flags, mode)           \
  do {                                       \
    if ((flags) & O_CREAT) {                 \
      va_list list;                          \
      va_start(list, flags);                 \
      mode = (mode_t)va_arg(list, int);      \
      va_end(list);                          \
    }                                        \
  } while (0)

DECLARE_REAL(open)
int WRAP(open)(const char *path, int flags, ...) {
  mode_t mode = 0;
  MODE_ARGUMENT(flags, mode);
  stage();
  return REAL(open)(path, flags, mode);
}
INTERPOSE(open)

DECLARE_REAL(openat)
int WRAP(openat)(int folder, const char *path, int flags, ...) {
  mode_t mode = 0;
  MODE_ARGUMENT(flags, mode);
  stage();
  return REAL(openat)(folder, path, flags, mode);
}
INTERPOSE(openat)

#define SIMPLE(result, name, params, args) \
  DECLARE_REAL(name)                       \
  result WRAP(name) params {               \
    stage();                               \
    return REAL(name) args;                \
  }                                        \
  INTERPOSE(name)

SIMPLE(ssize_t, read, (int fd, void *buffer, size_t count), (fd, buffer, count))
SIMPLE(ssize_t, write, (int fd, const void *buffer, size_t count), (fd, buffer, count))
SIMPLE(ssize_t, pread, (int fd, void *buffer, size_t count, off_t offset), (fd, buffer, count, offset))
SIMPLE(ssize_t, pwrite, (int fd, const void *buffer, size_t count, off_t offset),
       (fd, buffer, count, offset))
SIMPLE(int, fsync, (int fd), (fd))
SIMPLE(int, close, (int fd), (fd))
SIMPLE(int, mkdir, (const char *path, mode_t mode), (path, mode))
SIMPLE(char *, mkdtemp, (char *template), (template))
SIMPLE(int, mkstemp, (char *template), (template))
SIMPLE(int, link, (const char *from, const char *to), (from, to))
SIMPLE(int, unlink, (const char *path), (path))
SIMPLE(int, unlinkat, (int folder, const char *path, int flags), (folder, path, flags))
SIMPLE(int, rename, (const char *from, const char *to), (from, to))
SIMPLE(int, ftruncate, (int fd, off_t length), (fd, length))

#if !defined(__APPLE__)
DECLARE_REAL(open64)
int open64(const char *path, int flags, ...) {
  mode_t mode = 0;
  MODE_ARGUMENT(flags, mode);
  stage();
  return REAL(open64)(path, flags, mode);
}
DECLARE_REAL(openat64)
int openat64(int folder, const char *path, int flags, ...) {
  mode_t mode = 0;
  MODE_ARGUMENT(flags, mode);
  stage();
  return REAL(openat64)(folder, path, flags, mode);
}
SIMPLE(ssize_t, pread64, (int fd, void *buffer, size_t count, off64_t offset),
       (fd, buffer, count, offset))
SIMPLE(ssize_t, pwrite64, (int fd, const void *buffer, size_t count, off64_t offset),
       (fd, buffer, count, offset))
SIMPLE(int, fdatasync, (int fd), (fd))
SIMPLE(int, mkstemp64, (char *template), (template))
SIMPLE(int, ftruncate64, (int fd, off64_t length), (fd, length))
SIMPLE(ssize_t, copy_file_range,
       (int in, off64_t *in_offset, int out, off64_t *out_offset, size_t length, unsigned int flags),
       (in, in_offset, out, out_offset, length, flags))
#endif

__attribute__((destructor)) static void stage_report(void) {
  if (!count_file || atomic_load(&fired)) return;
  char text[32];
  int length = snprintf(text, sizeof text, "%ld\n", atomic_load(&stage_count));
  int fd = REAL(open)(count_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  (void)!REAL(write)(fd, text, (size_t)length);
  REAL(close)(fd);
}
