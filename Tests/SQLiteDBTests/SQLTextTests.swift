import SQLiteDB
import SafeFiles
import Testing

@Suite struct SQLTextTests {
  @Test func quotesAreDoubledAndEverythingElseKept() throws {
    #expect(SQLText.quotedIdentifier("ZDITTO") == "\"ZDITTO\"")
    #expect(SQLText.quotedIdentifier("a\"b\"\"") == "\"a\"\"b\"\"\"\"\"")
    #expect(SQLText.escapedLiteral("it's é 😀 '") == "it''s é 😀 ''")
    #expect(SQLText.escapedLiteral("plain") == "plain")
  }

  /// What the quoting is for: a table and a file name that hold quotes still name exactly themselves.
  @Test func quotedNamesRoundTripThroughSQLite() throws {
    let database = try Database(path: ":memory:", mode: .readWriteCreate)
    let name = "we\"ird 'name"
    try database.execute(sql: "CREATE TABLE \(SQLText.quotedIdentifier(name)) (x)")
    let found = try database.makeStatement(
      sql: "SELECT name FROM sqlite_schema WHERE name = '\(SQLText.escapedLiteral(name))'"
    ).scalarText()
    #expect(found == name)
  }
}
