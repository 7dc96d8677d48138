/// Whether an interpolated value may appear in logs collected from a user's device.
public enum LogPrivacy: Sendable, Equatable {
  /// Counts, codes, file names and sizes.
  case `public`
  /// Anything else, and always user text (ditto texts, category titles). Printed as `<private>`.
  case `private`
}

/// A log message whose interpolated values each carry a privacy level.
///
/// Strings are private unless marked `.public`; integers are public unless marked `.private`,
/// like `os.Logger`'s `.auto` privacy.
///
/// ```swift
/// logger.notice("read \(count) dittos from \(fileName, privacy: .public)")
/// ```
public struct LogMessage: ExpressibleByStringInterpolation, Sendable, Equatable {
  /// One piece of a message.
  package enum Segment: Sendable, Equatable {
    case literal(String)
    case value(String, LogPrivacy)
  }

  /// The pieces, in order.
  package private(set) var segments: [Segment]

  public init(stringLiteral value: String) {
    segments = [.literal(value)]
  }

  public init(stringInterpolation: StringInterpolation) {
    segments = stringInterpolation.segments
  }

  /// Builds the text: private values become `<private>` when `redactingPrivate` is true.
  public func rendered(redactingPrivate: Bool = true) -> String {
    var text = ""
    for segment in segments {
      switch segment {
      case .literal(let literal): text += literal
      case .value(let value, .public): text += value
      case .value(let value, .private): text += redactingPrivate ? "<private>" : value
      }
    }
    return text
  }

  /// True when the message has at least one private value.
  public var hasPrivateValues: Bool {
    segments.contains { if case .value(_, .private) = $0 { true } else { false } }
  }

  /// Collects literal text and values with their privacy.
  public struct StringInterpolation: StringInterpolationProtocol, Sendable {
    var segments: [Segment] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
      segments.reserveCapacity(interpolationCount * 2 + 1)
    }

    public mutating func appendLiteral(_ literal: String) {
      if !literal.isEmpty { segments.append(.literal(literal)) }
    }

    /// A string value: private unless stated.
    public mutating func appendInterpolation(_ value: String, privacy: LogPrivacy = .private) {
      segments.append(.value(value, privacy))
    }

    /// An integer value: public unless stated (counts and sizes are not user content).
    public mutating func appendInterpolation<Number: BinaryInteger>(
      _ value: Number, privacy: LogPrivacy = .public
    ) {
      segments.append(.value(String(value), privacy))
    }

    /// Any other value: private unless stated.
    public mutating func appendInterpolation<Value: CustomStringConvertible>(
      _ value: Value, privacy: LogPrivacy = .private
    ) {
      segments.append(.value(value.description, privacy))
    }
  }
}
