import CivilCalendar

/// Turns a `log show` timestamp into microseconds, so that one device's tags can be put in order.
///
/// Reads `YYYY-MM-DD HH:MM:SS[.fraction][ ][±HHMM]`: the default, syslog and JSON styles (with a
/// zone), compact (no zone: local time, which is consistent within one capture) and Console's
/// date column (a blank before the zone). With a zone, the value is UTC, so a capture that spans a
/// time zone change still sorts right. Anything else (Console's time-only column) gives nil, and
/// the entry is ordered by its position instead.
enum LogTimestamp {
  /// Microseconds since 1970-01-01 00:00:00 (UTC when the text has a zone); nil if not a timestamp.
  static func microseconds(_ text: some StringProtocol) -> Int64? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 19 else { return nil }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for index in range {
        guard ByteScan.isDigit(bytes[index]) else { return nil }
        value = value * 10 + Int64(bytes[index] - 0x30)
      }
      return value
    }
    guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"),
      bytes[16] == UInt8(ascii: ":"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    var fraction: Int64 = 0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      var digits = 0
      while index < bytes.count, ByteScan.isDigit(bytes[index]) {
        if digits < 6 { fraction = fraction * 10 + Int64(bytes[index] - 0x30) }
        digits += 1
        index += 1
      }
      guard digits > 0 else { return nil }
      for _ in min(digits, 6)..<6 { fraction *= 10 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
    var offset: Int64 = 0
    if index < bytes.count {
      let sign = bytes[index]
      guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 5 == bytes.count,
        let hours = number((index + 1)..<(index + 3)),
        let minutes = number((index + 3)..<(index + 5))
      else { return nil }
      offset = (hours * 60 + minutes) * 60 * (sign == UInt8(ascii: "+") ? 1 : -1)
    }
    let days = CivilDate.days(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return seconds * 1_000_000 + fraction
  }
}
