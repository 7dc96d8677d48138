import Foundation

// `log show --style json` / `ndjson` OBJECTS (reference §6–§7; pinned by tests)
//
//   KEY            TYPE      USE
//   eventMessage   string    the message; only its first line is read as a tag (null: not an entry)
//   subsystem      string    must be "io.kern.ditto" when the key is present ("" = no subsystem)
//   category       string    must be "LegacyDataMigrator" when the key is present
//   timestamp      string    "2025-03-14 09:12:03.512345-0700", same text as the default style
//   processID      integer   pid
//   threadID       integer   decimal thread id (the default style prints the same number in hex)
//   finished       any       marks the ndjson trailer `{"count":N,"finished":1}`: not an entry
//
// Key order differs between macOS versions and does not matter. Slashes arrive escaped (`\/`) and
// line breaks as `\n`; `JSONSerialization` undoes both. An object is decoded only when its raw
// bytes contain `migration_outcome`; all others are skipped unparsed. An object that contains the
// word but is not valid JSON (cut off, or longer than the object limit) yields ``Decoded/broken``.
// An object with neither `subsystem` nor `category` (hand-trimmed captures) is unscoped and
// accepted; one with only one of them is judged on that one. Identity needs `timestamp` and
// `processID`; `threadID` joins it when present. `traceID` is left out on purpose, so that a JSON
// and a default-style copy of one sysdiagnose de-duplicate against each other.

/// Turns one JSON object, or one grepped `"eventMessage" : "…"` line, into a ``LogEntry``.
enum JSONEntryDecoder {
  /// What one object turned out to be.
  enum Decoded: Equatable {
    /// An entry with a string message.
    case entry(LogEntry)
    /// Valid JSON with no string `eventMessage`, or the ndjson trailer.
    case notAnEntry
    /// Not valid JSON (cut off or over the size limit).
    case broken
  }

  /// Decodes the object in `bytes`.
  static func decode(_ bytes: Bytes) -> Decoded {
    let data = Data(buffer: bytes)
    guard let parsed = try? JSONSerialization.jsonObject(with: data),
      let object = parsed as? [String: Any]
    else { return .broken }
    guard object["finished"] == nil, let fullMessage = object["eventMessage"] as? String else {
      return .notAnEntry
    }
    let message = tagMessage(fullMessage)
    let scope = EntryScope.of(
      present: object["subsystem"] as? String, object["category"] as? String)
    guard let timestamp = object["timestamp"] as? String, !timestamp.isEmpty,
      let pid = integer(object["processID"])
    else {
      let time = (object["timestamp"] as? String).flatMap { LogTimestamp.microseconds($0) }
      return .entry(LogEntry(scope: scope, message: message, time: time))
    }
    let thread = integer(object["threadID"]).flatMap { UInt64(exactly: $0) }
    return .entry(
      LogEntry(timestamp: timestamp, pid: pid, thread: thread, scope: scope, message: message))
  }

  /// True when a line (from `start`) is a pretty-printed `"eventMessage" : …` member, as
  /// `grep migration_outcome` on a `--style json` capture prints it.
  static func isEventMessageLine(_ line: Bytes, from start: Int) -> Bool {
    ByteScan.hasPrefix(Bytes(rebasing: line[start...]), "\"eventMessage\"")
  }

  /// The message of a grepped `"eventMessage" : "…",` line, as a bare tag (the lines that named
  /// its subsystem and time were not part of the grep output); nil if the value is not a string.
  static func decodeEventMessageLine(_ line: Bytes, from start: Int) -> LogEntry? {
    let member = String(decoding: Bytes(rebasing: line[start...]), as: UTF8.self)
    guard let colon = member.firstIndex(of: ":") else { return nil }
    var value = String(member[member.index(after: colon)...]).trimmingBlanks()
    if value.hasSuffix(",") { value.removeLast() }
    guard let data = value.data(using: .utf8),
      let text = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
        as? String
    else { return nil }
    return LogEntry(scope: .unscoped, message: firstLine(of: text).trimmingBlanks())
  }

  /// What of a message is read as a tag: its first line, trailing blanks removed.
  static func tagMessage(_ message: String) -> String {
    firstLine(of: message).trimmingBlanks()
  }

  private static func firstLine(of text: String) -> String {
    String(text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\r\n" })
  }

  private static func integer(_ value: Any?) -> Int? {
    if let number = value as? Int { return number }
    if let number = value as? NSNumber { return Int(exactly: number.doubleValue) }
    return nil
  }
}
