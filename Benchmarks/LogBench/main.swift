import Foundation
import LogArchiveFixtures

// Writes the benchmark's log archive: `log-bench DIR --entries N` makes DIR/bench.logarchive
// (Persist files of at most 20,000 entries, LZ4 ChunkSets of 64 entries, one entry in ten a Ditto
// tag, the rest other subsystems' messages of 60-140 characters, a few long ones in oversize
// chunks).
let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
  FileHandle.standardError.write(Data("usage: log-bench DIR [--entries N]\n".utf8))
  exit(64)
}
let folder = arguments[1]
var count = 100_000
if let index = arguments.firstIndex(of: "--entries"), index + 1 < arguments.count {
  count = Int(arguments[index + 1]) ?? count
}
let writer = LogArchiveWriter(entriesPerChunkSet: 64)
let outcomes = ["success", "no_new_data", "nothing_on_disk", "found_unreadable", "empty_store"]
func entry(_ index: Int) -> LogArchiveWriter.Entry {
  let time = UInt64(index) * 25_000_000 + UInt64(index % 7) * 1000
  if index % 10 == 0 {
    return LogArchiveWriter.Entry(
      offsetNanoseconds: time, pid: 1234, thread: 0x1A2B, level: 0x00,
      message:
        "migration_outcome source=auto outcome=\(outcomes[index / 10 % 5]) categories=\(index % 9) dittos=\(index % 97) inserted=\(index % 13)"
    )
  }
  let words = ["connection", "ready", "path", "satisfied", "interface", "en0", "cellular", "flow"]
  var message = "[C\(index % 400)] "
  while message.count < 60 + index % 80 { message += words[(index + message.count) % 8] + " " }
  if index % 997 == 5 { message += String(repeating: "x", count: 1500) }
  return LogArchiveWriter.Entry(
    offsetNanoseconds: time, pid: [34, 77, 102][index % 3], thread: UInt64(0x100 + index % 5),
    level: [0x00, 0x00, 0x10][index % 3], subsystem: "com.apple.network",
    category: ["connection", "path"][index % 2], message: message)
}
let archive = folder + "/bench.logarchive"
// Never removed or replaced: a folder of that name may be someone else's (bench_logs.py caches it).
guard !FileManager.default.fileExists(atPath: archive) else {
  FileHandle.standardError.write(
    Data("log-bench: \(archive) exists; it is never replaced: give another folder\n".utf8))
  exit(73)
}
try FileManager.default.createDirectory(
  atPath: archive + "/Persist", withIntermediateDirectories: true)
try FileManager.default.createDirectory(
  atPath: archive + "/timesync", withIntermediateDirectories: true)
var start = 0
var file = 1
var bytes = 0
while start < count {
  let end = min(count, start + 20_000)
  let data = writer.traceV3((start..<end).map(entry))
  bytes += data.count
  try Data(data).write(
    to: URL(fileURLWithPath: archive + "/Persist/" + String(format: "%016x", file) + ".tracev3"),
    options: .withoutOverwriting)
  start = end
  file += 1
}
try Data(writer.timesync()).write(
  to: URL(fileURLWithPath: archive + "/timesync/0000000000000001.timesync"),
  options: .withoutOverwriting)
let strings = archive + "/" + writer.uuidTextPath
try FileManager.default.createDirectory(
  atPath: (strings as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
try Data(writer.uuidText()).write(to: URL(fileURLWithPath: strings), options: .withoutOverwriting)
print("\(archive) \(count) \(bytes)")
