#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes text: standard output, standard error, or a buffer in tests.
package protocol TextOutput: AnyObject {
  func write(_ text: String)
  /// Writes UTF-8 bytes (export streams use this to avoid building strings).
  func write(bytes: [UInt8])
}

extension TextOutput {
  package func write(bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
}

/// Writes to a file descriptor, unbuffered (each call is one `write` loop).
package final class FileDescriptorOutput: TextOutput {
  private let descriptor: Int32
  /// The errno of the last write that failed (EPIPE: the reader went away), or 0.
  package private(set) var lastError: Int32 = 0

  package init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  package static var standardOutput: FileDescriptorOutput { FileDescriptorOutput(descriptor: 1) }
  package static var standardError: FileDescriptorOutput { FileDescriptorOutput(descriptor: 2) }

  package func write(_ text: String) {
    write(bytes: Array(text.utf8))
  }

  package func write(bytes: [UInt8]) {
    var bytes = bytes
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes { raw in
        #if canImport(Glibc)
          Glibc.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
        #else
          Darwin.write(descriptor, raw.baseAddress! + offset, raw.count - offset)
        #endif
      }
      if written < 0, errno == EINTR { continue }
      if written < 0 { lastError = errno }
      if written <= 0 { return }
      offset += written
    }
  }
}

/// Collects text in memory (tests).
package final class BufferOutput: TextOutput {
  package private(set) var text = ""
  package init() {}
  package func write(_ text: String) { self.text += text }
}
