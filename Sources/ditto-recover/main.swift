import DittoRecoverCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Foundation
#endif

/// The `DITTO_…` variables of the process environment (the only ones the tool reads), straight from
/// `environ` on Linux: Foundation's `ProcessInfo`, or a dictionary of every variable, costs a few
/// hundred microseconds of start-up, a noticeable share of a typical run.
func processEnvironment() -> [String: String] {
  #if canImport(Glibc)
    return environmentFromEnviron()
  #else
    return ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("DITTO_") }
  #endif
}

#if canImport(Glibc)
  func environmentFromEnviron() -> [String: String] {
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      entry += 1
      guard strncmp(pointer, "DITTO_", 6) == 0 else { continue }
      let pair = String(cString: pointer)
      if let equals = pair.firstIndex(of: "=") {
        environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
      }
    }
    return environment
  }
#endif

exit(
  Tool.main(
    Array(CommandLine.arguments.dropFirst()),
    context: ToolContext(
      standardOutput: FileDescriptorOutput.standardOutput,
      standardError: FileDescriptorOutput.standardError,
      environment: processEnvironment())))
