import Foundation
import FuzzSupport
import PropertyLists

// The package's own property-list reader over hostile bytes (binary and XML): input = one file.
// A thrown PropertyListError is an answer; a crash, a hang or a broken invariant is a finding.
//
// Invariants: whatever reads is written again by PropertyListWriter in both formats, and each
// reads back to the same value, as that format can hold it (XML keeps whole seconds of a date and
// spells a UID as {CF$UID: n}, which reads back as a UID); a keyed archive's root, if there is
// one, resolves every key without trapping. The walk a state dump is written from
// (BinaryPropertyListWalk) takes only what the decoder reads, and hands on no more values than it.
FuzzDriver.run { bytes in
  var counter = CountingVisitor()
  let walked = BinaryPropertyListWalk.walk(bytes, into: &counter)
  let value: PropertyListValue
  do {
    value = try PropertyListReader.decode(bytes).value
  } catch {
    FuzzDriver.expect(!walked, "the walk took a file the decoder refuses: \(error)")
    return
  }
  FuzzDriver.expect(
    counter.values <= PropertyListReader.maximumValues,
    "the walk handed on \(counter.values) values")
  for format in [PropertyListFormat.binary, .xml] {
    let written = PropertyListWriter.encode(value, format: format)
    do {
      let again = try PropertyListReader.decode(written)
      FuzzDriver.expect(again.format == format, "wrote \(format), read \(again.format)")
      FuzzDriver.expect(
        PropertyListRoundTrip.same(again.value, value, as: format),
        "\(format) did not read back the same")
    } catch {
      FuzzDriver.fail("what the writer wrote (\(format)) does not read: \(error)")
    }
  }
  if let archive = try? KeyedArchive(value) {
    for key in archive.root.keys { _ = archive[key] }
  }
}

/// Counts what a walk hands on.
struct CountingVisitor: BinaryPropertyListVisitor {
  var values = 0
  mutating func beginArray() { values += 1 }
  mutating func endArray() {}
  mutating func beginDictionary() { values += 1 }
  mutating func endDictionary() {}
  mutating func nextItem() {}
  mutating func key(_ utf8: UnsafeBufferPointer<UInt8>) { values += 1 }
  mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) { values += 1 }
  mutating func topString(_ utf8: UnsafeBufferPointer<UInt8>) { values += 1 }
  mutating func integer(_ value: Int64) { values += 1 }
  mutating func real(_ value: Double) { values += 1 }
  mutating func bool(_ value: Bool) { values += 1 }
  mutating func date(sinceReferenceDate seconds: Double) { values += 1 }
  mutating func data(_ bytes: ArraySlice<UInt8>) { values += 1 }
  mutating func uid(_ value: UInt32) { values += 1 }
}
