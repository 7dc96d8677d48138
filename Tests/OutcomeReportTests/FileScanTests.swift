import Foundation
import Testing

@testable import OutcomeReport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading paths and descriptors, and the errors that name the file.
struct FileScanTests {
  @Test func missingFileNamesThePathAndReason() {
    var scanner = OutcomeScanner()
    let path = Samples.path("no-such-capture.log")
    #expect(throws: OutcomeReportError.cannotOpen(file: path, code: ENOENT)) {
      try scanner.scan(path: path)
    }
    let error = OutcomeReportError.cannotOpen(file: path, code: ENOENT)
    #expect(error.description == "cannot open \(path): No such file or directory")
  }

  @Test func directoryIsAReadError() {
    var scanner = OutcomeScanner()
    let path = Samples.directory.path
    #expect(throws: OutcomeReportError.cannotRead(file: path, code: EISDIR)) {
      try scanner.scan(path: path)
    }
  }

  @Test func severalFilesAreSeveralInputs() throws {
    var scanner = OutcomeScanner()
    for name in Samples.names { try scanner.scan(path: Samples.path(name)) }
    let summary = scanner.finish()
    #expect(summary.inputs == Samples.names.count)
    let fromBytes = scan(try Samples.names.map { try Samples.bytes($0) })
    #expect(summary.byOutcome == fromBytes.byOutcome)
    #expect(summary.deviceCounts == fromBytes.deviceCounts)
    #expect(summary.duplicates == fromBytes.duplicates)
    #expect(summary.devices.map(\.input) == Samples.names.map { Samples.path($0) })
    #expect(fromBytes.devices.map(\.input) == Samples.names.map { _ in "-" })
    #expect(summary.styles[.console] == 2)
  }

  @Test func readsADescriptorSuchAsAPipe() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let bytes = try Samples.bytes("ndjson.ndjson")
    let written = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
    #expect(written == bytes.count)
    close(fds[1])
    defer { close(fds[0]) }
    var scanner = OutcomeScanner()
    try scanner.scan(fileDescriptor: fds[0], name: "standard input", chunkSize: 16)
    #expect(scanner.finish() == scan([bytes]))
  }

  @Test func closedDescriptorNamesTheInput() {
    var scanner = OutcomeScanner()
    #expect(throws: OutcomeReportError.cannotRead(file: "standard input", code: EBADF)) {
      try scanner.scan(fileDescriptor: -1, name: "standard input")
    }
  }
}
