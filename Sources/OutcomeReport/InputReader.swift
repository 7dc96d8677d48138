import Telemetry

// HOW ONE INPUT IS READ (reference §2, §3.1, §9; each rule is pinned by a test)
//
//   PHASE     MEANS                                  A LINE THAT IS NOT AN ENTRY START IS …
//   start     nothing recognized yet                 preamble (`Filtering…`, `Skipping…`), a JSON start, or a bare tag
//   text      a timestamped or Console entry seen    a continuation of the previous entry: never a new entry
//   plain     bare tags seen, no timestamps          a bare tag if it starts with the word, else ignored
//   objects   JSON objects seen                      as in plain
//
// A line is an entry start if and only if, after any leading blanks (a capture pasted indented,
// as in an email), it begins with `YYYY-MM-DD HH:MM:SS.d` or with a Console row's layout (a type
// word in any language, a TAB, a time); that moves the input to `text` for good. In `text`, the
// last entry start is kept (in a reused buffer) with the lines after it, its continuation
// (`log stream` output wrapped onto the next lines, a multi-line message), until the next entry
// start; if any of its lines mentions the tag, the entry is read as its first line alone when
// that is a valid tag, else joined with its continuation as the wrap cut it, else with a blank
// between. Outside `text`, a line
// whose first byte is `[` or `{` switches to byte-level JSON reading (JSONObjectSplitter) right
// there, before its end is seen: a pretty array and ndjson lines alike are then read object by
// object, and the first byte at depth 0 that is not JSON goes back to lines. (A `[` or `{` after
// leading blanks does the same once the line is complete.) A `Timestamp …` header names the style.
// `grep -H`/`-n` output is recognized by its `file:` / `file:line:` prefix, tried only on lines
// that mention the tag and only until the input is known to be in a text style (or whenever the
// prefix was seen once: grep output has no continuation lines). The echoed predicate
// (`Filtering the log data using "…"`) is never an entry, even when it contains the tag.
//
// In `text`, a line that does not mention `migration_outcome` is skipped after one substring
// search: that is the hot path of a multi-gigabyte log.

/// Reads one input (a file or standard input) chunk by chunk and feeds what it finds to a tally.
struct InputReader {
  private enum Phase { case start, text, plain, objects }
  private enum Mode { case lines, json }

  private var phase = Phase.start
  private var mode = Mode.lines
  private var isGrepPrefixed = false
  /// How many bytes of a leading UTF-8 byte order mark were seen; nil once past the start.
  private var byteOrderMarkMatched: Int? = 0
  /// The first style recognized in this input.
  private(set) var style: LogStyle?
  /// The start of a line that continues in the next chunk (at most `lineLimit` bytes).
  private var carry: [UInt8] = []
  private var isCarryTruncated = false
  private var splitter: JSONObjectSplitter
  private let lineLimit: Int
  /// The 1-based number of the line being read (for `--verbose`'s FILE:LINE of malformed tags).
  private var lineNumber = 1
  /// The last entry start and its continuation lines, in `text`.
  private var held = HeldEntry()
  /// True from `log show`'s echo of its predicate (`Filtering the log data using …`) until the
  /// next line that is not its continuation: an echo wrapped onto several lines is no tag.
  private var isPredicateEchoOpen = false

  /// An entry's first line and what continues it, until the next entry start.
  private struct HeldEntry {
    var head: [UInt8] = []
    var continuation: [[UInt8]] = []
    var bytes = 0
    var line = 0
    var isEmpty = true
    /// True when a line of it mentions the tag.
    var mentionsTag = false
    /// Continuation lines dropped beyond the limits that mention the tag.
    var droppedMentions = 0

    /// Starts over with `head` (its storage reused).
    mutating func start(_ content: Bytes, line: Int, mentionsTag: Bool) {
      head.removeAll(keepingCapacity: true)
      head.append(contentsOf: content)
      if !continuation.isEmpty { continuation.removeAll() }
      bytes = content.count
      self.line = line
      isEmpty = false
      self.mentionsTag = mentionsTag
      droppedMentions = 0
    }
  }

