import ByteStreams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension OutcomeScanner {
  /// What reading a zip of captures found.
  package struct ZipReading: Sendable {
    /// The inputs read, one device each (`captures.zip:tester-3.log`).
    package var inputs: [String] = []
    /// Entries not read, each with why (a damaged entry, a log archive inside the zip).
    package var skipped: [String] = []
  }

  /// Whether `path` begins as a zip archive (told by content).
  package static func isZip(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
    var head = [UInt8](repeating: 0, count: 4)
    let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 4) }
    return count == 4 && ZipReader.looksLikeZip(head)
  }

  /// Reads every file of the zip archive at `path` as one capture (one device each, named
  /// `ZIP:ENTRY`), streamed from the archive (nothing is unpacked to disk). Folders, hidden files
  /// and macOS's `__MACOSX` copies are left out; a damaged entry is read up to the damage and is its
  /// device's problem.
  ///
  /// - Throws: ``ZipError`` when the archive itself cannot be read.
  package mutating func scanZip(path: String) throws(ZipError) -> ZipReading {
    var reading = ZipReading()
    let shown = naming(path)
    for entry in try ZipReader.entries(path: path) {
      let parts = entry.name.split(separator: "/")
      guard !entry.isFolder, !parts.contains(where: { $0.hasPrefix(".") || $0 == "__MACOSX" })
      else { continue }
      if parts.contains(where: { $0.hasSuffix(".logarchive") }) || entry.name.hasSuffix(".tracev3")
      {
        if !reading.skipped.contains(where: {
          $0.hasPrefix("\(shown):") && $0.contains(".logarchive")
        }) {
          reading.skipped.append(
            "\(shown):\(entry.name): part of a log archive inside a zip: unzip it and give the folder"
          )
        }
        continue
      }
      let name = "\(shown):\(entry.name)"
      beginInput(name: name)
      do throws(ZipError) {
        try ZipReader.read(entry, path: path) { consume($0) }
      } catch {
        archiveProblem = .damagedArchive(error.reason)
      }
      endInput()
      reading.inputs.append(name)
    }
    return reading
  }
}
