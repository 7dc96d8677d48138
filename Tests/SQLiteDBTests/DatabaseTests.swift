import EngineTestSupport
import Foundation
import SQLiteDB
import SafeFiles
import Testing

@Suite struct DatabaseTests {
  @Test func roundTripsValuesAndFinalizesStatements() throws {
    let folder = try TemporaryDirectory("db")
    let database = try Database(
      path: UserPath.resolvingFolder(of: folder.appending("t.sqlite")), mode: .readWriteCreate)
    try database.execute(sql: "CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
    let insert = try database.makeStatement(sql: "INSERT INTO t VALUES (?, ?, ?, ?, ?)")
    try insert.bind(.integer(42), .real(1.5), .text("héllo 🚗"), .blob([0, 1, 2]), .null)
    try insert.run()
    let select = try database.makeStatement(sql: "SELECT i, r, s, b, n FROM t")
    #expect(try select.step())
    #expect(select.int64(at: 0) == 42)
    #expect(select.optionalDouble(at: 1) == 1.5)
    #expect(select.text(at: 2) == "héllo 🚗")
    #expect(select.blob(at: 3) == [0, 1, 2])
    #expect(select.isNull(at: 4))
    #expect(select.columnType(at: 2) == .text)
    #expect(try !select.step())
  }

  /// SQLite text may hold NUL; binding stopped at it (found by Fuzz/Sources/fuzz-bulk-import).
  @Test(arguments: ["before\u{0}after", "\u{0}", "", "a\u{0}\u{0}🚗"])
  func textWithNULBytesRoundTripsWhole(text: String) throws {
    let database = try Database(path: ":memory:", mode: .readWriteCreate)
    try database.execute(sql: "CREATE TABLE t (s TEXT)")
    let insert = try database.makeStatement(sql: "INSERT INTO t VALUES (?)")
    try insert.bind(.text(text))
    try insert.run()
    let select = try database.makeStatement(sql: "SELECT s, length(CAST(s AS BLOB)) FROM t")
    #expect(try select.step())
    #expect(select.text(at: 0) == text)
    #expect(select.int64(at: 1) == Int64(text.utf8.count))
    #expect(select.columnType(at: 0) == .text)
  }

  @Test func aFileThatIsNotADatabaseFailsAtOpen() throws {
    let folder = try TemporaryDirectory("notadb")
    let path = folder.appending("x.sqlite")
    try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
    do {
      _ = try Database(
        path: UserPath.resolvingFolder(of: path), mode: .readOnly, displayName: "x.sqlite")
      Issue.record("opened garbage")
    } catch {
      #expect(error.isNotADatabase)
      #expect(error.primaryCode == 26)
      #expect(error.file == "x.sqlite")
      #expect(error.description.hasPrefix("SQLite error 26 (file is not a database)"))
    }
  }

  @Test func errorsCarryTheSQLButNeverBoundValues() throws {
    let database = try Database(path: ":memory:", mode: .readWriteCreate, displayName: "mem")
    try database.execute(sql: "CREATE TABLE t (x TEXT NOT NULL)")
    let insert = try database.makeStatement(sql: "INSERT INTO t VALUES (?)")
    try insert.bind(.null)
    do {
      try insert.run()
      Issue.record("NOT NULL was not enforced")
    } catch {
      #expect(error.primaryCode == 19)
      #expect(error.sql == "INSERT INTO t VALUES (?)")
    }
    #expect(throws: SQLiteError.self) { try database.makeStatement(sql: "SELEKT 1") }
  }

  @Test func transactionsRollBackWhenTheBodyThrows() throws {
    struct Failure: Error {}
    let database = try Database(path: ":memory:", mode: .readWriteCreate)
    try database.execute(sql: "CREATE TABLE t (x)")
    #expect(throws: Failure.self) {
      try database.write(mapError: { $0 as any Error }) { () throws in
        try database.execute(sql: "INSERT INTO t VALUES (1)")
        throw Failure()
      }
    }
    #expect(try database.makeStatement(sql: "SELECT count(*) FROM t").scalarInt64() == 0)
    #expect(!database.isInsideTransaction)
  }