  /// At most this many continuation lines are joined to an entry.
  private static let continuationLimit = 16

  /// A reader that keeps at most `lineLimit` bytes of one line and of one JSON object.
  init(lineLimit: Int) {
    self.lineLimit = lineLimit
    self.splitter = JSONObjectSplitter(limit: lineLimit)
  }

  /// Reads the next chunk of the input.
  mutating func feed(_ chunk: Bytes, into tally: inout OutcomeTally) {
    var index = 0
    // Text editors may save a Console copy with a byte order mark: drop it, even when it is
    // split across chunks, so that the first line is seen as it is.
    while let matched = byteOrderMarkMatched, index < chunk.count {
      if chunk[index] == Self.byteOrderMark[matched] {
        index += 1
        byteOrderMarkMatched = matched + 1 == Self.byteOrderMark.count ? nil : matched + 1
      } else {
        byteOrderMarkMatched = nil
      }
    }
    while index < chunk.count {
      switch mode {
      case .json:
        index = objects(in: chunk, from: index, into: &tally)
      case .lines:
        if phase != .text && carry.isEmpty && !isCarryTruncated,
          chunk[index] == UInt8(ascii: "[") || chunk[index] == UInt8(ascii: "{")
        {
          // A JSON array or ndjson object at the start of a line: read it object by object
          // from here, so that a whole array on one line is not cut at the line limit.
          mode = .json
          phase = .objects
          note(chunk[index] == UInt8(ascii: "[") ? .json : .ndjson)
          continue
        }
        guard let newline = ByteScan.newline(in: chunk, from: index) else {
          appendCarry(Bytes(rebasing: chunk[index...]))
          return
        }
        let piece = Bytes(rebasing: chunk[index..<newline])
        index = newline + 1
        tally.line = lineNumber
        if carry.isEmpty && !isCarryTruncated {
          line(piece, into: &tally)
        } else {
          appendCarry(piece)
          flushCarry(into: &tally)
        }
        lineNumber += 1
      }
    }
  }

  private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

  /// Reads what is left at the end of the input: a last line without `\n`, an unfinished object.
  mutating func finish(into tally: inout OutcomeTally) {
    switch mode {
    case .lines:
      tally.line = lineNumber
      if !carry.isEmpty || isCarryTruncated { flushCarry(into: &tally) }
      releaseHeld(into: &tally)
    case .json:
      tally.line = lineNumber
      if splitter.isInsideObject {
        let partial = splitter.buffer
        partial.withUnsafeBufferPointer { Self.object($0, into: &tally) }
      }
      splitter.reset()
    }
  }

  // MARK: - Lines

  private mutating func appendCarry(_ bytes: Bytes) {
    let room = lineLimit - carry.count
    if bytes.count > room { isCarryTruncated = true }
    carry.append(contentsOf: bytes.prefix(max(room, 0)))
  }

  private mutating func flushCarry(into tally: inout OutcomeTally) {
    var pending: [UInt8] = []
    swap(&pending, &carry)
    pending.withUnsafeBufferPointer { line($0, into: &tally) }
    pending.removeAll(keepingCapacity: true)
    swap(&pending, &carry)
    isCarryTruncated = false
  }

  /// Reads `raw` as the lines it holds: besides LF, every line break Unicode has (NEL, U+2028,
  /// U+2029, form feed, vertical tab; a CR is made an LF before) and an HTML `<br>` end a line, so
  /// a capture pasted from a mail, a web page or an editor that used them loses no tag.
  private mutating func line(_ raw: Bytes, into tally: inout OutcomeTally) {
    var start = 0
    while let found = ByteScan.otherLineBreak(in: raw, from: start) {
      readLine(Bytes(rebasing: raw[start..<found.at]), into: &tally)
      start = found.at + found.width
    }
    readLine(start == 0 ? raw : Bytes(rebasing: raw[start...]), into: &tally)
  }

