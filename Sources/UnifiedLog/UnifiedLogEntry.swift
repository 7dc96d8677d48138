/// One entry of a unified log, with the fields `log show --style ndjson` prints.
package struct UnifiedLogEntry: Sendable, Equatable {
  /// The tracev3 file it came from, relative to the archive (`Persist/0000000000000001.tracev3`).
  package var file: String
  /// Its position among the entries read from that file.
  package var sequence: Int
  /// `logEvent`, `activityCreateEvent`, `userActionEvent`, `signpostEvent`, `lossEvent`,
  /// `traceEvent`, `stateEvent`, `simpleDumpEvent`.
  package var eventType: String
  /// `Default`, `Info`, `Debug`, `Error`, `Fault` (nil for a state dump or a signpost).
  package var messageType: String?
  /// Mach continuous time.
  package var machTimestamp: UInt64
  /// Wall-clock time: nanoseconds since 1970-01-01 UTC (see ``WallClock``).
  package var timestampNanoseconds: Int64
  /// The offset of the device's zone in minutes east of UTC, when the file says it.
  package var timeZoneMinutes: Int?
  package var processID: UInt64
  package var threadID: UInt64
  package var activityIdentifier: UInt64
  /// nil when the entry has no subsystem; a category may be empty.
  package var subsystem: String?
  package var category: String?
  /// The format string, when the strings file holding it is in the archive.
  package var formatString: String?
  /// The message rendered from the format string and the arguments (nil when the format string is
  /// not there: ``arguments`` then lists what the entry carries).
  package var eventMessage: String?
  package var arguments: [LogArgument]
  package var processImagePath: String?
  package var processImageUUID: LogUUID?
  package var senderImagePath: String?
  package var senderImageUUID: LogUUID?
  package var senderProgramCounter: UInt64
  package var traceID: UInt64
  package var ttl: Int
  package var bootUUID: LogUUID
  /// What the entry still needs from the archive's strings and timesync files, when it was read
  /// before they were (a tarball read in one pass); nil once complete.
  var deferred: DeferredContext? = nil

  /// The name `log show` prints for the process: the last component of its image path.
  package var processName: String? {
    processImagePath.map { path in path.split(separator: "/").last.map(String.init) ?? path }
  }
}

/// One argument of an entry, as stored (no format string needed to read it).
package enum LogArgument: Sendable, Equatable {
  /// A public string (value types 0x20 0x22 0x40 0x42).
  case string(String, valueType: UInt8)
  /// A number as stored: unsigned little-endian of `size` bytes (0x00 0x02).
  case scalar(UInt64, size: Int, valueType: UInt8)
  /// A precision or width (0x10 0x12), used by the next `%.*s`.
  case precision(UInt64, valueType: UInt8)
  /// A private value: shown as `<private>`.
  case privateValue(valueType: UInt8)
  /// Binary data (0x30 0x32 0xf2).
  case bytes([UInt8], valueType: UInt8)
  /// A value type this reader does not know.
  case unknown(valueType: UInt8, size: Int)
  /// A string or binary item whose range lies outside the entry's data: could not be read (never
  /// shown as empty).
  case outOfRange(valueType: UInt8)

  package var valueType: UInt8 {
    switch self {
    case .string(_, let type), .scalar(_, _, let type), .precision(_, let type),
      .privateValue(let type), .bytes(_, let type), .unknown(let type, _), .outOfRange(let type):
      type
    }
  }
}
