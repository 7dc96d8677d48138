#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// An error reported by SQLite, with the file it concerns.
///
/// The description follows the shape
/// ``SQLite error 26 (file is not a database): file is not a database - while executing `SELECT …` in Ditto.sqlite``.
/// It never contains bound values: those may be user text.
package struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
  /// SQLite's extended result code (`SQLITE_IOERR_READ`, `SQLITE_BUSY_SNAPSHOT`, …).
  package let extendedCode: Int32
  /// The message SQLite gave, read right after the failing call.
  package let message: String
  /// The statement that failed, when there was one.
  package let sql: String?
  /// The file the connection was opened for, as the caller named it (not the snapshot copy).
  package let file: String

  /// Creates an error from its parts.
  package init(extendedCode: Int32, message: String, sql: String? = nil, file: String) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
    self.file = file
  }

  /// The primary result code (`extendedCode & 0xFF`): `SQLITE_BUSY`, `SQLITE_NOTADB`, `SQLITE_CORRUPT`, …
  package var primaryCode: Int32 { extendedCode & 0xFF }

  /// True when another connection holds a lock we waited for in vain.
  package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

  /// True when the file is not an SQLite database at all (garbage, encrypted, zeroed header).
  package var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB }

  /// True when a read-only connection cannot read the file as it is: a hot journal to roll back or a
  /// WAL to recover first (`SQLITE_READONLY_RECOVERY`, `_CANTLOCK`, `_ROLLBACK`, `_CANTINIT`,
  /// `_DIRECTORY`). A private copy may be reopened read-write so SQLite repairs it there.
  package var isRecoveryRefusedReadOnly: Bool {
    Self.recoveryRefusedReadOnlyCodes.contains(extendedCode)
  }

  /// The extended codes of ``isRecoveryRefusedReadOnly``.
  ///
  /// Related SQLite documentation: <https://www.sqlite.org/rescode.html#readonly_recovery>
  static let recoveryRefusedReadOnlyCodes: Set<Int32> = [
    SQLITE_READONLY | (1 << 8),  // SQLITE_READONLY_RECOVERY
    SQLITE_READONLY | (2 << 8),  // SQLITE_READONLY_CANTLOCK
    SQLITE_READONLY | (3 << 8),  // SQLITE_READONLY_ROLLBACK
    SQLITE_READONLY | (5 << 8),  // SQLITE_READONLY_CANTINIT
    SQLITE_READONLY | (6 << 8),  // SQLITE_READONLY_DIRECTORY
  ]

  /// SQLite's English text for the primary code ("file is not a database").
  package var codeText: String { String(cString: sqlite3_errstr(primaryCode)) }

  package var description: String {
    var text = "SQLite error \(primaryCode) (\(codeText))"
    if !message.isEmpty { text += ": \(message)" }
    if let sql { text += " - while executing `\(sql)`" }
    return text + " in \(file)"
  }
}
