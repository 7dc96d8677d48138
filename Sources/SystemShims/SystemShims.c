#define _GNU_SOURCE
#include "SystemShims.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
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

static volatile sig_atomic_t interrupt_signal = 0;
static int interrupt_notify_fd = -1;

static void interrupt_handler(int signal_number) {
  int saved = errno;
  if (interrupt_signal == 0) interrupt_signal = signal_number;
  unsigned char byte = (unsigned char)signal_number;
  (void)write(interrupt_notify_fd, &byte, 1);
  errno = saved;
}

int ditto_install_interrupt_handlers(int notify_fd) {
  interrupt_notify_fd = notify_fd;
  struct sigaction action;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  action.sa_handler = interrupt_handler;
  // SIGPIPE: a reader that went away (`… | head -1`) ends the run like Ctrl-C, cleanup included.
  const int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
  sigset_t unblocked;
  sigemptyset(&unblocked);
  for (unsigned index = 0; index < sizeof signals / sizeof signals[0]; index++) {
    struct sigaction old;
    if (sigaction(signals[index], NULL, &old) != 0) return -1;
    // Ignored when the program started (nohup, a background job): left ignored, as the shell
    // asked.
    if (old.sa_handler == SIG_IGN) continue;
    if (sigaction(signals[index], &action, NULL) != 0) return -1;
    sigaddset(&unblocked, signals[index]);
  }
  // A parent may start us with them blocked (Foundation's Process does): they must arrive.
  return pthread_sigmask(SIG_UNBLOCK, &unblocked, NULL) == 0 ? 0 : -1;
}

int ditto_interrupt_signal(void) { return interrupt_signal; }

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

void ditto_raise_interrupt(int signal_number) {
  if (interrupt_notify_fd < 0) return;
  interrupt_handler(signal_number);
}
