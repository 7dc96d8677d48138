// TIMESYNC, UUIDTEXT AND DSC FILES, READ BY THIS PACKAGE'S OWN CODE
//
//   FILE       LAYOUT                                                   USED FOR
//   timesync   boot records (B0 BB, 48 bytes: boot UUID, timebase,      wall-clock time of an entry
//              wall clock ns) each followed by its sync records ("Ts",  of that boot
//              32 bytes: continuous time, wall clock ns)
//   uuidtext   99 88 77 66, version, ranges (start, size), their        format strings of an image,
//              strings, then the image's path                           the process's path
//   dsc        "hcsd", version 1 or 2, ranges (offset, data offset,     format strings of the
//              size, image), images (text offset, UUID, path offset)    shared cache
//
// WALL-CLOCK TIME. With a timesync boot record of the entry's boot: the last sync record at or
// before the entry's continuous time (or the boot record itself, continuous time 0) gives a wall
// clock; the entry's time is that plus (continuous time - the record's) × numerator / denominator,
// in integer arithmetic, rounded down to the nanosecond. Without one: the tracev3 header's wall
// clock (whole seconds) plus continuous time × timebase (libyal's documented rule; the header's
// start time is not used). `log show` prints microseconds, truncated.

/// Where an entry's format string is.
struct FormatLocation: Equatable {
  var stringsFileType: UInt16
  var reference: UInt64
  var isDynamic: Bool
  var loadAddress: UInt64
  var uuid: LogUUID?
}

/// A format string found, with the image that holds it.
struct ResolvedFormat {
  var format: String?
  var imagePath: String?
  var imageUUID: LogUUID?
  var programCounter: UInt64
}

/// The files beside the tracev3 files: timesync records and the strings files, looked up by
/// relative path (`timesync/…`, `7E/F56328…`, `dsc/8E21…`).
package final class LogContext: @unchecked Sendable {
  /// Reads a file of the archive by its relative path; nil when it is not there.
  package typealias FileSource = (String) -> [UInt8]?

  private let source: FileSource
  private var boots: [LogUUID: TimesyncBoot] = [:]
  private var uuidTexts: [LogUUID: UUIDTextFile?] = [:]
  private var sharedCaches: [LogUUID: SharedCacheFile?] = [:]
  package private(set) var problems: [UnifiedLogProblem] = []

  package init(timesyncFiles: [(name: String, bytes: [UInt8])], source: @escaping FileSource) {
    self.source = source
    for file in timesyncFiles.sorted(by: { $0.name < $1.name }) {
      do throws(FormatError) {
        for boot in try TimesyncBoot.read(file.bytes) {
          if var known = boots[boot.uuid] {
            known.syncs += boot.syncs
            known.syncs.sort { $0.continuous < $1.continuous }
            boots[boot.uuid] = known
          } else {
            boots[boot.uuid] = boot
          }
        }
      } catch {
        problems.append(UnifiedLogProblem(code: error.code, file: file.name, reason: error.reason))
      }
    }
  }

  func wallClock(_ continuous: UInt64, boot: LogUUID, header: TraceV3Header?) -> Int64 {
    if let record = boots[boot] {
      var base = record.wallClock
      var from: UInt64 = 0
      if let sync = record.syncs.last(where: { $0.continuous <= continuous }) {
        base = sync.wallClock
        from = sync.continuous
      }
      return base
        &+ Self.nanoseconds(
          continuous - from, record.numerator, record.denominator)
    }
    guard let header else { return 0 }
    return header.wallClockSeconds &* 1_000_000_000
      &+ Self.nanoseconds(continuous, header.timebaseNumerator, header.timebaseDenominator)
  }

  /// `ticks` × numerator / denominator, rounded down, in 128-bit arithmetic.
  static func nanoseconds(_ ticks: UInt64, _ numerator: UInt32, _ denominator: UInt32) -> Int64 {
    guard denominator != 0 else { return 0 }
    let product = ticks.multipliedFullWidth(by: UInt64(numerator))
    guard product.high < UInt64(denominator) else { return Int64.max }
    let quotient = UInt64(denominator).dividingFullWidth((product.high, product.low)).quotient
    return Int64(clamping: quotient)
  }

  func imagePath(of uuid: LogUUID?) -> String? {
    guard let uuid else { return nil }
    return uuidText(uuid)?.imagePath
  }

  func resolve(_ location: FormatLocation, process: CatalogProcess?) -> ResolvedFormat? {
    switch location.stringsFileType {
    case 0x0004, 0x000C:
      guard let dsc = process?.dscUUID else { return nil }
      // Without the shared cache's strings file (or outside its ranges): the shared cache's UUID
      // from the catalog and the program counter as stored, as Apple's tools give them.
      guard let file = sharedCache(dsc), let found = file.lookup(location.reference) else {
        return ResolvedFormat(
          format: location.isDynamic ? "%s" : nil, imagePath: nil, imageUUID: dsc,
          programCounter: location.loadAddress)
      }
      // In the image: the offset from its text, as Apple's tools give it.
      let counter =
        found.textOffset.map { location.loadAddress >= $0 ? location.loadAddress - $0 : nil }
        ?? nil
      return ResolvedFormat(
        format: location.isDynamic ? "%s" : found.string, imagePath: found.imagePath,
        imageUUID: found.imageUUID, programCounter: counter ?? location.loadAddress)
    case 0x0002, 0x0008, 0x000A:
      var image: LogUUID?
      switch location.stringsFileType {
      case 0x000A: image = location.uuid
      case 0x0008:
        image =
          process?.images.first { image in
            location.loadAddress >= image.loadAddress
              && location.loadAddress < image.loadAddress + UInt64(image.size)
          }?.uuid ?? process?.mainUUID
      default: image = process?.mainUUID
      }
      guard let image else { return nil }
      guard let file = uuidText(image) else {
        return ResolvedFormat(
          format: location.isDynamic ? "%s" : nil, imagePath: nil, imageUUID: image,
          programCounter: location.loadAddress)
      }
      let format = location.isDynamic ? "%s" : file.string(at: location.reference)
      return ResolvedFormat(
        format: format, imagePath: file.imagePath, imageUUID: image,
        programCounter: location.loadAddress)
    default:
      return nil
    }
  }

  private func uuidText(_ uuid: LogUUID) -> UUIDTextFile? {
    // Found by the UUID itself: a file name is built only the first time (not per entry).
    if let known = uuidTexts[uuid] { return known }
    let name = uuid.fileName
    return load(
      String(name.prefix(2)) + "/" + String(name.dropFirst(2)), uuid, cache: &uuidTexts,
      parse: UUIDTextFile.init)
  }

  private func sharedCache(_ uuid: LogUUID) -> SharedCacheFile? {
    if let known = sharedCaches[uuid] { return known }
    return load("dsc/" + uuid.fileName, uuid, cache: &sharedCaches, parse: SharedCacheFile.init)
  }

  /// A strings file, read once: what could not be parsed is named, and remembered as missing.
  private func load<File>(
    _ path: String, _ uuid: LogUUID, cache: inout [LogUUID: File?],
    parse: ([UInt8]) throws(FormatError) -> File
  ) -> File? {
    if let known = cache[uuid] { return known }
    var file: File?
    if let bytes = source(path) {
      do throws(FormatError) {
        file = try parse(bytes)
      } catch {
        problems.append(UnifiedLogProblem(code: error.code, file: path, reason: error.reason))
      }
    }
    cache[uuid] = .some(file)
    return file
  }
}

