import Foundation
import FuzzSupport
import PropertyLists

// The package's own property-list reader over hostile bytes (binary and XML): input = one file.
// A thrown PropertyListError is an answer; a crash, a hang or a broken invariant is a finding.
//
// Invariants: whatever reads is written again by PropertyListWriter in both formats, and each
// reads back to the same value, as that format can hold it (XML keeps whole seconds of a date and
// spells a UID as {CF$UID: n}, which reads back as a UID); a keyed archive's root, if there is
// one, resolves every key without trapping.
FuzzDriver.run { bytes in
  let value: PropertyListValue
  do {
    value = try PropertyListReader.decode(bytes).value
  } catch {
    return
  }
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
