import Foundation
import SafeFiles

/// A fresh folder under the system temporary directory, removed when released. One per test.
public final class TemporaryDirectory: @unchecked Sendable {
  private let directory: PrivateDirectory
  public var path: String { directory.path }

  public init(_ label: String = "test") throws {
    directory = try PrivateDirectory(prefix: "ditto-\(label)-")
  }

  deinit {
    // Our own temporary folder (PrivateDirectory restores write permission on the folders it
    // empties, in case a test removed it, and never follows a link out of it).
    directory.remove()
  }

  /// `path + "/" + relative`.
  public func appending(_ relative: String) -> String { path + "/" + relative }
}