  private mutating func readLine(_ raw: Bytes, into tally: inout OutcomeTally) {
    let line = ByteScan.trimmingTrailingBlanks(raw)
    let mentionsTag = ByteScan.mentionsTag(line)
    let first = ByteScan.firstNonBlank(line)
    let content = Bytes(rebasing: line[first...])
    if phase != .text {
      if ByteScan.hasPrefix(content, "Filtering the log data") {
        isPredicateEchoOpen = true
      } else if isPredicateEchoOpen {
        if mentionsTag, !ByteScan.startsEntry(content),
          !ByteScan.startsWithTagWord(line, at: first)
        {
          tally.ignore()  // the rest of a wrapped predicate echo
          return
        }
        isPredicateEchoOpen = false
      }
    }
    if ByteScan.startsEntry(content) {
      releaseHeld(into: &tally)
      if phase != .text {
        phase = .text
        note(TextEntryParser.style(of: content))
      }
      held.start(content, line: lineNumber, mentionsTag: mentionsTag)
      return
    }
    if phase == .text {
      // A continuation of the entry held (a wrapped line, a multi-line message).
      hold(continuation: line, mentionsTag: mentionsTag, into: &tally)
      return
    }
    if first < line.count {
      if line[first] == UInt8(ascii: "[")
        || (line[first] == UInt8(ascii: "{") && line[line.count - 1] != UInt8(ascii: "}"))
      {
        enterJSON(Bytes(rebasing: line[first...]), into: &tally)
        return
      }
      if line[first] == UInt8(ascii: "{") {
        phase = .objects
        note(.ndjson)
        if mentionsTag {
          Self.object(Bytes(rebasing: line[first...]), into: &tally)
        }
        return
      }
      if let header = TextEntryParser.style(ofHeader: content) {
        phase = .text
        note(header)
        return
      }
    }
    guard mentionsTag else { return }
    if bare(line, from: first, into: &tally) { return }
    if !ByteScan.hasPrefix(content, "Filtering the log data"), let start = Self.grepRemainder(line)
    {
      isGrepPrefixed = true
      prefixed(Bytes(rebasing: line[start...]), into: &tally)
      return
    }
    if Self.echoesPredicate(content) {
      tally.ignore()  // the echoed predicate, perhaps behind a grep prefix
    } else {
      tally.cannotRead()
    }
  }

  /// Adds a continuation line to the held entry, within the limits. In a `grep` output (which
  /// has no continuation lines), a line that mentions the tag is read as such.
  private mutating func hold(continuation: Bytes, mentionsTag: Bool, into tally: inout OutcomeTally)
  {
    if mentionsTag, isGrepPrefixed, let start = Self.grepRemainder(continuation) {
      releaseHeld(into: &tally)
      prefixed(Bytes(rebasing: continuation[start...]), into: &tally)
      return
    }
    guard !held.isEmpty else {
      if mentionsTag { tally.cannotRead() }
      return
    }
    if mentionsTag { held.mentionsTag = true }
    if held.continuation.count < Self.continuationLimit,
      held.bytes + continuation.count <= lineLimit
    {
      held.continuation.append(Array(continuation))
      held.bytes += continuation.count
    } else if mentionsTag {
      held.droppedMentions += 1
    }
  }

  /// Reads the held entry: its first line alone when that is a valid Ditto tag, else joined with
  /// its continuation as the wrap cut it, else with a blank between; else as its first line (a
  /// mention the tally sorts out). Continuation lines that mention the tag and are not part of
  /// what was read could not be read.
  private mutating func releaseHeld(into tally: inout OutcomeTally) {
    guard !held.isEmpty else { return }
    held.isEmpty = true
    // A wrap may cut the tag's word itself: then only the joined entry shows it.
    guard held.mentionsTag || !held.continuation.isEmpty else { return }
    let entry = held
    let cut = entry.head + entry.continuation.joined()
    guard entry.mentionsTag || cut.withUnsafeBufferPointer(ByteScan.mentionsTag) else { return }
    let current = tally.line
    tally.line = entry.line
    defer { tally.line = current }
    let headMentions = entry.head.withUnsafeBufferPointer { ByteScan.mentionsTag($0) }
    let continuationMentions = max(
      entry.continuation.filter { piece in piece.withUnsafeBufferPointer(ByteScan.mentionsTag) }
        .count + entry.droppedMentions, headMentions ? 0 : 1)
    if headMentions, entry.continuation.isEmpty || Self.readsAsDittoTag(entry.head) {
      Self.record(entry.head, into: &tally)
      for _ in 0..<continuationMentions { tally.cannotRead() }
      return
    }
    if let joined = Self.joinedAsDittoTag(entry.head, entry.continuation) {
      Self.record(joined, into: &tally)
      for _ in 0..<entry.droppedMentions { tally.cannotRead() }
      return
    }
    if headMentions {
      Self.record(entry.head, into: &tally)
      for _ in 0..<continuationMentions { tally.ignore() }
      return
    }
    // The tag only in what continues an entry (a multi-line message quoting it, a wrap that
    // broke it): the entry as a whole is read, and the tally sorts it out (someone else's, not
    // a tag, malformed); an entry whose layout is unknown could not be read.
    if let whole = cut.withUnsafeBufferPointer(TextEntryParser.parse) {
      tally.record(whole)
      for _ in 1..<max(continuationMentions, 1) { tally.ignore() }
    } else {
      for _ in 0..<continuationMentions { tally.cannotRead() }
    }
  }

