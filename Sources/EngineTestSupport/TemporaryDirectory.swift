import Foundation
import SafeFiles

/// A fresh folder under the system temporary directory, removed when released. One per test.
///
/// Its path is kept as made under `TMPDIR`, links and all: in the Mac-layout pass of the tests
/// (`scripts/test`) `TMPDIR` sits behind a symbolic link, as `/var/folders/…` does on a Mac, so every
/// container, library and backup a test makes is reached through a symlinked parent folder.
package final class TemporaryDirectory: @unchecked Sendable {
  /// A private folder of its own around ``path``: what lies beside ``path`` is only what the test
  /// puts there (the tool looks beside a container for copies of it, and must never find another
  /// test's files).
  private let directory: PrivateDirectory
  /// The test's folder, alone in its parent.
  package let path: String

  package init(_ label: String = "test") throws {
    directory = try PrivateDirectory(
      prefix: "ditto-\(label)-", resolvingLinks: false, marked: false)
    path = directory.path + "/ditto-\(label)"
    // Searchable by others, as the folder under `TMPDIR` itself is: tests that run the tool as
    // another user reach the test's folder through it.
    chmod(directory.path, 0o755)
    guard mkdir(path, 0o700) == 0 else {
      directory.remove()
      throw FileAccessError(path: path, operation: "create", code: errno)
    }
  }

  deinit {
    // Our own temporary folder (PrivateDirectory restores write permission on the folders it
    // empties, in case a test removed it, and never follows a link out of it).
    directory.remove()
  }

  /// `path + "/" + relative`.
  package func appending(_ relative: String) -> String { path + "/" + relative }
}
