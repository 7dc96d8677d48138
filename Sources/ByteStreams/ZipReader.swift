// ZIP, READ BY THIS PACKAGE'S OWN CODE (PKWARE APPNOTE: the central directory, local headers,
// stored and deflated entries)
//
//   PART                 WHAT IS READ AND CHECKED
//   end of central dir   found in the last 64 KiB + 22 bytes; entry count and directory offset
//                        (zip64 values, 0xFFFFFFFF, are refused by name)
//   central directory    per entry: method, CRC-32, sizes, name, local header offset
//   local header         its name and extra field skipped; data read from the file in pieces
//   data                 stored (0) or deflate (8, our RFC 1951 decoder); the CRC-32 must match
//
// The archive is read from its file, never unpacked to disk, an entry at a time.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a zip archive or one of its entries could not be read.
package struct ZipError: Error, Equatable, Sendable {
  package let reason: String
}

/// One file of a zip archive.
package struct ZipEntry: Sendable, Equatable {
  /// Its path inside the archive.
  package var name: String
  package var method: UInt16
  package var crc: UInt32
  package var compressedSize: Int
  package var size: Int
  package var localHeaderOffset: Int

  /// A folder entry (its name ends with `/`).
  package var isFolder: Bool { name.hasSuffix("/") }
}

/// Reads zip archives from their file.
package enum ZipReader {
  /// Whether `head` (the first bytes of a file) begins a zip archive.
  package static func looksLikeZip(_ head: some Collection<UInt8>) -> Bool {
    let first = Array(head.prefix(4))
    return first == [0x50, 0x4B, 0x03, 0x04] || first == [0x50, 0x4B, 0x05, 0x06]
  }

  /// The entries of the archive at `path`, in the central directory's order.
  package static func entries(path: String) throws(ZipError) -> [ZipEntry] {
    let file = try File(path)
    defer { file.close() }
    let size = file.size
    let tail = min(size, 65_535 + 22)
    let end = try file.read(at: size - tail, count: tail)
    var found: Int?
    var index = end.count - 22
    while index >= 0 {
      if end[index] == 0x50, end[index + 1] == 0x4B, end[index + 2] == 0x05, end[index + 3] == 0x06
      {
        found = index
        break
      }
      index -= 1
    }
    guard let at = found else {
      throw ZipError(reason: "no end of central directory: not a zip archive, or cut short")
    }
    let count = Int(u16(end, at + 10))
    let directorySize = Int(u32(end, at + 12))
    let directoryOffset = Int(u32(end, at + 16))
    guard count != 0xFFFF, directoryOffset != 0xFFFF_FFFF else {
      throw ZipError(reason: "a zip64 archive, which this reader does not read")
    }
    guard directoryOffset + directorySize <= size else {
      throw ZipError(reason: "the central directory lies past the end of the file")
    }
    let directory = try file.read(at: directoryOffset, count: directorySize)
    var entries: [ZipEntry] = []
    var offset = 0
    for _ in 0..<count {
      guard offset + 46 <= directory.count, u32(directory, offset) == 0x0201_4B50 else {
        throw ZipError(reason: "the central directory is damaged (entry \(entries.count + 1))")
      }
      let nameLength = Int(u16(directory, offset + 28))
      let extraLength = Int(u16(directory, offset + 30))
      let commentLength = Int(u16(directory, offset + 32))
      guard offset + 46 + nameLength <= directory.count else {
        throw ZipError(reason: "the central directory is damaged (entry \(entries.count + 1))")
      }
      let entry = ZipEntry(
        name: String(
          decoding: directory[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self),
        method: u16(directory, offset + 10), crc: u32(directory, offset + 16),
        compressedSize: Int(u32(directory, offset + 20)), size: Int(u32(directory, offset + 24)),
        localHeaderOffset: Int(u32(directory, offset + 42)))
      guard entry.compressedSize != 0xFFFF_FFFF, entry.size != 0xFFFF_FFFF else {
        throw ZipError(reason: "\(entry.name): a zip64 entry, which this reader does not read")
      }
      entries.append(entry)
      offset += 46 + nameLength + extraLength + commentLength
    }
    return entries
  }

  /// Reads `entry` of the archive at `path`, handing its bytes over in pieces.
  package static func read(
    _ entry: ZipEntry, path: String, emit: ([UInt8]) -> Void
  ) throws(ZipError) {
    let file = try File(path)
    defer { file.close() }
    let header = try file.read(at: entry.localHeaderOffset, count: 30)
    guard header.count == 30, u32(header, 0) == 0x0403_4B50 else {
      throw ZipError(reason: "\(entry.name): its local header is damaged")
    }
    var position =
      entry.localHeaderOffset + 30 + Int(u16(header, 26)) + Int(u16(header, 28))
    var left = entry.compressedSize
    guard position + left <= file.size else {
      throw ZipError(reason: "\(entry.name): its data lies past the end of the file")
    }
    switch entry.method {
    case 0:
      var crc = CRC32()
      while left > 0 {
        let piece = try file.read(at: position, count: min(left, 1 << 20))
        crc.update(piece)
        emit(piece)
        position += piece.count
        left -= piece.count
      }
      guard crc.value == entry.crc else {
        throw ZipError(reason: "\(entry.name): bad CRC-32, the data is damaged")
      }
    case 8:
      var inflater = GzipDecoder(rawDeflate: true)
      func damaged(_ error: GzipError) -> ZipError {
        ZipError(reason: "\(entry.name): deflate data damaged (\(error.reason))")
      }
      while left > 0, !inflater.isFinished {
        let piece = try file.read(at: position, count: min(left, 1 << 20))
        do throws(GzipError) { try inflater.feed(piece, emit: emit) } catch { throw damaged(error) }
        position += piece.count
        left -= piece.count
      }
      do throws(GzipError) { try inflater.finish(emit: emit) } catch { throw damaged(error) }
      guard inflater.checksum == entry.crc else {
        throw ZipError(reason: "\(entry.name): bad CRC-32, the data is damaged")
      }
    default:
      throw ZipError(
        reason: "\(entry.name): compression method \(entry.method), which this reader does not read"
      )
    }
  }

  private static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
  }

  private static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
      | UInt32(bytes[at + 3]) << 24
  }

  /// A file read with `pread`.
  private struct File {
    let descriptor: Int32
    let size: Int

    init(_ path: String) throws(ZipError) {
      descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw ZipError(reason: "cannot be opened (\(String(cString: strerror(errno))))")
      }
      var status = stat()
      guard fstat(descriptor, &status) == 0 else {
        closeDescriptor(descriptor)
        throw ZipError(reason: "cannot be examined")
      }
      size = Int(status.st_size)
    }

    func read(at offset: Int, count: Int) throws(ZipError) -> [UInt8] {
      var bytes = [UInt8](repeating: 0, count: max(0, count))
      var done = 0
      while done < count {
        let got = bytes.withUnsafeMutableBytes { buffer in
          pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
        }
        if got < 0, errno == EINTR { continue }
        guard got > 0 else {
          throw ZipError(reason: "cannot be read at offset \(offset + done)")
        }
        done += got
      }
      return bytes
    }

    func close() { closeDescriptor(descriptor) }
  }
}

#if canImport(Glibc)
  private func closeDescriptor(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
#elseif canImport(Darwin)
  private func closeDescriptor(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
#endif
