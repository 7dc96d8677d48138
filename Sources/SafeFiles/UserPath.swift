#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Paths a person typed (a container copy, a library, a backup folder, an output file): their
/// choice, so links in them are followed.
///
/// On a Mac `/tmp` and `/var` are links to `/private/tmp` and `/private/var`, and people keep copies
/// behind links to other disks; the engine's opens refuse links anywhere in a path, so a typed path
/// is resolved once, here, and the resolved path is the one used and reported. What is found
/// *inside* a container or a backup is a different matter: those files are opened without following
/// links, ever (see `ReadOnlyFile`).
package enum UserPath {
  /// `path` made absolute, with every link in its longest existing prefix resolved (`realpath`)
  /// and `.` / `..` applied to the rest; a path that does not exist yet (an output) keeps its
  /// missing tail.
  package static func resolved(_ path: String) -> String {
    // A working directory whose name is not valid UTF-8 cannot be a String: a relative path stays
    // relative (it reaches the same file; a replacement character would name another).
    guard path.hasPrefix("/") || currentDirectoryIsUTF8 else { return path }
    let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
    var existing = absolute
    var rest: [Substring] = []
    while true {
      if let real = realpath(existing, nil) {
        let bytes = UnsafeBufferPointer(start: real, count: strlen(real)).map {
          UInt8(bitPattern: $0)
        }
        free(real)
        // A real path that is not valid UTF-8 cannot be a String: keep the path as given (it
        // reaches the same file; see RawArguments in the CLI).
        guard let text = validUTF8(bytes) else { return absolute }
        var components = text.split(separator: "/")
        for component in rest {
          switch component {
          case "", ".": continue
          case "..": if !components.isEmpty { components.removeLast() }
          default: components.append(component)
          }
        }
        return "/" + components.joined(separator: "/")
      }
      guard existing != "/", !existing.isEmpty else { return absolute }
      guard let slash = existing.lastIndex(of: "/") else { return absolute }
      rest.insert(existing[existing.index(after: slash)...], at: 0)
      existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
    }
  }

  /// `path` with the links of its folder resolved and its last component kept as it is: for a
  /// file a caller named that is opened in place (a library written in one transaction), so a
  /// link in the folders the caller chose is followed while the file itself must be a regular
  /// file (SQLite's `SQLITE_OPEN_NOFOLLOW` refuses a link anywhere in the path it is given).
  package static func resolvingFolder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return resolved(".") + "/" + path }
    let name = path[path.index(after: slash)...]
    let folder = slash == path.startIndex ? "/" : String(path[..<slash])
    let real = resolved(folder)
    return (real == "/" ? "" : real) + "/" + name
  }

  /// `path` (bytes, any name) as the null-terminated C string a system call takes.
  package static func cPath(_ path: [UInt8]) -> [CChar] {
    path.map { CChar(bitPattern: $0) } + [0]
  }

  /// `bytes` as a String, or nil when they are not valid UTF-8.
  package static func validUTF8(_ bytes: [UInt8]) -> String? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var text = ""
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
      case .emptyInput: return text
      case .error: return nil
      }
    }
  }

  /// True when the working directory's path is valid UTF-8 (or cannot be read).
  static var currentDirectoryIsUTF8: Bool {
    guard let cwd = getcwd(nil, 0) else { return true }
    defer { free(cwd) }
    let bytes = UnsafeBufferPointer(start: cwd, count: strlen(cwd)).map { UInt8(bitPattern: $0) }
    return validUTF8(bytes) != nil
  }

  /// The process's working directory ("/" when it cannot be read).
  static func currentDirectory() -> String {
    guard let cwd = getcwd(nil, 0) else { return "/" }
    defer { free(cwd) }
    return String(cString: cwd)
  }
}