struct TimesyncBoot {
  var uuid: LogUUID
  var numerator: UInt32
  var denominator: UInt32
  var wallClock: Int64
  var syncs: [(continuous: UInt64, wallClock: Int64)]

  static func read(_ bytes: [UInt8]) throws(FormatError) -> [TimesyncBoot] {
    var boots: [TimesyncBoot] = []
    var cursor = ByteCursor(bytes)
    while cursor.remaining >= 4 {
      let signature = try cursor.u16()
      let size = Int(try cursor.u16())
      switch (signature, size) {
      case (0xBBB0, 48):
        try cursor.skip(4, "a timesync boot record")
        let uuid = try cursor.uuid("a timesync boot record")
        let numerator = try cursor.u32("a timesync boot record")
        let denominator = try cursor.u32("a timesync boot record")
        let wall = Int64(bitPattern: try cursor.u64("a timesync boot record"))
        try cursor.skip(8, "a timesync boot record")
        boots.append(
          TimesyncBoot(
            uuid: uuid, numerator: numerator, denominator: denominator, wallClock: wall, syncs: []))
      case (0x7354, 32):
        try cursor.skip(4, "a timesync record")
        let continuous = try cursor.u64("a timesync record")
        let wall = Int64(bitPattern: try cursor.u64("a timesync record"))
        try cursor.skip(8, "a timesync record")
        guard !boots.isEmpty else {
          throw FormatError(
            code: "damaged_timesync", reason: "a sync record comes before any boot record")
        }
        boots[boots.count - 1].syncs.append((continuous, wall))
      default:
        throw FormatError(
          code: "damaged_timesync",
          reason:
            "an unknown record (signature 0x\(String(signature, radix: 16)), \(size) bytes) at offset \(cursor.offset - 4)"
        )
      }
    }
    return boots
  }
}

