import SafeFiles

// WRITE-AHEAD LOG FILE (https://www.sqlite.org/walformat.html, https://www.sqlite.org/fileformat2.html#walformat)
//
// A WAL file is a 32-byte header followed by zero or more frames. Each frame is a 24-byte frame
// header followed by one page image of exactly page-size bytes. A transaction is the run of frames
// up to and including a "commit frame" (one whose second field is non-zero). Later frames for the
// same page replace earlier ones: the newest committed frame of a page is that page's content.
//
// WAL HEADER (all fields big-endian 32-bit):
//
//   OFFSET  SIZE  DESCRIPTION
//      0      4   magic: 0x377f0682 (checksum words little-endian) or 0x377f0683 (big-endian)
//      4      4   file format version: 3007000
//      8      4   database page size
//     12      4   checkpoint sequence number
//     16      4   salt-1: random, incremented with each checkpoint
//     20      4   salt-2: a different random number for each checkpoint
//     24      4   checksum-1: first part of the checksum of bytes 0..23
//     28      4   checksum-2: second part of that checksum
//
// FRAME HEADER (all fields big-endian 32-bit):
//
//   OFFSET  SIZE  DESCRIPTION
//      0      4   page number
//      4      4   for a commit frame, the database size in pages after the commit; 0 otherwise
//      8      4   salt-1, copied from the WAL header
//     12      4   salt-2, copied from the WAL header
//     16      4   checksum-1: cumulative checksum up to and including this frame
//     20      4   checksum-2: second half of the cumulative checksum
//
// CHECKSUM: over 32-bit words taken in the byte order the magic names, two at a time,
//   s0 += x0 + s1;  s1 += x1 + s0   (mod 2^32),
// starting from (0, 0) for the header's bytes 0..23, and from the header's checksum for the first
// frame. Each frame continues from the previous frame's values over its header bytes 0..7 and then
// its page data.
//
// The header is valid if and only if (1) the magic is one of the two values, (2) the version is
// 3007000, (3) the page size is a power of two from 512 to 65536 and (4) its checksum matches.
// A frame is valid if and only if (1) its salts equal the header's, (2) its page number is not
// zero, (3) its checksum matches the cumulative checksum and (4) every earlier frame is valid.
// Committed content stops at the first invalid or incomplete frame (a torn tail, a frame left from
// an older WAL generation); valid frames after the last commit frame belong to no committed
// transaction: SQLite's own recovery drops them, and so does the committed reading here.
//
// NEVER COMMITTED. A copy cut short (its last commit frame lost) or a broken checksum chain leaves
// page images SQLite will never use, which may still hold rows. They are kept apart: the frames
// after the last commit whose chain holds, then every whole frame after a break whose salts are
// this WAL's (its checksum cannot be checked once the chain is broken). Salvage reads them in a
// second pass and reports what only they hold as "in frames never committed".

/// A WAL file scanned and validated: where the newest committed image of each page is.
final class WALFile {
  /// The (private copy of the) WAL file.
  let file: ReadOnlyFile
  /// The page size from the WAL header.
  let pageSize: Int
  /// Byte offset of the page data of the newest committed frame of each page, by page number.
  private(set) var newestFrame: [Int: Int64] = [:]
  /// Every committed frame in log order (page number, byte offset of its data); older images
  /// of a page hold rows since updated or deleted.
  private(set) var committedFrames: [(page: Int, offset: Int64)] = []
  /// The database size in pages after the last commit, 0 when no frame committed.
  private(set) var databasePages = 0
  /// Valid frames after the last commit (dropped).
  private(set) var uncommittedFrames = 0
  /// Frames no commit covers, in log order: valid frames after the last commit, then whole frames
  /// with this WAL's salts after a break in the checksum chain. Never part of the committed
  /// content; salvage reads them apart.
  private(set) var neverCommitted: [(page: Int, offset: Int64)] = []
  /// True when the scan stopped at an invalid frame rather than at the end of the file.
  private(set) var stoppedAtInvalidFrame = false

  /// The WAL magic numbers; the low bit selects big-endian checksum words.
  static let magicNumbers: Set<UInt32> = [0x377F_0682, 0x377F_0683]
  static let headerSize = 32
  static let frameHeaderSize = 24

  private let bigEndianChecksums: Bool
  private let salts: (UInt32, UInt32)
  private let headerChecksum: (UInt32, UInt32)

  /// Validates the header of `file`, then scans its frames (all of them, or up to the first
  /// commit when `stopAtFirstCommit`). Nil when the header is not a valid WAL header.
  ///
  /// - Throws: ``FileAccessError`` when reading fails.
  init?(file: ReadOnlyFile, stopAtFirstCommit: Bool = false) throws(FileAccessError) {
    let header = try file.read(count: Self.headerSize, at: 0)
    guard header.count == Self.headerSize, let magic = header.uint32(at: 0),
      Self.magicNumbers.contains(magic), header.uint32(at: 4) == 3_007_000,
      let rawSize = header.uint32(at: 8), DatabaseHeader.isValidPageSize(Int(rawSize)),
      let salt1 = header.uint32(at: 16), let salt2 = header.uint32(at: 20),
      let check1 = header.uint32(at: 24), let check2 = header.uint32(at: 28)
    else { return nil }
    let bigEndian = magic & 1 == 1
    var sum: (UInt32, UInt32) = (0, 0)
    Self.accumulate(&sum, header, from: 0, to: 24, bigEndian: bigEndian)
    guard sum == (check1, check2) else { return nil }
    self.file = file
    self.pageSize = Int(rawSize)
    self.bigEndianChecksums = bigEndian
    self.salts = (salt1, salt2)
    self.headerChecksum = (check1, check2)
    try scanFrames(stopAtFirstCommit: stopAtFirstCommit)
  }

