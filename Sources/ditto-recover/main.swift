import DittoRecoverCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Foundation
#endif

/// The process environment read straight from `environ` (Foundation's `ProcessInfo` costs a few
/// hundred microseconds of start-up on Linux, a noticeable share of a typical run).
func processEnvironment() -> [String: String] {
  #if canImport(Glibc)
    return environmentFromEnviron()
  #else
    return ProcessInfo.processInfo.environment
  #endif
}

#if canImport(Glibc)
  func environmentFromEnviron() -> [String: String] {
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let pair = String(
        decoding: UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)), as: UTF8.self)
      if let equals = pair.firstIndex(of: "=") {
        environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
      }
      entry += 1
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
