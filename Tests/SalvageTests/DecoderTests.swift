import Testing

@testable import Salvage

/// The byte-level pieces of the decoder, on hand-made and hostile inputs.
struct DecoderTests {
  @Test func varintsDecodeAndNeverOverrun() {
    #expect([UInt8]([0x7F]).varint(at: 0)! == (127, 1))
    #expect([UInt8]([0x81, 0x00]).varint(at: 0)! == (128, 2))
    let nine = [UInt8](repeating: 0xFF, count: 9)
    #expect(nine.varint(at: 0)! == (-1, 9))
    #expect([UInt8]([0x81]).varint(at: 0) == nil)
    #expect([UInt8]([0x01]).varint(at: 5) == nil)
    #expect([UInt8]([0x01]).varint(at: -1) == nil)
  }

  @Test func signedIntegersSignExtend() {
    #expect([UInt8]([0xFF]).signedBigEndian(at: 0, size: 1) == -1)
    #expect([UInt8]([0x80, 0x00, 0x00]).signedBigEndian(at: 0, size: 3) == -8_388_608)
    #expect([UInt8]([0x00, 0x80, 0x00]).signedBigEndian(at: 0, size: 3) == 32768)
    #expect([UInt8]([0x01, 0x02]).signedBigEndian(at: 1, size: 2) == nil)
  }

  @Test func recordsDecodeOnlyWhenSizesAddUp() {
    // header 4 bytes: size, NULL, int8, text of 2 bytes (serial 17); body: 0x05 "hi"
    let record: [UInt8] = [4, 0, 1, 17, 5, 0x68, 0x69]
    #expect(Record.decode(record) == [.null, .integer(5), .text([0x68, 0x69])])
    #expect(Record.decode(Array(record.dropLast())) == nil)
    #expect(Record.decode(record + [0]) == nil)
    #expect(Record.decode([4, 0, 10, 17, 0x68, 0x69]) == nil)  // reserved serial type
    #expect(Record.decode([200, 0]) == nil)  // header larger than the payload
    #expect(Record.decode([]) == nil)
    #expect(Record.decode([0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]) == nil)
  }

  @Test func invalidTextIsRefusedNotRepaired() {
    #expect(decodeText(Array("café".utf8), encoding: .utf8) == "café")
    #expect(decodeText([0x63, 0xC3], encoding: .utf8) == nil)
    #expect(decodeText([0x00, 0xD8], encoding: .utf16le) == nil)  // unpaired surrogate
    #expect(decodeText([0x68, 0x00, 0x69, 0x00], encoding: .utf16le) == "hi")
  }

  @Test func createTableColumnsParseInOrder() {
    let columns = SchemaCatalog.parseColumns(
      createTable:
        "CREATE TABLE ZDITTO ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, \"Z_OPT\" INTEGER, ZTEXT VARCHAR(255), CONSTRAINT c CHECK (Z_ENT > 0) )"
    )
    #expect(columns?.map(\.name) == ["Z_PK", "Z_ENT", "Z_OPT", "ZTEXT"])
    #expect(columns?.map(\.isRowidAlias) == [true, false, false, false])
    #expect(columns?.map(\.affinity) == [.integer, .integer, .integer, .text])
    #expect(SchemaCatalog.parseColumns(createTable: "CREATE TABLE t") == nil)
    #expect(SchemaCatalog.parseColumns(createTable: "CREATE TABLE t (a, b") == nil)
  }

  @Test func btreePagesRejectImpossibleHeaders() {
    var page = [UInt8](repeating: 0, count: 4096)
    #expect(BTreePage(bytes: page, number: 2, usableSize: 4096) == nil)  // type 0
    page[0] = 0x0D
    page[3] = 0xFF  // 65280 cells cannot fit
    page[4] = 0x00
    #expect(BTreePage(bytes: page, number: 2, usableSize: 4096) == nil)
    page[3] = 0
    page[4] = 1
    page[5] = 0x0F
    page[6] = 0xFF  // content starts at 4095
    page[8] = 0xFF  // the only cell pointer points past the page
    page[9] = 0xFF
    let parsed = BTreePage(bytes: page, number: 2, usableSize: 4096)
    #expect(parsed != nil)
    #expect(parsed?.cellOffsets.isEmpty == true)
  }

  @Test func freeblockChainsThatLoopEnd() {
    var page = [UInt8](repeating: 0, count: 4096)
    page[0] = 0x0D
    page[1] = 0x01  // first freeblock at 256
    page[2] = 0x00
    page[5] = 0x00
    page[6] = 0x80  // content starts at 128
    page[256] = 0x01  // next freeblock: 256 again (a loop)
    page[257] = 0x00
    page[259] = 0x10  // size 16
    let parsed = BTreePage(bytes: page, number: 2, usableSize: 4096)
    #expect(parsed?.freeblocks.count == 1)
  }

  @Test func localPayloadFollowsTheFileFormat() {
    // U = 4096: X = 4061, M = 489.
    #expect(TableLeafCell.localPayloadSize(4061, usableSize: 4096) == 4061)
    #expect(TableLeafCell.localPayloadSize(4062, usableSize: 4096) == 489)  // K = 4062 > X
    // K = 489 + 9511 % 4092 = 1816 <= X.
    #expect(TableLeafCell.localPayloadSize(10_000, usableSize: 4096) == 1816)
  }
}
