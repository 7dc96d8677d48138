extension String {
  /// `codeUnits` decoded as `codec`, or nil when they are not well-formed (never repaired).
  ///
  /// The standard library's `String(validating:as:)` does the same from iOS 18 / macOS 15 on; this
  /// walks the platform's own decoder, which every supported OS has (iOS 17 / macOS 14).
  package static func decodingIfValid<Codec: UnicodeCodec, Units: Collection>(
    _ codeUnits: Units, as codec: Codec.Type
  ) -> String? where Units.Element == Codec.CodeUnit {
    var iterator = codeUnits.makeIterator()
    var decoder = Codec()
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: break loop
      case .error: return nil
      }
    }
    return String(decoding: codeUnits, as: Codec.self)
  }
}
