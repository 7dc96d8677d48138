/// Cuts one fuzz input into two files, so one input can be a database and its `-wal`.
///
///   OFFSET  SIZE  DESCRIPTION
///   0       4     n: length of the first part, little-endian
///   4       n     the first part (the main file)
///   4 + n   rest  the second part (the sidecar); absent when n reaches the end
///
/// An input shorter than 4 bytes is all first part. `Fuzz/make-seeds` writes seeds in this shape.
public struct SplitInput: Equatable, Sendable {
  public var first: [UInt8]
  public var second: [UInt8]?

  public init(_ bytes: [UInt8]) {
    guard bytes.count >= 4 else {
      first = bytes
      second = nil
      return
    }
    let length = bytes[0..<4].reversed().reduce(0) { $0 << 8 | Int($1) }
    let body = bytes[4...]
    if length >= body.count {
      first = Array(body)
      second = nil
    } else {
      first = Array(body.prefix(length))
      second = Array(body.dropFirst(length))
    }
  }
}