struct UUIDTextFile {
  var ranges: [(start: UInt64, size: UInt64, fileOffset: Int)] = []
  var bytes: [UInt8]
  var imagePath: String?

  init(_ bytes: [UInt8]) throws(FormatError) {
    self.bytes = bytes
    var cursor = ByteCursor(bytes)
    guard try cursor.u32("a uuidtext header") == 0x6677_8899 else {
      throw FormatError(
        code: "not_uuidtext", reason: "not a uuidtext file (no 99 88 77 66 signature)")
    }
    try cursor.skip(8, "a uuidtext header")
    let count = Int(try cursor.u32("a uuidtext header"))
    guard count <= cursor.remaining / 8 else { throw .truncated("a uuidtext header") }
    var descriptors: [(UInt64, UInt64)] = []
    for _ in 0..<count {
      descriptors.append((UInt64(try cursor.u32()), UInt64(try cursor.u32())))
    }
    var offset = cursor.offset
    for (start, size) in descriptors {
      ranges.append((start, size, offset))
      offset += Int(size)
    }
    if offset < bytes.count { imagePath = ByteCursor.cString(bytes[offset...]) }
  }

  func string(at reference: UInt64) -> String? {
    for range in ranges where reference >= range.start && reference < range.start + range.size {
      let at = range.fileOffset + Int(reference - range.start)
      guard at < bytes.count else { return nil }
      return ByteCursor.cString(bytes[at...])
    }
    return nil
  }
}

struct SharedCacheFile {
  struct Range {
    var offset: UInt64
    var dataOffset: Int
    var size: UInt64
    var image: Int
  }

  var ranges: [Range] = []
  /// Each image: its UUID, path, and where its text starts in the shared cache (a program
  /// counter is given as the offset from there, as Apple's tools give it).
  var images: [(uuid: LogUUID, path: String, textOffset: UInt64)] = []
  var bytes: [UInt8]

  init(_ bytes: [UInt8]) throws(FormatError) {
    self.bytes = bytes
    var cursor = ByteCursor(bytes)
    guard Array(try cursor.take(4, "a dsc header")) == Array("hcsd".utf8) else {
      throw FormatError(
        code: "not_dsc", reason: "not a shared-cache strings file (no hcsd signature)")
    }
    let major = try cursor.u16("a dsc header")
    _ = try cursor.u16("a dsc header")
    let rangeCount = Int(try cursor.u32("a dsc header"))
    let imageCount = Int(try cursor.u32("a dsc header"))
    guard major == 1 || major == 2 else {
      throw FormatError(
        code: "unknown_dsc_version", reason: "a shared-cache strings file of version \(major)")
    }
    guard rangeCount <= cursor.remaining / 16, imageCount <= cursor.remaining / 28 else {
      throw .truncated("a dsc file")
    }
    for _ in 0..<rangeCount {
      if major == 1 {
        let image = Int(try cursor.u32("a dsc range"))
        let offset = UInt64(try cursor.u32("a dsc range"))
        let data = Int(try cursor.u32("a dsc range"))
        let size = UInt64(try cursor.u32("a dsc range"))
        ranges.append(Range(offset: offset, dataOffset: data, size: size, image: image))
      } else {
        let offset = try cursor.u64("a dsc range")
        let data = Int(try cursor.u32("a dsc range"))
        let size = UInt64(try cursor.u32("a dsc range"))
        let image = Int(clamping: try cursor.u64("a dsc range"))
        ranges.append(Range(offset: offset, dataOffset: data, size: size, image: image))
      }
    }
    for _ in 0..<imageCount {
      let textOffset: UInt64
      if major == 1 {
        textOffset = UInt64(try cursor.u32("a dsc image"))
        try cursor.skip(4, "a dsc image")  // text size
      } else {
        textOffset = try cursor.u64("a dsc image")
        try cursor.skip(4, "a dsc image")  // text size
      }
      let uuid = try cursor.uuid("a dsc image")
      let pathOffset = Int(try cursor.u32("a dsc image"))
      let path = pathOffset < bytes.count ? ByteCursor.cString(bytes[pathOffset...]) : ""
      images.append((uuid, path, textOffset))
    }
  }

  func lookup(_ reference: UInt64) -> (
    string: String?, imagePath: String?, imageUUID: LogUUID?, textOffset: UInt64?
  )? {
    for range in ranges where reference >= range.offset && reference < range.offset + range.size {
      let at = range.dataOffset + Int(reference - range.offset)
      let image = range.image < images.count ? images[range.image] : nil
      let string = at < bytes.count ? ByteCursor.cString(bytes[at...]) : nil
      return (string, image?.path, image?.uuid, image?.textOffset)
    }
    return nil
  }
}
