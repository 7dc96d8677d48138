/// Renders an os_log format string (`%{public}s`, `%d`, `%.*s`, `%@`, `%llx`, `%%` …) with an entry's
/// arguments, as `log show` composes `eventMessage`. A private argument is `<private>`; an argument
/// that is missing is `<decode: missing data>`, as `log` prints it.
enum FormatRenderer {
  static func render(_ format: String, arguments: [LogArgument]) -> String {
    // The most common shape by far (every line Ditto logs): one public string.
    if format == "%{public}s" || format == "%s" || format == "%{public}@" || format == "%@",
      arguments.count == 1
    {
      return formatted(
        arguments[0], conversion: "s", flags: "", precision: nil, decorations: "public")
    }
    let characters = Array(format.unicodeScalars)
    var output = String.UnicodeScalarView()
    var next = 0
    var index = 0
    func take() -> LogArgument? {
      guard next < arguments.count else { return nil }
      defer { next += 1 }
      return arguments[next]
    }
    func number(_ argument: LogArgument?) -> UInt64? {
      switch argument {
      case .scalar(let value, _, _), .precision(let value, _): value
      default: nil
      }
    }
    while index < characters.count {
      let character = characters[index]
      guard character == "%" else {
        output.append(character)
        index += 1
        continue
      }
      index += 1
      guard index < characters.count else {
        output.append("%")
        break
      }
      if characters[index] == "%" {
        output.append("%")
        index += 1
        continue
      }
      var decorations = ""
      if characters[index] == "{" {
        let start = index + 1
        while index < characters.count, characters[index] != "}" { index += 1 }
        decorations = String(
          String.UnicodeScalarView(characters[start..<min(index, characters.count)]))
        index += 1
      }
      var flags = ""
      while index < characters.count, "-+ #0'".unicodeScalars.contains(characters[index]) {
        flags.unicodeScalars.append(characters[index])
        index += 1
      }
      /// A width or precision: `*` (the next argument) or digits; nil when neither is there.
      func count() -> Int? {
        if index < characters.count, characters[index] == "*" {
          index += 1
          return number(take()).map { Int(truncatingIfNeeded: $0) }
        }
        var digits = ""
        while index < characters.count, ("0"..."9").contains(characters[index]) {
          digits.unicodeScalars.append(characters[index])
          index += 1
        }
        return Int(digits)
      }
      let width = count()
      var precision: Int?
      if index < characters.count, characters[index] == "." {
        index += 1
        precision = count() ?? 0
      }
      while index < characters.count, "hlqjztL".unicodeScalars.contains(characters[index]) {
        index += 1
      }
      guard index < characters.count else { break }
      let conversion = characters[index]
      index += 1
      var argument = take()
      // A precision item (stored for `%.16s` as for `%.*s`) comes before its value.
      if case .precision(let value, _)? = argument {
        if precision == nil { precision = Int(truncatingIfNeeded: value) }
        argument = take()
      }
      var text = formatted(
        argument, conversion: conversion, flags: flags, precision: precision,
        decorations: decorations)
      if let width, text.count < abs(width) {
        let pad = String(
          repeating: flags.contains("0") && width > 0 ? "0" : " ", count: abs(width) - text.count)
        text = width < 0 || flags.contains("-") ? text + pad : pad + text
      }
      output.append(contentsOf: text.unicodeScalars)
    }
    return String(output)
  }

  static func formatted(
    _ argument: LogArgument?, conversion: Unicode.Scalar, flags: String, precision: Int?,
    decorations: String
  ) -> String {
    guard let argument else { return "<decode: missing data>" }
    switch argument {
    case .privateValue:
      return "<private>"
    case .string(let value, _):
      if let precision, precision >= 0 { return String(value.prefix(precision)) }
      return value
    case .bytes(let bytes, _):
      return bytes.map { LogUUID.hex($0).lowercased() }.joined()
    case .outOfRange:
      return "<decode: data out of range>"
    case .unknown(let type, _):
      return "<decode: unsupported value type 0x\(String(type, radix: 16))>"
    case .precision(let value, _):
      return String(value)
    case .scalar(let raw, let size, _):
      if decorations.contains("bool") || decorations.contains("BOOL") {
        return raw == 0
          ? (decorations.contains("BOOL") ? "NO" : "false")
          : (decorations.contains("BOOL") ? "YES" : "true")
      }
      switch conversion {
      case "d", "i":
        let bits = max(1, min(8, size)) * 8
        let shifted = raw << UInt64(64 - bits)
        return String(Int64(bitPattern: shifted) >> Int64(64 - bits))
      case "u": return String(raw)
      case "x": return (flags.contains("#") && raw != 0 ? "0x" : "") + String(raw, radix: 16)
      case "X":
        return (flags.contains("#") && raw != 0 ? "0X" : "")
          + String(raw, radix: 16, uppercase: true)
      case "o": return String(raw, radix: 8)
      case "p": return "0x" + String(raw, radix: 16)
      case "c":
        return UnicodeScalar(UInt32(truncatingIfNeeded: raw)).map { String(Character($0)) } ?? "?"
      case "f", "F", "e", "E", "g", "G", "a", "A":
        let value =
          size == 4
          ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw)
        return decimal(value, precision: precision ?? 6)
      default:
        return String(raw)
      }
    }
  }

  /// A double with `precision` digits after the point, without Foundation.
  static func decimal(_ value: Double, precision: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    let digits = max(0, min(precision, 17))
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (abs(value) * scale).rounded()
    guard rounded < 9e18 else { return String(value) }
    let whole = UInt64(rounded)
    let integer = whole / UInt64(scale)
    var fraction = String(whole % UInt64(scale))
    fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
    return (value < 0 ? "-" : "") + String(integer) + (digits > 0 ? "." + fraction : "")
  }
}
