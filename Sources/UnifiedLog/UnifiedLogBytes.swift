import ByteStreams

/// Reads unified-log bytes held in memory: a tracev3 file, or a tar archive (gzip-compressed or
/// not) holding tracev3 files.
///
/// The fuzz target's entry (`Fuzz/Sources/fuzz-unified-log`); the app never needs it.
package enum UnifiedLogBytes {
  /// What reading found: entries, and problems named (never thrown, never fatal).
  package struct Result: Sendable, Equatable {
    /// Entries read.
    package var entries: Int
    /// Problems named (a damaged chunk, an unknown compression, a cut archive…).
    package var problems: Int
  }

  /// Reads `bytes` to their end and renders every entry in both of `log show`'s styles.
  package static func read(_ bytes: [UInt8]) -> Result {
    var result = Result(entries: 0, problems: 0)
    let context = LogContext(timesyncFiles: []) { _ in nil }
    func visit(_ entry: UnifiedLogEntry) {
      result.entries += 1
      _ = LogShowFormat.line(entry)
      _ = LogShowFormat.ndjson(entry)
    }
    switch UnifiedLogReader.kind(ofBytes: Array(bytes.prefix(1024))) {
    case .traceV3?:
      var parser = TraceV3Parser(file: "input", context: context)
      parser.feed(bytes, emit: visit)
      parser.finish(emit: visit)
      result.problems += parser.problems.count
    case .tar?, .gzippedTar?:
      var tar = TarReader()
      var parser: TraceV3Parser?
      // Read as a tarball is: entries completed once the archive's other files are known.
      func visitDeferred(_ entry: UnifiedLogEntry) {
        var completed = entry
        TraceV3Parser.complete(&completed, context: context)
        visit(completed)
      }
      func handle(_ event: TarEvent) {
        switch event {
        case .begin(let path, _):
          parser =
            path.hasSuffix(".tracev3")
            ? TraceV3Parser(file: path, context: context, defersContext: true) : nil
        case .data(let piece): parser?.feed(piece, emit: visitDeferred)
        case .end:
          parser?.finish(emit: visitDeferred)
          result.problems += parser?.problems.count ?? 0
          parser = nil
        }
      }
      do throws(TarError) {
        if bytes.starts(with: [0x1F, 0x8B]) {
          var gzip = GzipDecoder()
          var failure: TarError?
          do throws(GzipError) {
            try gzip.feed(bytes) { piece in
              guard failure == nil else { return }
              do throws(TarError) { try tar.feed(piece, emit: handle) } catch { failure = error }
            }
            try gzip.finish { piece in
              guard failure == nil else { return }
              do throws(TarError) { try tar.feed(piece, emit: handle) } catch { failure = error }
            }
          } catch {
            result.problems += 1
          }
          if let failure { throw failure }
        } else {
          try tar.feed(bytes, emit: handle)
        }
        try tar.finish()
      } catch {
        result.problems += 1
      }
    case nil, .logArchive?:
      result.problems += 1
    }
    return result
  }
}
