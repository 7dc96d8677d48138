#include "InterruptShims.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

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

void ditto_raise_interrupt(int signal_number) {
  if (interrupt_notify_fd < 0) return;
  interrupt_handler(signal_number);
}
