// `log show` TEXT LINES (reference/apple-unified-log-formats.md §3–§5, §8; each layout is pinned by a test)
//
//   STYLE     LAYOUT OF AN ENTRY'S FIRST LINE                                          IDENTITY
//   default   <date> <time±zone> <0xthread> <Type> <0xactivity> <pid> [<ttl>] <process>: …   time, pid, thread
//   compact   <date> <time.mmm> <Ty> <process>[<pid>:<hex tid>] …                            time, pid, thread
//   syslog    <date> <time±zone>  <host> <process>[<pid>]: …                                 time, pid
//   console   <type>\t<time>\t<process>[\t<subsystem>\t<category>]\t<message>                none
//
// Fields are split on runs of blanks, never sliced by column. After the process come, in this
// order and each optional: `(sender)`, `[spid …]` (signposts), `[subsystem:category]`; the
// message follows. The style is told by the third word: `0x…` is default; a time without a zone
// is compact; anything else is syslog (its host is usually `localhost`).
//
// An entry counts for Ditto if and only if (1) its `[subsystem:category]` is
// `[io.kern.ditto:LegacyDataMigrator]`, or (2) its format has no such field at all (a Console copy
// with the default columns). A default, compact or syslog line without the bracket has no
// subsystem, so it is someone else's line. A Console copy with more columns than the default four
// takes the first two extra columns as subsystem and category (one extra column: it must be
// `io.kern.ditto` or `LegacyDataMigrator`).
//
// A line that starts like an entry but does not match its layout is not counted (it is
// "ignored" in the report). Console copies carry neither a pid nor (by default) a date, so their
// entries are never de-duplicated.

/// Parses the first line of a text-style entry into a ``LogEntry``.
enum TextEntryParser {
  /// Parses a line that starts with a timestamp or a Console type; nil when the layout does not
  /// match any style.
  static func parse(_ line: Bytes) -> LogEntry? {
    let bytes = Array(line)
    if ByteScan.startsWithTimestamp(line) { return parseTimestamped(bytes) }
    if ByteScan.startsWithConsoleType(line) { return parseConsole(bytes) }
    return nil
  }

  /// A bare tag line: no identity, no scope.
  static func plain(_ line: Bytes) -> LogEntry {
    LogEntry(scope: .unscoped, message: text(Array(line)[...]).trimmingBlanks())
  }

  /// The style of an entry's first line, told cheaply from its shape; nil if it is not one.
  static func style(of line: Bytes) -> LogStyle? {
    if ByteScan.startsWithConsoleType(line) { return .console }
    guard ByteScan.startsWithTimestamp(line) else { return nil }
    var index = 11
    var hasZone = false
    while index < line.count, !ByteScan.isBlank(line[index]) {
      if line[index] == UInt8(ascii: "+") || line[index] == UInt8(ascii: "-") { hasZone = true }
      index += 1
    }
    guard hasZone else { return .compact }
    while index < line.count, ByteScan.isBlank(line[index]) { index += 1 }
    return ByteScan.hasPrefix(Bytes(rebasing: line[index...]), "0x") ? .default : .syslog
  }

  /// The style a `log show` column header announces (`Timestamp  Thread …`, `Timestamp  Ty …`,
  /// `Timestamp  (process)[PID]`); nil if the line is not such a header.
  static func style(ofHeader line: Bytes) -> LogStyle? {
    guard ByteScan.hasPrefix(line, "Timestamp ") else { return nil }
    let words = String(decoding: line, as: UTF8.self).split(whereSeparator: { $0 == " " })
    if words.contains("Thread") { return .default }
    if words.contains("(process)[PID]") { return .syslog }
    if words.contains("Ty") { return .compact }
    return nil
  }

  // MARK: - Timestamped styles

  private static func parseTimestamped(_ bytes: [UInt8]) -> LogEntry? {
    var cursor = Cursor(bytes: bytes)
    guard let date = cursor.word(), let time = cursor.word(), let third = cursor.word() else {
      return nil
    }
    let timestamp = text(date) + " " + text(time)
    if !time.contains(UInt8(ascii: "+")) && !time.contains(UInt8(ascii: "-")) {
      return parseCompact(bytes, timestamp: timestamp, after: cursor.index)
    }
    if third.starts(with: Array("0x".utf8)) {
      return parseDefault(&cursor, timestamp: timestamp, thread: hex(third.dropFirst(2)))
    }
    return parseSyslog(bytes, timestamp: timestamp, after: cursor.index)
  }

  private static func parseDefault(_ cursor: inout Cursor, timestamp: String, thread: UInt64?)
    -> LogEntry?
  {
    guard let thread, cursor.word() != nil, let activity = cursor.word(),
      activity.starts(with: Array("0x".utf8)), let pidWord = cursor.word(),
      let pid = decimal(pidWord)
    else { return nil }
    var probe = cursor
    if let ttl = probe.word(), decimal(ttl) != nil { cursor = probe }
    let bytes = cursor.bytes
    var index = cursor.index
    while index < bytes.count, bytes[index] != UInt8(ascii: ":") { index += 1 }
    guard index < bytes.count, index + 1 == bytes.count || ByteScan.isBlank(bytes[index + 1])
    else { return nil }
    let (scope, message) = decorations(bytes, from: index + 1)
    return LogEntry(
      timestamp: timestamp, pid: pid, thread: thread, scope: scope,
      message: message)
  }

