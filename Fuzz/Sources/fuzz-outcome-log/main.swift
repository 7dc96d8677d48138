import FuzzSupport
import OutcomeReport

// The `migration_outcome` log scanner over hostile bytes: input = one `log show` capture (any
// style). OutcomeScanner is fed the input whole and in small chunks; the summary is rendered as
// text and JSON.
//
// Invariant: the summary does not depend on how the input is chunked (OutcomeScanner's contract).
func summarize(_ bytes: [UInt8], chunk: Int) -> OutcomeSummary {
  var scanner = OutcomeScanner()
  scanner.beginInput()
  var start = 0
  while start < bytes.count {
    let end = min(start + chunk, bytes.count)
    scanner.consume(bytes[start..<end])
    start = end
  }
  return scanner.finish()
}

FuzzDriver.run { bytes in
  let whole = summarize(bytes, chunk: max(bytes.count, 1))
  _ = (whole.textReport(), whole.jsonText())
  for chunk in [1, 7] {
    let chunked = summarize(bytes, chunk: chunk)
    FuzzDriver.expect(
      whole == chunked, "chunks of \(chunk): \(chunked.jsonText())\nwhole: \(whole.jsonText())")
  }
}
