import Foundation

/// Decodes a gzip file on a thread of its own and hands its output, in order, to the caller's
/// thread through a bounded queue: decompression and what the caller does with the bytes overlap
/// (on two cores a run takes the slower of the two, not their sum). At most ``capacity`` pieces of
/// output (64 KiB each) wait at any time: memory stays flat however much the file expands to.
package enum GzipPipe {
  /// Pieces of output that may wait for the caller.
  package static let capacity = 16

  /// Reads the gzip file `file` to its end, handing every piece of its output to `consume` on the
  /// calling thread; `consume` returns false to stop early (the decoding thread then stops too).
  ///
  /// - Throws: ``GzipError`` when the data is damaged or cut short, after every byte decoded
  ///   before the damage was handed over.
  package static func stream(_ file: FileHandle, consume: ([UInt8]) -> Bool) throws(GzipError) {
    let queue = BoundedQueue<[UInt8], GzipError>(capacity: capacity)
    let source = UncheckedFile(handle: file)
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
      var decoder = GzipDecoder()
      var failure: GzipError?
      do throws(GzipError) {
        reading: while true {
          let piece = source.handle.readData(ofLength: 1 << 20)
          if piece.isEmpty { break }
          var stopped = false
          try decoder.feed(piece) { output in
            if !stopped, !queue.push(output) { stopped = true }
          }
          if stopped { break reading }
        }
        if !queue.isCancelled { try decoder.finish { _ = queue.push($0) } }
      } catch {
        failure = error
      }
      queue.close(failure: failure)
      finished.signal()
    }
    thread.start()
    while let piece = queue.pop() {
      if !consume(piece) {
        queue.cancel()
        break
      }
    }
    finished.wait()
    if let failure = queue.failure, !queue.isCancelled { throw failure }
  }

  /// The file handle, used by the decoding thread alone once it starts.
  private struct UncheckedFile: @unchecked Sendable {
    let handle: FileHandle
  }
}
