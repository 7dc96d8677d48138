import Foundation
import LegacyStore
import Salvage

// salvage-bench PATH [--include-deleted]
//
// Runs Salvager.salvage once and prints the result as one JSON object on stdout, in the shape of
// `export --format json` plus "sources", "deleted", "usedSQLite", "notes" and "seconds" (the
// salvage call alone, without process start). Exit 0 on success, 65 when salvage throws (the
// JSON then has "error").

let arguments = Array(CommandLine.arguments.dropFirst())
guard let path = arguments.first(where: { !$0.hasPrefix("--") }) else {
  FileHandle.standardError.write(Data("usage: salvage-bench PATH [--include-deleted]\n".utf8))
  exit(64)
}
let options = SalvageOptions(includeDeleted: arguments.contains("--include-deleted"))
let clock = ContinuousClock()
let start = clock.now
var object: [String: Any] = [:]
var status: Int32 = 0
do {
  let result = try Salvager.salvage(path: path, options: options)
  let elapsed = clock.now - start
  object["categories"] = result.library.categories.map { category in
    [
      "title": category.title,
      "dittos": category.dittos.map { ["text": $0.text, "useCount": $0.useCount] },
    ] as [String: Any]
  }
  object["sources"] = result.sources.map {
    ["kind": $0.kind.rawValue, "pages": $0.pages, "rows": $0.rows] as [String: Any]
  }
  if options.includeDeleted {
    object["deleted"] = result.deleted.map { ["text": $0.text, "useCount": $0.useCount] }
  }
  object["usedSQLite"] = result.usedSQLite
  object["notes"] = result.notes
  object["seconds"] =
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
} catch {
  object["error"] = error.description
  object["code"] = error.code
  status = 65
}
let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
FileHandle.standardOutput.write(data)
FileHandle.standardOutput.write(Data("\n".utf8))
exit(status)
