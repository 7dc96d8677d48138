/// An independent, byte-level statement of what "safe below a folder" means for a relative path, to
/// check the code under test against: what the kernel will resolve, not what Swift's `Character`s
/// say.
public enum PathCheck {
  /// Why the kernel would not keep `path` below the folder it is appended to, or nil when it would:
  /// a leading `/`, a NUL byte, or a `.`, `..` or empty component between `/` bytes.
  public static func escape(_ path: String) -> String? {
    let bytes = Array(path.utf8)
    if bytes.isEmpty { return nil }
    if bytes.first == UInt8(ascii: "/") { return "absolute" }
    if bytes.contains(0) { return "NUL byte" }
    for component in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      if component.isEmpty { return "empty component" }
      if component.elementsEqual([0x2E]) || component.elementsEqual([0x2E, 0x2E]) {
        return "'\(String(decoding: component, as: UTF8.self))' component"
      }
    }
    return nil
  }
}
