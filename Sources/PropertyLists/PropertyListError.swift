/// Why bytes could not be decoded as a property list. Every failure of the reader is one of these:
/// never a crash, never a hang.
package struct PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, as a stable code.
  package enum Kind: String, Sendable, Equatable, CaseIterable {
    /// Neither a binary (`bplist00`) nor an XML property list.
    case notAPropertyList = "not_a_property_list"
    /// An OpenStep (old ASCII) property list: no source the package reads writes one.
    case openStep = "openstep"
    /// A binary property list of another version (`bplist15`, `bplist16`, …).
    case unsupportedVersion = "unsupported_version"
    /// The file ends too early, or an offset, a count or a size points outside it.
    case truncated
    /// An object, a marker, an element or a value that is not valid where it stands.
    case malformed
    /// A kind of object the package does not read (a set, an ordered set, `null`): a documented
    /// limit of the reader.
    case unsupportedObject = "unsupported_object"
    /// An integer that does not fit in 64 signed bits (a documented limit).
    case integerOutOfRange = "integer_out_of_range"
    /// Containers nested deeper than ``PropertyListReader/maximumDepth`` (a documented limit).
    case tooDeep = "too_deep"
    /// An object that contains itself.
    case cycle
    /// More objects, or (shared objects counted each time they are reached) more values than
    /// ``PropertyListReader/maximumValues``: a documented limit.
    case tooLarge = "too_large"
    /// Text that is not valid in its encoding.
    case invalidText = "invalid_text"
    /// A UTF-16 string holding a surrogate that is not half of a pair, refused where the reader
    /// was asked to (``PropertyListReader/UnpairedSurrogates/refused``): a Swift string cannot
    /// keep it, so a file rewritten from what was read would not hold it as written.
    case unpairedSurrogate = "unpaired_surrogate"
  }

  /// What went wrong.
  package let kind: Kind
  /// Where and why, in words (offsets, element names; never the content).
  package let reason: String

  /// An error of `kind`, for `reason`.
  package init(_ kind: Kind, _ reason: String) {
    self.kind = kind
    self.reason = reason
  }

  package var description: String { reason }
}
