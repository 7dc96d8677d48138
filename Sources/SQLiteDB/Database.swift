import SQLiteShims

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A connection to one SQLite database file.
///
/// `Database` owns its `sqlite3` handle and closes it in `deinit` if `close()` was not called.
/// It is not `Sendable`: use one connection per thread.
///
/// ```swift
/// let db = try Database(path: copy, mode: .readOnly, displayName: "Ditto.sqlite")
/// let count = try db.makeStatement(sql: "SELECT count(*) FROM ZDITTO").scalarInt64()
/// ```
package final class Database {
  /// How the file is opened.
  package enum Mode: Sendable {
    /// `SQLITE_OPEN_READONLY`. Reading a WAL database may still create `-shm`/`-wal` beside the file,
    /// which is why legacy stores are only ever opened on a snapshot copy.
    case readOnly
    /// `SQLITE_OPEN_READWRITE`; the file must exist.
    case readWrite
    /// `SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE`.
    case readWriteCreate
  }

  /// Settings applied right after the file is opened.
  package struct Options: Sendable {
    /// Milliseconds to wait for another connection's lock before answering `SQLITE_BUSY`.
    package var busyTimeoutMilliseconds: Int32 = 5_000
    /// Hardens the connection for files we did not write: `SQLITE_DBCONFIG_DEFENSIVE` on, triggers,
    /// views and extension loading off, `trusted_schema` off, `query_only` on.
    package var isDefensive: Bool = false
    /// Lets `ATTACH` take `file:` URIs (`?mode=ro`): `SQLITE_OPEN_URI`.
    package var allowsURIFilenames: Bool = false
    /// The largest string or blob the connection will build (`SQLITE_LIMIT_LENGTH`); a ditto is
    /// never near it, and a hostile expression fails instead of allocating gigabytes.
    package var maximumValueBytes: Int32 = 64 << 20
    /// Lifts `SQLITE_DBCONFIG_DEFENSIVE`, which every connection otherwise runs with, on every
    /// platform: Apple's SQLite turns it on by default for apps built with the macOS 11 / iOS 14
    /// SDKs and later, so the same is done here and a schema write (`PRAGMA writable_schema`)
    /// fails alike everywhere. Only test code that damages a file on purpose lifts it.
    package var permitsSchemaWrites: Bool = false
    /// Bytes of the file SQLite reads through a memory map instead of one `pread` per page
    /// (`PRAGMA mmap_size`); 0: none. Only for a file nothing else writes or truncates (a private
    /// snapshot): a mapped file that shrinks under the reader faults.
    package var memoryMapBytes: Int64 = 0
    /// Takes the file's lock once and keeps it (`PRAGMA locking_mode = EXCLUSIVE`), set before the
    /// first read: a WAL database is then read with its index in this process's memory, so no
    /// `-shm` is made and no lock is taken per statement. Only for a file no other connection opens
    /// (a private snapshot).
    package var locksExclusively: Bool = false

    /// Creates options; the defaults suit files this project writes.
    package init(
      busyTimeoutMilliseconds: Int32 = 5_000, isDefensive: Bool = false,
      allowsURIFilenames: Bool = false, maximumValueBytes: Int32 = 64 << 20
    ) {
      self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
      self.isDefensive = isDefensive
      self.allowsURIFilenames = allowsURIFilenames
      self.maximumValueBytes = maximumValueBytes
    }

    /// Options for reading a file made by someone else (a legacy store, a backup manifest).
    package static let untrustedReader = Options(isDefensive: true)
  }

  /// The raw handle. Only this module touches it.
  let handle: OpaquePointer
  /// The name used in errors: the file as the user knows it, not the snapshot it was copied to.
  package let displayName: String
  /// The path that was opened.
  package let path: String
  private var isClosed = false

  /// Opens the database at `path`.
  ///
  /// Symbolic links are refused (`SQLITE_OPEN_NOFOLLOW`). The format is validated at once by reading
  /// `sqlite_master`, so a file that is not a database fails here rather than looking empty later.
  ///
  /// - Throws: ``SQLiteError`` naming `displayName`.
  package init(
    path: String, mode: Mode, displayName: String? = nil, options: Options = Options()
  ) throws(SQLiteError) {
    let name = displayName ?? path
    var flags: Int32 = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
    if options.allowsURIFilenames { flags |= SQLITE_OPEN_URI }
    switch mode {
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .readWrite: flags |= SQLITE_OPEN_READWRITE
    case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    }
    var db: OpaquePointer?
    let rc = sqlite3_open_v2(Self.resolvingFolder(of: path), &db, flags, nil)
    guard rc == SQLITE_OK, let db else {
      // > Whether or not an error occurs when it is opened, resources associated with the
      // > database connection handle should be released by passing it to sqlite3_close()
      // > when it is no longer required. (https://www.sqlite.org/c3ref/open.html)
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      let code = db.map { sqlite3_extended_errcode($0) } ?? rc
      sqlite3_close(db)
      throw SQLiteError(extendedCode: code, message: message, file: name)
    }
    self.handle = db
    self.displayName = name
    self.path = path
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, options.busyTimeoutMilliseconds)
    // Bound what one value may cost: a hostile file (or an attached one) can claim anything.
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, options.maximumValueBytes)
    let defensive = ditto_sqlite3_db_config_flag(
      db, ditto_sqlite3_dbconfig_defensive(), options.permitsSchemaWrites ? 0 : 1)
    guard defensive == SQLITE_OK else { throw error(code: defensive) }
    // Before anything reads the file (`cache_size` loads the schema): a WAL database read first
    // in shared mode keeps its `-shm`.
    if options.locksExclusively {
      try execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
    }
    if options.isDefensive {
      try applyDefensiveSettings()
    }
    if options.memoryMapBytes > 0 {
      try execute(sql: "PRAGMA mmap_size = \(options.memoryMapBytes)")
    }
    try validateFormat()
  }

  deinit {
    if !isClosed {
      // Statements may still be alive in a caller's hands; close_v2 defers until they are finalized.
      sqlite3_close_v2(handle)
    }
  }

  /// `path` with its folder resolved (links followed, as the file system would), as the bytes
  /// SQLite opens, and its last component kept as given: `SQLITE_OPEN_NOFOLLOW` still refuses a
  /// file that is a link, while a folder reached through a link opens (a Mac's `/var` → `/private/var`,
  /// or a folder whose name is not UTF-8, which the tool reaches through a link of its own). A URI
  /// filename, or a folder that cannot be resolved, is opened as given.
  static func resolvingFolder(of path: String) -> [CChar] {
    let given = Array(path.utf8CString)
    guard !path.hasPrefix("file:"), let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else {
      return given
    }
    let folder = String(path[..<slash])
    let name = path[path.index(after: slash)...]
    guard !name.isEmpty, let real = realpath(folder.isEmpty ? "/" : folder, nil) else {
      return given
    }
    defer { free(real) }
    var resolved = Array(UnsafeBufferPointer(start: real, count: strlen(real)))
    if resolved.last != CChar(bitPattern: UInt8(ascii: "/")) {
      resolved.append(CChar(bitPattern: UInt8(ascii: "/")))
    }
    return resolved + Array(String(name).utf8CString)
  }

  /// Closes the connection. All statements must have been released first.
  ///
  /// - Throws: ``SQLiteError`` (`SQLITE_BUSY` when a statement is still alive).
  package func close() throws(SQLiteError) {
    guard !isClosed else { return }
    let rc = sqlite3_close(handle)
    guard rc == SQLITE_OK else { throw error(code: rc) }
    isClosed = true
  }

  // MARK: - Executing

  /// Runs one or more statements that return no rows we need.
  ///
  /// - Throws: ``SQLiteError``.
  package func execute(sql: String) throws(SQLiteError) {
    var message: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(handle, sql, nil, nil, &message)
    if rc != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw SQLiteError(
        extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql, file: displayName)
    }
  }

  /// Compiles one statement.
  ///
  /// - Throws: ``SQLiteError``.
  package func makeStatement(sql: String) throws(SQLiteError) -> Statement {
    try Statement(database: self, sql: sql)
  }

  /// Whether closing the last connection to a WAL database checkpoints it and deletes `-wal`/`-shm`
  /// (SQLite's default: on). A connection that must leave a file's bytes as they were (it only
  /// read, or rolled back) turns it off: `SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`.
  ///
  /// - Throws: ``SQLiteError``.
  package func setCheckpointsOnClose(_ enabled: Bool) throws(SQLiteError) {
    let rc = ditto_sqlite3_db_config_flag(
      handle, ditto_sqlite3_dbconfig_no_ckpt_on_close(), enabled ? 0 : 1)
    guard rc == SQLITE_OK else { throw error(code: rc) }
  }

  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  package var changesCount: Int { Int(sqlite3_changes(handle)) }

  /// True while a transaction is open on this connection.
  package var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  // MARK: - Errors

  /// Builds an error from the connection's current state; call right after the failing call.
  func error(code: Int32, sql: String? = nil) -> SQLiteError {
    let extended = sqlite3_extended_errcode(handle)
    // If the connection's error was overwritten, keep at least the code we were given.
    let best = (extended & 0xFF) == (code & 0xFF) ? extended : code
    return SQLiteError(
      extendedCode: best, message: String(cString: sqlite3_errmsg(handle)), sql: sql,
      file: displayName)
  }

  // MARK: - Opening checks

  private func validateFormat() throws(SQLiteError) {
    // GRDB's validateFormat(): "not a database" must fail at open, never show up later as "empty".
    let statement = try makeStatement(sql: "SELECT * FROM sqlite_master LIMIT 1")
    _ = try statement.step()
  }

  private func applyDefensiveSettings() throws(SQLiteError) {
    let settings: [(Int32, Int32)] = [
      (ditto_sqlite3_dbconfig_defensive(), 1),
      (ditto_sqlite3_dbconfig_trusted_schema(), 0),
      (ditto_sqlite3_dbconfig_enable_trigger(), 0),
      (ditto_sqlite3_dbconfig_enable_view(), 0),
      (ditto_sqlite3_dbconfig_enable_load_extension(), 0),
    ]
    for (option, value) in settings {
      let rc = ditto_sqlite3_db_config_flag(handle, option, value)
      guard rc == SQLITE_OK else { throw error(code: rc) }
    }
    sqlite3_limit(handle, SQLITE_LIMIT_SQL_LENGTH, 1_000_000)
    // SQLite's default page cache (2 MB), stated so it never grows by accident: readers stream,
    // the keyboard extension has tens of MB in all, and the ordered walk's sort is faster with it
    // (export of 100,000 dittos: 0.50 s at 2 MB against 0.56 s at 8 MB, which also sorts in it).
    try execute(sql: "PRAGMA cache_size = -2000")
    try execute(sql: "PRAGMA query_only = 1")
  }
}

@available(*, unavailable)
extension Database: Sendable {}
