import BackupCrypto
import BackupReader
import ByteStreams
import Exchange
import Foundation
import LegacyMigration
import LegacyStore
import LibraryMerge
import OutcomeReport
import RecoveryFile
import SafeFiles
import Testing
import UnifiedLog

@testable import DittoRecoverCLI

/// Every error type of the package says the exit code it ends a run with (`ExitCodeGiving`), or
/// is named here with why no command ends a run with it: an error type added without that
/// decision fails this test, instead of ending a run with exit 1 ("a bug") one day.
@Suite struct ExitCodeTests {
  static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

  /// The modules that exist for tests and tools only (their errors never reach a command).
  static let testOnly: Set<String> = [
    "EngineTestSupport", "TestSupport", "StoreFixtures", "LogArchiveFixtures", "FixtureTool",
  ]

  /// Error types no command ends a run with, and why.
  static let neverARunsEnd: [String: String] = [
    "FormatError": "UnifiedLog's own: every one becomes a UnifiedLogProblem of its file",
    "GuideStopped": "caught by the guide, which says it stopped",
    "KeyedArchiveError": "PropertyLists': a keyed archive that does not read is a reader's problem",
    "PropertyListError": "PropertyLists': each reader names its file in its own error",
    "RawLibraryRefusal": "RawArguments': becomes the run's OutputError (exit 74) before any command",
    "SQLiteError": "SQLiteDB's: each store reader and writer wraps it in its own error",
    "SnapshotError": "SQLiteSnapshot's: LegacyStoreError and DestinationError wrap it",
    "Stop": "GzipDecoder's own: ends a decode early, and is caught inside it",
  ]

  /// The error types declared in the package's modules (test-only ones aside), by a look at the
  /// source: `struct`, `enum` or `class` declarations whose inheritance names `Error`.
  static func declaredErrorTypes() throws -> Set<String> {
    let pattern = try NSRegularExpression(
      pattern:
        #"^\s*(?:public |package |private |fileprivate )?(?:final )?(?:struct|enum|class) ([A-Za-z]+)(?:<[^>]*>)?: [^{]*\bError\b"#,
      options: [.anchorsMatchLines])
    var names: Set<String> = []
    let modules = try FileManager.default.contentsOfDirectory(atPath: sources.path)
    for module in modules where !testOnly.contains(module) {
      let folder = sources.appendingPathComponent(module)
      guard let walk = FileManager.default.enumerator(atPath: folder.path) else { continue }
      for case let file as String in walk where file.hasSuffix(".swift") {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
          if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
        }
      }
    }
    return names
  }

  /// The types that give an exit code, as the compiler sees them conform.
  static let giving: [any ExitCodeGiving.Type] = [
    UsageError.self, InputError.self, OutputError.self, DataError.self,
    UncertainBackupChoice.self, LibraryFailure.self, InvalidValue.self, FileAccessError.self,
    SafeFileError.self, NewFileError.self, BackupError.self, CSVError.self, CSVImportError.self,
    CryptoError.self, DefaultsError.self, DestinationError.self, FlagStoreError.self,
    GzipError.self, ImportFailure.self, LegacyStoreError.self, MBFileError.self,
    OutcomeReportError.self, RecoveryFileError.self, SourceReadFailure.self, TarError.self,
    UnifiedLogProblem.self, ZipError.self,
  ]

  @Test func everyErrorTypeGivesItsExitCodeOrIsNamedWithWhyNot() throws {
    let declared = try Self.declaredErrorTypes()
    #expect(declared.count > 25, "the look at the source found only \(declared)")
    let conforming = Set(Self.giving.map { String(describing: $0) })
    let decided = conforming.union(Self.neverARunsEnd.keys)
    #expect(
      declared.subtracting(decided).isEmpty,
      "error types with no exit code decided: \(declared.subtracting(decided).sorted())")
    #expect(
      decided.subtracting(declared).isEmpty,
      "named here but not declared: \(decided.subtracting(declared).sorted())")
  }

  @Test func theCodesAreTheDocumentedOnes() {
    #expect(ExitCode.of(UsageError("x")) == .usage)
    #expect(ExitCode.of(OutputError.exists("x")) == .cannotCreate)
    #expect(ExitCode.of(OutputError.cannotWrite("x")) == .ioError)
    #expect(ExitCode.of(NewFileError.exists(path: "/x")) == .cannotCreate)
    #expect(
      ExitCode.of(FileAccessError(path: "/tmp", operation: "mkdtemp", code: EACCES)) == .ioError)
    #expect(ExitCode.of(InvalidValue()) == .usage)
    struct Unforeseen: Error {}
    #expect(ExitCode.of(Unforeseen()) == .failure)
  }
}
