import LegacyStore

/// `ditto-recover inspect FILE`: any Core Data SQLite store, described through the snapshot.
struct InspectCommand: Command {
  static let name = "inspect"
  static let abstract =
    "Describe any Core Data SQLite store: entities, tables, row counts, journal."
  static let discussion: String? = """
    Reads a private copy of FILE with its -wal and -shm, so rows not yet checkpointed are counted.
    Sub-entities share their root's table; rows counts the rows whose Z_ENT is the entity's number.
    For a .dittorecovery file, also shows where its content came from (the recovery key with --json).
    """
  /// The command's options, declared once.
  @Argument(
    .positionalPath(
      "file", value: "file", help: "The store file (its -wal/-shm beside it are used)."))
  var file: String = ""

  func run(_ context: ToolContext) throws -> CommandOutput {
    try CoreDataStore.withSnapshot(of: file, mapError: { $0 as any Error }) { store throws in
      try describe(store)
    }
  }

  private func describe(_ store: CoreDataStore) throws -> CommandOutput {
    guard store.hasPrimaryKeyTable else {
      throw LegacyStoreError.notACoreDataStore(file: file, missing: ["Z_PRIMARYKEY"])
    }
    let view = try InspectView(store, file: file)
    return .result(view.value, text: view.text)
  }
}
