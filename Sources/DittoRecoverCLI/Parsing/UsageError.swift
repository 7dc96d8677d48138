/// A command line that cannot be run: printed with the usage line, exit code 64.
package struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  package let message: String

  package init(_ message: String) {
    self.message = message
  }

  package var description: String { message }

  static func unknownOption(_ option: String) -> UsageError {
    UsageError("Unknown option '\(option)'")
  }
  static func missingValue(_ spec: OptionSpec) -> UsageError {
    UsageError("Missing value for '\(spec.synopsis)'")
  }
  static func missing(_ spec: OptionSpec) -> UsageError {
    switch spec.kind {
    case .positional: UsageError("Missing expected argument '\(spec.synopsis)'")
    case .option, .flag: UsageError("Missing expected argument '\(spec.synopsis)'")
    }
  }
  static func unexpected(_ argument: String) -> UsageError {
    UsageError("Unexpected argument '\(argument)'")
  }
  static func invalidValue(_ value: String, for spec: OptionSpec) -> UsageError {
    UsageError("The value '\(value)' is invalid for '\(spec.synopsis)'")
  }
}
