import EngineTestSupport
import Foundation
import LibraryMerge
import StoreFixtures
import TestSupport
import Testing

@testable import DittoRecoverCLI

/// The progress line of work that cannot count for itself (a backup's key derivation) and of an
/// import into a library (dittos read of those the sources offer): drawn only on a terminal,
/// cleared when the work ends.
@Suite struct ProgressOfLongWorkTests {
  static func context(terminal: Bool) -> (ToolContext, BufferOutput) {
    let errors = BufferOutput()
    let context = ToolContext(standardOutput: BufferOutput(), standardError: errors)
    context.errorIsTerminal = terminal
    return (context, errors)
  }

  /// The first draw waits for a second of work: the body here lasts longer than that.
  @Test func workThatCannotCountShowsHowLongItHasRunThenClears() {
    let (context, errors) = Self.context(terminal: true)
    let result = ProgressLine.whileRunning("unlocking the backup", context: context) {
      Thread.sleep(forTimeInterval: 1.8)
      return 42
    }
    #expect(result == 42)
    #expect(errors.text.contains("\r\u{1B}[Kunlocking the backup: "), "\(errors.text)")
    #expect(errors.text.contains(" so far"))
    #expect(errors.text.hasSuffix("\r\u{1B}[K"), "the line is left on the terminal")

    let (piped, pipedErrors) = Self.context(terminal: false)
    ProgressLine.whileRunning("unlocking the backup", context: piped) {
      Thread.sleep(forTimeInterval: 1.3)
    }
    #expect(pipedErrors.text.isEmpty)
  }

  /// A generated family of imports (sources of different sizes, some texts repeated): the line
  /// counts dittos read toward those offered, up to all of them, and is cleared at the end.
  @Test func anImportShowsTheDittosReadOfThoseOffered() throws {
    var generator = SeededGenerator(seed: FamilySeed.base(0x9A0))
    for member in 0..<3 {
      let folder = try TemporaryDirectory("progress-import-\(member)")
      let library = try LibraryFixtures.copy(.empty, toFolder: folder.path)
      let sources = (0..<Int.random(in: 1...3, using: &generator)).map { index in
        let count = Int.random(in: 1_500...5_000, using: &generator)
        let dittos = (0..<count).map { MergeDitto(text: "ditto \($0 % (count - 7))") }
        return MergeSource(
          kind: "coredata", categories: [MergeCategory(title: "Source \(index)", dittos: dittos)])
      }
      let offered = sources.reduce(0) { $0 + $1.dittoCount }
      let (context, errors) = Self.context(terminal: true)
      let destination = EngineFactory.destination(library, context: context)
      Thread.sleep(forTimeInterval: 1.1)  // the line draws once a second of work has passed
      _ = try destination.applyImport { (session) throws(ImportFailure) in
        try LibraryMerger.merge(sources, into: session)
      }
      let lines = errors.text.components(separatedBy: "\r\u{1B}[K").filter { !$0.isEmpty }
      #expect(!lines.isEmpty, "member \(member): no progress line")
      for line in lines {
        #expect(line.hasPrefix("importing: "), "member \(member): \(line)")
        #expect(line.contains(" of \(offered) dittos"), "member \(member): \(line)")
      }
      #expect(errors.text.hasSuffix("\r\u{1B}[K"), "member \(member): the line is left")
    }
  }
}
