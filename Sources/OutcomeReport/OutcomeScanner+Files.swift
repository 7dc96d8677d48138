#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Reading files and descriptors

extension OutcomeScanner {
  /// The chunk size of ``scan(path:chunkSize:)`` and ``scan(fileDescriptor:name:chunkSize:)``.
  public static let defaultChunkSize = 1 << 20

  /// Reads the file at `path` as one input, in chunks of `chunkSize` bytes.
  ///
  /// Pipes and process substitutions (`<(ssh host log show …)`) work too; the path is opened
  /// once and read to its end. Memory stays flat whatever the size.
  ///
  /// - Throws: ``OutcomeReportError/cannotOpen(file:code:)`` or
  ///   ``OutcomeReportError/cannotRead(file:code:)``, naming `path`. After a read error, the
  ///   counts from the bytes read so far stay in the scanner.
  public mutating func scan(path: String, chunkSize: Int = defaultChunkSize)
    throws(OutcomeReportError)
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .cannotOpen(file: path, code: errno) }
    defer { close(descriptor) }
    try scan(fileDescriptor: descriptor, name: path, chunkSize: chunkSize)
  }

  /// Reads an open descriptor (standard input is `0`) to its end as one input, in chunks of
  /// `chunkSize` bytes. The descriptor is not closed.
  ///
  /// - Parameter name: what errors call the input (`standard input`, a path).
  /// - Throws: ``OutcomeReportError/cannotRead(file:code:)`` naming `name`.
  public mutating func scan(
    fileDescriptor: Int32, name: String, chunkSize: Int = defaultChunkSize
  ) throws(OutcomeReportError) {
    let size = max(chunkSize, 1)
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    beginInput()
    defer { endInput() }
    while true {
      let count = read(fileDescriptor, buffer.baseAddress, size)
      if count < 0 {
        if errno == EINTR { continue }
        throw .cannotRead(file: name, code: errno)
      }
      if count == 0 { return }
      consume(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
  }
}
