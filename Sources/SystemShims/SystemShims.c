#define _GNU_SOURCE
#include "SystemShims.h"
#include <errno.h>
#include <unistd.h>
#include <fcntl.h>
#include <stdio.h>

long ditto_copy_file_range(int in, long long *in_offset, int out, long long *out_offset, long length) {
#if defined(__linux__)
  off_t from = (off_t)*in_offset;
  off_t to = (off_t)*out_offset;
  ssize_t copied = copy_file_range(in, &from, out, &to, (size_t)length, 0);
  if (copied > 0) {
    *in_offset = (long long)from;
    *out_offset = (long long)to;
  }
  return (long)copied;
#else
  (void)in; (void)in_offset; (void)out; (void)out_offset; (void)length;
  errno = ENOSYS;
  return -1;
#endif
}

int ditto_rename_noreplace(const char *from, const char *to) {
#if defined(__linux__) && defined(RENAME_NOREPLACE)
  return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#elif defined(__APPLE__)
  return renamex_np(from, to, RENAME_EXCL);
#else
  (void)from; (void)to;
  errno = ENOSYS;
  return -1;
#endif
}

