#ifndef DITTO_INTERRUPT_SHIMS_H
#define DITTO_INTERRUPT_SHIMS_H

// Signal handling for ditto-recover only (a CLI-only target: the app's libraries never install a
// handler).

/// Installs handlers for SIGINT, SIGTERM, SIGHUP and SIGPIPE (a closed pipe) (SA_RESTART) that do only async-signal-safe
/// work: remember the first such signal and write its number, as one byte, to `notify_fd` (the
/// write end of a pipe a thread of the program reads). A signal ignored when the program started
/// (nohup, a background job) stays ignored; the others are unblocked in the calling thread (call
/// it from the main thread before any other thread starts). Returns 0, or -1 with errno set.
int ditto_install_interrupt_handlers(int notify_fd);

/// The first of SIGINT, SIGTERM, SIGHUP and SIGPIPE received since
/// ditto_install_interrupt_handlers, or 0.
int ditto_interrupt_signal(void);

/// Does what the handler does for `signal_number`, from ordinary code: a write that failed with
/// EPIPE while SIGPIPE was ignored (inherited ignored) ends the run the same way.
void ditto_raise_interrupt(int signal_number);

#endif
