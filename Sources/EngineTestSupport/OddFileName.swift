import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file or folder name holding a byte that is not valid UTF-8, for tests of "paths are bytes".
///
/// Linux accepts any byte but `/` and NUL in a name; APFS (a Mac's) refuses a name that is not valid
/// UTF-8 with `EILSEQ`. Where the file system refuses it, the same behaviour (a name the tool must
/// escape to show) is tested through ``fallback``, a valid UTF-8 name holding a control byte, and the
/// test says so: it never passes without checking.
package struct OddFileName: Sendable {
  /// `odd\xFFname`: not valid UTF-8.
  package static let notUTF8: [UInt8] = Array("odd".utf8) + [0xFF] + Array("name".utf8)
  /// `odd\x7Fname`: valid UTF-8, and still escaped when shown (DEL is a control character).
  package static let fallback: [UInt8] = Array("odd".utf8) + [0x7F] + Array("name".utf8)

  /// The name made.
  package let bytes: [UInt8]
  /// True when the file system refused ``notUTF8`` (EILSEQ) and ``fallback`` was made instead.
  package let fileSystemRefusedNotUTF8: Bool

  /// The name as the tool shows it (`odd\xFFname`, or `odd\x7Fname`).
  package var shown: String {
    "odd" + (fileSystemRefusedNotUTF8 ? "\\x7F" : "\\xFF") + "name"
  }

  /// A shell word that expands to the name (`"$(printf 'odd\377name')"`), for commands a test
  /// pastes into `sh` as a user would.
  package var shellWord: String {
    "\"$(printf 'odd\\\(fileSystemRefusedNotUTF8 ? "177" : "377")name')\""
  }

  /// `folder/` + the name, as bytes (NUL-free).
  package func path(in folder: String) -> [UInt8] {
    Array(folder.utf8) + [UInt8(ascii: "/")] + bytes
  }

  /// What makes a name: returns 0, or the `errno` of the failure.
  package typealias Maker = @Sendable (_ path: [UInt8]) -> Int32

  /// Makes a folder named ``notUTF8`` in `folder`, or ``fallback`` where the file system refuses it.
  package static func makeFolder(in folder: String, maker: Maker = makeDirectory) throws
    -> OddFileName
  {
    try make(in: folder, maker: maker)
  }

  /// Makes an empty file named ``notUTF8`` in `folder`, or ``fallback`` where it is refused.
  package static func makeFile(in folder: String, maker: Maker = makeEmptyFile) throws
    -> OddFileName
  {
    try make(in: folder, maker: maker)
  }

  private static func make(in folder: String, maker: Maker) throws -> OddFileName {
    let first = maker(Array(folder.utf8) + [UInt8(ascii: "/")] + notUTF8)
    if first == 0 { return OddFileName(bytes: notUTF8, fileSystemRefusedNotUTF8: false) }
    guard first == EILSEQ else { throw POSIXError(POSIXErrorCode(rawValue: first) ?? .EIO) }
    FileHandle.standardError.write(
      Data(
        "note: this file system refuses names that are not UTF-8 (EILSEQ, as APFS does): testing with odd\\x7Fname instead\n"
          .utf8))
    let second = maker(Array(folder.utf8) + [UInt8(ascii: "/")] + fallback)
    guard second == 0 else { throw POSIXError(POSIXErrorCode(rawValue: second) ?? .EIO) }
    return OddFileName(bytes: fallback, fileSystemRefusedNotUTF8: true)
  }

  /// `mkdir(path, 0755)`.
  package static let makeDirectory: Maker = { path in
    let result = (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { mkdir($0.baseAddress!, 0o755) }
    }
    return result == 0 ? 0 : errno
  }

  /// `open(path, O_CREAT | O_EXCL | O_WRONLY, 0644)`, closed at once.
  package static let makeEmptyFile: Maker = { path in
    let fd = (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) {
        open($0.baseAddress!, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
      }
    }
    guard fd >= 0 else { return errno }
    close(fd)
    return 0
  }
}
