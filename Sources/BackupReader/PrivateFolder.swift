import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A fresh `mkdtemp` folder (mode 0700) under the system temporary directory, for decrypted copies.
final class PrivateFolder {
  let path: String
  private var isRemoved = false

  /// - Parameter purpose: the file the folder is for, named in errors.
  /// - Throws: ``BackupError/unreadable(file:reason:)`` when no folder can be made.
  init(purpose: String) throws(BackupError) {
    let base = FileManager.default.temporaryDirectory.path
    var template = Array((base + "/ditto-decrypted-XXXXXX").utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      throw .unreadable(
        file: purpose,
        reason: "cannot create a private folder in \(base): \(String(cString: strerror(errno)))")
    }
    path = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit {
    remove()
  }

  /// Removes the folder and what it holds: only ever our own `mkdtemp` folder.
  func remove() {
    guard !isRemoved else { return }
    isRemoved = true
    do {
      try FileManager.default.removeItem(atPath: path)
    } catch {
      // A leftover private temporary folder is harmless.
    }
  }
}
