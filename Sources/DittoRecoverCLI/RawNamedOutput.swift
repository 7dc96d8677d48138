import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file the tool writes (`--out`, `--html`) under a name that is not valid UTF-8, which no Swift
/// `String` can hold: the command writes it, whole, under a stand-in name in a folder of this
/// run (``standIn``); before anything is printed, ``publish()`` gives it the user's name in the
/// user's folder, never replacing anything. An interrupted run leaves nothing in the user's
/// folder: the stand-in is in this run's private folder, and a copy on its way to another volume
/// is in a private folder of ours beside the name (both removed if the run is stopped).
final class RawNamedOutput {
  /// What the command is given as the output's path.
  let standIn: String
  /// The argument as typed.
  let typed: [UInt8]
  /// The output's folder, reached through a link of this run (its path may not be UTF-8 either).
  private let folderLink: String
  /// The output's own name (not valid UTF-8).
  private let name: [UInt8]

  /// Stages the output named `bytes` (relative to the current folder unless absolute) in the
  /// private folder `folder`, as its `number`th argument.
  init(_ bytes: [UInt8], number: Int, in folder: String, currentFolder: [UInt8])
    throws(FileAccessError)
  {
    typed = bytes
    let placed = try RawFolderName(bytes, number: number, in: folder, currentFolder: currentFolder)
    name = placed.name
    folderLink = placed.parentLink
    let stage = folder + "/out\(number)"
    guard mkdir(stage, 0o700) == 0 else {
      throw FileAccessError(path: stage, operation: "create", code: errno)
    }
    standIn = stage + "/" + PrintablePath.escape(name)
  }

  /// The user's path, through this run's link to its folder.
  private var target: [UInt8] { RawFolderName.path(folderLink, name) }

  /// True when something already has the output's name (a file, a link, a folder).
  var exists: Bool { Self.exists(target) }

  /// The argument with `-2`, `-3`, … before the name's extension: the first name nothing has.
  func freeName() -> [UInt8] {
    let dot = name.lastIndex(of: UInt8(ascii: ".")).flatMap { $0 > 0 ? $0 : nil } ?? name.count
    let (stem, suffix) = (Array(name[..<dot]), Array(name[dot...]))
    let folderPart = Array(typed.dropLast(name.count))
    for number in 2..<1000 {
      let candidate = stem + Array("-\(number)".utf8) + suffix
      if !Self.exists(Array(folderLink.utf8) + [UInt8(ascii: "/")] + candidate) {
        return folderPart + candidate
      }
    }
    return folderPart + stem + Array("-new".utf8) + suffix
  }

  /// Gives the finished output its name: one rename that never replaces anything when the folder
  /// is on the same volume as this run's; otherwise a copy, synced, in a private folder of ours
  /// beside the name, then linked to it (never replacing anything either). Nothing when the
  /// command wrote nothing.
  ///
  /// - Throws: ``OutputError``: the name was taken meanwhile (left as it is), or the output could
  ///   not be moved (nothing is left under the name).
  func publish() throws(OutputError) {
    let shown = PrintablePath.escape(typed)
    guard Self.exists(Array(standIn.utf8)) else { return }
    if PrivateDirectory.renameNoReplace(standIn, bytes: target) == 0 { return }
    var code = errno
    if code == EEXIST { throw .exists("\(shown) already exists; it is never overwritten") }
    if code == EXDEV {
      let linked: Int32
      do {
        let scratch = try PrivateDirectory(
          prefix: NewFile.scratchPrefix, in: folderLink, resolvingLinks: false)
        defer { scratch.remove() }
        let copy = scratch.path + "/output"
        _ = try ReadOnlyFile(path: standIn).copy(to: copy)
        let descriptor = open(copy, O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
          _ = syncToDrive(descriptor)
          close(descriptor)
        }
        linked = link(copy, UserPath.cPath(target)) == 0 ? 0 : errno
      } catch {
        throw .cannotWrite("\(shown): cannot be written: \(error)")
      }
      if linked == 0 { return }
      code = linked
      if code == EEXIST { throw .exists("\(shown) already exists; it is never overwritten") }
    }
    throw .cannotWrite(
      "\(shown): cannot be written (\(String(cString: strerror(code)))); nothing was left under that name"
    )
  }

  private static func exists(_ path: [UInt8]) -> Bool {
    var info = stat()
    return lstat(UserPath.cPath(path), &info) == 0
  }

}

/// A name that is not valid UTF-8 for something the tool makes, in a folder reached through a link
/// of this run. For a folder (`backup recover --out`), the command is given ``standIn``, a path
/// that only stands for it (never made): the folder is built beside the name and given it by one
/// rename that never replaces anything (``StagedOutput``); a file is a ``RawNamedOutput``.
package struct RawFolderName: Sendable {
  /// What the command is given as the folder's path (nothing is ever made under it).
  let standIn: String
  /// The folder the new one goes in, through a link of this run.
  let parentLink: String
  /// The new folder's own name (not valid UTF-8).
  let name: [UInt8]

  /// The folder named `bytes` (relative to the current folder unless absolute), as the `number`th
  /// argument staged in the private folder `folder`.
  init(_ bytes: [UInt8], number: Int, in folder: String, currentFolder: [UInt8])
    throws(FileAccessError)
  {
    var absolute =
      bytes.first == UInt8(ascii: "/") ? bytes : currentFolder + [UInt8(ascii: "/")] + bytes
    while absolute.count > 1, absolute.last == UInt8(ascii: "/") { absolute.removeLast() }
    let slash = absolute.lastIndex(of: UInt8(ascii: "/"))!
    name = Array(absolute[(slash + 1)...])
    let parent = slash == 0 ? [UInt8(ascii: "/")] : Array(absolute[..<slash])
    parentLink = folder + "/dir\(number)"
    guard symlink(UserPath.cPath(parent), parentLink) == 0 else {
      throw FileAccessError(path: parentLink, operation: "symlink", code: errno)
    }
    standIn = parentLink + "/" + PrintablePath.escape(name)
  }

  /// The path through this run's link (the bytes to rename to).
  var path: [UInt8] { Self.path(parentLink, name) }

  /// `name` in the folder `link`.
  static func path(_ link: String, _ name: [UInt8]) -> [UInt8] {
    Array(link.utf8) + [UInt8(ascii: "/")] + name
  }

  /// True when something (a file, a link, a folder, empty or not) already has the name.
  var exists: Bool {
    var info = stat()
    return lstat(UserPath.cPath(path), &info) == 0
  }

}
