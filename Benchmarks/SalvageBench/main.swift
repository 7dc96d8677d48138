import Foundation
import LegacyStore
import Salvage

// salvage-bench PATH [--include-deleted]
//
// Runs Salvager.salvage once and prints the result as one JSON object on stdout, in the shape of
// `export --format json` plus "sources", "deleted", "usedSQLite", "notes" and "seconds" (the
// salvage call alone, without process start). Exit 0 on success, 65 when salvage throws (the
// JSON then has "error" and "code"). The JSON is written by hand: Foundation's serializer would
// take longer than the salvage itself on a large store.

/// JSON written straight into a byte buffer.
struct JSONBytes {
  var bytes: [UInt8] = []

  mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

  /// A string literal, escaped byte by byte (UTF-8 multi-byte sequences never contain a byte
  /// below 0x80, so escaping ASCII bytes is enough).
  mutating func string(_ text: String) {
    bytes.append(0x22)
    var text = text
    text.withUTF8 { appendEscaped($0) }
    bytes.append(0x22)
  }

  private mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
    var start = 0
    for index in 0..<buffer.count {
      let byte = buffer[index]
      guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<index]))
      switch byte {
      case 0x22, 0x5C: bytes.append(contentsOf: [0x5C, byte])
      case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
      default:
        let hex = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [
          0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)],
        ])
      }
      start = index + 1
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<buffer.count]))
  }

  mutating func dittos(_ dittos: [LegacyDitto]) {
    raw("[")
    for (index, ditto) in dittos.enumerated() {
      raw(index == 0 ? "{\"text\":" : ",{\"text\":")
      string(ditto.text)
      raw(",\"useCount\":\(ditto.useCount)}")
    }
    raw("]")
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let path = arguments.first(where: { !$0.hasPrefix("--") }) else {
  FileHandle.standardError.write(Data("usage: salvage-bench PATH [--include-deleted]\n".utf8))
  exit(64)
}
let options = SalvageOptions(includeDeleted: arguments.contains("--include-deleted"))
let clock = ContinuousClock()
let start = clock.now
var json = JSONBytes()
var status: Int32 = 0
do {
  let result = try Salvager.salvage(path: path, options: options)
  let elapsed = clock.now - start
  let dittos = result.library.categories.flatMap(\.dittos) + result.deleted
  json.bytes.reserveCapacity(dittos.reduce(4096) { $0 + $1.text.utf8.count + 40 })
  json.raw("{\"categories\":[")
  for (index, category) in result.library.categories.enumerated() {
    json.raw(index == 0 ? "{\"dittos\":" : ",{\"dittos\":")
    json.dittos(category.dittos)
    json.raw(",\"title\":")
    json.string(category.title)
    json.raw("}")
  }
  json.raw("]")
  if options.includeDeleted {
    json.raw(",\"deleted\":")
    json.dittos(result.deleted)
  }
  json.raw(",\"notes\":[")
  for (index, note) in result.notes.enumerated() {
    if index > 0 { json.raw(",") }
    json.string(note)
  }
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  json.raw("],\"seconds\":\(seconds),\"sources\":[")
  for (index, source) in result.sources.enumerated() {
    json.raw(index == 0 ? "" : ",")
    json.raw(
      "{\"kind\":\"\(source.kind.rawValue)\",\"pages\":\(source.pages),\"rows\":\(source.rows)}")
  }
  json.raw("],\"usedSQLite\":\(result.usedSQLite)}")
} catch {
  json.raw("{\"code\":")
  json.string(error.code)
  json.raw(",\"error\":")
  json.string(error.description)
  json.raw("}")
  status = 65
}
json.raw("\n")
FileHandle.standardOutput.write(Data(json.bytes))
exit(status)
