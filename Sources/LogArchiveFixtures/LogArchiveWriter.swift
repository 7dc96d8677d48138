import ByteStreams
import Foundation

/// Writes unified-log archives with entries we choose, to the published layout (libyal's
/// document): a header chunk, a catalog, ChunkSets (LZ4 or stored) of firehose and oversize
/// chunks, a timesync file, the process's uuidtext file. For tests, seeds and benchmarks: what the
/// reader reads must be exactly what was written.
package struct LogArchiveWriter {
  /// One entry to write.
  package struct Entry: Sendable, Equatable {
    /// Nanoseconds after the boot's wall clock.
    package var offsetNanoseconds: UInt64
    package var pid: UInt32
    package var thread: UInt64
    /// 0x00 Default, 0x01 Info, 0x02 Debug, 0x10 Error, 0x11 Fault.
    package var level: UInt8
    /// nil: no subsystem.
    package var subsystem: String?
    package var category: String
    /// Logged as one `%{public}s` argument (or `%{private}s` when `isPrivate`).
    package var message: String
    package var isPrivate: Bool

    package init(
      offsetNanoseconds: UInt64, pid: UInt32 = 1234, thread: UInt64 = 0x1A2B,
      level: UInt8 = 0x00, subsystem: String? = "io.kern.ditto",
      category: String = "LegacyDataMigrator", message: String, isPrivate: Bool = false
    ) {
      self.offsetNanoseconds = offsetNanoseconds
      self.pid = pid
      self.thread = thread
      self.level = level
      self.subsystem = subsystem
      self.category = category
      self.message = message
      self.isPrivate = isPrivate
    }

    /// `log show`'s name for the level.
    package var messageType: String {
      [0x00: "Default", 0x01: "Info", 0x02: "Debug", 0x10: "Error", 0x11: "Fault"][level]
        ?? "Default"
    }
  }

  /// How a ChunkSet is stored.
  package enum Compression: Sendable { case lz4, stored }

  /// One state dump to write (a StateDump chunk, after the entries' ChunkSets).
  package struct StateDump: Sendable, Equatable {
    package var offsetNanoseconds: UInt64
    package var pid: UInt32
    package var ttl: UInt8
    /// 1 a serialized object (binary property list), 2 a protocol buffer, 3 custom.
    package var dataType: UInt32
    /// The decoder's library and type (custom data), each at most 63 bytes.
    package var library: String
    package var decoder: String
    package var title: String
    package var data: [UInt8]
    /// The size the chunk declares (nil: the data's).
    package var declaredSize: UInt32?

    package init(
      offsetNanoseconds: UInt64, pid: UInt32 = 1234, ttl: UInt8 = 14, dataType: UInt32,
      library: String = "", decoder: String = "", title: String, data: [UInt8],
      declaredSize: UInt32? = nil
    ) {
      self.offsetNanoseconds = offsetNanoseconds
      self.pid = pid
      self.ttl = ttl
      self.dataType = dataType
      self.library = library
      self.decoder = decoder
      self.title = title
      self.data = data
      self.declaredSize = declaredSize
    }
  }

  package var timebase: (numerator: UInt32, denominator: UInt32)
  /// Wall clock of the boot, nanoseconds since 1970.
  package var bootWallClock: Int64
  package var bootUUID: [UInt8]
  package var imageUUID: [UInt8]
  package var imagePath: String
  package var hardwareModel: String
  package var build: String
  /// Entries per firehose chunk (several chunks make several ChunkSets).
  package var entriesPerChunkSet: Int

  /// ARM (125/3) or Intel (1/1) timebase.
  package init(
    arm: Bool = true, bootWallClock: Int64 = 1_796_062_531_250_000_000, seed: UInt8 = 1,
    entriesPerChunkSet: Int = 16
  ) {
    timebase = arm ? (125, 3) : (1, 1)
    self.bootWallClock = bootWallClock
    bootUUID = (0..<16).map { UInt8(truncatingIfNeeded: Int($0) * 7 + Int(seed)) }
    imageUUID = (0..<16).map { UInt8(truncatingIfNeeded: Int($0) * 13 + Int(seed) + 1) }
    imagePath = "/private/var/containers/Bundle/Application/Ditto.app/Ditto"
    hardwareModel = "D93AP"
    build = "22B83"
    self.entriesPerChunkSet = entriesPerChunkSet
  }

  /// The format string every entry uses, and its offset in the uuidtext file.
  static let publicFormat = "%{public}s"
  static let privateFormat = "%{private}s"

  /// The uuidtext file of the image: two strings.
  package func uuidText() -> [UInt8] {
    var strings = Array(Self.publicFormat.utf8) + [0] + Array(Self.privateFormat.utf8) + [0]
    while strings.count % 4 != 0 { strings.append(0) }
    var bytes: [UInt8] = []
    bytes += le32(0x6677_8899) + le32(2) + le32(1) + le32(1)
    bytes += le32(0x1000) + le32(UInt32(strings.count))
    bytes += strings
    bytes += Array(imagePath.utf8) + [0]
    return bytes
  }

  /// `uuidtext` folder and file name of the image (`7E/F563…`).
  package var uuidTextPath: String {
    let hex = imageUUID.map { String(format: "%02X", $0) }.joined()
    return String(hex.prefix(2)) + "/" + String(hex.dropFirst(2))
  }

  /// A timesync file: the boot record and one sync record at continuous time 0.
  package func timesync() -> [UInt8] {
    var bytes: [UInt8] = []
    bytes += le16(0xBBB0) + le16(48) + le32(0) + bootUUID
    bytes += le32(timebase.numerator) + le32(timebase.denominator)
    bytes += le64(UInt64(bitPattern: bootWallClock)) + le32(0) + le32(0)
    bytes += le16(0x7354) + le16(32) + le32(0) + le64(0)
    bytes += le64(UInt64(bitPattern: bootWallClock)) + le32(0) + le32(0)
    return bytes
  }

  /// Continuous time of `nanoseconds` after boot (exact when the timebase divides it).
  func ticks(_ nanoseconds: UInt64) -> UInt64 {
    nanoseconds * UInt64(timebase.denominator) / UInt64(timebase.numerator)
  }

  /// A tracev3 file holding `entries`.
  package func traceV3(
    _ entries: [Entry], stateDumps: [StateDump] = [], compression: Compression = .lz4
  ) -> [UInt8] {
    var file = chunk(tag: 0x1000, subtag: 0x11, header())
    // The catalog: processes by pid, subsystems by (subsystem, category).
    var strings: [UInt8] = []
    var stringOffsets: [String: Int] = [:]
    func offset(_ text: String) -> Int {
      if let known = stringOffsets[text] { return known }
      stringOffsets[text] = strings.count
      strings += Array(text.utf8) + [0]
      return stringOffsets[text]!
    }
    let pids = Array(Set(entries.map(\.pid) + stateDumps.map(\.pid))).sorted()
    var subsystemIDs: [UInt32: [String: UInt16]] = [:]
    for entry in entries {
      guard let subsystem = entry.subsystem else { continue }
      let key = subsystem + "\u{0}" + entry.category
      if subsystemIDs[entry.pid]?[key] == nil {
        subsystemIDs[entry.pid, default: [:]][key] = UInt16(subsystemIDs[entry.pid]?.count ?? 0)
        _ = offset(subsystem)
        _ = offset(entry.category)
      }
    }
    while strings.count % 8 != 0 { strings.append(0) }
    let uuids = imageUUID
    var processes: [UInt8] = []
    for (index, pid) in pids.enumerated() {
      var process: [UInt8] = []
      process += le16(UInt16(index)) + le16(0) + le16(0) + le16(0xFFFF)
      process += le64(UInt64(pid)) + le32(UInt32(index + 1)) + le32(pid) + le32(501) + le32(0)
      process += le32(1) + le32(0)
      process += le32(0x10000) + le32(0) + le16(0) + le32(0x4000) + le16(0)
      let ids = (subsystemIDs[pid] ?? [:]).sorted { $0.value < $1.value }
      process += le32(UInt32(ids.count)) + le32(0)
      for (key, id) in ids {
        let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
        process +=
          le16(id) + le16(UInt16(stringOffsets[parts[0]]!))
          + le16(UInt16(stringOffsets[parts[1]]!))
      }
      while process.count % 8 != 0 { process.append(0) }
      processes += process
    }
    var catalog: [UInt8] = []
    catalog += le16(UInt16(uuids.count)) + le16(UInt16(uuids.count + strings.count))
    catalog +=
      le16(UInt16(pids.count)) + le16(UInt16(uuids.count + strings.count + processes.count))
    catalog += le16(0) + [UInt8](repeating: 0, count: 6) + le64(0)
    catalog += uuids + strings + processes
    file += chunk(tag: 0x600B, subtag: 0x11, catalog)
    // ChunkSets.
    var index = 0
    while index < entries.count {
      let slice = Array(entries[index..<min(entries.count, index + entriesPerChunkSet)])
      index += slice.count
      var inner: [UInt8] = []
      var oversize: [[UInt8]] = []
      for body in firehose(slice, pids: pids, subsystemIDs: subsystemIDs, oversize: &oversize) {
        inner += chunk(tag: 0x6001, subtag: 0, body)
      }
      for body in oversize { inner += chunk(tag: 0x6002, subtag: 0, body) }
      file += chunk(tag: 0x600D, subtag: 0, Self.compress(inner, compression))
    }
    if !stateDumps.isEmpty {
      var inner: [UInt8] = []
      for dump in stateDumps {
        var body: [UInt8] = []
        body += le64(UInt64(dump.pid)) + le32(UInt32(pids.firstIndex(of: dump.pid)! + 1))
        body += [dump.ttl, 0, 0, 0] + le64(ticks(dump.offsetNanoseconds)) + le64(0)
        body += imageUUID + le32(dump.dataType) + le32(dump.declaredSize ?? UInt32(dump.data.count))
        body += fixed(dump.library, 64) + fixed(dump.decoder, 64) + fixed(dump.title, 64)
        body += dump.data
        inner += chunk(tag: 0x6003, subtag: 0, body)
      }
      file += chunk(tag: 0x600D, subtag: 0, Self.compress(inner, compression))
    }
    return file
  }

  private func header() -> [UInt8] {
    var data: [UInt8] = []
    data += le32(timebase.numerator) + le32(timebase.denominator) + le64(0)
    data += le32(UInt32(truncatingIfNeeded: bootWallClock / 1_000_000_000)) + le32(0) + le32(0)
    data += le32(UInt32(bitPattern: 480)) + le32(0) + le32(1)
    data += le32(0x6100) + le32(8) + le64(0)
    data += le32(0x6101) + le32(56) + le32(0) + le32(0)
    data += fixed(build, 16) + fixed(hardwareModel, 32)
    data += le32(0x6102) + le32(24) + bootUUID + le32(77) + le32(0)
    data += le32(0x6103) + le32(48) + fixed("/var/db/timezone/zoneinfo/America/Los_Angeles", 48)
    return data
  }

  /// Items larger than this go to an oversize chunk.
  package static let oversizeThreshold = 1000

  private func firehose(
    _ entries: [Entry], pids: [UInt32], subsystemIDs: [UInt32: [String: UInt16]],
    oversize: inout [[UInt8]]
  ) -> [[UInt8]] {
    // One firehose chunk per process.
    var chunks: [[UInt8]] = []
    for pid in pids {
      let mine = entries.filter { $0.pid == pid }
      guard let first = mine.first else { continue }
      let base = ticks(first.offsetNanoseconds)
      var tracepoints: [UInt8] = []
      var privateData: [UInt8] = []
      for entry in mine {
        let large = Array(entry.message.utf8) + [0]
        let useOversize = large.count > Self.oversizeThreshold
        var flags: UInt16 = 0x0002  // main_exe
        let subsystemID = entry.subsystem.flatMap {
          subsystemIDs[pid]?[$0 + "\u{0}" + entry.category]
        }
        if subsystemID != nil { flags |= 0x0200 }
        if entry.isPrivate { flags |= 0x0100 }
        if useOversize { flags |= 0x0800 }
        var data: [UInt8] = []
        if entry.isPrivate {
          // Private range: its offset is virtual (0x1000 - size of the private data + where).
          data += le16(UInt16(0x1000 - 0x100 + privateData.count)) + le16(UInt16(large.count))
        }
        data += le32(0x4050)
        if let subsystemID { data += le16(subsystemID) }
        let reference = UInt16(oversize.count + 1)
        if useOversize {
          data += le16(reference)
          var body: [UInt8] = []
          body += le64(UInt64(pid)) + le32(UInt32(pids.firstIndex(of: pid)! + 1)) + [0, 0, 0, 0]
          body += le64(ticks(entry.offsetNanoseconds)) + le32(UInt32(reference))
          let items: [UInt8] = [0x02, 0x01, 0x22, 0x04] + le16(0) + le16(UInt16(large.count))
          body += le16(UInt16(items.count + large.count)) + le16(0)
          body += items + large
          oversize.append(body)
        } else if entry.isPrivate {
          data += [0x02, 0x01, 0x21, 0x04] + le16(0) + le16(UInt16(large.count))
          privateData += large
        } else {
          data += [0x02, 0x01, 0x22, 0x04] + le16(0) + le16(UInt16(large.count))
          data += large
        }
        let format: UInt32 =
          entry.isPrivate ? 0x1000 + UInt32(Self.publicFormat.utf8.count + 1) : 0x1000
        let delta = ticks(entry.offsetNanoseconds) - base
        var tracepoint: [UInt8] = [0x04, entry.level] + le16(flags) + le32(format)
        tracepoint += le64(entry.thread) + le32(UInt32(truncatingIfNeeded: delta))
        tracepoint += le16(UInt16(truncatingIfNeeded: delta >> 32)) + le16(UInt16(data.count))
        tracepoint += data
        while tracepoint.count % 8 != 0 { tracepoint.append(0) }
        tracepoints += tracepoint
      }
      let hasPrivate = !privateData.isEmpty
      var body: [UInt8] = []
      body += le64(UInt64(pid)) + le32(UInt32(pids.firstIndex(of: pid)! + 1)) + [0, 0, 0, 0]
      // The public size counts from the 16th byte of the chunk's data (Apple's files: the last
      // tracepoint ends within 16 bytes past it).
      body += le16(UInt16(16 + tracepoints.count)) + le16(hasPrivate ? 0x1000 - 0x100 : 0x1000)
      body += le16(0) + [0, 0] + le64(base)
      body += tracepoints
      if hasPrivate {
        // Private data fills the last 0x100 bytes of the virtual 4 KiB page.
        body += privateData + [UInt8](repeating: 0, count: 0x100 - privateData.count)
      }
      chunks.append(body)
    }
    return chunks
  }

  /// The chunks of a ChunkSet, LZ4 block or stored, ending with `bv4$`.
  package static func compress(_ bytes: [UInt8], _ compression: Compression) -> [UInt8] {
    switch compression {
    case .stored:
      return Array("bv4-".utf8) + le32(UInt32(bytes.count)) + bytes + Array("bv4$".utf8)
    case .lz4:
      let block = LZ4Writer.compress(bytes)
      return Array("bv41".utf8) + le32(UInt32(bytes.count)) + le32(UInt32(block.count)) + block
        + Array("bv4$".utf8)
    }
  }

  func chunk(tag: UInt32, subtag: UInt32, _ data: [UInt8]) -> [UInt8] {
    Self.chunk(tag: tag, subtag: subtag, data)
  }

  package static func chunk(tag: UInt32, subtag: UInt32, _ data: [UInt8]) -> [UInt8] {
    var bytes = le32(tag) + le32(subtag) + le64(UInt64(data.count)) + data
    while bytes.count % 8 != 0 { bytes.append(0) }
    return bytes
  }

  func fixed(_ text: String, _ size: Int) -> [UInt8] {
    let bytes = Array(text.utf8.prefix(size - 1))
    return bytes + [UInt8](repeating: 0, count: size - bytes.count)
  }

  // MARK: - Archives

  /// Writes a `.logarchive` folder at `path` (every file created new: an existing one is refused):
  /// entries split over `Persist/` files (the first
  /// `persist` share), `Special/` and `logdata.LiveData.tracev3`, with `timesync/`, the uuidtext
  /// file and `Info.plist`.
  @discardableResult
  package func writeLogArchive(
    _ entries: [Entry], at path: String, compression: Compression = .lz4
  ) throws -> [String: [UInt8]] {
    let files = archiveFiles(entries, compression: compression)
    for (relative, bytes) in files {
      let full = path + "/" + relative
      try FileManager.default.createDirectory(
        atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      // Created new: an archive is written into a folder of its own, never over a file.
      try Data(bytes).write(to: URL(fileURLWithPath: full), options: .withoutOverwriting)
    }
    return files
  }

  /// The files of an archive of `entries`, by relative path.
  package func archiveFiles(_ entries: [Entry], compression: Compression = .lz4) -> [String:
    [UInt8]]
  {
    let info = entries.filter { $0.level == 0x01 || $0.level == 0x02 }
    let rest = entries.filter { $0.level != 0x01 && $0.level != 0x02 }
    let errors = rest.filter { $0.level >= 0x10 }
    let persist = rest.filter { $0.level < 0x10 }
    let half = persist.count / 2
    var files: [String: [UInt8]] = [
      "Persist/0000000000000001.tracev3": traceV3(
        Array(persist[..<half]), compression: compression),
      "Persist/0000000000000003.tracev3": traceV3(Array(persist[half...]), compression: .stored),
      "timesync/0000000000000001.timesync": timesync(),
      uuidTextPath: uuidText(),
      "Info.plist": Array(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>OSArchiveVersion</key><integer>5</integer></dict></plist>\n"
          .utf8),
    ]
    if !errors.isEmpty {
      files["Special/0000000000000002.tracev3"] = traceV3(errors, compression: compression)
    }
    if !info.isEmpty {
      files["logdata.LiveData.tracev3"] = traceV3(info, compression: compression)
    }
    return files
  }

  /// A sysdiagnose-style tar (gzip-compressed when `gzip`), holding the archive under
  /// `<name>/system_logs.logarchive/`.
  /// With `tracev3First`, the tracev3 files come before the timesync and strings files (a tar's
  /// order is the order its writer walked the folder in, which nothing fixes).
  package func sysdiagnose(
    _ entries: [Entry],
    name: String = "sysdiagnose_2026.12.01_09-00-00-0800_iPhone-OS_iPhone_22B83",
    gzip: Bool = true, tracev3First: Bool = false
  ) -> [UInt8] {
    var tar: [UInt8] = []
    tar += TarWriter.file(name + "/summary.txt", Array("sysdiagnose\n".utf8))
    let files = archiveFiles(entries).sorted { left, right in
      let (leftFirst, rightFirst) = (
        left.key.hasSuffix(".tracev3"), right.key.hasSuffix(".tracev3")
      )
      if tracev3First, leftFirst != rightFirst { return leftFirst }
      return left.key < right.key
    }
    for (relative, bytes) in files {
      tar += TarWriter.file(name + "/system_logs.logarchive/" + relative, bytes)
    }
    tar += [UInt8](repeating: 0, count: 1024)
    return gzip ? GzipWriter.stored(tar) : tar
  }
}

func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
func le32(_ value: UInt32) -> [UInt8] {
  (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
func le64(_ value: UInt64) -> [UInt8] {
  (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

/// A greedy LZ4 block compressor (hash of 4 bytes, matches of 4 or more, the last 5 bytes literal).
package enum LZ4Writer {
  package static func compress(_ input: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    var table = [Int](repeating: -1, count: 1 << 12)
    var anchor = 0
    var index = 0
    let limit = input.count - 12
    func hash(_ at: Int) -> Int {
      let value =
        UInt32(input[at]) | UInt32(input[at + 1]) << 8 | UInt32(input[at + 2]) << 16
        | UInt32(input[at + 3]) << 24
      return Int((value &* 2_654_435_761) >> 20)
    }
    func length(_ value: Int, into output: inout [UInt8]) {
      var rest = value
      while rest >= 255 {
        output.append(255)
        rest -= 255
      }
      output.append(UInt8(rest))
    }
    while index < limit {
      let slot = hash(index)
      let candidate = table[slot]
      table[slot] = index
      guard candidate >= 0, index - candidate <= 65_535,
        input[candidate..<candidate + 4] == input[index..<index + 4]
      else {
        index += 1
        continue
      }
      var matchLength = 4
      while index + matchLength < input.count - 5,
        input[candidate + matchLength] == input[index + matchLength]
      {
        matchLength += 1
      }
      let literals = index - anchor
      let token = UInt8(min(literals, 15) << 4 | min(matchLength - 4, 15))
      output.append(token)
      if literals >= 15 { length(literals - 15, into: &output) }
      output += input[anchor..<index]
      let distance = index - candidate
      output += [UInt8(distance & 0xFF), UInt8(distance >> 8)]
      if matchLength - 4 >= 15 { length(matchLength - 4 - 15, into: &output) }
      index += matchLength
      anchor = index
    }
    let literals = input.count - anchor
    output.append(UInt8(min(literals, 15) << 4))
    if literals >= 15 { length(literals - 15, into: &output) }
    output += input[anchor...]
    return output
  }
}

/// Writes ustar entries.
package enum TarWriter {
  package static func file(_ path: String, _ bytes: [UInt8]) -> [UInt8] {
    var header = [UInt8](repeating: 0, count: 512)
    var name = Array(path.utf8)
    if name.count > 100, let split = path.lastIndex(of: "/") {
      let prefix = Array(path[..<split].utf8)
      name = Array(path[path.index(after: split)...].utf8)
      header.replaceSubrange(345..<345 + prefix.count, with: prefix)
    }
    header.replaceSubrange(0..<name.count, with: name)
    func octal(_ value: Int, _ at: Int, _ width: Int) {
      let digits = Array(String(value, radix: 8).utf8)
      let padded = [UInt8](repeating: UInt8(ascii: "0"), count: width - 1 - digits.count) + digits
      header.replaceSubrange(at..<at + width - 1, with: padded)
    }
    octal(0o644, 100, 8)
    octal(501, 108, 8)
    octal(20, 116, 8)
    octal(bytes.count, 124, 12)
    octal(1_796_000_000, 136, 12)
    header[156] = UInt8(ascii: "0")
    header.replaceSubrange(257..<263, with: Array("ustar\u{0}".utf8))
    header.replaceSubrange(263..<265, with: Array("00".utf8))
    for index in 148..<156 { header[index] = UInt8(ascii: " ") }
    let sum = header.reduce(0) { $0 + Int($1) }
    let digits = Array(String(sum, radix: 8).utf8)
    let padded = [UInt8](repeating: UInt8(ascii: "0"), count: 6 - digits.count) + digits
    header.replaceSubrange(148..<154, with: padded)
    header[154] = 0
    header[155] = UInt8(ascii: " ")
    var entry = header + bytes
    while entry.count % 512 != 0 { entry.append(0) }
    return entry
  }
}

/// gzip with stored deflate blocks (valid gzip any reader decodes).
package enum GzipWriter {
  package static func stored(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
    var index = 0
    repeat {
      let count = min(65_535, bytes.count - index)
      let final: UInt8 = index + count == bytes.count ? 1 : 0
      output.append(final)
      output += le16(UInt16(count)) + le16(~UInt16(count))
      output += bytes[index..<index + count]
      index += count
    } while index < bytes.count
    var crc = CRC32()
    crc.update(bytes)
    output += le32(crc.value) + le32(UInt32(truncatingIfNeeded: bytes.count))
    return output
  }
}

/// Writes zip archives: each entry stored (method 0) or deflated (method 8, stored deflate blocks).
package enum ZipWriter {
  package static func archive(_ entries: [(name: String, bytes: [UInt8], deflated: Bool)])
    -> [UInt8]
  {
    var output: [UInt8] = []
    var directory: [UInt8] = []
    for entry in entries {
      var crc = CRC32()
      crc.update(entry.bytes)
      let data = entry.deflated ? rawDeflate(entry.bytes) : entry.bytes
      let name = Array(entry.name.utf8)
      let method: UInt16 = entry.deflated ? 8 : 0
      let offset = UInt32(output.count)
      output += le32(0x0403_4B50) + le16(20) + le16(0) + le16(method) + le16(0) + le16(0)
      output += le32(crc.value) + le32(UInt32(data.count)) + le32(UInt32(entry.bytes.count))
      output += le16(UInt16(name.count)) + le16(0) + name + data
      directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(method)
      directory += le16(0) + le16(0) + le32(crc.value) + le32(UInt32(data.count))
      directory += le32(UInt32(entry.bytes.count)) + le16(UInt16(name.count)) + le16(0) + le16(0)
      directory += le16(0) + le16(0) + le32(0) + le32(offset) + name
    }
    let directoryOffset = UInt32(output.count)
    output += directory
    output += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count))
    output += le16(UInt16(entries.count)) + le32(UInt32(directory.count)) + le32(directoryOffset)
    output += le16(0)
    return output
  }

  /// Raw deflate of stored blocks.
  static func rawDeflate(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    var index = 0
    repeat {
      let count = min(65_535, bytes.count - index)
      output.append(index + count == bytes.count ? 1 : 0)
      output += le16(UInt16(count)) + le16(~UInt16(count))
      output += bytes[index..<index + count]
      index += count
    } while index < bytes.count
    return output
  }
}
