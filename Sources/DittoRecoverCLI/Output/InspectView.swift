import LegacyStore
import RecoveryFile

/// What `inspect` says about a store, worked out once from its snapshot: the entities and their
/// row counts, the metadata, the recovery record (or why it could not be read). Its JSON value
/// and its text are both rendered from it, and only the one printed is built.
struct InspectView {
  /// The file as given.
  let file: String
  let entities: [(entity: CoreDataEntity, rows: Int?)]
  /// The store's metadata and journal, as read.
  let store: (uuid: String?, journal: String, frameworkVersion: Int?, type: String?, hasWAL: Bool)
  let recovery: RecoveryFileInfo?
  /// Why the recovery record could not be read, in words.
  let recoveryError: String?

  /// Reads what the view shows from `store` (the snapshot of `file`).
  init(_ store: CoreDataStore, file: String) throws {
    self.file = file
    var entities: [(entity: CoreDataEntity, rows: Int?)] = []
    for entity in store.entities { entities.append((entity, try store.rowCount(of: entity))) }
    self.entities = entities
    self.store = (
      store.storeUUID, store.journalMode.rawValue, store.frameworkVersion, store.storeType,
      store.snapshot.hasWAL
    )
    do {
      recovery = try RecoveryFileInfo.read(from: store.database, file: file)
      recoveryError = nil
    } catch {
      recovery = nil
      recoveryError = ArgumentSpelling.described(error)
    }
  }

  /// The `--json` value.
  var value: InspectOutput {
    InspectOutput(
      entities: entities.map {
        InspectOutput.Entity(
          name: $0.entity.name, ent: $0.entity.number, table: $0.entity.table, rows: $0.rows,
          super: $0.entity.superNumber)
      },
      storeUUID: store.uuid, journal: store.journal, frameworkVersion: store.frameworkVersion,
      storeType: store.type, hasWAL: store.hasWAL, recovery: recovery.map(RecoveryOutput.init),
      recoveryError: recoveryError)
  }

  /// The text.
  var text: String {
    var lines = [
      "store: \(ArgumentSpelling.shown(path: file))",
      "uuid: \(store.uuid ?? "(none)")",
      "journal: \(store.journal)\(store.hasWAL ? " (with a -wal, applied)" : "")",
      "framework version: \(store.frameworkVersion.map(String.init) ?? "(unknown)")",
      "",
      Self.pad("ENT", 6) + Self.pad("ENTITY", 32) + Self.pad("TABLE", 32) + "ROWS",
    ]
    for (entity, rows) in entities {
      lines.append(
        Self.pad(String(entity.number), 6) + Self.pad(entity.name, 32)
          + Self.pad(entity.table ?? "-", 32) + (rows.map(String.init) ?? "-"))
    }
    if let recovery { lines += [""] + RecoveryRendering.lines(recovery) }
    if let recoveryError { lines += ["", "recovery record unreadable: \(recoveryError)"] }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
  }
}
