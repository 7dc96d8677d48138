import Exchange
import FuzzSupport
import LegacyStore

// The CSV reader over hostile bytes: input = a CSV file. CSVReader is fed the input whole and in
// small chunks; CSVImportSource reads it from a file as `ditto-recover import` does.
//
// Invariant: the records (or the error) do not depend on how the input is chunked.
let scratch = Scratch()

/// The records `bytes` parse to, fed `chunk` bytes at a time, or the error.
func parse(_ bytes: [UInt8], chunk: Int) -> String {
  var reader = CSVReader()
  var records: [[String]] = []
  do {
    var start = 0
    while start < bytes.count {
      let end = min(start + chunk, bytes.count)
      try reader.feed(bytes[start..<end]) { records.append($0) }
      start = end
    }
    try reader.finish { records.append($0) }
    return "\(records)"
  } catch {
    return "\(records.count) records, then \(error)"
  }
}

FuzzDriver.run { bytes in
  let whole = parse(bytes, chunk: max(bytes.count, 1))
  for chunk in [1, 3] {
    let chunked = parse(bytes, chunk: chunk)
    FuzzDriver.expect(whole == chunked, "chunks of \(chunk): \(chunked)\nwhole: \(whole)")
  }
  scratch.clear()
  var source = CSVImportSource(path: scratch.write(bytes, to: "dittos.csv"))
  var items = 0
  do {
    try source.walk { _ in items += 1 }
  } catch {
    // CSVImportError: names the file and the line.
  }
}
