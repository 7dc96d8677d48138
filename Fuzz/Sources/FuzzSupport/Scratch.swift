import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One private folder per fuzzer process, reused by every input: files are written, read back by
/// the code under test, and removed before the next input.
///
/// The folder is made with `mkdtemp` under `$TMPDIR` (`scripts/fuzz` points `$TMPDIR` at a folder
/// of its own and removes it after each run, so snapshots left by a crashing input go too).
public final class Scratch {
  /// The folder.
  public let path: String

  /// Makes the folder; a failure here is the machine's, not a finding, and stops the fuzzer.
  public init() {
    let base = FileManager.default.temporaryDirectory.path
    var template = Array((base + "/ditto-fuzz-XXXXXX").utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      Self.giveUp("cannot create a scratch folder in \(base)")
    }
    path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit {
    clear()
    rmdir(path)
  }

  /// Writes `bytes` to `name` in the folder (replacing it) and returns the file's path.
  @discardableResult
  public func write(_ bytes: [UInt8], to name: String) -> String {
    let file = path + "/" + name
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: file))
    } catch {
      Self.giveUp("cannot write \(file)")
    }
    return file
  }

  /// Empties the folder, then writes a database and its `-wal` from one fuzz input (see
  /// ``SplitInput``): `name`, and `name-wal` when the input has a second part.
  ///
  /// - Returns: the database's path.
  public func writeDatabase(_ bytes: [UInt8], named name: String) -> String {
    clear()
    let input = SplitInput(bytes)
    let file = write(input.first, to: name)
    if let wal = input.second { write(wal, to: name + "-wal") }
    return file
  }

  /// The bytes of `name` in the folder; nil when it cannot be read.
  public func read(_ name: String) -> [UInt8]? {
    do {
      return Array(try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)))
    } catch {
      return nil
    }
  }

  /// The path of `name` in the folder (nothing is created).
  public func file(_ name: String) -> String { path + "/" + name }

  /// Removes everything in the folder (files and folders the code under test left behind).
  public func clear() {
    let entries: [String]
    do {
      entries = try FileManager.default.contentsOfDirectory(atPath: path)
    } catch {
      return
    }
    for entry in entries {
      do {
        try FileManager.default.removeItem(atPath: path + "/" + entry)
      } catch {
        Self.giveUp("cannot remove \(path)/\(entry)")
      }
    }
  }

  private static func giveUp(_ message: String) -> Never {
    printError("fuzz harness: \(message): \(String(cString: strerror(errno)))")
    exit(2)
  }
}
