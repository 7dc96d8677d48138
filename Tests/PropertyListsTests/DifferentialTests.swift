import Foundation
import PropertyLists
import Testing

/// The package's reader against Foundation's parser, over the reader's fuzz corpus
/// (`Fuzz/corpus/property-list`: every source of property lists the package reads, and what
/// fuzzing found): equal values wherever both accept; where only ours refuses, the refusal is one
/// of its documented limits, listed here.
@Suite struct DifferentialTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/corpus/property-list")

  /// What only our reader refuses, on purpose: objects no source we read writes (sets, null,
  /// dictionary keys that are not strings), integers beyond 64 signed bits, nesting beyond the
  /// bound, expansion beyond the bound, and OpenStep text (where Foundation reads a bare word, or
  /// nothing, as a property list).
  static let documentedLimits: Set<PropertyListError.Kind> = [
    .unsupportedObject, .integerOutOfRange, .tooDeep, .tooLarge, .openStep,
  ]

  /// Equal, with NaN equal to NaN (a real NaN is a value of the file like any other).
  static func same(_ lhs: PropertyListValue, _ rhs: PropertyListValue) -> Bool {
    switch (lhs, rhs) {
    case (.real(let left), .real(let right)): return left == right || (left.isNaN && right.isNaN)
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { same($0, $1) }
    case (.dictionary(let left), .dictionary(let right)):
      return left.count == right.count
        && left.allSatisfy { key, value in right[key].map { same(value, $0) } ?? false }
    default: return lhs == rhs
    }
  }

  @Test func ourReaderAgreesWithFoundationOverTheCorpus() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
    #expect(files.count >= 400, "the corpus is missing: \(Self.corpus.path)")
    var bothAccept = 0
    var onlyFoundationRefuses = 0
    for name in files {
      let bytes = try [UInt8](Data(contentsOf: Self.corpus.appendingPathComponent(name)))
      var ours: PropertyListValue?
      var ourError: PropertyListError?
      do {
        ours = try PropertyListReader.decode(bytes).value
      } catch {
        ourError = error
      }
      // swift-corelibs-foundation crashes bridging a set (found by fuzzing): never hand it one.
      if ourError?.kind == .unsupportedObject, bytes.starts(with: Array("bplist".utf8)) { continue }
      var theirs: Any?
      do {
        theirs = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil)
      } catch {
        theirs = nil
      }
      switch (ours, theirs) {
      case (let ours?, let theirs?):
        bothAccept += 1
        let converted = FoundationValue.convert(theirs)
        #expect(
          converted.map { Self.same(ours, $0) } == true,
          "\(name): ours \(ours) ≠ Foundation's \(theirs)")
      case (nil, let theirs?):
        // A file that starts "bplist" but is no binary list: Foundation falls back to OpenStep
        // text (reading "bplist…" as a word); ours says what is wrong with the binary list.
        if bytes.starts(with: Array("bplist".utf8)), "\(theirs)".contains("bplist") { continue }
        let kind = ourError?.kind
        #expect(
          kind.map(Self.documentedLimits.contains) == true,
          "\(name): only ours refuses, for \(ourError?.kind.rawValue ?? "?"): \(ourError?.reason ?? "")"
        )
      case (_?, nil):
        onlyFoundationRefuses += 1
      case (nil, nil):
        break
      }
    }
    #expect(bothAccept >= 100, "too few inputs both parsers accept: \(bothAccept)")
    print(
      "differential: \(files.count) inputs, \(bothAccept) read by both, \(onlyFoundationRefuses) refused only by Foundation"
    )
  }
}

/// Whatever the reader reads from the corpus, the writer writes again in both formats, and it
/// reads back the same (the fuzz target's invariant, over the committed corpus).
@Suite struct RoundTripTests {
  @Test func everyCorpusInputThatReadsIsWrittenAndReadBack() throws {
    let files = try FileManager.default.contentsOfDirectory(
      atPath: DifferentialTests.corpus.path)
    var read = 0
    for name in files {
      let bytes = try [UInt8](
        Data(contentsOf: DifferentialTests.corpus.appendingPathComponent(name)))
      guard let value = try? PropertyListReader.decode(bytes).value else { continue }
      read += 1
      for format in [PropertyListFormat.binary, .xml] {
        let again = try PropertyListReader.decode(PropertyListWriter.encode(value, format: format))
        #expect(PropertyListRoundTrip.same(again.value, value, as: format), "\(name) in \(format)")
      }
    }
    #expect(read >= 100)
  }

  @Test func datesFarFromNowAreWrittenInXMLAndReadBack() throws {
    for seconds in [-62_135_596_800.0 - 86_400 * 400, 0, 1e9, 300_000_000_000, -300_000_000_000] {
      let value = PropertyListValue.date(Date(timeIntervalSinceReferenceDate: seconds))
      let xml = PropertyListWriter.encode(value, format: .xml)
      #expect(try PropertyListReader.decode(xml).value == value, "\(seconds)")
    }
  }
}
