import SQLiteDB

// DITTO LIBRARY FILE (the current model; written only by LibraryStore)
//
//   HEADER FIELD     VALUE
//   application_id   0x4449544C ("DITL"): marks the file as ours; anything else is refused, never written
//   user_version     schema version, advanced by the ordered steps below, one transaction each
//   journal_mode     WAL (the app and its keyboard extension share the file)
//
//   TABLE     COLUMNS
//   profile   id
//   category  id, profile_id → profile, title, sort_order, modified_at (seconds since 1970)
//   ditto     id, category_id → category, text, use_count, sort_order, modified_at
//
// (category_id, text) is UNIQUE: a category never holds the same text twice, which is the duplicate rule
// of the merge and makes two concurrent imports unable to insert the same ditto twice.

/// The library's schema: its identity and its ordered migration steps.
public enum LibrarySchema {
  /// `PRAGMA application_id` of every library file ("DITL").
  public static let applicationID: Int32 = 0x4449_544C

  /// Ordered steps; step `i` moves `user_version` from `i` to `i + 1`.
  static let steps: [String] = [
    """
    CREATE TABLE profile (
      id INTEGER PRIMARY KEY
    );
    CREATE TABLE category (
      id INTEGER PRIMARY KEY,
      profile_id INTEGER NOT NULL REFERENCES profile(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      sort_order INTEGER NOT NULL,
      modified_at REAL NOT NULL
    );
    CREATE INDEX category_by_title ON category(profile_id, title);
    CREATE TABLE ditto (
      id INTEGER PRIMARY KEY,
      category_id INTEGER NOT NULL REFERENCES category(id) ON DELETE CASCADE,
      text TEXT NOT NULL,
      use_count INTEGER NOT NULL DEFAULT 0,
      sort_order INTEGER NOT NULL,
      modified_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX ditto_by_text ON ditto(category_id, text);
    CREATE INDEX ditto_by_order ON ditto(category_id, sort_order);
    INSERT INTO profile (id) VALUES (1);
    """
  ]

  /// The version a fully migrated library has.
  public static var currentVersion: Int { steps.count }

  /// Brings `database` to ``currentVersion``; each step and its `user_version` in one transaction.
  ///
  /// Runs under `BEGIN IMMEDIATE` and re-reads the version inside it, so two processes creating the
  /// same library at once apply each step exactly once.
  static func migrate(_ database: Database, file: String) throws(LibraryError) {
    do {
      while true {
        var done = false
        try database.inTransaction(.immediate) {
          let version = Int(
            try database.makeStatement(sql: "PRAGMA user_version").scalarInt64() ?? 0)
          guard version < steps.count else {
            done = true
            if version > steps.count {
              throw LibraryError.newerSchema(file: file, found: version, supported: steps.count)
            }
            return .commit
          }
          if version == 0 {
            try database.execute(sql: "PRAGMA application_id = \(applicationID)")
          }
          try database.execute(sql: steps[version])
          try database.execute(sql: "PRAGMA user_version = \(version + 1)")
          return .commit
        }
        if done { return }
      }
    } catch let error as LibraryError {
      throw error
    } catch let error as SQLiteError {
      throw LibraryError.writeFailed(error, file: file)
    } catch {
      throw LibraryError.writeFailed(file: file, reason: "\(error)")
    }
  }
}