  /// The page data of the frame at `offset`, nil when it cannot be read in full.
  func frameData(at offset: Int64) throws(FileAccessError) -> [UInt8]? {
    let data = try file.read(count: pageSize, at: offset)
    return data.count == pageSize ? data : nil
  }

  // MARK: - Scanning

  private func scanFrames(stopAtFirstCommit: Bool) throws(FileAccessError) {
    let frameSize = Self.frameHeaderSize + pageSize
    // Read about 1 MiB of frames at a time: memory stays flat whatever the file size.
    let framesPerChunk = max(1, (1 << 20) / frameSize)
    var sum = headerChecksum
    var pending: [(page: Int, offset: Int64)] = []
    var offset = Int64(Self.headerSize)
    /// Where the chain broke: the first invalid frame.
    var breakOffset: Int64?
    scanning: while offset + Int64(frameSize) <= file.size {
      let chunk = try file.read(count: framesPerChunk * frameSize, at: offset)
      var position = 0
      while position + frameSize <= chunk.count {
        guard let page = chunk.uint32(at: position), page != 0,
          let commit = chunk.uint32(at: position + 4),
          chunk.uint32(at: position + 8) == salts.0, chunk.uint32(at: position + 12) == salts.1,
          let expected1 = chunk.uint32(at: position + 16),
          let expected2 = chunk.uint32(at: position + 20)
        else {
          stoppedAtInvalidFrame = true
          breakOffset = offset + Int64(position)
          break scanning
        }
        var next = sum
        Self.accumulate(
          &next, chunk, from: position, to: position + 8, bigEndian: bigEndianChecksums)
        Self.accumulate(
          &next, chunk, from: position + Self.frameHeaderSize, to: position + frameSize,
          bigEndian: bigEndianChecksums)
        guard next == (expected1, expected2) else {
          stoppedAtInvalidFrame = true
          breakOffset = offset + Int64(position)
          break scanning
        }
        sum = next
        let dataOffset = offset + Int64(position + Self.frameHeaderSize)
        pending.append((Int(page), dataOffset))
        if commit != 0 {
          for frame in pending { newestFrame[frame.page] = frame.offset }
          committedFrames.append(contentsOf: pending)
          pending.removeAll(keepingCapacity: true)
          databasePages = Int(commit)
          if stopAtFirstCommit { break scanning }
        }
        position += frameSize
      }
      guard position > 0 else { break }
      offset += Int64(position)
    }
    uncommittedFrames = pending.count
    neverCommitted = pending
    if let breakOffset { try scanPastTheBreak(from: breakOffset, frameSize: frameSize) }
  }

  /// After a break in the checksum chain: every whole frame whose salts are this WAL's and whose
  /// page number is not zero (its checksum cannot be checked any more).
  private func scanPastTheBreak(from start: Int64, frameSize: Int) throws(FileAccessError) {
    var offset = start
    let framesPerChunk = max(1, (1 << 20) / frameSize)
    while offset + Int64(frameSize) <= file.size {
      let chunk = try file.read(count: framesPerChunk * frameSize, at: offset)
      var position = 0
      while position + frameSize <= chunk.count {
        if let page = chunk.uint32(at: position), page != 0,
          chunk.uint32(at: position + 8) == salts.0, chunk.uint32(at: position + 12) == salts.1
        {
          neverCommitted.append((Int(page), offset + Int64(position + Self.frameHeaderSize)))
        }
        position += frameSize
      }
      guard position > 0 else { break }
      offset += Int64(position)
    }
  }

  /// Adds the 32-bit words of `bytes[from..<to]` to the running checksum (`to - from` is a multiple of 8).
  private static func accumulate(
    _ sum: inout (UInt32, UInt32), _ bytes: [UInt8], from start: Int, to end: Int, bigEndian: Bool
  ) {
    guard start >= 0, end <= bytes.count, start <= end else { return }
    var s0 = sum.0
    var s1 = sum.1
    bytes.withUnsafeBufferPointer { buffer in
      var index = start
      while index + 8 <= end {
        let x0: UInt32
        let x1: UInt32
        if bigEndian {
          x0 =
            UInt32(buffer[index]) << 24 | UInt32(buffer[index + 1]) << 16
            | UInt32(buffer[index + 2]) << 8 | UInt32(buffer[index + 3])
          x1 =
            UInt32(buffer[index + 4]) << 24 | UInt32(buffer[index + 5]) << 16
            | UInt32(buffer[index + 6]) << 8 | UInt32(buffer[index + 7])
        } else {
          x0 =
            UInt32(buffer[index + 3]) << 24 | UInt32(buffer[index + 2]) << 16
            | UInt32(buffer[index + 1]) << 8 | UInt32(buffer[index])
          x1 =
            UInt32(buffer[index + 7]) << 24 | UInt32(buffer[index + 6]) << 16
            | UInt32(buffer[index + 5]) << 8 | UInt32(buffer[index + 4])
        }
        s0 = s0 &+ x0 &+ s1
        s1 = s1 &+ x1 &+ s0
        index += 8
      }
    }
    sum = (s0, s1)
  }
}

@available(*, unavailable)
extension WALFile: Sendable {}
