import ByteStreams
import Foundation
import SafeFiles

/// What kind of unified-log input a path is, told by its content (never by its name).
package enum UnifiedLogInputKind: String, Sendable {
  /// A `.logarchive` folder (or any folder holding tracev3 files).
  case logArchive = "logarchive"
  /// One tracev3 file, read with the timesync and strings files beside it.
  case traceV3 = "tracev3"
  /// A tar archive holding a logarchive (a sysdiagnose).
  case tar
  /// The same, gzip-compressed (`sysdiagnose_….tar.gz`).
  case gzippedTar = "tar.gz"
}

/// What reading an input found besides its entries.
package struct UnifiedLogSummary: Sendable {
  package var kind: UnifiedLogInputKind
  /// The tracev3 files read, relative to the archive.
  package var files: [String] = []
  package var entries = 0
  package var stateDumps = 0
  /// Everything that could not be read: per file, with the reason. Never empty when something
  /// was skipped.
  package var problems: [UnifiedLogProblem] = []
  /// From the tracev3 headers: the device's hardware model (`J96AP`) and build (`19D52`).
  package var hardwareModels: [String] = []
  package var builds: [String] = []
  package var bootUUIDs: [String] = []

  /// The device as the archive names it (`J96AP 19D52`), nil when no header was read.
  package var device: String? {
    guard let model = hardwareModels.first else { return nil }
    return ([model] + builds.prefix(1)).joined(separator: " ")
  }
}

