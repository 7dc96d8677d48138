// TRACEV3, READ BY THIS PACKAGE'S OWN CODE (libyal's "Apple Unified Logging" document, checked
// against real files)
//
//   CHUNK      TAG     WHAT IS READ
//   header     0x1000  timebase, wall clock (whole seconds), zone, build, hardware, boot UUID
//   catalog    0x600b  UUIDs, subsystem strings, processes (pid, images, subsystem ids), and one
//                      sub chunk per ChunkSet that follows
//   ChunkSet   0x600d  LZ4 (bv41 / bv4- / bv4$) holding the chunks below, 8-byte aligned
//   firehose   0x6001  tracepoints: log, activity, trace, signpost, loss; every optional field by
//                      its flag; items (strings, numbers, private, binary), private data
//   oversize   0x6002  the items of a tracepoint too large for its firehose chunk
//   statedump  0x6003  listed as state events (title and data type)
//   simpledump 0x6004  subsystem and message as stored
//
// Every top-level chunk is 8-byte aligned. A chunk this reader does not know, or one it cannot
// read, is named (file, offset, why) and counted; reading goes on at the next chunk.

/// What a tracev3 file's header says.
package struct TraceV3Header: Sendable, Equatable {
  package var timebaseNumerator: UInt32
  package var timebaseDenominator: UInt32
  package var startTime: UInt64
  package var wallClockSeconds: Int64
  package var timeZoneMinutes: Int
  package var build: String
  package var hardwareModel: String
  package var bootUUID: LogUUID
  package var timeZonePath: String
}

/// What an entry read before its archive's strings and timesync files still needs from them: where
/// its format string is, its process (the images it loaded), the file's header (its clock).
struct DeferredContext: Sendable, Equatable {
  var location: FormatLocation?
  var process: CatalogProcess?
  var header: TraceV3Header?

  static func == (left: Self, right: Self) -> Bool {
    left.location == right.location && left.header == right.header
      && left.process?.pid == right.process?.pid
      && left.process?.mainUUID == right.process?.mainUUID
  }
}

