import CLibFuzzer
import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs libFuzzer with a Swift closure as the fuzz target.
///
/// Each fuzzer's `main.swift` is one call: `FuzzDriver.run { bytes in … }`. libFuzzer parses the
/// command line (`-max_total_time=`, corpus folders, `-merge=1`, …), calls the closure once per
/// input, and exits. A trap, a Swift runtime error or an AddressSanitizer report inside the closure
/// is a finding; a thrown and caught error is not.
///
/// Why not libFuzzer's own `main`: SwiftPM links every executable with `main` defined as the
/// module's entry point (`--defsym main=<module>_main`), so the entry point must exist; it hands
/// the command line to `LLVMFuzzerRunDriver`, libFuzzer's documented API for programs with their
/// own main.
public enum FuzzDriver {
  /// Hands control to libFuzzer; never returns.
  public static func run(_ body: @escaping ([UInt8]) -> Void) -> Never {
    target = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
  }

  /// Reports a broken invariant as a finding: prints `message` and aborts, so libFuzzer saves the
  /// input.
  public static func fail(_ message: String) -> Never {
    printError("fuzz invariant broken: \(message)")
    abort()
  }

  /// Reports a broken invariant when `condition` is false (see ``fail(_:)``).
  /// Runs the async `body` (the engine's app-facing entry points are async) to its end on a task
  /// and returns its value: the fuzz loop itself is synchronous.
  public static func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
      box.value = await body()
      done.signal()
    }
    done.wait()
    guard let value = box.value else { fail("the task ended without a value") }
    return value
  }

  public static func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
  }
}

/// The closure given to ``FuzzDriver/run(_:)``; set once, before libFuzzer starts.
nonisolated(unsafe) private var target: (([UInt8]) -> Void)?

/// libFuzzer's per-input callback. Also exported under the conventional name, so the libFuzzer
/// `main` that `-sanitize=fuzzer` links (and never runs) has its symbol resolved.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
  target?(bytes)
  return 0
}

/// Writes `message` and a line break to standard error, unbuffered (the next step may be
/// `abort()`).
func printError(_ message: String) {
  var line = Array((message + "\n").utf8)[...]
  while !line.isEmpty {
    let written = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    if written < 0 && errno == EINTR { continue }
    if written <= 0 { return }
    line = line.dropFirst(written)
  }
}

/// A value handed from a task to the waiting fuzz loop (the semaphore orders the two).
private final class ResultBox<T>: @unchecked Sendable {
  var value: T?
}
