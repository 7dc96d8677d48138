#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts `migration_outcome` tags in any number of `log show` captures, in one streaming pass.
///
/// Feed each input as a sequence of byte chunks between ``beginInput()`` and ``endInput()``
/// (or let ``scan(path:chunkSize:)`` / ``scan(fileDescriptor:name:chunkSize:)`` do it), then call
/// ``finish()``. Chunks may split lines, UTF-8 sequences and JSON objects anywhere: the result is
/// the same for any chunking. The scanner keeps counters, a carry of at most one line or one JSON
/// object (capped by ``Options/maximumLineLength``), and the identities of counted tags for
/// de-duplication; it never holds an input.
///
/// Each input is one device's capture: the report reduces it to one device outcome (see
/// ``DeviceOutcome``) and, with ``CountingUnit/device``, weighs devices rather than tags.
///
/// Each input's style is detected on its own (`log show` default, compact, syslog, json, ndjson,
/// Console.app copies in any language, bare tags, `grep -H` output), from its header when there
/// is one and line by line otherwise; its encoding from its first bytes (gzip, UTF-16 with or
/// without a byte-order mark, UTF-8), and binary data is never read as a capture. Entries repeated across inputs (overlapping windows, copies of one
/// sysdiagnose) are counted once when they carry a timestamp and a pid.
///
/// ```swift
/// var scanner = OutcomeScanner()
/// for path in paths { try scanner.scan(path: path) }  // one device each
/// print(scanner.finish().textReport())
/// ```
package struct OutcomeScanner {
  /// Settings for a scan.
  package struct Options: Equatable, Sendable {
    /// How the counts become a verdict.
    package var rule: VerdictRule
    /// What the verdict weighs: devices (the default) or tags.
    package var unit: CountingUnit
    /// The most bytes kept of one line or one JSON object. A longer line is cut (its tag, near
    /// the start, is still read); a longer object cannot be decoded and, if it mentions the tag,
    /// counts as malformed. At least 4096.
    package var maximumLineLength: Int

    /// Options with the standard rule, devices weighed and a 1 MiB line limit by default.
    package init(
      rule: VerdictRule = .standard, unit: CountingUnit = .device, maximumLineLength: Int = 1 << 20
    ) {
      self.rule = rule
      self.unit = unit
      self.maximumLineLength = max(maximumLineLength, 4096)
    }
  }

  /// The settings given at creation.
  package let options: Options
  /// How the report, its notes and its warnings name a file given by its path (the tool names an
  /// argument it reached through a stand-in by the bytes typed); the path as given by default.
  package var naming: (String) -> String = { $0 }
  private var tally = OutcomeTally()
  private var reader: InputReader?
  private var decoder = CaptureDecoder()
  private var decoded: [UInt8] = []
  /// The problem of the unified-log archive being read (``scanLogArchive(path:kind:)``).
  var archiveProblem: InputProblem?

  /// A scanner with no inputs read yet.
  package init(options: Options = Options()) {
    self.options = options
  }

  /// Starts a new input, one device's capture, that the report calls `name` (a path, or `-`):
  /// style detection and continuation lines start over. Ends the current input first, if any.
  /// Called with each chunk's byte count as ``scan(fileDescriptor:name:input:chunkSize:)`` reads
  /// a file (for a progress line); nil by default.
  package var onRead: ((Int) -> Void)?

  package mutating func beginInput(name: String = "-") {
    endInput()
    reader = InputReader(lineLimit: options.maximumLineLength)
    decoder = CaptureDecoder()
    tally.beginDevice(name)
  }

  /// Reads the next chunk of the current input (starting one if needed).
  package mutating func consume(_ bytes: some Collection<UInt8>) {
    let done: Void? = bytes.withContiguousStorageIfAvailable { feed($0) }
    if done == nil {
      Array(bytes).withUnsafeBufferPointer { feed($0) }
    }
  }

  /// Reads the next chunk of the current input (starting one if needed), without copying it.
  package mutating func consume(_ bytes: UnsafeRawBufferPointer) {
    feed(bytes.assumingMemoryBound(to: UInt8.self))
  }

  /// Counts one entry of the unified-log archive being read (``scanLogArchive(path:kind:)``), on
  /// line `line` of its input, as its `log show --style ndjson` line would count: the input's
  /// style is ndjson; `entry` is nil for an entry that does not mention the tag.
  mutating func recordArchiveEntry(_ entry: LogEntry?, line: Int) {
    if reader == nil { beginInput() }
    reader?.noteStyle(.ndjson)
    guard let entry else { return }
    tally.line = line
    tally.record(entry)
  }

  /// Ends the current input: a last line without a line break is read, an unfinished JSON
  /// object is counted as malformed if it mentions the tag. Does nothing without an input.
  package mutating func endInput() {
    guard reader != nil else { return }
    decoder.finish(into: &decoded)
    feedDecoded()
    guard var current = reader else { return }
    reader = nil
    current.finish(into: &tally)
    tally.inputs += 1
    tally.noteInput(encoding: decoder.encoding, problem: archiveProblem ?? decoder.problem)
    archiveProblem = nil
    if let style = current.style, decoder.problem != .binary {
      tally.styles[style, default: 0] += 1
    }
  }

  /// Counts an input that could not be read at all as one device whose problem says why: the
  /// sample is then incomplete, never silently smaller.
  package mutating func noteUnread(input name: String, reason: String) {
    beginInput(name: name)
    archiveProblem = .notRead(reason)
    endInput()
  }

  /// Ends the current input and returns the counts so far. The scanner can go on afterwards.
  package mutating func finish() -> OutcomeSummary {
    endInput()
    return OutcomeSummary(tally: tally, rule: options.rule, unit: options.unit)
  }

  private mutating func feed(_ chunk: Bytes) {
    if reader == nil { beginInput() }
    if decoder.passesThrough {
      reader?.feed(chunk, into: &tally)
      return
    }
    // In small pieces: a gzip stream may expand a thousandfold, and what one piece expands to is
    // read before the next is decoded, so memory stays bounded whatever the input expands to.
    var start = chunk.startIndex
    while start < chunk.endIndex {
      let end = min(chunk.endIndex, start + Self.decodePiece)
      decoder.decode(Bytes(rebasing: chunk[start..<end]), into: &decoded)
      feedDecoded()
      start = end
    }
  }

  /// The most input bytes decoded at once (at most about 4 MiB once expanded).
  static let decodePiece = 4096

  /// Reads what the decoder made of the input so far.
  private mutating func feedDecoded() {
    guard !decoded.isEmpty else { return }
    var text: [UInt8] = []
    swap(&text, &decoded)
    text.withUnsafeBufferPointer { reader?.feed($0, into: &tally) }
    swap(&text, &decoded)
  }
}

