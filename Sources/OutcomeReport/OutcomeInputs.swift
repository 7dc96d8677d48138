import ByteStreams
import SafeFiles
import UnifiedLog

/// The first stage of `outcomes`: what it reads, classified once, file by file. Each file given is
/// one input; a folder is every file in it and below it, in name order, each one input (hidden
/// files such as `.DS_Store` left out), a `.logarchive` (or an archive folder under any name)
/// inside it one input, read whole. What a folder holds that is not read (a FIFO, a socket, a
/// device, a link, a name that is not UTF-8) is ``unread``, each with why: it makes the sample
/// incomplete. Nothing is read here but what tells an archive from a capture.
package struct OutcomeInputs {
  /// One input, by what it is (each is one device).
  package enum Input: Equatable, Sendable {
    /// `-`: standard input, as one capture.
    case standardInput
    /// A log capture (text, gzip, RTF…), or a pipe given by name, read to its end.
    case capture(String)
    /// A unified-log archive (a `.logarchive`, a tracev3 file, a sysdiagnose `.tar.gz`).
    case archive(String, UnifiedLogInputKind)
    /// A zip of captures: every file in it is one device.
    case zip(String)

    /// The path as given (`-` for standard input).
    package var path: String {
      switch self {
      case .standardInput: "-"
      case .capture(let path), .archive(let path, _), .zip(let path): path
      }
    }
  }

  /// The inputs to read, in order.
  package private(set) var inputs: [Input] = []
  /// What the folders hold that is not read, each with why.
  package private(set) var unread: [(input: String, reason: String)] = []
  /// What to tell the user about the folders (`note: …`, `warning: …` lines), in order.
  package private(set) var notes: [String] = []

  /// Classifies `files` (paths as given; `-` is standard input).
  ///
  /// - Throws: ``OutcomeReportError/notAnInput(file:reason:)`` for a device or a socket given by
  ///   name (`/dev/zero` would be read for ever), and for a folder that cannot be walked.
  /// - Parameter naming: how the notes name a file given by its path (as given by default).
  package static func classify(_ files: [String], naming: (String) -> String = { $0 })
    throws(OutcomeReportError) -> OutcomeInputs
  {
    var classified = OutcomeInputs()
    for file in files {
      // What cannot be examined is not refused here: the scan opens it and names why not.
      let status: FileStatus?
      do {
        status = try FileStatus.following(path: file)
      } catch {
        status = nil
      }
      if file == "-" {
        classified.inputs.append(.standardInput)
      } else if let status, [.characterDevice, .blockDevice, .socket].contains(status.kind) {
        throw .notAnInput(
          file: file, reason: "is a \(status.kind.humanName), not a log capture or an archive")
      } else if let kind = UnifiedLogReader.kind(of: file) {
        classified.inputs.append(.archive(file, kind))
      } else if status?.kind == .directory {
        try classified.addFolder(file, shownAs: naming(file))
      } else if OutcomeScanner.isZip(file) {
        classified.inputs.append(.zip(file))
      } else {
        classified.inputs.append(.capture(file))
      }
    }
    return classified
  }

  /// Every input the folder `file` holds (see the type).
  private mutating func addFolder(_ file: String, shownAs shown: String)
    throws(OutcomeReportError)
  {
    let base = file.hasSuffix("/") ? file : file + "/"
    let shownBase = shown.hasSuffix("/") ? String(shown.dropLast()) : shown
    var found: [String] = []
    var archives: [String] = []
    // Each folder is looked into once, however many tracev3 files lie below it.
    var archiveFolders: [String: Bool] = [:]
    var hidden = 0
    var skipped: [String] = []
    var notFiles: [(input: String, reason: String)] = []
    let walk: DirectoryWalkSummary
    do {
      // The folder as named (an argument whose name is not UTF-8 is a link to it).
      walk = try DirectoryWalker().walk(root: UserPath.resolved(file), followingRootLink: true) {
        entry in
        let parts = entry.relativePath.split(separator: UInt8(ascii: "/"))
        // A .logarchive inside the folder is one device, read whole.
        if let archive = parts.firstIndex(where: {
          $0.count > 11 && $0.suffix(11).elementsEqual(".logarchive".utf8)
        }) {
          let path =
            base
            + parts[...archive].map { String(decoding: $0, as: UTF8.self) }.joined(
              separator: "/")
          if !archives.contains(path) { archives.append(path) }
          return
        }
        // A tracev3 file of an archive folder not named .logarchive (Persist/… inside it):
        // the archive is one device.
        if parts.count >= 2, parts[parts.count - 1].suffix(8).elementsEqual(".tracev3".utf8) {
          let names = parts.map { String(decoding: $0, as: UTF8.self) }
          for depth in 1..<names.count {  // the outermost archive folder
            let folder = base + names[..<depth].joined(separator: "/")
            let isArchive =
              archiveFolders[folder] ?? (UnifiedLogReader.kind(of: folder) == .logArchive)
            archiveFolders[folder] = isArchive
            if isArchive {
              if !archives.contains(folder) { archives.append(folder) }
              return
            }
          }
        }
        if parts.contains(where: { $0.first == UInt8(ascii: ".") }) {
          hidden += 1
          return
        }
        guard entry.status.kind == .regular else {
          // Never opened: a FIFO would block, a device never ends, a link may lead anywhere.
          notFiles.append(
            (shownBase + entry.displayPath, "a \(entry.status.kind.humanName), not a file"))
          return
        }
        guard let relative = UserPath.validUTF8(entry.relativePath) else {
          skipped.append(entry.displayPath)
          return
        }
        found.append(base + relative)
      }
    } catch {
      throw .notAnInput(file: file, reason: "\(error)")
    }
    for problem in walk.problems {
      notes.append("warning: \(shown)\(problem.displayPath): \(problem.error)")
    }
    for name in skipped {
      unread.append((shownBase + name, "a name that is not UTF-8 (rename it to read it)"))
    }
    // Every other file of an archive (timesync, uuidtext, Info.plist) belongs to it (and what
    // is not a file there is the archive reader's to name).
    found = found.filter { path in !archives.contains { path.hasPrefix($0 + "/") } } + archives
    unread += notFiles.filter { entry in !archives.contains { entry.input.hasPrefix($0 + "/") } }
    var note =
      "note: \(shown): a folder of \(OutcomeSummary.plural(found.count, "file")), each read as one device"
    if hidden > 0 { note += " (\(OutcomeSummary.plural(hidden, "hidden file")) left out)" }
    notes.append(note)
    // A file of the folder is what it is, told as a file given by name is (never a device:
    // those were left out above).
    for path in found.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
      if let kind = UnifiedLogReader.kind(of: path) {
        inputs.append(.archive(path, kind))
      } else if OutcomeScanner.isZip(path) {
        inputs.append(.zip(path))
      } else {
        inputs.append(.capture(path))
      }
    }
  }
}

