import ByteStreams
import Foundation
import StoreFixtures
import Testing

@testable import OutcomeReport

/// The package's own gzip reader against the system's `gzip`, in chunks of every size, and the
/// encodings and binary data told apart by content.
@Suite struct CaptureDecoderTests {
  /// `bytes` compressed by the system's gzip at `level`.
  static func gzip(_ bytes: [UInt8], level: Int = 6) throws -> [UInt8] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ditto-gzip-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("input")
    try Data(bytes).write(to: input)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "gzip -\(level) -c input > input.gz"]
    process.currentDirectoryURL = folder
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "gzip must be installed")
    return Array(try Data(contentsOf: folder.appendingPathComponent("input.gz")))
  }

  /// Decodes `packed` fed in chunks of `chunk` bytes.
  static func inflate(_ packed: [UInt8], chunk: Int) -> (output: [UInt8], error: GzipError?) {
    var decoder = GzipDecoder()
    var output: [UInt8] = []
    var start = 0
    do {
      while start < packed.count {
        let end = min(start + chunk, packed.count)
        try decoder.feed(packed[start..<end]) { output += $0 }
        start = end
      }
      try decoder.finish { output += $0 }
      return (output, nil)
    } catch {
      return (output, error)
    }
  }

  static func samples() -> [(String, [UInt8])] {
    var generator = SystemRandomNumberGenerator()
    let random = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let text = (0..<5_000).map {
      "2026-11-30 10:00:\($0 % 60) 0x1a2b Default Ditto: [io.kern.ditto:LegacyDataMigrator] line \($0 * 7919 % 1000)\n"
    }.joined()
    return [
      ("empty", []), ("one byte", [0x41]),
      ("short text (fixed codes)", Array("hello, hello!\n".utf8)),
      ("log text (dynamic codes)", Array(text.utf8)),
      ("random bytes (stored blocks)", random),
      ("zeros (long back-references)", Array(repeating: 0, count: 300_000)),
    ]
  }

  @Test func readsWhatGzipWritesInChunksOfEverySize() throws {
    for (name, bytes) in Self.samples() {
      for level in [1, 9] {
        let packed = try Self.gzip(bytes, level: level)
        for chunk in [1, 3, 7, 512, 65_536, packed.count + 1] {
          let (output, error) = Self.inflate(packed, chunk: chunk)
          #expect(
            error == nil, "\(name) -\(level) in chunks of \(chunk): \(String(describing: error))")
          let same = output == bytes
          #expect(same, "\(name) -\(level) in chunks of \(chunk): \(output.count) bytes")
        }
      }
    }
  }

  @Test func severalMembersAreOneStreamAndZerosAfterThemArePadding() throws {
    let first = Array("first member\n".utf8)
    let second = Array("second member\n".utf8)
    let packed = try Self.gzip(first) + Self.gzip(second) + [0, 0, 0, 0]
    let (output, error) = Self.inflate(packed, chunk: 5)
    #expect(error == nil)
    #expect(output == first + second)
  }

  @Test func damageIsNamedAndWhatCameBeforeItIsKept() throws {
    let text = Array(String(repeating: "a line of a capture with words in it\n", count: 2000).utf8)
    let packed = try Self.gzip(text)
    // Cut short.
    let (cutOutput, cutError) = Self.inflate(Array(packed.prefix(packed.count / 2)), chunk: 100)
    #expect(cutError?.reason == "the stream ends inside a member (cut short)")
    #expect(!cutOutput.isEmpty && text.starts(with: cutOutput))
    // A changed byte in the data: the CRC or the codes say so; never a crash.
    for offset in stride(from: 10, to: packed.count - 8, by: max(1, packed.count / 40)) {
      var damaged = packed
      damaged[offset] ^= 0x5A
      let (_, error) = Self.inflate(damaged, chunk: 64)
      let (output, _) = Self.inflate(damaged, chunk: 64)
      let same = output == text
      #expect(error != nil || same, "offset \(offset)")
    }
    // Not gzip at all after the magic.
    let (_, notDeflate) = Self.inflate([0x1F, 0x8B, 0x07, 0, 0, 0, 0, 0, 0, 0], chunk: 4)
    #expect(notDeflate?.reason == "compression method is not deflate")
  }

  /// Runs the capture decoder over `bytes` in chunks of `chunk`.
  static func decode(_ bytes: [UInt8], chunk: Int) -> (text: [UInt8], decoder: CaptureDecoder) {
    var decoder = CaptureDecoder()
    var text: [UInt8] = []
    var piece: [UInt8] = []
    var start = 0
    while start < bytes.count {
      let end = min(start + chunk, bytes.count)
      if decoder.passesThrough {
        text += bytes[start..<end]
      } else {
        Array(bytes[start..<end]).withUnsafeBufferPointer { decoder.decode($0, into: &piece) }
        text += piece
      }
      start = end
    }
    decoder.finish(into: &piece)
    text += piece
    return (text, decoder)
  }

  @Test func encodingsAreToldByContent() throws {
    let line = "migration_outcome source=auto outcome=success é 😀\n"
    let utf8 = Array(line.utf8)
    func utf16(_ littleEndian: Bool, mark: Bool) -> [UInt8] {
      var bytes: [UInt8] = mark ? (littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]) : []
      for unit in line.utf16 {
        bytes +=
          littleEndian
          ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
      }
      return bytes
    }
    let cases: [([UInt8], String?)] = [
      (utf8, nil), (utf16(true, mark: true), "UTF-16LE"), (utf16(false, mark: true), "UTF-16BE"),
      (utf16(true, mark: false), "UTF-16LE"), (utf16(false, mark: false), "UTF-16BE"),
      (try Self.gzip(utf8), "gzip"), (try Self.gzip(utf16(false, mark: true)), "gzip, UTF-16BE"),
    ]
    for (bytes, encoding) in cases {
      for chunk in [1, 2, 3, 5, 4096] {
        let (text, decoder) = Self.decode(bytes, chunk: chunk)
        let same = text == utf8
        #expect(same, "\(encoding ?? "UTF-8") in chunks of \(chunk)")
        #expect(decoder.encoding == encoding)
        #expect(decoder.problem == nil)
      }
    }
  }

  @Test func binaryIsNotText() {
    var generator = SystemRandomNumberGenerator()
    let random = (0..<10_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    #expect(CaptureDecoder.isBinary(random[...]))
    #expect(CaptureDecoder.isBinary(Array("{\"a\":1}\u{0}".utf8)[...]))
    #expect(!CaptureDecoder.isBinary(Array("默认\t10:00:00\tDitto\tmigration_outcome …\n".utf8)[...]))
    // Colored terminal output (escape sequences) is text.
    #expect(
      !CaptureDecoder.isBinary(Array("\u{1B}[1mDitto\u{1B}[0m migration_outcome\n".utf8)[...]))
    let (text, decoder) = Self.decode(random, chunk: 1000)
    #expect(text.isEmpty)
    #expect(decoder.problem == .binary)
  }
}