  private static func parseCompact(_ bytes: [UInt8], timestamp: String, after start: Int)
    -> LogEntry?
  {
    // `process[pid:tid]`: the process name may contain blanks, so find the bracket itself.
    var open = start
    while open < bytes.count {
      if bytes[open] == UInt8(ascii: "["), let close = bytes[open...].firstIndex(of: 0x5D) {
        let inside = bytes[(open + 1)..<close].split(separator: UInt8(ascii: ":"))
        if inside.count == 2, let pid = decimal(inside[0]), let thread = hex(inside[1]) {
          let (scope, message) = decorations(bytes, from: close + 1)
          return LogEntry(
            timestamp: timestamp, pid: pid, thread: thread, scope: scope,
            message: message)
        }
      }
      open += 1
    }
    return nil
  }

  private static func parseSyslog(_ bytes: [UInt8], timestamp: String, after start: Int)
    -> LogEntry?
  {
    // `process[pid]:`: as in compact, the name may contain blanks.
    var open = start
    while open < bytes.count {
      if bytes[open] == UInt8(ascii: "["), let close = bytes[open...].firstIndex(of: 0x5D),
        close + 1 < bytes.count, bytes[close + 1] == UInt8(ascii: ":"),
        let pid = decimal(bytes[(open + 1)..<close])
      {
        let (scope, message) = decorations(bytes, from: close + 2)
        return LogEntry(
          timestamp: timestamp, pid: pid, thread: nil, scope: scope,
          message: message)
      }
      open += 1
    }
    return nil
  }

  /// Reads the optional `(sender)`, `[spid …]` and `[subsystem:category]` after the process,
  /// and returns the scope and the message that follows them.
  private static func decorations(_ bytes: [UInt8], from start: Int) -> (EntryScope, String) {
    var index = skipBlanks(bytes, from: start)
    var sawSender = false
    while index < bytes.count {
      let closer: UInt8
      switch bytes[index] {
      case UInt8(ascii: "(") where !sawSender: closer = UInt8(ascii: ")")
      case UInt8(ascii: "["): closer = UInt8(ascii: "]")
      default: return (.other, text(bytes[index...]).trimmingBlanks())
      }
      guard let close = bytes[index...].firstIndex(of: closer),
        close + 1 == bytes.count || ByteScan.isBlank(bytes[close + 1])
      else { break }
      let inside = bytes[(index + 1)..<close]
      let next = skipBlanks(bytes, from: close + 1)
      if closer == UInt8(ascii: ")") {
        sawSender = true
      } else if inside.starts(with: Array("spid ".utf8)) {
        // A signpost marker; the subsystem may follow.
      } else if let colon = inside.firstIndex(of: UInt8(ascii: ":")) {
        let scope = EntryScope.of(
          subsystem: text(inside[..<colon]), category: text(inside[(colon + 1)...]))
        return (scope, text(bytes[next...]).trimmingBlanks())
      } else {
        break
      }
      index = next
    }
    return (.other, text(bytes[min(index, bytes.count)...]).trimmingBlanks())
  }

  // MARK: - Console copies

  private static func parseConsole(_ bytes: [UInt8]) -> LogEntry? {
    let fields = bytes.split(separator: 0x09, omittingEmptySubsequences: false)
    guard fields.count >= 4, let last = fields.last else { return nil }
    let extra = fields[3..<(fields.count - 1)].map { text($0) }
    let scope: EntryScope
    switch extra.count {
    case 0: scope = .unscoped
    case 1:
      scope = [EntryScope.subsystem, EntryScope.category].contains(extra[0]) ? .ditto : .other
    default: scope = .of(subsystem: extra[0], category: extra[1])
    }
    let time = LogTimestamp.microseconds(text(fields[1]).trimmingBlanks())
    return LogEntry(scope: scope, message: text(last).trimmingBlanks(), time: time)
  }

  // MARK: - Helpers

  /// Words separated by runs of blanks.
  private struct Cursor {
    let bytes: [UInt8]
    var index = 0

    mutating func word() -> ArraySlice<UInt8>? {
      index = skipBlanks(bytes, from: index)
      let start = index
      while index < bytes.count, !ByteScan.isBlank(bytes[index]) { index += 1 }
      return index > start ? bytes[start..<index] : nil
    }
  }

  private static func skipBlanks(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start
    while index < bytes.count, ByteScan.isBlank(bytes[index]) { index += 1 }
    return index
  }

  static func text(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

  private static func decimal(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard (1...9).contains(bytes.count), bytes.allSatisfy(ByteScan.isDigit) else { return nil }
    return Int(text(bytes))
  }

  private static func hex(_ bytes: ArraySlice<UInt8>) -> UInt64? {
    guard (1...16).contains(bytes.count) else { return nil }
    return UInt64(text(bytes), radix: 16)
  }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  func trimmingBlanks() -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
      let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
    else { return "" }
    return String(scalars[first...last])
  }
}