  /// Pieces of a wrapped entry joined back into a line that reads as a Ditto tag, or nil. Every
  /// line's trailing blanks were trimmed, so a wrap that fell after a blank (`fold -s`, or `fold`
  /// landing on one) lost it: at each cut the pieces are joined as they are, or with one blank
  /// between, and the first combination that reads as a tag wins, joining as cut first (a cut
  /// inside a word or a value, `migration_o` / `utcome`). An entry cut more than ``joinLimit``
  /// times is tried as cut and with a blank at every cut only.
  private static func joinedAsDittoTag(_ head: [UInt8], _ pieces: [[UInt8]]) -> [UInt8]? {
    let cuts = pieces.count
    let masks: [UInt64] =
      cuts <= joinLimit ? Array(0..<(UInt64(1) << UInt64(cuts))) : [0, (UInt64(1) << 63) - 1]
    for mask in masks {
      var joined = head
      for (index, piece) in pieces.enumerated() {
        if mask >> UInt64(min(index, 62)) & 1 == 1 { joined.append(UInt8(ascii: " ")) }
        joined += piece
      }
      if readsAsDittoTag(joined) { return joined }
    }
    return nil
  }

  /// Cuts inside one entry up to which every combination of joins is tried (2^10 at most).
  static let joinLimit = 10

  /// True when `line` is `log show`'s echo of its predicate (`Filtering the log data using …`),
  /// at its start or after a `grep -H` prefix.
  private static func echoesPredicate(_ line: Bytes) -> Bool {
    String(decoding: line.prefix(4096), as: UTF8.self).contains("Filtering the log data using")
  }

  /// True when `line` parses as an entry of Ditto's scope whose message is a valid tag.
  private static func readsAsDittoTag(_ line: [UInt8]) -> Bool {
    line.withUnsafeBufferPointer { bytes in
      guard let entry = TextEntryParser.parse(bytes), entry.scope != .other else { return false }
      if case .line = TelemetryLine.parse(entry.message) { return true }
      return false
    }
  }

  private static func record(_ line: [UInt8], into tally: inout OutcomeTally) {
    line.withUnsafeBufferPointer { entry($0, into: &tally) }
  }

  /// Counts a bare tag or a grepped JSON `"eventMessage"` line; false when it is neither.
  private mutating func bare(_ line: Bytes, from first: Int, into tally: inout OutcomeTally)
    -> Bool
  {
    if ByteScan.startsWithTagWord(line, at: first) {
      if phase == .start { phase = .plain }
      note(.plain)
      tally.record(TextEntryParser.plain(Bytes(rebasing: line[first...])))
      return true
    }
    if JSONEntryDecoder.isEventMessageLine(line, from: first) {
      if phase == .start { phase = .plain }
      note(.json)
      if let entry = JSONEntryDecoder.decodeEventMessageLine(line, from: first) {
        tally.record(entry)
      } else {
        tally.countBroken()
      }
      return true
    }
    return false
  }

