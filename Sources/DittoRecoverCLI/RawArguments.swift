import SafeFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The command line as bytes, so that a path that is not valid UTF-8 (possible on Linux file
/// systems) is still a path: Swift's `CommandLine.arguments` would replace its bad bytes and name
/// another file.
///
/// Each such argument is given to the tool through a private folder of this run:
///
///   WHERE THE BAD BYTES ARE       WHAT THE TOOL IS GIVEN
///   in a folder of the path       a link to that folder, the rest of the path kept
///   in the name of a file         a copy of the file (and of its `-wal`, `-shm`, `-journal`), read
///                                 in place of it: the file itself is only ever read
///   in the name of a folder       a link to the folder
///   in the name of a new file     a stand-in name in this run's folder; the finished file is
///   the tool writes (`--out`,     given the user's name before the result is printed
///   `--html`)                     (RawNamedOutput); a name already taken is refused (exit 73),
///                                 the `-2` name proposed
///   in the name of a folder it    a stand-in path; the folder is built beside the name, through
///   makes (`backup recover        a link to the folder it goes in, and renamed to it when whole
///   --out`)                       (RawFolderName); anything already under the name is refused
///   in the name of a library      a second name of its files (hard links), in a private folder
///   the command writes            beside it: the write reaches the user's files
///   (`--library`)                 (RawLinkedLibrary); where that cannot be made, the run stops
///                                 (exit 74) first. A library only read is read on a copy.
///
/// Everything the tool prints names the argument as the user typed it (``ArgumentSpelling``: a
/// word of a command in bash's `$'…'` form, a path in a sentence or a JSON string with `\xNN` for
/// the bad bytes). The folder is removed by ``remove()``.
package final class RawArguments {
  /// The arguments, after the program's name.
  package let arguments: [String]
  private var folder: PrivateDirectory?
  /// Why the run cannot go on: an argument the tool would write names a file that is not valid
  /// UTF-8.
  package private(set) var refusal: OutputError?

  /// The options whose file (or folder) the tool makes: written under a stand-in name, then given
  /// the user's (``RawNamedOutput``, ``RawFolderName``).
  static let stagedOptions: Set<String> = ["--out", "--html"]
  /// The outputs named with bytes that are not valid UTF-8, staged until ``publishOutputs()``.
  private var outputs: [RawNamedOutput] = []
  /// The folders the command makes under names that are not valid UTF-8 (``RawFolderName``).
  private var folders: [RawFolderName] = []

  /// The libraries named with bytes that are not valid UTF-8 (``RawLinkedLibrary``).
  private var libraries: [RawLinkedLibrary] = []

  /// True when `path` (as typed, or resolved) is a library reached through a second name of its
  /// files (``RawLinkedLibrary``): a write into it must hold the store's lock from open to close.
  package func isLinkedLibrary(_ path: String) -> Bool {
    libraries.contains { $0.standIn == path || UserPath.resolved($0.standIn) == path }
  }

  /// The folder to make that the command was given as `path` (as typed, or resolved as a path
  /// option resolves it), when its name is not valid UTF-8.
  package func folderName(standingFor path: String) -> RawFolderName? {
    folders.first { $0.standIn == path || UserPath.resolved($0.standIn) == path }
  }

  /// Reads `argv[1…]`.
  package init(argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) {
    var decoded: [String] = []
    var links: [(String, String, [UInt8])] = []
    /// What each link made for a name that is not UTF-8 leads to (a folder, a FIFO, a device).
    var linkedKinds: [String: FileKind] = [:]
    var folder: PrivateDirectory?
    var refusal: OutputError?
    var outputs: [RawNamedOutput] = []
    var taken: (index: Int, output: RawNamedOutput)?
    var folders: [RawFolderName] = []
    var libraries: [RawLinkedLibrary] = []
    /// This run's private folder of links and stand-ins, made when first needed.
    func privateFolder() throws -> String {
      if let folder { return folder.path }
      let made = try PrivateDirectory(prefix: "ditto-recover-args-")
      folder = made
      return made.path
    }
    let writesLibrary = Self.writesLibrary(argc: argc, argv: argv)
    for index in 1..<Int(max(argc, 1)) {
      guard let pointer = argv[index] else { continue }
      let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map {
        UInt8(bitPattern: $0)
      }
      if let text = UserPath.validUTF8(bytes) {
        decoded.append(text)
        continue
      }
      let name = bytes.lastIndex(of: 0x2F).map { Array(bytes[($0 + 1)...]) } ?? bytes
      // What the name names, when its own bytes are not UTF-8 (the stand-in is then a link to it).
      var typed: mode_t?
      if UserPath.validUTF8(name) == nil {
        let shown = PrintablePath.escape(bytes)
        let words = decoded.filter { !$0.hasPrefix("-") }
        if let previous = decoded.last, Self.stagedOptions.contains(previous) {
          do {
            let (folder, current) = (try privateFolder(), Self.currentDirectoryBytes())
            let standIn: String
            if words.prefix(2) == ["backup", "recover"] {
              // Its --out is a folder: built beside the name, then renamed to it.
              let target = try RawFolderName(
                bytes, number: links.count, in: folder, currentFolder: current)
              folders.append(target)
              standIn = target.standIn
            } else {
              let output = try RawNamedOutput(
                bytes, number: links.count, in: folder, currentFolder: current)
              if output.exists, taken == nil { taken = (decoded.count, output) }
              outputs.append(output)
              standIn = output.standIn
            }
            decoded.append(standIn)
            links.append((standIn, shown, bytes))
          } catch {
            refusal = refusal ?? OutputError.cannotWrite("\(previous) \(shown): \(error)")
            decoded.append(shown)
          }
          continue
        }
        if decoded.last == "--library", writesLibrary {
          // A library the command writes: reached through a second name of its files (one it
          // only reads is read on a copy, below).
          do {
            let library = try RawLinkedLibrary(
              bytes, number: links.count, in: try privateFolder(),
              currentFolder: Self.currentDirectoryBytes())
            decoded.append(library.standIn)
            links.append((library.standIn, shown, bytes))
            // As a report names it too (resolved: the second name's folder is in the user's).
            let resolved = UserPath.resolved(library.standIn)
            if resolved != library.standIn { links.append((resolved, shown, bytes)) }
            libraries.append(library)
          } catch {
            refusal =
              refusal
              ?? OutputError.cannotWrite(
                "--library \(shown): \(error); nothing was read or written: give a name in UTF-8, or rename the file"
              )
            decoded.append(shown)
          }
          continue
        }
        let type = Self.fileType(bytes)
        typed = type
        if type == nil {
          decoded.append(shown)  // reported as missing, by its bytes (never as a link to nothing)
          continue
        }
        if type == S_IFREG {
          do {
            let copy = try RawArguments.copy(bytes, number: links.count, in: try privateFolder())
            decoded.append(copy)
            links.append((copy, shown, bytes))
            // The copy's folder stands for the folder the file is in ("the folder holding it").
            let folderBytes =
              bytes.lastIndex(of: 0x2F).map { $0 == 0 ? [0x2F] : Array(bytes[..<$0]) } ?? [0x2E]
            let copyFolder = String(copy[..<(copy.lastIndex(of: "/") ?? copy.endIndex)])
            links.append((copyFolder, PrintablePath.escape(folderBytes), folderBytes))
          } catch {
            decoded.append(shown)  // reported as missing, by its bytes
          }
          continue
        }
      }
      do {
        let (link, shown) = try RawArguments.link(
          bytes, number: links.count, in: try privateFolder())
        decoded.append(link)
        links.append((link, shown, bytes))
        if let typed { linkedKinds[link] = FileKind(mode: UInt32(typed)) }
        // The folder part alone too: a name made beside the argument (`out-2.dittorecovery`) is
        // shown in the user's folder, never in this run's private one.
        if let slash = bytes.lastIndex(of: 0x2F),
          link.hasSuffix(
            "/" + (UserPath.validUTF8(Array(bytes[(slash + 1)...])) ?? "\u{0}"))
        {
          let folderBytes = Array(bytes[..<slash])
          let folderLink = String(link.dropLast(bytes.count - slash))
          links.append((folderLink, PrintablePath.escape(folderBytes), folderBytes))
        }
      } catch {
        decoded.append(PrintablePath.escape(bytes))  // reported as missing, by its bytes
      }
    }
    // From here on every stand-in is named as typed (the refusal below quotes one).
    ArgumentSpelling.use(
      links.map {
        ArgumentSpelling.Alias(standIn: $0.0, bytes: $0.2, linked: linkedKinds[$0.0])
      })
    if let taken, refusal == nil, let folder {
      // The same command, to the first name nothing has (`-2` before the extension), staged as
      // this one is: pasted, it runs.
      let free = taken.output.freeName()
      if let next = try? RawNamedOutput(
        free, number: links.count, in: folder.path, currentFolder: Self.currentDirectoryBytes())
      {
        links.append((next.standIn, PrintablePath.escape(free), free))
        ArgumentSpelling.use(
          links.map {
            ArgumentSpelling.Alias(standIn: $0.0, bytes: $0.2, linked: linkedKinds[$0.0])
          })
        var again = ["ditto-recover"] + decoded
        again[taken.index + 1] = next.standIn
        refusal = .exists(
          "\(PrintablePath.escape(taken.output.typed)) already exists; it is never overwritten",
          next: [.command(again, label: "to a new file; nothing is replaced")])
      }
    }
    arguments = decoded
    self.outputs = outputs
    self.folders = folders
    self.libraries = libraries
    self.refusal = refusal
    self.folder = folder
  }

  /// True when the command writes the library `--library` names (`recover`, `migrate`,
  /// `import`, `backup recover`, none with `--dry-run`), judged from the whole command line:
  /// a library a command only reads is read on a copy.
  private static func writesLibrary(
    argc: Int32, argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
  ) -> Bool {
    let words = (1..<Int(max(argc, 1))).compactMap { argv[$0].map { String(cString: $0) } }
    let command = words.filter { !$0.hasPrefix("-") }.prefix(2)
    let writers: [[String]] = [["recover"], ["migrate"], ["import"], ["backup", "recover"]]
    return writers.contains { command.starts(with: $0) } && !words.contains("--dry-run")
  }

  /// Gives each finished output named with bytes that are not valid UTF-8 its name (see
  /// ``RawNamedOutput``): before the run prints its result.
  ///
  /// - Throws: ``OutputError`` when one cannot be given its name (nothing is left under it).
  package func publishOutputs() throws {
    for output in outputs { try output.publish() }
  }

  /// Removes the private folder of links (and the second names of a library's files).
  package func remove() {
    for library in libraries { library.finish() }
    libraries = []
    folder?.remove()
    folder = nil
  }

  private static func link(_ bytes: [UInt8], number: Int, in folder: String) throws -> (
    String, String
  ) {
    var absolute = bytes
    if absolute.first != UInt8(ascii: "/") {
      absolute = Array(currentDirectoryBytes()) + [UInt8(ascii: "/")] + bytes
    }
    var target = absolute
    var tail = ""
    if let slash = absolute.lastIndex(of: 0x2F), slash > 0,
      let name = UserPath.validUTF8(Array(absolute[(slash + 1)...])), !name.isEmpty
    {
      // The bad bytes are in a folder: link the folder and keep the name, so that a file is
      // opened as itself (never through a link) and an output that does not exist yet can be made.
      target = Array(absolute[..<slash])
      tail = "/" + name
    }
    let link = folder + "/arg\(number)"
    guard symlink(UserPath.cPath(target), link) == 0 else {
      throw FileAccessError(path: link, operation: "symlink", code: errno)
    }
    return (link + tail, PrintablePath.escape(bytes))
  }

  /// The type (`S_IFREG`, `S_IFDIR`, …) of what has the name `bytes`, the name itself not
  /// followed if a link; nil when nothing has it.
  private static func fileType(_ bytes: [UInt8]) -> mode_t? {
    var info = stat()
    guard lstat(UserPath.cPath(bytes), &info) == 0 else { return nil }
    return info.st_mode & S_IFMT
  }

  /// Copies the regular file at `bytes`, and its SQLite companions (`-wal`, `-shm`, `-journal`)
  /// when they are regular files, into a new folder of `folder`, under the name shown as
  /// `\xNN`; returns the copy's path. The originals are only read.
  private static func copy(_ bytes: [UInt8], number: Int, in folder: String) throws -> String {
    let target = folder + "/arg\(number)"
    guard mkdir(target, 0o700) == 0 else {
      throw FileAccessError(path: target, operation: "create", code: errno)
    }
    let name = bytes.lastIndex(of: 0x2F).map { Array(bytes[($0 + 1)...]) } ?? bytes
    let copy = target + "/" + PrintablePath.escape(name).replacingOccurrences(of: "/", with: "_")
    try copyFile(from: bytes, to: copy)
    for suffix in ["-wal", "-shm", "-journal"] where fileType(bytes + Array(suffix.utf8)) == S_IFREG
    {
      try copyFile(from: bytes + Array(suffix.utf8), to: copy + suffix)
    }
    return copy
  }

  private static func copyFile(from source: [UInt8], to destination: String) throws {
    let input = open(UserPath.cPath(source), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard input >= 0 else {
      throw FileAccessError(path: PrintablePath.escape(source), operation: "open", code: errno)
    }
    defer { close(input) }
    let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard output >= 0 else {
      throw FileAccessError(path: destination, operation: "create", code: errno)
    }
    defer { close(output) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
      guard count >= 0 else {
        throw FileAccessError(path: PrintablePath.escape(source), operation: "read", code: errno)
      }
      if count == 0 { return }
      var written = 0
      while written < count {
        let step = buffer.withUnsafeBytes {
          write(output, $0.baseAddress! + written, count - written)
        }
        guard step > 0 else {
          throw FileAccessError(path: destination, operation: "write", code: errno)
        }
        written += step
      }
    }
  }

  private static func currentDirectoryBytes() -> [UInt8] {
    guard let cwd = getcwd(nil, 0) else { return [UInt8(ascii: "/")] }
    defer { free(cwd) }
    return UnsafeBufferPointer(start: cwd, count: strlen(cwd)).map { UInt8(bitPattern: $0) }
  }

}

@available(*, unavailable)
extension RawArguments: Sendable {}
