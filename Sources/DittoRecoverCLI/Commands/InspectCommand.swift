import Exchange
import LegacyStore
import RecoveryFile

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
    var entities: [(entity: CoreDataEntity, rows: Int?)] = []
    for entity in store.entities { entities.append((entity, try store.rowCount(of: entity))) }
    var recovery: RecoveryFileInfo?
    var recoveryError: String?
    do {
      recovery = try RecoveryFileInfo.read(from: store.database, file: file)
    } catch {
      recoveryError = ArgumentSpelling.described(error)
    }
    let output = InspectOutput(
      entities: entities.map {
        InspectOutput.Entity(
          name: $0.entity.name, ent: $0.entity.number, table: $0.entity.table, rows: $0.rows,
          super: $0.entity.superNumber)
      },
      storeUUID: store.storeUUID, journal: store.journalMode.rawValue,
      frameworkVersion: store.frameworkVersion, storeType: store.storeType,
      hasWAL: store.snapshot.hasWAL, recovery: recovery.map(RecoveryOutput.init),
      recoveryError: recoveryError)
    var lines = [
      "store: \(ArgumentSpelling.shown(path: file))",
      "uuid: \(store.storeUUID ?? "(none)")",
      "journal: \(store.journalMode.rawValue)\(store.snapshot.hasWAL ? " (with a -wal, applied)" : "")",
      "framework version: \(store.frameworkVersion.map(String.init) ?? "(unknown)")",
      "",
      pad("ENT", 6) + pad("ENTITY", 32) + pad("TABLE", 32) + "ROWS",
    ]
    for (entity, rows) in entities {
      lines.append(
        pad(String(entity.number), 6) + pad(entity.name, 32) + pad(entity.table ?? "-", 32)
          + (rows.map(String.init) ?? "-"))
    }
    if let recovery { lines += [""] + RecoveryRendering.lines(recovery) }
    if let recoveryError { lines += ["", "recovery record unreadable: \(recoveryError)"] }
    return .result(output, text: lines.joined(separator: "\n") + "\n")
  }

  private func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }
}
