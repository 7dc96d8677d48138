import BackupReader
import FuzzSupport

// The rebuild's path checks over hostile manifest text: input = one `relativePath` (and `fileID`)
// as the manifest stores it (UTF-8; invalid sequences are repaired, as SQLite text reaches Swift).
//
// Invariant: a path the checks let through stays below its folder at the byte level (PathCheck),
// and a fileID they let through is 2 to 128 hexadecimal digits.
FuzzDriver.run { bytes in
  let text = String(decoding: bytes, as: UTF8.self)
  let entry = ManifestEntry(
    fileID: text, domain: DittoDomain.appGroupDomain, dittoDomain: .appGroup,
    relativePath: text, flags: 1)
  if entry.relativePathProblem == nil, let escape = PathCheck.escape(text) {
    FuzzDriver.fail("relativePath \(Array(text.utf8)) accepted, but it has \(escape)")
  }
  if entry.fileIDProblem == nil {
    let isHex = text.utf8.allSatisfy { $0 < 128 && Character(Unicode.Scalar($0)).isHexDigit }
    FuzzDriver.expect(
      isHex && (2...128).contains(text.utf8.count), "fileID \(Array(text.utf8)) accepted")
  }
}