/// The gzip reader over a generated family: bytes mixing random runs, repeated words and long
/// runs of one byte (literals, short and long back-references, overlapping copies, stored,
/// fixed and dynamic blocks), compressed by the system's gzip at every level, fed in pieces of
/// random sizes: the output is the input, byte for byte.
@Suite struct GzipFamilyTests {
  @Test func aGeneratedFamilyInflatesToItsInput() throws {
    var generator = SeededGenerator(seed: FamilySeed.base(0x6219))
    let words = [
      "ditto", "migration_outcome", " ", "\n", "café", "🙂", "0x1a2b", "=", "source=auto",
    ]
    for round in 0..<30 {
      var bytes: [UInt8] = []
      let size = [10, 1_000, 40_000, 200_000][round % 4]
      while bytes.count < size {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
          bytes += (0..<Int.random(in: 1...300, using: &generator)).map { _ in
            UInt8.random(in: 0...255, using: &generator)
          }
        case 1:
          bytes += Array(words.randomElement(using: &generator)!.utf8)
        case 2:
          bytes += [UInt8](
            repeating: UInt8.random(in: 0...255, using: &generator),
            count: Int.random(in: 1...2_000, using: &generator))
        default:
          // A copy of something already written, from near or far back.
          if !bytes.isEmpty {
            let start = Int.random(in: 0..<bytes.count, using: &generator)
            let length = min(bytes.count - start, Int.random(in: 1...500, using: &generator))
            bytes += bytes[start..<(start + length)]
          }
        }
      }
      let level = Int.random(in: 1...9, using: &generator)
      let packed = try CaptureDecoderTests.gzip(bytes, level: level)
      let chunk = [1, 13, 4_096, 100_000][Int.random(in: 0..<4, using: &generator)]
      let (output, error) = CaptureDecoderTests.inflate(packed, chunk: chunk)
      #expect(error == nil, "round \(round): \(String(describing: error))")
      #expect(
        output == bytes,
        "round \(round): -\(level), pieces of \(chunk): \(output.count) of \(bytes.count) bytes")
    }
  }
}

/// The gzip file decoded on a thread of its own: every byte in order, a stop midway that ends both
/// threads, damage named after what came before it.
@Suite struct GzipPipeTests {
  static func file(_ bytes: [UInt8]) throws -> (FileHandle, String) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "ditto-gzip-pipe-" + UUID().uuidString
    ).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return (try #require(FileHandle(forReadingAtPath: path)), path)
  }

  @Test func everyByteComesInOrderAndAStopEndsBothThreads() throws {
    var generator = SeededGenerator(seed: FamilySeed.base(0x919E))
    let bytes = (0..<3_000_000).map { index in
      index % 7 < 4 ? UInt8(index % 251) : UInt8.random(in: 0...255, using: &generator)
    }
    let packed = try CaptureDecoderTests.gzip(bytes, level: 1)
    let (whole, path) = try Self.file(packed)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var output: [UInt8] = []
    try GzipPipe.stream(whole) { piece in
      output += piece
      return true
    }
    #expect(output == bytes)
    // Stopped after two pieces: it returns, having handed over no more.
    let (again, _) = try Self.file(packed)
    var pieces = 0
    try GzipPipe.stream(again) { _ in
      pieces += 1
      return pieces < 2
    }
    #expect(pieces == 2)
  }

  @Test func damageIsThrownAfterWhatCameBeforeIt() throws {
    let bytes = Array(repeating: Array("a line of a capture\n".utf8), count: 50_000).flatMap { $0 }
    var packed = try CaptureDecoderTests.gzip(bytes)
    packed[packed.count - 6] ^= 0xFF  // the CRC-32
    let (handle, path) = try Self.file(packed)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var output: [UInt8] = []
    #expect(throws: GzipError.self) {
      try GzipPipe.stream(handle) { piece in
        output += piece
        return true
      }
    }
    #expect(output == bytes, "what came before the damage is handed over")
  }
}