/// Reads one tracev3 file pushed to it in pieces of any size; entries come out as their chunks
/// are complete, so memory stays at one ChunkSet.
package struct TraceV3Parser {
  package let file: String
  private let context: LogContext
  private var buffer: [UInt8] = []
  private var consumed = 0
  private var fileOffset = 0
  /// Padding of the last chunk that had not arrived when the chunk was taken (its bytes come with
  /// the next piece fed): skipped before the next chunk's header is read.
  private var paddingOwed = 0
  private(set) package var header: TraceV3Header?
  private var catalog: Catalog?
  private var sequence = 0
  /// Set once the file's chunk layout is lost (a chunk size beyond any real one): the rest of the
  /// file is not read, and said so once.
  private var layoutLost = false
  /// Entries waiting for an oversize chunk not seen yet, by (proc, reference).
  private var waiting: [OversizeKey: [PendingEntry]] = [:]
  /// How many entries `waiting` holds (bounded by ``maximumWaiting``).
  private var waitingCount = 0
  private var oversize: [OversizeKey: OversizeData] = [:]
  /// The bytes `oversize` holds (bounded by ``maximumOversizeBytes``).
  private var oversizeBytes = 0
  /// The first problems of each kind, as found (at most ``problemsListedPerKind`` a kind).
  private var listedProblems: [UnifiedLogProblem] = []
  /// Problems found, by kind, listed or not.
  private var problemCounts: [String: Int] = [:]
  /// Where the problems of each kind were found, first ones first (for the summary line).
  private var problemOffsets: [String: [Int]] = [:]
  package private(set) var stateDumps = 0
  /// Chunks read, by tag, for the summary.
  package private(set) var chunkCounts: [String: Int] = [:]

  /// Only entries of this subsystem are composed and handed over (nil: every entry); the others
  /// are still read (and counted in ``skipped``), so damage anywhere is found.
  package let subsystem: String?
  /// Entries read but not handed over (another subsystem).
  package private(set) var skipped = 0

  /// Whether the archive's strings and timesync files are still to come: entries are then
  /// handed over without their format string, sender image, process path, wall-clock time or
  /// composed message, and with what those need (``UnifiedLogEntry/deferred``), for
  /// ``complete(_:context:)`` once the files are read. `context` is not consulted.
  let defersContext: Bool

  package init(
    file: String, context: LogContext, subsystem: String? = nil, defersContext: Bool = false
  ) {
    self.file = file
    self.context = context
    self.subsystem = subsystem
    self.defersContext = defersContext
  }

  /// Completes an entry read with ``defersContext``: its format string and sender image, its
  /// process's path, its wall-clock time and its message, as they would have been read with
  /// `context`.
  static func complete(_ entry: inout UnifiedLogEntry, context: LogContext) {
    guard let deferred = entry.deferred else { return }
    entry.deferred = nil
    entry.processImagePath = context.imagePath(of: entry.processImageUUID)
    if let location = deferred.location {
      apply(context.resolve(location, process: deferred.process), to: &entry)
    }
    render(&entry, context: context, header: deferred.header)
  }

  /// The wall-clock time and the message composed from the format string.
  private static func render(
    _ entry: inout UnifiedLogEntry, context: LogContext, header: TraceV3Header?
  ) {
    entry.timestampNanoseconds = context.wallClock(
      entry.machTimestamp, boot: entry.bootUUID, header: header)
    if entry.eventMessage == nil, let format = entry.formatString {
      entry.eventMessage = FormatRenderer.render(format, arguments: entry.arguments)
    }
  }

  /// Where the format string of `location` is, now; or, while the strings files are still to
  /// come, nil, with what finding it takes kept in `entry`.
  private func resolve(
    _ location: FormatLocation, process: CatalogProcess?, for entry: inout UnifiedLogEntry
  ) -> ResolvedFormat? {
    guard defersContext else { return context.resolve(location, process: process) }
    entry.deferred = DeferredContext(location: location, process: process, header: header)
    return nil
  }

  /// Hands over the next bytes of the file.
  package mutating func feed(_ bytes: some Collection<UInt8>, emit: (UnifiedLogEntry) -> Void) {
    guard !layoutLost else { return }
    if consumed > 1 << 20 || (consumed > 0 && consumed == buffer.count) {
      buffer.removeFirst(consumed)
      consumed = 0
    }
    buffer.append(contentsOf: bytes)
    while let chunk = nextChunk() {
      handleTopLevel(chunk, emit: emit)
    }
  }

  /// Names the run of zeros just passed, if any.
  private mutating func endZeroRun() {
    guard let run = zeroRun else { return }
    zeroRun = nil
    problem(
      "zero_fill",
      "\(run.length) bytes of zeros where a chunk should begin, at offset \(run.start), were skipped (a copy cut short?)"
    )
  }

  /// Ends the file: what is left over is named.
  package mutating func finish(emit: (UnifiedLogEntry) -> Void) {
    endZeroRun()
    let left = layoutLost ? 0 : buffer.count - consumed
    if left > 0, buffer[consumed...].contains(where: { $0 != 0 }) {
      problem(
        "truncated",
        "the file ends inside a chunk at offset \(fileOffset) (\(left) bytes left unread)")
    }
    // Tracepoints whose oversize chunk never came: emitted with what they carry.
    releaseWaiting(
      because: "a tracepoint refers to an oversize chunk the file does not hold", emit: emit)
    buffer = []
    consumed = 0
    paddingOwed = 0
  }

  // MARK: - Top-level chunks

  private struct RawChunk {
    var tag: UInt32
    var subtag: UInt32
    var data: ArraySlice<UInt8>
    var offset: Int
  }

  private static let maximumChunkSize = 64 << 20

  /// A run of zero bytes where a chunk should begin (a copy cut short on a preallocating disk):
  /// where it began and how long it is so far; named once, when it ends.
  private var zeroRun: (start: Int, length: Int)?

  private mutating func nextChunk() -> RawChunk? {
    if paddingOwed > 0 {
      let skipped = min(paddingOwed, buffer.count - consumed)
      consumed += skipped
      fileOffset += skipped
      paddingOwed -= skipped
      guard paddingOwed == 0 else { return nil }
    }
    // Zeros where a chunk should begin are skipped 8 bytes at a time, as one run.
    while buffer.count - consumed >= 8, ByteCursor.u32(buffer, consumed) == 0,
      ByteCursor.u32(buffer, consumed + 4) == 0
    {
      if zeroRun == nil { zeroRun = (fileOffset, 0) }
      zeroRun!.length += 8
      consumed += 8
      fileOffset += 8
    }
    let available = buffer.count - consumed
    guard available >= 16 else { return nil }
    endZeroRun()
    let tag = ByteCursor.u32(buffer, consumed)
    let subtag = ByteCursor.u32(buffer, consumed + 4)
    let size =
      UInt64(ByteCursor.u32(buffer, consumed + 8))
      | UInt64(ByteCursor.u32(buffer, consumed + 12)) << 32
    guard size <= UInt64(Self.maximumChunkSize) else {
      problem(
        "damaged_chunk",
        "a chunk at offset \(fileOffset) says it is \(size) bytes long; the rest of the file is not read"
      )
      layoutLost = true
      buffer = []
      consumed = 0
      return nil
    }
    let total = 16 + Int(size)
    guard available >= total else { return nil }
    let chunk = RawChunk(
      tag: tag, subtag: subtag, data: buffer[consumed + 16..<consumed + total], offset: fileOffset)
    // A chunk is padded to 8 bytes; the padding may come with the next piece (or never, at the
    // end of the file).
    let padded = (total + 7) & ~7
    let taken = min(available, padded)
    paddingOwed = padded - taken
    consumed += taken
    fileOffset += taken
    return chunk
  }

  private mutating func handleTopLevel(_ chunk: RawChunk, emit: (UnifiedLogEntry) -> Void) {
    do throws(FormatError) {
      switch chunk.tag {
      case 0x1000:
        count("header")
        header = try Self.readHeader(chunk.data)
      case 0x600b:
        count("catalog")
        catalog = try Catalog(chunk.data)
      case 0x600d:
        count("chunkset")
        let decoded = try LZ4Stream.decode(chunk.data)
        try readChunkSet(decoded, at: chunk.offset, emit: emit)
      case 0x6001, 0x6002, 0x6003, 0x6004:
        // Outside a ChunkSet (not seen in Apple's files, but readable).
        readInner(tag: chunk.tag, data: chunk.data, at: chunk.offset, emit: emit)
      default:
        count("unknown")
        problem(
          "unknown_chunk",
          "a chunk with an unknown tag 0x\(String(chunk.tag, radix: 16)) at offset \(chunk.offset) was skipped"
        )
      }
    } catch {
      problem(error.code, "\(error.reason) (chunk at offset \(chunk.offset))")
    }
  }

  private mutating func count(_ tag: String) { chunkCounts[tag, default: 0] += 1 }

  /// Problems listed per kind in a file; the rest are counted, with their first offsets, in one
  /// more line of that kind: a damaged file (a zero-filled tail, 16 bytes a chunk) is a few lines,
  /// and memory stays flat, whatever its size.
  package static let problemsListedPerKind = 5
  /// Tracepoints held for oversize chunks not yet seen; past this, the oldest are given as they are.
  package static let maximumWaiting = 4_096
  /// Bytes of oversize chunks held for tracepoints not yet seen; past this, the oldest are dropped.
  package static let maximumOversizeBytes = 16 << 20

  /// The problems of this file: the first ones of each kind, then for a kind with more, one line
  /// saying how many and where the first of them were.
  package var problems: [UnifiedLogProblem] {
    var all = listedProblems
    for (code, total) in problemCounts.sorted(by: { $0.key < $1.key })
    where total > Self.problemsListedPerKind {
      let offsets = (problemOffsets[code] ?? []).map(String.init).joined(separator: ", ")
      all.append(
        UnifiedLogProblem(
          code: code, file: file,
          reason:
            "\(total - Self.problemsListedPerKind) more problems of this kind (\(total) in all; found at offsets \(offsets)…)"
        ))
    }
    return all
  }

  private mutating func problem(_ code: String, _ reason: String) {
    let total = problemCounts[code, default: 0] + 1
    problemCounts[code] = total
    if total <= Self.problemsListedPerKind {
      listedProblems.append(UnifiedLogProblem(code: code, file: file, reason: reason))
    }
    if total <= 2 * Self.problemsListedPerKind {
      problemOffsets[code, default: []].append(fileOffset)
    }
  }

  private mutating func problemOnce(_ code: String, _ reason: String) {
    if problemCounts[code] == nil { problem(code, reason) }
  }

  static func readHeader(_ data: ArraySlice<UInt8>) throws(FormatError) -> TraceV3Header {
    var cursor = ByteCursor(Array(data))
    let numerator = try cursor.u32("the header")
    let denominator = try cursor.u32("the header")
    let start = try cursor.u64("the header")
    let wall = Int32(bitPattern: try cursor.u32("the header"))
    try cursor.skip(8, "the header")
    let zone = Int32(bitPattern: try cursor.u32("the header"))
    _ = try cursor.u32("the header")  // DST flag
    _ = try cursor.u32("the header")  // flags
    var header = TraceV3Header(
      timebaseNumerator: numerator, timebaseDenominator: denominator, startTime: start,
      wallClockSeconds: Int64(wall), timeZoneMinutes: -Int(zone), build: "", hardwareModel: "",
      bootUUID: LogUUID([UInt8](repeating: 0, count: 16)), timeZonePath: "")
    // Sub chunks: continuous time, system information, generation, time zone.
    while cursor.remaining >= 8 {
      let tag = try cursor.u32("a header sub chunk")
      let size = Int(try cursor.u32("a header sub chunk"))
      let body = try cursor.take(size, "a header sub chunk")
      var sub = ByteCursor(Array(body))
      switch tag {
      case 0x6101 where size >= 56:
        try sub.skip(8)
        header.build = ByteCursor.cString(try sub.take(16))
        header.hardwareModel = ByteCursor.cString(try sub.take(32))
      case 0x6102 where size >= 16:
        header.bootUUID = try sub.uuid()
      case 0x6103:
        header.timeZonePath = ByteCursor.cString(body)
      default:
        break
      }
    }
    guard header.timebaseDenominator != 0 else {
      throw FormatError(
        code: "damaged_header", reason: "the header's timebase has a zero denominator")
    }
    return header
  }

  // MARK: - ChunkSets

  private mutating func readChunkSet(
    _ decoded: [UInt8], at offset: Int, emit: (UnifiedLogEntry) -> Void
  ) throws(FormatError) {
    var cursor = ByteCursor(decoded)
    while cursor.remaining >= 16 {
      let tag = try cursor.u32()
      _ = try cursor.u32()
      let size = try cursor.u64()
      guard size <= UInt64(cursor.remaining) else {
        throw FormatError(
          code: "damaged_chunkset", reason: "a chunk inside a ChunkSet runs past its end")
      }
      let data = try cursor.take(Int(size))
      readInner(tag: tag, data: data, at: offset, emit: emit)
      cursor.alignTo8()
    }
  }

  private mutating func readInner(
    tag: UInt32, data: ArraySlice<UInt8>, at offset: Int, emit: (UnifiedLogEntry) -> Void
  ) {
    do throws(FormatError) {
      switch tag {
      case 0x6001:
        count("firehose")
        try readFirehose(Array(data), emit: emit)
      case 0x6002:
        count("oversize")
        try readOversize(Array(data), emit: emit)
      case 0x6003:
        count("statedump")
        try readStateDump(Array(data), emit: emit)
      case 0x6004:
        count("simpledump")
        try readSimpleDump(Array(data), emit: emit)
      default:
        count("unknown")
        problem(
          "unknown_chunk",
          "a chunk with an unknown tag 0x\(String(tag, radix: 16)) in the ChunkSet at offset \(offset) was skipped"
        )
      }
    } catch {
      problem(error.code, "\(error.reason) (ChunkSet at offset \(offset))")
    }
  }

  // MARK: - Firehose

  private struct ProcKey: Hashable {
    var upper: UInt64
    var lower: UInt32
  }

  private struct OversizeKey: Hashable {
    var proc: ProcKey
    var reference: UInt32
  }

  private struct OversizeData {
    var items: [RawItem]
    var values: ArraySlice<UInt8>
    var privateData: ArraySlice<UInt8>

    /// The arguments of the tracepoint this chunk completes.
    var arguments: [LogArgument] {
      items.map {
        TraceV3Parser.argument($0, values: values, privateData: privateData, privateOffset: 0)
      }
    }
  }

  private struct PendingEntry {
    var entry: UnifiedLogEntry
    var format: ResolvedFormat?
  }

  struct RawItem {
    var type: UInt8
    var data: ArraySlice<UInt8>
  }

  /// An item list: an unknown byte, the count, then each item's type, size and data.
  static func readItems(_ cursor: inout ByteCursor, _ what: String) throws(FormatError)
    -> [RawItem]
  {
    _ = try cursor.u8(what)
    let count = Int(try cursor.u8(what))
    var items: [RawItem] = []
    for _ in 0..<count {
      let type = try cursor.u8(what)
      let size = Int(try cursor.u8(what))
      items.append(RawItem(type: type, data: try cursor.take(size, what)))
    }
    return items
  }

  private mutating func readFirehose(_ data: [UInt8], emit: (UnifiedLogEntry) -> Void)
    throws(FormatError)
  {
    var cursor = ByteCursor(data)
    let proc = ProcKey(
      upper: try cursor.u64("a firehose chunk"), lower: try cursor.u32("a firehose chunk"))
    _ = try cursor.u8()  // ttl
    _ = try cursor.u8()  // collapsed
    try cursor.skip(2)
    let publicSize = Int(try cursor.u16("a firehose chunk"))
    let privateVirtualOffset = Int(try cursor.u16("a firehose chunk"))
    try cursor.skip(2)
    _ = try cursor.u8()  // stream type
    _ = try cursor.u8()
    let baseTime = try cursor.u64("a firehose chunk")
    // The public size counts from the end of the chunk's first 16 bytes of data (proc, ttl,
    // collapsed), so the tracepoints' public data ends 16 bytes past it: a last tracepoint with
    // little data (an argument-less log has 6 bytes) lies in those 16 bytes.
    let publicEnd = publicSize + 16
    guard publicEnd <= data.count else {
      throw FormatError(
        code: "damaged_firehose", reason: "a firehose chunk's public data runs past its end")
    }
    let virtual = privateVirtualOffset & 0x0FFF
    let privateData: ArraySlice<UInt8> =
      virtual == 0 ? [] : data[max(0, data.count - (4096 - virtual))...]
    let process = catalog?.processes[CatalogProcessKey(upper: proc.upper, lower: proc.lower)]
    if catalog != nil, process == nil {
      problemOnce("unknown_process", "a firehose chunk names a process its catalog does not list")
    }
    var offset = 32
    while offset + 24 <= publicEnd {
      // The last tracepoint may reach past the public size (its data is still public).
      var tp = ByteCursor(data, from: offset, end: data.count - privateData.count)
      let recordType = try tp.u8()
      let logType = try tp.u8()
      let flags = try tp.u16()
      let formatLower = try tp.u32()
      let thread = try tp.u64()
      let deltaLower = UInt64(try tp.u32())
      let deltaUpper = UInt64(try tp.u16())
      let dataSize = Int(try tp.u16())
      if recordType == 0 { break }
      guard dataSize <= tp.remaining else {
        throw FormatError(
          code: "damaged_firehose", reason: "a tracepoint runs past its firehose chunk")
      }
      let body = Array(data[tp.offset..<tp.offset + dataSize])
      offset = (tp.offset + dataSize + 7) & ~7
      let time = baseTime &+ (deltaLower | deltaUpper << 32)
      let tracepoint = Tracepoint(
        recordType: recordType, logType: logType, flags: flags, formatLower: formatLower,
        thread: thread, time: time, body: body)
      try readTracepoint(
        tracepoint, proc: proc, process: process, privateData: privateData,
        privateVirtualOffset: virtual, emit: emit)
    }
  }

  struct Tracepoint {
    var recordType: UInt8
    var logType: UInt8
    var flags: UInt16
    var formatLower: UInt32
    var thread: UInt64
    var time: UInt64
    var body: [UInt8]

    var stringsFileType: UInt16 { flags & 0x000E }
  }

  private static let logTypes: [UInt8: String] = [
    0x00: "Default", 0x01: "Info", 0x02: "Debug", 0x10: "Error", 0x11: "Fault",
  ]

  private mutating func readTracepoint(
    _ tp: Tracepoint, proc: ProcKey, process: CatalogProcess?, privateData: ArraySlice<UInt8>,
    privateVirtualOffset: Int, emit: (UnifiedLogEntry) -> Void
  ) throws(FormatError) {
    var cursor = ByteCursor(tp.body)
    // Flags this reader knows: activity id, strings file type, pid, large offset, private data,
    // subsystem (other activity), rules, oversize, backtrace, name.
    let unknownFlags = tp.flags & ~UInt16(0x9F3F)
    if unknownFlags != 0 {
      problemOnce(
        "unknown_flag",
        "a tracepoint has flags this reader does not know (0x\(String(unknownFlags, radix: 16))): its optional fields may be misread"
      )
    }
    var entry = newEntry(time: tp.time, thread: tp.thread, process: process)
    entry.traceID =
      UInt64(tp.formatLower) << 32 | UInt64(tp.flags) << 16 | UInt64(tp.logType) << 8
      | UInt64(tp.recordType)
    var location = FormatLocation(
      stringsFileType: tp.stringsFileType, reference: UInt64(tp.formatLower & 0x7FFF_FFFF),
      isDynamic: tp.formatLower & 0x8000_0000 != 0, loadAddress: 0, uuid: nil)
    switch tp.recordType {
    case 0x07:  // loss
      entry.eventType = "lossEvent"
      let start = try cursor.u64("a loss tracepoint")
      let end = try cursor.u64("a loss tracepoint")
      let lost = try cursor.u64("a loss tracepoint")
      entry.messageType = Self.logTypes[tp.logType]
      entry.eventMessage =
        "lost >=\(lost) unreliable messages from \(start)-\(end) (Mach continuous exact start-approx. end)"
      emitEntry(&entry, emit: emit)
      return
    case 0x03:  // trace
      entry.eventType = "traceEvent"
      entry.messageType = Self.logTypes[tp.logType]
      location.loadAddress = UInt64(try cursor.u32("a trace tracepoint"))
      // Values: stored front to back, their sizes, then their count (the last byte).
      var items: [RawItem] = []
      if let countByte = tp.body.last, tp.body.count > 4 {
        let count = Int(countByte)
        let sizesStart = tp.body.count - 1 - count
        if sizesStart >= 4 {
          var valueOffset = 4
          for index in 0..<count {
            let size = Int(tp.body[sizesStart + index])
            guard valueOffset + size <= sizesStart else { break }
            items.append(RawItem(type: 0x00, data: tp.body[valueOffset..<valueOffset + size]))
            valueOffset += size
          }
        }
      }
      entry.arguments = items.map {
        Self.argument($0, values: [], privateData: [], privateOffset: 0)
      }
      let resolved = resolve(location, process: process, for: &entry)
      Self.apply(resolved, to: &entry)
      emitEntry(&entry, emit: emit)
      return
    case 0x02:  // activity
      entry.eventType = tp.logType == 0x03 ? "userActionEvent" : "activityCreateEvent"
      if tp.logType != 0x01 && tp.logType != 0x03 {
        problemOnce(
          "unknown_log_type", "an activity with an unknown type 0x\(String(tp.logType, radix: 16))")
      }
      if tp.flags & 0x0001 != 0 { _ = try cursor.u64("an activity") }
      if tp.flags & 0x0010 != 0 { _ = try cursor.u64("an activity") }
      if tp.flags & 0x0200 != 0 { _ = try cursor.u64("an activity") }
      if tp.logType != 0x03 {
        entry.activityIdentifier = try cursor.u64("an activity") & (1 << 63 - 1)
      }
      try readStringLocation(&cursor, tp: tp, into: &location)
      entry.messageType = Self.logTypes[tp.logType]
      Self.apply(resolve(location, process: process, for: &entry), to: &entry)
      emitEntry(&entry, emit: emit)
      return
    case 0x04, 0x06:
      break
    default:
      problemOnce(
        "unknown_record_type",
        "a tracepoint of an unknown record type 0x\(String(tp.recordType, radix: 16)) was skipped")
      return
    }
    // Log (0x04) and signpost (0x06).
    let isSignpost = tp.recordType == 0x06
    entry.eventType = isSignpost ? "signpostEvent" : "logEvent"
    if !isSignpost {
      if let type = Self.logTypes[tp.logType] {
        entry.messageType = type
      } else {
        problemOnce(
          "unknown_log_type", "a log entry with an unknown type 0x\(String(tp.logType, radix: 16))")
      }
    }
    if tp.flags & 0x0001 != 0 {
      entry.activityIdentifier = try cursor.u64("a tracepoint") & (1 << 63 - 1)
    }
    var privateRangeOffset = 0
    if tp.flags & 0x0100 != 0 {
      privateRangeOffset = Int(try cursor.u16("a tracepoint")) - privateVirtualOffset
      _ = try cursor.u16("a tracepoint")
    }
    try readStringLocation(&cursor, tp: tp, into: &location)
    var subsystemID: UInt16?
    if tp.flags & 0x0200 != 0 { subsystemID = try cursor.u16("a tracepoint") }
    if isSignpost { _ = try cursor.u64("a signpost") }
    if tp.flags & 0x0400 != 0 { entry.ttl = Int(try cursor.u8("a tracepoint")) }
    var oversizeReference: UInt32?
    if tp.flags & 0x0800 != 0 { oversizeReference = UInt32(try cursor.u16("a tracepoint")) }
    if isSignpost, tp.flags & 0x8000 != 0 {
      _ = try cursor.u32("a signpost")
      if tp.flags & 0x0020 != 0 { _ = try cursor.u16("a signpost") }
    }
    if let subsystemID, let names = process?.subsystems[subsystemID] {
      entry.subsystem = names.subsystem
      entry.category = names.category
    }
    let items = cursor.remaining >= 2 ? try Self.readItems(&cursor, "an item") : []
    let values = tp.body[cursor.offset...]
    let resolved = resolve(location, process: process, for: &entry)
    if let reference = oversizeReference, items.isEmpty {
      let key = OversizeKey(proc: proc, reference: reference)
      if let stored = oversize[key] {
        entry.arguments = stored.arguments
      } else {
        Self.apply(resolved, to: &entry)
        waiting[key, default: []].append(PendingEntry(entry: entry, format: resolved))
        waitingCount += 1
        if waitingCount > Self.maximumWaiting {
          releaseWaiting(
            because:
              "more than \(Self.maximumWaiting) tracepoints waited for oversize chunks not seen by offset \(fileOffset); they are given without those arguments",
            emit: emit)
        }
        return
      }
    } else {
      entry.arguments = items.map {
        Self.argument(
          $0, values: values, privateData: privateData, privateOffset: privateRangeOffset)
      }
    }
    Self.apply(resolved, to: &entry)
    emitEntry(&entry, emit: emit)
  }

  /// The load address and where the format string is, by the strings file type.
  private func readStringLocation(
    _ cursor: inout ByteCursor, tp: Tracepoint, into location: inout FormatLocation
  ) throws(FormatError) {
    location.loadAddress = UInt64(try cursor.u32("a tracepoint"))
    if tp.flags & 0x0020 != 0 {
      let large = UInt64(try cursor.u16("a tracepoint"))
      location.reference |= large << 31
    }
    switch tp.stringsFileType {
    case 0x0008:
      location.loadAddress |= UInt64(try cursor.u16("a tracepoint")) << 32
    case 0x000A:
      location.uuid = try cursor.uuid("a tracepoint")
    case 0x000C:
      let large = UInt64(try cursor.u16("a tracepoint"))
      location.reference = (large << 31) | UInt64(tp.formatLower & 0x7FFF_FFFF)
    default:
      break
    }
  }

  private static func apply(_ resolved: ResolvedFormat?, to entry: inout UnifiedLogEntry) {
    guard let resolved else { return }
    entry.formatString = resolved.format
    entry.senderImagePath = resolved.imagePath
    entry.senderImageUUID = resolved.imageUUID
    entry.senderProgramCounter = resolved.programCounter
  }

  static func argument(
    _ item: RawItem, values: ArraySlice<UInt8>, privateData: ArraySlice<UInt8>, privateOffset: Int
  ) -> LogArgument {
    func range(_ source: ArraySlice<UInt8>, base: Int) -> ArraySlice<UInt8>? {
      guard item.data.count >= 4 else { return nil }
      let start = item.data.startIndex
      let offset = Int(item.data[start]) | Int(item.data[start + 1]) << 8
      let size = Int(item.data[start + 2]) | Int(item.data[start + 3]) << 8
      let from = source.startIndex + base + offset
      guard from >= source.startIndex, from + size <= source.endIndex else { return nil }
      return source[from..<from + size]
    }
    func number() -> UInt64 {
      var value: UInt64 = 0
      for (shift, byte) in item.data.prefix(8).enumerated() { value |= UInt64(byte) << (8 * shift) }
      return value
    }
    switch item.type {
    case 0x00, 0x02:
      return .scalar(number(), size: item.data.count, valueType: item.type)
    case 0x10, 0x12:
      return .precision(number(), valueType: item.type)
    case 0x20, 0x22, 0x40, 0x42:
      guard let bytes = range(values, base: 0) else { return .outOfRange(valueType: item.type) }
      return .string(ByteCursor.cString(bytes), valueType: item.type)
    case 0x21, 0x25, 0x41, 0x45:
      // A private string whose bytes the file holds (private data was recorded): shown, as
      // `log show` shows it; without them, `<private>`.
      guard let bytes = range(privateData, base: privateOffset), !bytes.isEmpty else {
        return .privateValue(valueType: item.type)
      }
      return .string(ByteCursor.cString(bytes), valueType: item.type)
    case 0x31, 0x35:
      guard let bytes = range(privateData, base: privateOffset), !bytes.isEmpty else {
        return .privateValue(valueType: item.type)
      }
      return .bytes(Array(bytes), valueType: item.type)
    case 0x01:
      return .privateValue(valueType: item.type)
    case 0x30, 0x32, 0xF2:
      guard let bytes = range(values, base: 0) else { return .outOfRange(valueType: item.type) }
      return .bytes(Array(bytes), valueType: item.type)
    default:
      return .unknown(valueType: item.type, size: item.data.count)
    }
  }

  /// The last process image path looked up (entries come a process's chunk at a time).
  private var lastImagePath: (uuid: LogUUID, path: String?)?

  private mutating func processImagePath(_ uuid: LogUUID?) -> String? {
    guard let uuid else { return nil }
    if let last = lastImagePath, last.uuid == uuid { return last.path }
    let path = context.imagePath(of: uuid)
    lastImagePath = (uuid, path)
    return path
  }

  private mutating func newEntry(time: UInt64, thread: UInt64, process: CatalogProcess?)
    -> UnifiedLogEntry
  {
    let boot = header?.bootUUID ?? LogUUID([UInt8](repeating: 0, count: 16))
    return UnifiedLogEntry(
      file: file, sequence: 0, eventType: "logEvent", messageType: nil, machTimestamp: time,
      timestampNanoseconds: 0, timeZoneMinutes: header?.timeZoneMinutes,
      processID: UInt64(process?.pid ?? 0), threadID: thread, activityIdentifier: 0,
      subsystem: nil, category: nil, formatString: nil, eventMessage: nil, arguments: [],
      processImagePath: defersContext ? nil : processImagePath(process?.mainUUID),
      processImageUUID: process?.mainUUID, senderImagePath: nil, senderImageUUID: nil,
      senderProgramCounter: 0, traceID: 0, ttl: 0, bootUUID: boot)
  }

  private mutating func emitEntry(_ entry: inout UnifiedLogEntry, emit: (UnifiedLogEntry) -> Void) {
    entry.sequence = sequence
    sequence += 1
    if entry.arguments.contains(where: { if case .outOfRange = $0 { true } else { false } }) {
      problemOnce(
        "item_out_of_range",
        "an entry's argument lies outside its data: shown as <decode: data out of range>")
    }
    if let subsystem, entry.subsystem != subsystem {
      skipped += 1
      return
    }
    if defersContext {
      // Completed once the strings and timesync files are read; a dump (its message is its own)
      // needs the time and its process's path.
      if entry.deferred == nil { entry.deferred = DeferredContext(header: header) }
    } else {
      Self.render(&entry, context: context, header: header)
    }
    emit(entry)
  }

  // MARK: - Oversize, state dumps, simple dumps

  private mutating func readOversize(_ data: [UInt8], emit: (UnifiedLogEntry) -> Void)
    throws(FormatError)
  {
    var cursor = ByteCursor(data)
    let proc = ProcKey(
      upper: try cursor.u64("an oversize chunk"), lower: try cursor.u32("an oversize chunk"))
    try cursor.skip(4, "an oversize chunk")
    _ = try cursor.u64("an oversize chunk")
    let reference = try cursor.u32("an oversize chunk")
    let publicSize = Int(try cursor.u16("an oversize chunk"))
    let privateSize = Int(try cursor.u16("an oversize chunk"))
    let start = cursor.offset
    guard publicSize + privateSize <= cursor.remaining else {
      throw .truncated("an oversize chunk")
    }
    var inner = ByteCursor(data, from: start, end: start + publicSize)
    let items = try Self.readItems(&inner, "an oversize item")
    let stored = OversizeData(
      items: items, values: data[inner.offset..<start + publicSize],
      privateData: data[(start + publicSize)..<(start + publicSize + privateSize)])
    let key = OversizeKey(proc: proc, reference: reference)
    if let pending = waiting.removeValue(forKey: key) {
      waitingCount -= pending.count
      for var held in pending {
        held.entry.arguments = stored.arguments
        emitEntry(&held.entry, emit: emit)
      }
    } else {
      let size = stored.values.count + stored.privateData.count
      if oversizeBytes + size > Self.maximumOversizeBytes {
        problem(
          "oversize_dropped",
          "oversize chunks no tracepoint had named yet passed \(Self.maximumOversizeBytes >> 20) MB by offset \(fileOffset); the ones held were dropped"
        )
        oversize = [:]
        oversizeBytes = 0
      }
      if let replaced = oversize.updateValue(stored, forKey: key) {
        oversizeBytes -= replaced.values.count + replaced.privateData.count
      }
      oversizeBytes += size
    }
  }

  /// Emits every tracepoint still waiting for its oversize chunk, without those arguments, and
  /// names why (once per kind).
  private mutating func releaseWaiting(because reason: String, emit: (UnifiedLogEntry) -> Void) {
    guard waitingCount > 0 else { return }
    problem("missing_oversize", reason)
    for key in waiting.keys.sorted(by: { $0.reference < $1.reference }) {
      for pending in waiting[key] ?? [] {
        var entry = pending.entry
        entry.arguments = []
        emitEntry(&entry, emit: emit)
      }
    }
    waiting = [:]
    waitingCount = 0
  }

  private mutating func readStateDump(_ data: [UInt8], emit: (UnifiedLogEntry) -> Void)
    throws(FormatError)
  {
    var cursor = ByteCursor(data)
    let proc = CatalogProcessKey(
      upper: try cursor.u64("a state dump"), lower: try cursor.u32("a state dump"))
    let ttl = try cursor.u8("a state dump")
    try cursor.skip(3, "a state dump")
    let time = try cursor.u64("a state dump")
    let activity = try cursor.u64("a state dump")
    let sender = try cursor.uuid("a state dump")
    let type = try cursor.u32("a state dump")
    let size = Int(try cursor.u32("a state dump"))
    // The decoder's library and type (custom data only; other types may hold remnants there).
    let library = ByteCursor.cString(try cursor.take(64, "a state dump's decoder"))
    let decoder = ByteCursor.cString(try cursor.take(64, "a state dump's decoder"))
    let title = ByteCursor.cString(try cursor.take(64, "a state dump's title"))
    if cursor.remaining < size {
      problemOnce(
        "state_dump_cut",
        "a state dump's data runs past its chunk: rendered from the bytes the chunk holds")
    }
    let body = try cursor.take(min(size, cursor.remaining))
    let process = catalog?.processes[proc]
    var entry = newEntry(time: time, thread: 0, process: process)
    entry.eventType = "stateEvent"
    entry.activityIdentifier = activity & (1 << 63 - 1)
    entry.senderImageUUID = sender
    entry.ttl = Int(ttl)
    // A state dump has no subsystem: when one is asked for, it is never shown, so not rendered.
    if subsystem == nil {
      entry.eventMessage = StateDumpMessage.render(
        title: title, type: type, library: library, decoder: decoder, data: body)
    }
    stateDumps += 1
    emitEntry(&entry, emit: emit)
  }

  private mutating func readSimpleDump(_ data: [UInt8], emit: (UnifiedLogEntry) -> Void)
    throws(FormatError)
  {
    var cursor = ByteCursor(data)
    let proc = CatalogProcessKey(
      upper: try cursor.u64("a simple dump"), lower: try cursor.u32("a simple dump"))
    _ = try cursor.u8()
    let logType = try cursor.u8()
    try cursor.skip(2)
    let time = try cursor.u64("a simple dump")
    let thread = try cursor.u64("a simple dump")
    _ = try cursor.u64("a simple dump")
    let sender = try cursor.uuid("a simple dump")
    _ = try cursor.uuid("a simple dump")
    _ = try cursor.u32("a simple dump")
    let subsystemSize = Int(try cursor.u32("a simple dump"))
    let messageSize = Int(try cursor.u32("a simple dump"))
    let subsystem = ByteCursor.cString(try cursor.take(subsystemSize, "a simple dump"))
    let message = ByteCursor.cString(try cursor.take(messageSize, "a simple dump"))
    var entry = newEntry(time: time, thread: thread, process: catalog?.processes[proc])
    entry.eventType = "logEvent"
    entry.messageType = Self.logTypes[logType]
    entry.subsystem = subsystem.isEmpty ? nil : subsystem
    entry.senderImageUUID = sender
    entry.eventMessage = message
    emitEntry(&entry, emit: emit)
  }
}

