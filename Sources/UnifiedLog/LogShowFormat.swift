/// Entries printed as `log show` prints them: the default style and `--style ndjson`.
package enum LogShowFormat {
  /// The default style's column header (with its two trailing spaces).
  package static let header =
    "Timestamp                       Thread     Type        Activity             PID    TTL  "

  /// `2022-05-30 00:38:21.053672+0000`: the wall clock in the zone `offsetMinutes` east of UTC,
  /// microseconds truncated (as `log show` prints them).
  package static func timestamp(_ nanoseconds: Int64, offsetMinutes: Int = 0) -> String {
    let local = nanoseconds + Int64(offsetMinutes) * 60_000_000_000
    let seconds = local >= 0 ? local / 1_000_000_000 : (local - 999_999_999) / 1_000_000_000
    let micro = (local - seconds * 1_000_000_000) / 1000
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secondOfDay = seconds - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var fraction = String(micro)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    let sign = offsetMinutes < 0 ? "-" : "+"
    let offset = abs(offsetMinutes)
    return
      "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)).\(fraction)\(sign)\(two(Int64(offset / 60)))\(two(Int64(offset % 60)))"
  }

  /// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian).
  static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The message, or, when the format string is not in the archive, what the entry carries.
  package static func message(_ entry: UnifiedLogEntry) -> String {
    if let message = entry.eventMessage { return message }
    let parts = entry.arguments.map { argument -> String in
      switch argument {
      case .string(let text, _): return text
      case .scalar(let value, _, _), .precision(let value, _): return String(value)
      case .privateValue: return "<private>"
      case .bytes(let bytes, _): return bytes.map { LogUUID.hex($0) }.joined()
      case .unknown(let type, _): return "<value type 0x\(String(type, radix: 16))>"
      }
    }
    return parts.joined(separator: " ")
  }

  /// One line of the default style.
  package static func line(_ entry: UnifiedLogEntry) -> String {
    func pad(_ text: String, _ width: Int) -> String {
      text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
    let type: String =
      switch entry.eventType {
      case "logEvent": entry.messageType ?? "Default"
      case "activityCreateEvent": "Activity"
      case "signpostEvent": "Signpost"
      case "stateEvent": "State"
      case "lossEvent": "Loss"
      default: entry.messageType ?? entry.eventType
      }
    var text = timestamp(entry.timestampNanoseconds) + " "
    text += pad("0x" + String(entry.threadID, radix: 16), 10) + " "
    text += pad(type, 11) + " "
    text += pad("0x" + String(entry.activityIdentifier, radix: 16), 20) + " "
    text += pad(String(entry.processID), 6) + " "
    text += pad(String(entry.ttl), 4) + " "
    let process = entry.processName ?? "<unknown>"
    text += process + ": "
    if let sender = entry.senderImagePath?.split(separator: "/").last.map(String.init),
      sender != process
    {
      text += "(\(sender)) "
    }
    if let subsystem = entry.subsystem {
      text += "[\(subsystem):\(entry.category ?? "")] "
    }
    return text + message(entry)
  }

  /// One `--style ndjson` object (Apple's key names), plus `args` when the message could not be
  /// composed, and `file` (where the entry came from).
  package static func ndjson(_ entry: UnifiedLogEntry) -> String {
    var members: [String] = []
    func add(_ key: String, _ raw: String) { members.append("\"\(key)\":\(raw)") }
    func string(_ key: String, _ value: String?) { add(key, value.map(quoted) ?? "null") }
    string("timestamp", timestamp(entry.timestampNanoseconds))
    add("timestampNs", String(entry.timestampNanoseconds))
    add("machTimestamp", String(entry.machTimestamp))
    string("eventType", entry.eventType)
    string("messageType", entry.messageType)
    add("processID", String(entry.processID))
    add("threadID", String(entry.threadID))
    add("activityIdentifier", String(entry.activityIdentifier))
    string("subsystem", entry.subsystem)
    string("category", entry.category)
    string("formatString", entry.formatString)
    string("eventMessage", entry.eventMessage)
    if entry.eventMessage == nil {
      let args = entry.arguments.map { argument -> String in
        switch argument {
        case .string(let text, let type):
          "{\"type\":\"string\",\"vt\":\(type),\"value\":\(quoted(text))}"
        case .scalar(let value, let size, let type):
          "{\"type\":\"scalar\",\"vt\":\(type),\"size\":\(size),\"value\":\(value)}"
        case .precision(let value, let type):
          "{\"type\":\"precision\",\"vt\":\(type),\"value\":\(value)}"
        case .privateValue(let type): "{\"type\":\"private\",\"vt\":\(type)}"
        case .bytes(let bytes, let type):
          "{\"type\":\"bytes\",\"vt\":\(type),\"value\":\"\(bytes.map { LogUUID.hex($0).lowercased() }.joined())\"}"
        case .unknown(let type, let size): "{\"type\":\"unknown\",\"vt\":\(type),\"size\":\(size)}"
        }
      }
      add("args", "[" + args.joined(separator: ",") + "]")
    }
    string("processImagePath", entry.processImagePath)
    string("processImageUUID", entry.processImageUUID?.description)
    string("senderImagePath", entry.senderImagePath)
    string("senderImageUUID", entry.senderImageUUID?.description)
    add("senderProgramCounter", String(entry.senderProgramCounter))
    add("traceID", String(entry.traceID))
    add("ttl", String(entry.ttl))
    string("bootUUID", entry.bootUUID.description)
    string("file", entry.file)
    return "{" + members.joined(separator: ",") + "}"
  }

  /// `text` as a JSON string literal (control characters, quotes and backslashes escaped).
  static func quoted(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{2028}": output += "\\u2028"
      case "\u{2029}": output += "\\u2029"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    return output + "\""
  }
}