/// Reads `.logarchive` folders, loose tracev3 files and sysdiagnose archives, streaming.
package enum UnifiedLogReader {
  /// The first bytes of a tracev3 file: the header chunk's tag 0x1000 and sub tag 0x11.
  static let traceV3Magic: [UInt8] = [0x00, 0x10, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00]

  /// What `path` is, or nil when it is none of the unified-log inputs.
  package static func kind(of path: String) -> UnifiedLogInputKind? {
    // Only a regular file or a folder (a link followed) is looked into: opening a FIFO or a
    // device to peek at it could block, and neither is an archive.
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    if status.st_mode & S_IFMT == S_IFDIR {
      return isLogArchiveFolder(path) ? .logArchive : nil
    }
    guard status.st_mode & S_IFMT == S_IFREG else { return nil }
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    let head = [UInt8](handle.readData(ofLength: 1024))
    return kind(ofBytes: head)
  }

  /// What a stream beginning with `head` is.
  package static func kind(ofBytes head: [UInt8]) -> UnifiedLogInputKind? {
    if head.starts(with: traceV3Magic) { return .traceV3 }
    if TarReader.looksLikeTar(head) { return .tar }
    if head.starts(with: [0x1F, 0x8B]) {
      var decoder = GzipDecoder()
      var decoded: [UInt8] = []
      try? decoder.feed(head) { decoded += $0 }
      if decoded.count >= 512, TarReader.looksLikeTar(decoded) { return .gzippedTar }
    }
    return nil
  }

  /// Reads `path` (of `kind`), handing every entry to `visit`.
  /// - Parameter subsystem: only entries of this subsystem are composed and handed over (every
  ///   entry is still read, so damage anywhere is named).
  package static func read(
    _ path: String, kind: UnifiedLogInputKind, subsystem: String? = nil,
    visit: (UnifiedLogEntry) -> Void
  ) -> UnifiedLogSummary {
    var summary = UnifiedLogSummary(kind: kind)
    switch kind {
    case .logArchive:
      let (files, problems) = traceV3Files(in: path)
      summary.problems += problems
      readFolder(path, files: files, subsystem: subsystem, summary: &summary, visit: visit)
    case .traceV3:
      let name = (path as NSString).lastPathComponent
      let folder = (path as NSString).deletingLastPathComponent
      // Beside it, or one folder up (a file of an archive's Persist/ folder).
      let root =
        Self.exists(folder + "/timesync") ? folder : (folder as NSString).deletingLastPathComponent
      let relative =
        root == folder ? name : (folder as NSString).lastPathComponent + "/" + name
      readFolder(
        root.isEmpty ? "." : root, files: [relative], subsystem: subsystem, summary: &summary,
        visit: visit)
    case .tar, .gzippedTar:
      readTar(
        path, gzipped: kind == .gzippedTar, subsystem: subsystem, summary: &summary, visit: visit)
    }
    return summary
  }

  /// Reads `path` as ``read(_:kind:subsystem:visit:)`` does, on a thread of its own, handing
  /// the entries to `visit` on the calling thread in the same order, in batches through a bounded
  /// queue: reading and what the caller does with the entries overlap (on two cores a run takes
  /// about the slower of the two, not their sum). At most ``alongsideBatches`` batches of
  /// ``alongsideBatchSize`` entries (or about ``alongsideBatchBytes``) wait at any time: memory
  /// stays flat.
  package static func readAlongside(
    _ path: String, kind: UnifiedLogInputKind, subsystem: String? = nil,
    visit: (UnifiedLogEntry) -> Void
  ) -> UnifiedLogSummary {
    let queue = BoundedQueue<[UnifiedLogEntry], Never>(capacity: alongsideBatches)
    let result = SummaryBox(UnifiedLogSummary(kind: kind))
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
      var batch: [UnifiedLogEntry] = []
      batch.reserveCapacity(alongsideBatchSize)
      var batchBytes = 0
      var stopped = false
      let summary = read(path, kind: kind, subsystem: subsystem) { entry in
        guard !stopped else { return }
        batch.append(entry)
        // About what the entry holds: a state dump's message may be large (and without a
        // format string, the arguments stand in for the message).
        batchBytes += 512 + (entry.eventMessage?.utf8.count ?? 0)
        if entry.eventMessage == nil {
          for case .string(let text, _) in entry.arguments { batchBytes += text.utf8.count }
        }
        if batch.count == alongsideBatchSize || batchBytes >= alongsideBatchBytes {
          stopped = !queue.push(batch)
          batch = []
          batch.reserveCapacity(alongsideBatchSize)
          batchBytes = 0
        }
      }
      if !stopped, !batch.isEmpty { _ = queue.push(batch) }
      result.summary = summary
      queue.close()
      finished.signal()
    }
    // As deep as the calling thread's (a property list nests up to its depth bound).
    thread.stackSize = 8 << 20
    thread.start()
    while let batch = queue.pop() {
      for entry in batch { visit(entry) }
    }
    finished.wait()
    return result.summary
  }

  /// Entries in one batch handed over by ``readAlongside(_:kind:subsystem:visit:)``, and about
  /// how many bytes they may hold: a batch is handed over when either is reached.
  static let alongsideBatchSize = 256
  static let alongsideBatchBytes = 1 << 20
  /// Batches that may wait for the caller.
  static let alongsideBatches = 8

  /// The summary, written by the reading thread before it closes the queue and read by the
  /// caller after the queue is empty (the queue's lock orders the two).
  private final class SummaryBox: @unchecked Sendable {
    var summary: UnifiedLogSummary
    init(_ summary: UnifiedLogSummary) { self.summary = summary }
  }

  // MARK: - Folders

  /// Whether `folder` is itself a log archive: tracev3 files in its `Persist/`, `Special/`,
  /// `Signpost/` or `HighVolume/` folder, or at its top beside what an archive holds (a
  /// `timesync/` or `uuidtext/` folder, an `Info.plist`, a `.logarchive` name). A folder holding
  /// archives is not one, nor a folder of captures with a loose tracev3 file among them: that file
  /// is an input of its own.
  static func isLogArchiveFolder(_ folder: String) -> Bool {
    // A folder that cannot be listed holds nothing that makes it an archive (the caller names
    // what it is not); links inside it are not followed.
    func names(_ path: String, followingLink: Bool = false) -> [String] {
      let listed = try? DirectoryWalker.names(in: path, followingLink: followingLink)
      return (listed ?? []).map { String(decoding: $0, as: UTF8.self) }
    }
    func hasTraceV3(_ path: String) -> Bool { names(path).contains { $0.hasSuffix(".tracev3") } }
    if ["Persist", "Special", "Signpost", "HighVolume"].contains(where: {
      hasTraceV3(folder + "/" + $0)
    }) {
      return true
    }
    let top = names(folder, followingLink: true)
    guard top.contains(where: { $0.hasSuffix(".tracev3") }) else { return false }
    let archiveParts: Set<String> = ["timesync", "uuidtext", "Info.plist"]
    return folder.hasSuffix(".logarchive") || folder.hasSuffix(".logarchive/")
      || top.contains(where: archiveParts.contains)
  }

  /// The tracev3 files below `folder` (relative paths, sorted), links inside it not followed
  /// (a link, a FIFO or a device so named is listed, and named when it is not opened); every
  /// folder that could not be listed, a problem.
  static func traceV3Files(in folder: String) -> (files: [String], problems: [UnifiedLogProblem]) {
    var files: [String] = []
    var problems: [UnifiedLogProblem] = []
    let walker = DirectoryWalker(reportLimit: 1_000_000, examineLimit: 1_000_000, depthLimit: 16)
    do throws(FileAccessError) {
      let walked = try walker.walk(root: folder, followingRootLink: true) { entry in
        let path = String(decoding: entry.relativePath, as: UTF8.self)
        if path.hasSuffix(".tracev3") {
          if files.count <= 100_000 { files.append(path) }
        } else if entry.status.kind == .symbolicLink {
          // What a link inside the archive leads to is not read: said, never passed over.
          problems.append(
            UnifiedLogProblem(
              code: "link_not_followed", file: path,
              reason: "a symbolic link inside the archive: what it leads to was not read"))
        }
      }
      for problem in walked.problems {
        problems.append(
          UnifiedLogProblem(
            code: "cannot_list", file: String(decoding: problem.relativePath, as: UTF8.self),
            reason: problem.error.description))
      }
      if walked.stoppedEarly {
        problems.append(
          UnifiedLogProblem(
            code: "too_many_files", file: "",
            reason: "more than 1,000,000 entries: the rest were not looked at"))
      }
    } catch {
      problems.append(
        UnifiedLogProblem(code: "cannot_list", file: "", reason: error.description))
    }
    return (files.sorted(), problems)
  }

  /// True when something has the name `path` (a link not followed).
  static func exists(_ path: String) -> Bool {
    ((try? FileStatus.of(path: path)) ?? nil) != nil
  }

  private static func readFolder(
    _ root: String, files: [String], subsystem: String?, summary: inout UnifiedLogSummary,
    visit: (UnifiedLogEntry) -> Void
  ) {
    let timesync = timesyncFiles(in: root + "/timesync", named: "timesync", summary: &summary)
    let context = LogContext(timesyncFiles: timesync) { relative in
      for base in [root, root + "/uuidtext"] {
        if case .read(let bytes) = smallFile(base + "/" + relative, limit: stringsBudget) {
          return bytes
        }
      }
      return nil
    }
    for file in files {
      var parser = TraceV3Parser(file: file, context: context, subsystem: subsystem)
      // Never a FIFO, a device or a link: a regular file, opened without blocking.
      let handle: ReadOnlyFile
      do {
        handle = try ReadOnlyFile(path: root + "/" + file)
      } catch {
        summary.problems.append(
          UnifiedLogProblem(code: "cannot_open", file: file, reason: error.description))
        continue
      }
      var offset: Int64 = 0
      do throws(FileAccessError) {
        while true {
          let piece = try handle.read(count: 1 << 20, at: offset)
          if piece.isEmpty { break }
          offset += Int64(piece.count)
          parser.feed(piece) { entry in
            summary.entries += 1
            visit(entry)
          }
        }
      } catch {
        summary.problems.append(
          UnifiedLogProblem(code: "cannot_read", file: file, reason: error.description))
      }
      parser.finish { entry in
        summary.entries += 1
        visit(entry)
      }
      note(parser, in: &summary)
    }
    summary.problems += context.problems
  }

  private static func timesyncFiles(
    in folder: String, named prefix: String, summary: inout UnifiedLogSummary
  ) -> [(name: String, bytes: [UInt8])] {
    let names: [String]
    do throws(FileAccessError) {
      names = try DirectoryWalker.names(in: folder).map { String(decoding: $0, as: UTF8.self) }
    } catch {
      // No timesync folder is an archive without one; any other failure is named.
      if error.code != ENOENT {
        summary.problems.append(
          UnifiedLogProblem(code: "cannot_list", file: prefix, reason: error.description))
      }
      return []
    }
    return names.filter { $0.hasSuffix(".timesync") }.sorted().compactMap { name in
      switch smallFile(folder + "/" + name, limit: 16 << 20) {
      case .read(let bytes):
        return (prefix + "/" + name, bytes)
      case .notRead(let reason):
        summary.problems.append(
          UnifiedLogProblem(code: "cannot_open", file: prefix + "/" + name, reason: reason))
        return nil
      }
    }
  }

  /// What reading a small file of an archive folder gave.
  enum SmallFile {
    case read([UInt8])
    case notRead(String)
  }

  /// The bytes of a small file of an archive folder (a timesync or strings file): a regular file
  /// opened without blocking or following a link, at most `limit` bytes.
  static func smallFile(_ path: String, limit: Int) -> SmallFile {
    do {
      let file = try ReadOnlyFile(path: path)
      guard file.size <= Int64(limit) else {
        return .notRead("\(file.size) bytes is more than such a file holds (\(limit >> 20) MB)")
      }
      return .read(try file.read(count: Int(file.size), at: 0))
    } catch {
      return .notRead("\(error)")
    }
  }

  private static func note(_ parser: TraceV3Parser, in summary: inout UnifiedLogSummary) {
    summary.files.append(parser.file)
    summary.entries += parser.skipped
    summary.problems += parser.problems
    summary.stateDumps += parser.stateDumps
    if let header = parser.header {
      if !summary.hardwareModels.contains(header.hardwareModel), !header.hardwareModel.isEmpty {
        summary.hardwareModels.append(header.hardwareModel)
      }
      if !summary.builds.contains(header.build), !header.build.isEmpty {
        summary.builds.append(header.build)
      }
      if !summary.bootUUIDs.contains(header.bootUUID.description) {
        summary.bootUUIDs.append(header.bootUUID.description)
      }
    } else if parser.problems.isEmpty {
      summary.problems.append(
        UnifiedLogProblem(
          code: "no_header", file: parser.file, reason: "no tracev3 header was read"))
    }
  }

  // MARK: - Tar archives (a sysdiagnose), streamed once (twice past the entries held), never unpacked

  /// At most this many bytes of strings files (uuidtext, dsc) are kept for a tar archive.
  static let stringsBudget = 32 << 20

  /// The path inside the logarchive: what follows `….logarchive/`, else the whole path.
  static func archivePath(_ path: String) -> String {
    var trimmed = path
    while trimmed.hasPrefix("./") { trimmed.removeFirst(2) }
    if let range = trimmed.range(of: ".logarchive/", options: .backwards) {
      return String(trimmed[range.upperBound...])
    }
    return trimmed
  }

  static func isStringsFile(_ relative: String) -> Bool {
    let parts = relative.split(separator: "/")
    guard parts.count >= 2 else { return false }
    let folder = parts[parts.count - 2]
    let name = parts[parts.count - 1]
    let hex = name.allSatisfy { $0.isHexDigit }
    return (folder == "dsc" && name.count == 32 && hex)
      || (folder.count == 2 && folder.allSatisfy(\.isHexDigit) && name.count == 30 && hex)
  }

  /// The strings file's path as the context asks for it (`7E/F563…`, `dsc/8E21…`).
  static func stringsKey(_ relative: String) -> String {
    relative.split(separator: "/").suffix(2).joined(separator: "/")
  }

  private static func streamTar(
    _ path: String, gzipped: Bool, _ handle: (TarEvent) -> Void
  ) -> UnifiedLogProblem? {
    let name = (path as NSString).lastPathComponent
    guard let file = FileHandle(forReadingAtPath: path) else {
      return UnifiedLogProblem(code: "cannot_open", file: name, reason: "cannot be opened")
    }
    defer { try? file.close() }
    var tar = TarReader()
    var tarError: TarError?
    func feedTar(_ bytes: [UInt8]) {
      guard tarError == nil else { return }
      do throws(TarError) {
        try tar.feed(bytes, emit: handle)
      } catch {
        tarError = error
      }
    }
    do throws(GzipError) {
      if gzipped {
        // Decompressed on a thread of its own, while this one reads what comes out.
        try GzipPipe.stream(file) { piece in
          feedTar(piece)
          return tarError == nil
        }
      } else {
        while tarError == nil {
          let piece = file.readData(ofLength: 1 << 20)
          if piece.isEmpty { break }
          feedTar([UInt8](piece))
        }
      }
    } catch {
      return UnifiedLogProblem(
        code: "damaged_gzip", file: name,
        reason: "gzip data damaged (\(error.reason)): read up to the damage")
    }
    if let tarError {
      return UnifiedLogProblem(code: "damaged_tar", file: name, reason: tarError.reason)
    }
    do throws(TarError) {
      try tar.finish()
    } catch {
      return UnifiedLogProblem(code: "damaged_tar", file: name, reason: error.reason)
    }
    return nil
  }

  /// Entries of the wanted subsystem held while a tarball is read in one pass (their strings and
  /// timesync files may come after them): past this many, the tarball is read again instead.
  static let maximumHeldEntries = 20_000
  /// The same, in bytes of text held.
  static let maximumHeldBytes = 16 << 20

  private static func readTar(
    _ path: String, gzipped: Bool, subsystem: String?, summary: inout UnifiedLogSummary,
    visit: (UnifiedLogEntry) -> Void
  ) {
    // One pass: the timesync and strings files (small) kept in memory up to a budget; the tracev3
    // files read as they come, their entries of the wanted subsystem held (bounded) until the
    // strings and timesync files, wherever they are in the tarball, are all read.
    var timesync: [(name: String, bytes: [UInt8])] = []
    var strings: [String: [UInt8]] = [:]
    var stringsBytes = 0
    var skippedStrings = 0
    var current: (path: String, keep: Bool, bytes: [UInt8])?
    var traceFiles = 0
    var parser: TraceV3Parser?
    var found: [TraceV3Parser] = []
    var held: [UnifiedLogEntry] = []
    var heldBytes = 0
    var tooManyHeld = false
    let waiting = LogContext(timesyncFiles: []) { _ in nil }
    func hold(_ entry: UnifiedLogEntry) {
      guard !tooManyHeld else { return }
      held.append(entry)
      // The entry, its strings and its arguments, as held (about 600 bytes for a short one).
      heldBytes +=
        512 + (entry.formatString?.utf8.count ?? 0) + (entry.eventMessage?.utf8.count ?? 0)
        + entry.arguments.reduce(0) { total, argument in
          if case .string(let text, _) = argument { return total + 48 + text.utf8.count }
          return total + 48
        }
      if held.count > maximumHeldEntries || heldBytes > maximumHeldBytes {
        // Read again in a second pass, once the strings files are known (the parser feeding
        // this is dropped when it returns).
        tooManyHeld = true
        held = []
      }
    }
    let firstProblem = streamTar(path, gzipped: gzipped) { event in
      switch event {
      case .begin(let entryPath, let size):
        let relative = archivePath(entryPath)
        var keep = false
        if relative.hasSuffix(".timesync") {
          keep = size <= 16 << 20
        } else if isStringsFile(relative) {
          keep = size <= stringsBudget - stringsBytes
          if keep { stringsBytes += size } else { skippedStrings += 1 }
        } else if relative.hasSuffix(".tracev3") {
          traceFiles += 1
          if !tooManyHeld {
            parser = TraceV3Parser(
              file: relative, context: waiting, subsystem: subsystem, defersContext: true)
          }
        }
        current = (relative, keep, [])
      case .data(let bytes):
        if current?.keep == true { current?.bytes += bytes }
        parser?.feed(bytes) { hold($0) }
        if tooManyHeld { parser = nil }
      case .end:
        if let done = current, done.keep {
          if done.path.hasSuffix(".timesync") {
            timesync.append(("timesync/" + (done.path as NSString).lastPathComponent, done.bytes))
          } else {
            strings[stringsKey(done.path)] = done.bytes
          }
        }
        current = nil
        if var done = parser {
          done.finish { hold($0) }
          if !tooManyHeld { found.append(done) }
        }
        parser = nil
      }
    }
    // A file cut short by damage to the archive: what it held so far was read.
    if var cut = parser, !tooManyHeld {
      cut.finish { hold($0) }
      if !tooManyHeld { found.append(cut) }
    }
    if skippedStrings > 0 {
      summary.problems.append(
        UnifiedLogProblem(
          code: "strings_not_loaded", file: (path as NSString).lastPathComponent,
          reason:
            "\(skippedStrings) strings files past the first 32 MB were not loaded: their entries list their arguments"
        ))
    }
    let context = LogContext(timesyncFiles: timesync) { strings[$0] }
    var entries = 0
    if tooManyHeld {
      // Pass 2: the tracev3 files again, entry by entry, with every strings file known.
      found = []
      _ = streamTar(path, gzipped: gzipped) { event in
        switch event {
        case .begin(let entryPath, _):
          let relative = archivePath(entryPath)
          parser =
            relative.hasSuffix(".tracev3")
            ? TraceV3Parser(file: relative, context: context, subsystem: subsystem) : nil
        case .data(let bytes):
          parser?.feed(bytes) { entry in
            entries += 1
            visit(entry)
          }
        case .end:
          if var done = parser {
            done.finish { entry in
              entries += 1
              visit(entry)
            }
            found.append(done)
          }
          parser = nil
        }
      }
      if var cut = parser {
        cut.finish { entry in
          entries += 1
          visit(entry)
        }
        found.append(cut)
      }
    } else {
      for var entry in held {
        TraceV3Parser.complete(&entry, context: context)
        entries += 1
        visit(entry)
      }
    }
    summary.entries += entries
    for done in found { note(done, in: &summary) }
    if let firstProblem { summary.problems.append(firstProblem) }
    if traceFiles == 0, firstProblem == nil {
      summary.problems.append(
        UnifiedLogProblem(
          code: "no_tracev3", file: (path as NSString).lastPathComponent,
          reason: "the archive holds no tracev3 file (no system_logs.logarchive in it)"))
    }
    summary.problems += context.problems
  }
}
