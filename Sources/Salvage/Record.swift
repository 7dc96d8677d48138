// RECORD FORMAT (https://www.sqlite.org/fileformat2.html#record_format)
//
// A row's payload is a record: a header, then the column values in column order.
//
//   header:  varint H, the header's total size in bytes (including this varint),
//            then one varint serial type per column, up to byte H.
//   body:    the values, each sized by its serial type, back to back.
//
//   SERIAL TYPE   SIZE        MEANING
//        0          0         NULL (also the INTEGER PRIMARY KEY column: its value is the rowid)
//        1          1         big-endian two's-complement integer
//        2          2         big-endian two's-complement integer
//        3          3         big-endian two's-complement integer
//        4          4         big-endian two's-complement integer
//        5          6         big-endian two's-complement integer
//        6          8         big-endian two's-complement integer
//        7          8         big-endian IEEE 754 float
//        8          0         the integer 0
//        9          0         the integer 1
//     10, 11        -         reserved: never in a valid record
//    N >= 12 even  (N-12)/2   BLOB
//    N >= 13 odd   (N-13)/2   TEXT in the database encoding, no terminator
//
// A record is decoded if and only if (1) H is at least the size of its own varint and at most the
// payload size, (2) the serial types end exactly at byte H, (3) no serial type is 10 or 11, and
// (4) the sizes of the values add up to exactly the payload size minus H. A payload that fails
// any of these is not a record (a damaged cell, or bytes that only looked like one).

/// One column value as stored.
enum RecordValue: Equatable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  /// Raw text bytes in the database encoding (decoded later, refusing invalid text).
  case text([UInt8])
  case blob([UInt8])

  /// The integer, nil for anything else.
  var integer: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  var isNull: Bool { self == .null }
}

/// Decodes records.
enum Record {
  /// Columns salvage accepts in one record (SQLite's default SQLITE_MAX_COLUMN is 2000).
  static let maximumColumns = 2000

  /// The size in bytes of a value of serial type `type`, nil for the reserved types 10 and 11.
  static func valueSize(ofSerialType type: Int64) -> Int? {
    switch type {
    case 0, 8, 9: return 0
    case 1, 2, 3, 4: return Int(type)
    case 5: return 6
    case 6, 7: return 8
    case 10, 11: return nil
    default:
      guard type >= 12, type <= Int64(TableLeafCell.maximumPayload) * 2 + 13 else { return nil }
      return Int((type - 12) / 2)
    }
  }

  /// The serial types in the record header at the start of `payload`, and the header size.
  static func serialTypes(in payload: [UInt8]) -> (types: [Int64], headerSize: Int)? {
    guard let header = payload.varint(at: 0), header.value >= Int64(header.length),
      header.value <= Int64(payload.count)
    else { return nil }
    let headerSize = Int(header.value)
    var types: [Int64] = []
    var offset = header.length
    while offset < headerSize {
      guard let type = payload.varint(at: offset), offset + type.length <= headerSize,
        types.count < maximumColumns
      else { return nil }
      types.append(type.value)
      offset += type.length
    }
    return (types, headerSize)
  }

  /// Decodes a whole payload into column values; nil when it is not a valid record.
  static func decode(_ payload: [UInt8]) -> [RecordValue]? {
    guard let (types, headerSize) = serialTypes(in: payload) else { return nil }
    var total = 0
    for type in types {
      guard let size = valueSize(ofSerialType: type) else { return nil }
      total += size
      guard total <= payload.count else { return nil }
    }
    guard headerSize + total == payload.count else { return nil }
    var values: [RecordValue] = []
    values.reserveCapacity(types.count)
    var offset = headerSize
    for type in types {
      guard let size = valueSize(ofSerialType: type) else { return nil }
      switch type {
      case 0: values.append(.null)
      case 8: values.append(.integer(0))
      case 9: values.append(.integer(1))
      case 1...6:
        guard let value = payload.signedBigEndian(at: offset, size: size) else { return nil }
        values.append(.integer(value))
      case 7:
        guard let raw = payload.bigEndian(at: offset, size: 8) else { return nil }
        values.append(.real(Double(bitPattern: raw)))
      default:
        guard let bytes = payload.bytes(at: offset, count: size) else { return nil }
        values.append(type % 2 == 0 ? .blob(bytes) : .text(bytes))
      }
      offset += size
    }
    return values
  }
}
