import Foundation

/// A fresh folder under the system temporary directory, removed when released. One per test.
public final class TemporaryDirectory: @unchecked Sendable {
  public let path: String

  public init(_ label: String = "test") throws {
    let base = FileManager.default.temporaryDirectory.path
    var template = Array((base + "/ditto-\(label)-XXXXXX").utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      throw CocoaError(.fileWriteUnknown)
    }
    path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit {
    // Our own temporary folder. Restore write permission first, in case a test removed it.
    let enumerator = FileManager.default.enumerator(atPath: path)
    chmod(path, 0o755)
    while let item = enumerator?.nextObject() as? String {
      var info = stat()
      let full = path + "/" + item
      if lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { chmod(full, 0o755) }
    }
    do { try FileManager.default.removeItem(atPath: path) } catch {}
  }

  /// `path + "/" + relative`.
  public func appending(_ relative: String) -> String { path + "/" + relative }
}