// MARK: - Reading files and descriptors

extension OutcomeScanner {
  /// The chunk size of ``scan(path:chunkSize:)`` and ``scan(fileDescriptor:name:chunkSize:)``.
  package static let defaultChunkSize = 1 << 20

  /// Reads the file at `path` as one input, in chunks of `chunkSize` bytes.
  ///
  /// Pipes and process substitutions (`<(ssh host log show …)`) work too; the path is opened
  /// once and read to its end. Memory stays flat whatever the size.
  ///
  /// - Throws: ``OutcomeReportError/cannotOpen(file:code:)`` or
  ///   ``OutcomeReportError/cannotRead(file:code:)``, naming `path`. After a read error, the
  ///   counts from the bytes read so far stay in the scanner.
  package mutating func scan(path: String, chunkSize: Int = defaultChunkSize)
    throws(OutcomeReportError)
  {
    // O_NONBLOCK for the open only: a FIFO nobody writes to opens (and reads as empty) instead
    // of blocking for ever; reads then block as usual, so a pipe being written is read to its end.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { throw .cannotOpen(file: path, code: errno) }
    defer { close(descriptor) }
    let flags = fcntl(descriptor, F_GETFL)
    if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
    try scan(
      fileDescriptor: descriptor, name: naming(path), input: naming(path), chunkSize: chunkSize)
  }

  /// Reads an open descriptor (standard input is `0`) to its end as one input, in chunks of
  /// `chunkSize` bytes. The descriptor is not closed.
  ///
  /// - Parameters:
  ///   - name: what errors call the input (`standard input`, a path).
  ///   - input: what the report calls the device (`-` by default).
  /// - Throws: ``OutcomeReportError/cannotRead(file:code:)`` naming `name`.
  package mutating func scan(
    fileDescriptor: Int32, name: String, input: String = "-", chunkSize: Int = defaultChunkSize
  ) throws(OutcomeReportError) {
    let size = max(chunkSize, 1)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    beginInput(name: input)
    defer { endInput() }
    while true {
      let count = read(fileDescriptor, buffer.baseAddress, size)
      if count < 0 {
        if errno == EINTR { continue }
        throw .cannotRead(file: name, code: errno)
      }
      if count == 0 { return }
      consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
      onRead?(count)
    }
  }
}
