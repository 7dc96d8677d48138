// Counts the successful opens of chosen files by the process it is preloaded into (Linux,
// LD_PRELOAD), for OpenCountTests: DITTO_COUNT_OPENS lists the files as "device:inode" pairs
// separated by commas; at exit, "device:inode count" lines go to DITTO_COUNT_OPENS_OUT.
// A file is known by its identity, never by its path: a path through a link counts too.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 8

static unsigned long long devices[MAX_FILES], inodes[MAX_FILES];
static long counts[MAX_FILES];
static int files = -1;

static void load(void) {
  if (files >= 0) return;
  files = 0;
  const char *list = getenv("DITTO_COUNT_OPENS");
  while (list && *list && files < MAX_FILES) {
    if (sscanf(list, "%llu:%llu", &devices[files], &inodes[files]) == 2) files++;
    const char *comma = strchr(list, ',');
    list = comma ? comma + 1 : NULL;
  }
}

static void note(int fd) {
  if (fd < 0) return;
  load();
  struct stat info;
  if (files == 0 || fstat(fd, &info) != 0) return;
  for (int i = 0; i < files; i++) {
    if ((unsigned long long)info.st_dev == devices[i] && (unsigned long long)info.st_ino == inodes[i])
      __atomic_fetch_add(&counts[i], 1, __ATOMIC_SEQ_CST);
  }
}

__attribute__((destructor)) static void report(void) {
  const char *out = getenv("DITTO_COUNT_OPENS_OUT");
  if (!out || files <= 0) return;
  FILE *file = fopen(out, "w");
  if (!file) return;
  for (int i = 0; i < files; i++) fprintf(file, "%llu:%llu %ld\n", devices[i], inodes[i], counts[i]);
  fclose(file);
}

// Each replaces the libc function of its name: it opens as that one does, then counts.
#define MODE_ARGUMENT(flags)                                  \
  mode_t mode = 0;                                            \
  if ((flags) & (O_CREAT | O_TMPFILE)) {                      \
    va_list arguments;                                        \
    va_start(arguments, flags);                               \
    mode = (mode_t)va_arg(arguments, int);                    \
    va_end(arguments);                                        \
  }

#define COUNTED_OPEN(name)                                    \
  int name(const char *path, int flags, ...) {                \
    MODE_ARGUMENT(flags)                                      \
    static int (*real)(const char *, int, ...);               \
    if (!real) real = dlsym(RTLD_NEXT, #name);                \
    int fd = real(path, flags, mode);                         \
    note(fd);                                                 \
    return fd;                                                \
  }

#define COUNTED_OPENAT(name)                                  \
  int name(int folder, const char *path, int flags, ...) {    \
    MODE_ARGUMENT(flags)                                      \
    static int (*real)(int, const char *, int, ...);          \
    if (!real) real = dlsym(RTLD_NEXT, #name);                \
    int fd = real(folder, path, flags, mode);                 \
    note(fd);                                                 \
    return fd;                                                \
  }

COUNTED_OPEN(open)
COUNTED_OPEN(open64)
COUNTED_OPENAT(openat)
COUNTED_OPENAT(openat64)