  @Test func aWriteCommitsOnReturnAndGivesItsValueOut() throws {
    let database = try Database(path: ":memory:", mode: .readWriteCreate)
    try database.execute(sql: "CREATE TABLE t (x)")
    let count = try database.write { () throws(SQLiteError) -> Int64? in
      try database.execute(sql: "INSERT INTO t VALUES (1), (2)")
      return try database.makeStatement(sql: "SELECT count(*) FROM t").scalarInt64()
    }
    #expect(count == 2)
    #expect(try database.makeStatement(sql: "SELECT count(*) FROM t").scalarInt64() == 2)
    #expect(!database.isInsideTransaction)
  }

  @Test func aRollbackResultUndoesTheWritesAndStillGivesTheValue() throws {
    let database = try Database(path: ":memory:", mode: .readWriteCreate)
    try database.execute(sql: "CREATE TABLE t (x)")
    let value = try database.inTransaction(mapError: { $0 }) {
      () throws(SQLiteError) -> TransactionResult<String> in
      try database.execute(sql: "INSERT INTO t VALUES (1)")
      return .rollback("kept")
    }
    #expect(value == "kept")
    #expect(try database.makeStatement(sql: "SELECT count(*) FROM t").scalarInt64() == 0)
  }

  @Test func aFailedBeginIsTheCallersErrorType() throws {
    struct Wrapped: Error { let cause: SQLiteError }
    let database = try Database(path: ":memory:", mode: .readWriteCreate)
    try database.execute(sql: "BEGIN")
    // A transaction inside a transaction fails at BEGIN: the error comes out mapped.
    #expect(throws: Wrapped.self) {
      try database.write(mapError: { Wrapped(cause: $0) }) { () throws(Wrapped) in }
    }
    try database.execute(sql: "ROLLBACK")
  }

  @Test func defensiveReadersRefuseWritesAndViews() throws {
    let folder = try TemporaryDirectory("defensive")
    let path = folder.appending("d.sqlite")
    let writer = try Database(path: UserPath.resolvingFolder(of: path), mode: .readWriteCreate)
    try writer.execute(
      sql: "CREATE TABLE t (x); CREATE VIEW v AS SELECT x FROM t; INSERT INTO t VALUES (1)")
    try writer.close()
    let reader = try Database(
      path: UserPath.resolvingFolder(of: path), mode: .readOnly, options: .untrustedReader)
    #expect(throws: SQLiteError.self) { try reader.execute(sql: "INSERT INTO t VALUES (2)") }
    #expect(throws: SQLiteError.self) { try reader.makeStatement(sql: "SELECT * FROM v").step() }
    #expect(try reader.makeStatement(sql: "SELECT count(*) FROM t").scalarInt64() == 1)
  }

  @Test func symbolicLinksAreNotOpened() throws {
    let folder = try TemporaryDirectory("link")
    let target = folder.appending("real.sqlite")
    try Database(path: UserPath.resolvingFolder(of: target), mode: .readWriteCreate).close()
    try FileManager.default.createSymbolicLink(
      atPath: folder.appending("link.sqlite"), withDestinationPath: target)
    #expect(throws: SQLiteError.self) {
      try Database(
        path: UserPath.resolvingFolder(of: folder.appending("link.sqlite")), mode: .readOnly)
    }
  }
}

/// Every connection runs in defensive mode, as Apple's SQLite runs apps' connections: a schema
/// write fails here as it would on a Mac or an iPhone, unless a test lifts it on purpose.
@Suite struct DefensiveModeTests {
  @Test func aSchemaWriteFailsUnlessItIsLiftedOnPurpose() throws {
    let folder = try TemporaryDirectory("defensive")
    let path = UserPath.resolvingFolder(of: folder.appending("db.sqlite"))
    let database = try Database(path: path, mode: .readWriteCreate)
    try database.execute(sql: "CREATE TABLE T (A); CREATE INDEX TI ON T (A)")
    try database.execute(sql: "PRAGMA writable_schema = ON")
    #expect(throws: SQLiteError.self) {
      try database.execute(sql: "UPDATE sqlite_master SET sql = sql WHERE name = 'TI'")
    }
    try database.close()
    var options = Database.Options()
    options.permitsSchemaWrites = true
    let lifted = try Database(path: path, mode: .readWrite, options: options)
    try lifted.execute(
      sql: "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = sql WHERE name = 'TI'")
    try lifted.close()
  }
}
