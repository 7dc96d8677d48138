import Exchange
import Foundation
import InterruptShims
import JSONOutput
import RunCleanup
import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How `ditto-recover` stops when it is interrupted (SIGINT, SIGTERM, SIGHUP): at any moment, it
/// removes what the run made and had not kept (private folders of snapshots and decrypted copies,
/// partial outputs: ``RunCleanup``), says so on standard error (and, under `--json`, as the one
/// JSON object when none was printed yet), and exits with 128 + the signal (130, 143, 129). A
/// library write that had not committed is rolled back by SQLite, as after any stop.
///
/// The signal handler itself only writes the signal's number to a pipe; a thread of ours reads
/// it and does the work, while the command's own thread may still be running: the outputs are
/// closed first (anything the command prints afterwards waits forever), then nothing new may be
/// made (``RunCleanup/removeEverythingAndStop()`` keeps its lock), then the process exits.
package enum Interruption {
  private final class State: @unchecked Sendable {
    let outputLock: UnsafeMutablePointer<pthread_mutex_t>
    var isJSON = false
    var hasWrittenStandardOutput = false
    /// Run first when the run is stopped (a terminal's echo turned back on), under `hookLock`.
    var stopHook: (@Sendable () -> Void)?
    let hookLock = NSLock()

    init() {
      outputLock = .allocate(capacity: 1)
      outputLock.initialize(to: pthread_mutex_t())
      pthread_mutex_init(outputLock, nil)
    }
  }

  private static let state = State()

  /// Standard output, written under the lock the interrupt handler takes.
  package static var standardOutput: TextOutput { GuardedOutput(descriptor: 1) }
  /// Standard error, written under the same lock.
  package static var standardError: TextOutput { GuardedOutput(descriptor: 2) }

  /// Installs the handlers and starts the thread that acts on them. Call it first in `main`,
  /// before anything is made; `isJSON`: whether `--json` was given (an interruption then prints
  /// one JSON object when the command has not printed its own).
  package static func install(isJSON: Bool) {
    RunCleanup.install()
    state.isJSON = isJSON
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return }
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    let readEnd = ends[0]
    let thread = Thread {
      var byte: UInt8 = 0
      while read(readEnd, &byte, 1) != 1 {
        if errno != EINTR { return }
      }
      stop(signal: Int32(byte))
    }
    thread.start()
    _ = ditto_install_interrupt_handlers(ends[1])
  }

  /// Says which leftovers of earlier runs this run removed (in the temporary directory, beside
  /// an output), one `note:` line each on standard error.
  package static func reportLeftovers() {
    for path in RunCleanup.takeLeftoversRemoved() {
      standardError.write(
        "note: removed \(path): a private folder left by an earlier run that was stopped before it could clean up (SIGKILL, a crash or a power loss)\n"
      )
    }
  }

  /// Exits with `code`, unless an interruption is being handled: then its thread exits.
  package static func exit(_ code: Int32) -> Never {
    if ditto_interrupt_signal() != 0 {
      while true { pause() }
    }
    Foundation.exit(code)
  }

  /// Sets (or clears, with nil) what runs first if the run is stopped: undoing a change to the
  /// terminal (its echo, turned off for a password).
  package static func onStop(_ hook: (@Sendable () -> Void)?) {
    state.hookLock.withLock { state.stopHook = hook }
  }

  /// The name of an interrupting signal.
  static func name(of signal: Int32) -> String {
    switch signal {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    case SIGHUP: "SIGHUP"
    case SIGPIPE: "SIGPIPE"
    default: "signal \(signal)"
    }
  }

  private static func stop(signal: Int32) -> Never {
    state.hookLock.withLock { state.stopHook }?()
    // The outputs first: whatever the command's thread prints from now on waits. A write stuck
    // on a pipe nobody reads holds the lock: after two seconds, go on without it.
    var waited = 0
    while pthread_mutex_trylock(state.outputLock) != 0, waited < 200 {
      usleep(10_000)
      waited += 1
    }
    let summary = RunCleanup.removeEverythingAndStop()
    let name = name(of: signal)
    let code = 128 + signal
    let removed =
      summary.removed.isEmpty
      ? "this run had made nothing that needed removing"
      : "removed what this run had made (\(plural(summary.removed.count, "private folder or partial output", "private folders and partial outputs")))"
    let message = "interrupted by \(name): \(removed)"
    let stderr = FileDescriptorOutput.standardError
    stderr.write("Error: \(message)\n")
    for path in summary.leftBehind {
      stderr.write("warning: could not remove \(path); the next run removes it\n")
    }
    if state.isJSON, !state.hasWrittenStandardOutput {
      var object = FailureOutput(error: message, exitCode: code)
      object.signal = name
      object.removed = summary.removed
      object.leftBehind = summary.leftBehind
      FileDescriptorOutput.standardOutput.write(JSONValue(encoding: object).rendered() + "\n")
    }
    _exit(code)
  }

  /// A file descriptor written under the interrupt handler's lock.
  private final class GuardedOutput: TextOutput {
    private let base: FileDescriptorOutput
    private let isStandardOutput: Bool

    init(descriptor: Int32) {
      base = FileDescriptorOutput(descriptor: descriptor)
      isStandardOutput = descriptor == 1
    }

    func write(_ text: String) { write(bytes: Array(text.utf8)) }

    func write(bytes: [UInt8]) {
      pthread_mutex_lock(state.outputLock)
      defer { pthread_mutex_unlock(state.outputLock) }
      if isStandardOutput, !bytes.isEmpty { state.hasWrittenStandardOutput = true }
      base.write(bytes: bytes)
      // The reader went away while SIGPIPE was ignored (a parent that ignores it): end the run
      // as the signal would, cleanup included.
      if base.lastError == EPIPE { ditto_raise_interrupt(SIGPIPE) }
    }
  }
}