extension OutcomeScanner {
  /// Counts each input of `classified` that is not read as one device whose problem says why
  /// (``noteUnread(input:reason:)``).
  package mutating func noteUnread(_ classified: OutcomeInputs) {
    for unread in classified.unread { noteUnread(input: unread.input, reason: unread.reason) }
  }

  /// The second stage of `outcomes`: reads `input` as what it is (one device), and returns what
  /// to tell the user about it (`note: …` lines).
  ///
  /// - Throws: ``OutcomeReportError``: a capture that cannot be opened or read, a zip that is not
  ///   one (``OutcomeReportError/notAnInput(file:reason:)``).
  package mutating func scan(_ input: OutcomeInputs.Input) throws(OutcomeReportError) -> [String] {
    switch input {
    case .standardInput:
      try scan(fileDescriptor: 0, name: "standard input", input: "-")
      return []
    case .capture(let path):
      try scan(path: path)
      return []
    case .archive(let path, let kind):
      let read = scanLogArchive(path: path, kind: kind)
      var note =
        "note: \(naming(path)): a \(kind.rawValue) of \(OutcomeSummary.plural(read.files.count, "tracev3 file")), \(OutcomeSummary.plural(read.entries, "entry", "entries")) read as one device"
      if let device = read.device { note += " (\(device))" }
      return [note]
        + read.problems.filter { !$0.isDamage }.map {
          "note: \(naming(path)): \(naming($0.file)): \($0.reason)"
        }
    case .zip(let path):
      do throws(ZipError) {
        let read = try scanZip(path: path)
        return [
          "note: \(naming(path)): a zip of \(OutcomeSummary.plural(read.inputs.count, "capture")), each read as one device"
        ] + read.skipped.map { "note: \($0)" }
      } catch {
        throw .notAnInput(file: path, reason: error.reason)
      }
    }
  }
}
