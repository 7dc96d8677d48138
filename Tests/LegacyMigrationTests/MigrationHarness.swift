import EngineTestSupport
import Testing

extension MigrationHarness {
  /// Every file recorded is still there with the same bytes, except the ones the migration owns
  /// (the library and the App Group defaults).
  func assertPreserved(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let changed = try changedFiles()
    #expect(changed.isEmpty, "changed: \(changed)", sourceLocation: sourceLocation)
  }
}