  /// Counts what follows a `grep -H` / `grep -n` prefix.
  private mutating func prefixed(_ rest: Bytes, into tally: inout OutcomeTally) {
    if ByteScan.startsEntry(rest) {
      note(TextEntryParser.style(of: rest))
      Self.entry(rest, into: &tally)
    } else if rest.first == UInt8(ascii: "{") {
      note(.ndjson)
      Self.object(rest, into: &tally)
    } else if !bare(rest, from: ByteScan.firstNonBlank(rest), into: &tally) {
      tally.cannotRead()
    }
  }

  /// Where the line continues after a `file:` or `file:line:` prefix, when what follows is
  /// something this reader recognizes; nil otherwise. Tries the first 16 colons of the line.
  static func grepRemainder(_ line: Bytes) -> Int? {
    var colons = 0
    for index in 0..<min(line.count, 4096) where line[index] == UInt8(ascii: ":") {
      colons += 1
      guard colons <= 16 else { return nil }
      var candidates = [index + 1]
      var digit = index + 1
      while digit < line.count, ByteScan.isDigit(line[digit]) { digit += 1 }
      if digit > index + 1, digit < line.count, line[digit] == UInt8(ascii: ":") {
        candidates.append(digit + 1)
      }
      for start in candidates where isRecognized(Bytes(rebasing: line[start...])) {
        return start
      }
    }
    return nil
  }

  private static func isRecognized(_ rest: Bytes) -> Bool {
    guard let first = rest.first else { return false }
    if ByteScan.startsEntry(rest) || ByteScan.startsWithTagWord(rest, at: 0) { return true }
    if first == UInt8(ascii: "{") { return rest[rest.count - 1] == UInt8(ascii: "}") }
    return JSONEntryDecoder.isEventMessageLine(rest, from: ByteScan.firstNonBlank(rest))
  }

  private static func entry(_ line: Bytes, into tally: inout OutcomeTally) {
    if let entry = TextEntryParser.parse(line) {
      tally.record(entry)
    } else {
      tally.cannotRead()
    }
  }

  // MARK: - JSON

  private mutating func enterJSON(_ line: Bytes, into tally: inout OutcomeTally) {
    mode = .json
    phase = .objects
    note(.json)
    let stop = objects(in: line, from: 0, into: &tally)
    if stop < line.count { self.line(Bytes(rebasing: line[stop...]), into: &tally) }
  }

  /// Reads objects from `bytes`; returns where line reading resumes (`bytes.count` if it does not).
  private mutating func objects(in bytes: Bytes, from start: Int, into tally: inout OutcomeTally)
    -> Int
  {
    var index = start
    while true {
      switch splitter.next(in: bytes, from: index) {
      case .object(let objectStart, let end):
        // An object is located by the line it ends on (its closing brace), whatever the chunks.
        lineNumber += ByteScan.newlines(in: bytes, index..<end)
        tally.line = lineNumber
        Self.object(Bytes(rebasing: bytes[objectStart..<end]), into: &tally)
        index = end
      case .bufferedObject(let end):
        lineNumber += ByteScan.newlines(in: bytes, index..<end)
        tally.line = lineNumber
        let buffered = splitter.buffer
        buffered.withUnsafeBufferPointer { Self.object($0, into: &tally) }
        splitter.clearBuffer()
        index = end
      case .needMore:
        lineNumber += ByteScan.newlines(in: bytes, index..<bytes.count)
        return bytes.count
      case .notJSON(let at):
        mode = .lines
        lineNumber += ByteScan.newlines(in: bytes, index..<at)
        return at
      }
    }
  }

  private static func object(_ bytes: Bytes, into tally: inout OutcomeTally) {
    guard ByteScan.mentionsTag(bytes) else { return }
    switch JSONEntryDecoder.decode(bytes) {
    case .entry(let entry): tally.record(entry)
    case .notAnEntry: tally.ignore()
    case .broken: tally.countBroken()
    }
  }

  private mutating func note(_ detected: LogStyle?) {
    if style == nil { style = detected }
  }

  /// The input's style, known without reading its bytes (an archive's entries, read as ndjson).
  mutating func noteStyle(_ known: LogStyle) { note(known) }
}