// MARK: - The catalog

struct CatalogProcessKey: Hashable {
  var upper: UInt64
  var lower: UInt32
}

package struct CatalogProcess {
  var pid: UInt32
  var mainUUID: LogUUID?
  var dscUUID: LogUUID?
  /// Subsystem and category by identifier, read from the catalog's strings once.
  var subsystems: [UInt16: (subsystem: String?, category: String?)]
  /// The images loaded in the process: UUID, load address, size.
  var images: [(uuid: LogUUID, loadAddress: UInt64, size: UInt32)]
}

struct Catalog {
  var uuids: [LogUUID] = []
  var strings: [UInt8] = []
  var processes: [CatalogProcessKey: CatalogProcess] = [:]

  init(_ data: ArraySlice<UInt8>) throws(FormatError) {
    var cursor = ByteCursor(Array(data))
    let stringsOffset = Int(try cursor.u16("the catalog"))
    let processesOffset = Int(try cursor.u16("the catalog"))
    let processCount = Int(try cursor.u16("the catalog"))
    _ = try cursor.u16("the catalog")  // sub chunks offset
    _ = try cursor.u16("the catalog")  // sub chunk count
    try cursor.skip(6, "the catalog")
    _ = try cursor.u64("the catalog")
    let base = cursor.offset
    guard stringsOffset <= processesOffset, base + processesOffset <= cursor.end else {
      throw FormatError(code: "damaged_catalog", reason: "the catalog's offsets do not fit it")
    }
    for _ in 0..<(stringsOffset / 16) { uuids.append(try cursor.uuid("the catalog's UUIDs")) }
    strings = Array(cursor.bytes[(base + stringsOffset)..<(base + processesOffset)])
    cursor.offset = base + processesOffset
    func uuid(_ index: Int16) -> LogUUID? {
      index >= 0 && Int(index) < uuids.count ? uuids[Int(index)] : nil
    }
    // Each string of the catalog made once, however many processes and entries name it.
    var named: [Int: String?] = [:]
    func name(_ offset: Int) -> String? {
      if let known = named[offset] { return known }
      let made = string(at: offset)
      named[offset] = .some(made)
      return made
    }
    for _ in 0..<processCount {
      let start = cursor.offset
      _ = try cursor.u16("a catalog process")
      _ = try cursor.u16("a catalog process")
      let main = Int16(bitPattern: try cursor.u16("a catalog process"))
      let dsc = Int16(bitPattern: try cursor.u16("a catalog process"))
      let upper = try cursor.u64("a catalog process")
      let lower = try cursor.u32("a catalog process")
      let pid = try cursor.u32("a catalog process")
      try cursor.skip(8, "a catalog process")
      let imageCount = Int(try cursor.u32("a catalog process"))
      _ = try cursor.u32("a catalog process")
      var images: [(LogUUID, UInt64, UInt32)] = []
      for _ in 0..<imageCount {
        let size = try cursor.u32("a catalog image")
        _ = try cursor.u32("a catalog image")
        let index = Int16(bitPattern: try cursor.u16("a catalog image"))
        let low = UInt64(try cursor.u32("a catalog image"))
        let high = UInt64(try cursor.u16("a catalog image"))
        if let image = uuid(index) { images.append((image, low | high << 32, size)) }
      }
      let subsystemCount = Int(try cursor.u32("a catalog process"))
      _ = try cursor.u32("a catalog process")
      var subsystems: [UInt16: (subsystem: String?, category: String?)] = [:]
      for _ in 0..<subsystemCount {
        let identifier = try cursor.u16("a catalog subsystem")
        let subsystem = Int(try cursor.u16("a catalog subsystem"))
        let category = Int(try cursor.u16("a catalog subsystem"))
        subsystems[identifier] = (name(subsystem), name(category))
      }
      cursor.offset = min(cursor.end, start + ((cursor.offset - start + 7) & ~7))
      processes[CatalogProcessKey(upper: upper, lower: lower)] = CatalogProcess(
        pid: pid, mainUUID: uuid(main), dscUUID: uuid(dsc), subsystems: subsystems,
        images: images)
    }
  }

  /// The subsystem or category string at `offset` of the strings.
  func string(at offset: Int) -> String? {
    guard offset >= 0, offset < strings.count else { return nil }
    return ByteCursor.cString(strings[offset...])
  }
}
