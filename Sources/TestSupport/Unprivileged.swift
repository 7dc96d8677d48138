import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs as `nobody`, for tests of what a user may not read: root reads anything, so a run that
/// must meet a permission error drops its privileges with `setpriv` (util-linux). CI runs as
/// root; a machine where privileges cannot be dropped fails such tests, it does not skip them.
package enum Unprivileged {
  /// `nobody`'s user and group id.
  package static let nobody: uid_t = 65534
  /// The words that run what follows them as `nobody`.
  package static let wrapper = [
    "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
  ]

  /// A copy of ditto-recover that `nobody` may run wherever the clone is (a clone under `/root`
  /// is not searchable by other users).
  package static let executable: String? = copyForNobody(ToolRunner.executablePath)

  /// The test-only crash-harness-tool, copied the same way.
  package static let crashTool: String? = copyForNobody(ToolRunner.crashToolPath)

  static func copyForNobody(_ built: String?) -> String? {
    guard let built else { return nil }
    var template = Array("/tmp/ditto-unprivileged-XXXXXX".utf8CString)
    guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
      return nil
    }
    let folder = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    chmod(folder, 0o755)
    let copy = folder + "/" + (built as NSString).lastPathComponent
    do {
      try FileManager.default.copyItem(atPath: built, toPath: copy)
    } catch {
      return nil
    }
    chmod(copy, 0o755)
    return copy
  }

  /// Why this process cannot run a tool as `nobody`, or nil when it can.
  package static var cannotDrop: String? {
    if getuid() != 0 { return "run as root (as CI does): these tests drop to nobody" }
    if !FileManager.default.isExecutableFile(atPath: wrapper[0]) {
      return "setpriv is missing (util-linux; scripts/setup installs it)"
    }
    if executable == nil { return "cannot copy ditto-recover where nobody can run it" }
    return nil
  }
}
