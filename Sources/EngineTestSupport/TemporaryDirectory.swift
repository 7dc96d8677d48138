import Foundation
import SafeFiles

/// A fresh folder under the system temporary directory, removed when released. One per test.
///
/// Its path is kept as made under `TMPDIR`, links and all: in the Mac-layout pass of the tests
/// (`scripts/test`) `TMPDIR` sits behind a symbolic link, as `/var/folders/…` does on a Mac, so every
/// container, library and backup a test makes is reached through a symlinked parent folder.
package final class TemporaryDirectory: @unchecked Sendable {
  private let directory: PrivateDirectory
  package var path: String { directory.path }

  package init(_ label: String = "test") throws {
    directory = try PrivateDirectory(
      prefix: "ditto-\(label)-", resolvingLinks: false, marked: false)
  }

  deinit {
    // Our own temporary folder (PrivateDirectory restores write permission on the folders it
    // empties, in case a test removed it, and never follows a link out of it).
    directory.remove()
  }

  /// `path + "/" + relative`.
  package func appending(_ relative: String) -> String { path + "/" + relative }
}
