/// The layout an input was written in, as the scanner recognized it.
///
/// Raw values are the `log show --style` names, plus `console` for a Console.app copy and `plain`
/// for lines that hold only the tag (what `grep -o` or a hand copy leaves).
package enum LogStyle: String, CaseIterable, Sendable {
  /// `log show` without `--style`: timestamp, thread, type, activity, pid, ttl, process.
  case `default`
  /// `--style compact`: millisecond timestamp, two-letter type, `process[pid:tid]`.
  case compact
  /// `--style syslog`: timestamp, host, `process[pid]:`.
  case syslog
  /// `--style json`: one pretty-printed array of objects.
  case json
  /// `--style ndjson`: one object per line, then a `finished` record.
  case ndjson
  /// Rows copied from Console.app: TAB-separated columns.
  case console
  /// Bare tags, with no timestamp or columns.
  case plain
}

/// Whether an entry's subsystem and category make it one of Ditto's migrator lines.
enum EntryScope: Equatable, Sendable {
  /// It carries subsystem `io.kern.ditto` and category `LegacyDataMigrator`.
  case ditto
  /// It carries another subsystem or category, or the format carries one and this entry has none.
  case other
  /// The format carries no subsystem or category (bare tags, Console's default columns).
  case unscoped

  static let subsystem = "io.kern.ditto"
  static let category = "LegacyDataMigrator"

  /// The scope of an entry whose format carries both fields (nil: absent in this entry).
  static func of(subsystem: String?, category: String?) -> EntryScope {
    subsystem == Self.subsystem && category == Self.category ? .ditto : .other
  }

  /// The scope of an entry that may carry either field (a JSON object, an archive's entry):
  /// neither is unscoped, one alone is judged on that one.
  static func of(present subsystem: String?, _ category: String?) -> EntryScope {
    switch (subsystem, category) {
    case (nil, nil): .unscoped
    case (let subsystem?, nil): subsystem == Self.subsystem ? .ditto : .other
    case (nil, let category?): category == Self.category ? .ditto : .other
    case (let subsystem?, let category?): .of(subsystem: subsystem, category: category)
    }
  }
}

/// One entry that mentions `migration_outcome`, reduced to what the tally needs.
struct LogEntry: Equatable, Sendable {
  /// Timestamp, pid, thread and message joined, when the format carries at least a full
  /// timestamp and a pid; nil otherwise (such entries are never de-duplicated).
  var identity: String?
  /// Whose entry it is.
  var scope: EntryScope
  /// The message, first line only, trailing blanks removed.
  var message: String
  /// When it was logged (``LogTimestamp``), when the format carries a full date; nil otherwise.
  var time: Int64?

  /// An entry with identity built from its parts.
  ///
  /// The thread is normalized to decimal, so `0x1a2b3c` (default style) and `1715004` (JSON
  /// `threadID`) give the same identity: two styles of one sysdiagnose de-duplicate.
  init(timestamp: String, pid: Int, thread: UInt64?, scope: EntryScope, message: String) {
    self.identity = "\(timestamp)|\(pid)|\(thread.map(String.init) ?? "-")|\(message)"
    self.scope = scope
    self.message = message
    self.time = LogTimestamp.microseconds(timestamp)
  }

  /// An entry without identity, logged at `time` when known.
  init(scope: EntryScope, message: String, time: Int64? = nil) {
    self.identity = nil
    self.scope = scope
    self.message = message
    self.time = time
  }
}
