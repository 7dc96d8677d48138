import ByteStreams
import Foundation
import OutcomeReport
import SafeFiles
import UnifiedLog

/// `ditto-recover outcomes`: the distribution of `migration_outcome` lines across a cohort.
struct OutcomesCommand: Command {
  static let name = "outcomes"
  static let abstract =
    "Count migration_outcome lines from log captures and give the rollout verdict."
  static let discussion: String? = """
    Reads what people collect with 'log show' or 'log stream' (default, compact, syslog, json or
    ndjson style, wrapped lines joined), Console copies in any language, or plain 'grep
    migration_outcome' output, from the files given, the files in a folder (and below it), or
    standard input, in one streaming pass; gzip, UTF-16, CR or mixed line ends and TextEdit's RTF
    are read by content, hard wraps are joined at any width, binary data never counts. Testers' log archives are
    read directly, told by content (a .logarchive folder, a tracev3 file, a sysdiagnose .tar.gz:
    no Mac needed), each one device; so is every file of a .zip of captures. A mention that cannot be
    read is named with its file and line and makes the sample incomplete. Lines from other
    subsystems or categories are ignored; malformed tags are counted apart, named with their file and
    line, and make the sample incomplete; entries repeated across overlapping captures are counted
    once.

    Each file is one device (standard input is one device). A device weighs once: its first automatic
    outcome that says something about the old data, else its first such manual one, in timestamp order
    where the style has timestamps. A found_unreadable with reason= (a locked iPhone, a file it may not
    open, a full disk: "not now") and a library_error decide nothing; a device with only those is
    listed as pending, not weighed, and counted in 'pending'. nothing_on_disk means no legacy file
    at all (no store, no -wal, no defaults key): the data is gone; a lone -wal or a damaged store is
    found_unreadable, whose data may still be there. With '--unit tag' every line counts. Every
    share carries a Wilson score interval. "recoverable" when the lower bound of
    success + no_new_data reaches its threshold, "gone" when that of nothing_on_disk does, "too_few"
    when neither does and the success + no_new_data interval is wider than --max-width, "mixed"
    otherwise. library_error (the current library could not be written) is counted but is neither
    reading: like empty_store and found_unreadable it weighs against both with '--denominator all' and
    is left out with 'decisive'. Tags with from=file (a file the user picked) are manual tags.
    """
  /// The command's options, declared once.
  @Argument(
    repeating: .positionalText(
      "file", value: "file",
      help: "Log captures, or folders of them, to read (default: standard input).",
      required: false, repeatable: true))
  var files: [String]
  @Argument(
    .choice(
      "unit", value: "unit",
      help:
        "What weighs once: each file's device, or every tag of one merged file (default: device)."))
  var unit: CountingUnit = .device
  @Argument(
    .count(
      "min-sample", help: "Fewer weighed devices (or tags) than this give 'too_few' (default: 1)."))
  var minimumSample: Int = 1
  @Argument(
    .number(
      "recoverable-threshold", value: "share",
      help:
        "Lower bound of the success + no_new_data share that means 'recoverable' (default: 0.6)."))
  var recoverableThreshold: Double = 0.6
  @Argument(
    .number(
      "gone-threshold", value: "share",
      help: "Lower bound of the nothing_on_disk share that means 'gone' (default: 0.6)."))
  var goneThreshold: Double = 0.6
  @Argument(
    .number("confidence", value: "level", help: "Confidence of every interval (default: 0.95)."))
  var confidence: Double = 0.95
  @Argument(
    .number(
      "max-width", value: "width",
      help: "Widest success + no_new_data interval that still allows 'mixed' (default: 0.30)."))
  var maximumWidth: Double = 0.3
  @Argument(
    .path(
      "html", value: "file",
      help: "Also write the report as one self-contained HTML page (bars, intervals, devices)."))
  var html: String?
  @Argument(
    .choice(
      "denominator", value: "kind",
      help:
        "What the shares are taken of: every valid tag, or only the decisive outcomes (default: all)."
    ))
  var denominator: VerdictRule.Denominator = .allValid

  /// The verdict's rule from the options (checked by ``validate()``).
  var rule: VerdictRule {
    get throws {
      try VerdictRule(
        minimumSample: minimumSample, recoverableThreshold: recoverableThreshold,
        goneThreshold: goneThreshold, denominator: denominator, confidence: confidence,
        maximumWidth: maximumWidth)
    }
  }

  func validate() throws(UsageError) {
    do {
      _ = try rule
    } catch let error as UsageError {
      throw error
    } catch {
      throw UsageError("\(error)")
    }
  }

  func run(_ context: ToolContext) throws -> CommandOutput {
    if let html {
      try Self.requireNewOutput(html, inputs: files, invocation: context.invocation)
    }
    var scanner = OutcomeScanner(options: OutcomeScanner.Options(rule: try rule, unit: unit))
    do {
      if files.isEmpty {
        if isatty(0) == 1 {
          context.diagnose(
            "outcomes: reading a log capture from standard input (end it with Ctrl-D), or give the files: ditto-recover outcomes tester-logs/*.log"
          )
        }
        try scanner.scan(fileDescriptor: 0, name: "standard input", input: "-")
      } else {
        let expanded = try Self.expand(files, context: context)
        // Each is named with the incomplete inputs below.
        for unread in expanded.unread {
          scanner.noteUnread(input: unread.input, reason: unread.reason)
        }
        // Progress over the inputs' bytes (a terminal only): a file's bytes as they are read, an
        // archive's once it is done.
        let sizes = expanded.inputs.map { file -> Int64 in
          guard file != "-", let status = try? FileStatus.following(path: file),
            status.kind == .regular
          else { return 0 }
          return status.size
        }
        let progress = ProgressLine(
          "outcomes", totalBytes: sizes.reduce(0, +), context: context)
        defer { progress.finish() }
        var done: Int64 = 0
        scanner.onRead = { count in
          done += Int64(count)
          progress.update(done: done)
        }
        for (index, file) in expanded.inputs.enumerated() {
          defer {
            done = sizes.prefix(index + 1).reduce(0, +)
            progress.update(done: done, detail: "(\(index + 1) of \(expanded.inputs.count) inputs)")
          }
          // `-`: standard input, as one capture.
          if file == "-" {
            try scanner.scan(fileDescriptor: 0, name: "standard input", input: "-")
            continue
          }
          // A device or a socket is no capture (`/dev/zero` would be read for ever); a FIFO
          // given by name is a pipe (`<(ssh host log show …)`) and is read to its end.
          // What cannot be examined is not refused here: the scan opens it and names why not.
          let status: FileStatus?
          do {
            status = try FileStatus.following(path: file)
          } catch {
            status = nil
          }
          if let status, [.characterDevice, .blockDevice, .socket].contains(status.kind) {
            throw InputError(
              "\(file): is a \(status.kind.humanName), not a log capture or an archive")
          }
          // A log archive (by its content): read through the unified-log reader, one device.
          if let kind = UnifiedLogReader.kind(of: file) {
            let read = scanner.scanLogArchive(path: file, kind: kind)
            var note =
              "note: \(file): a \(kind.rawValue) of \(plural(read.files.count, "tracev3 file")), \(plural(read.entries, "entry", "entries")) read as one device"
            if let device = read.device { note += " (\(device))" }
            context.diagnose(note)
            for problem in read.problems where !problem.isDamage {
              context.diagnose("note: \(file): \(problem.file): \(problem.reason)")
            }
            continue
          }
          // A zip of captures: every file in it is one device, read from the archive.
          if OutcomeScanner.isZip(file) {
            do throws(ZipError) {
              let read = try scanner.scanZip(path: file)
              context.diagnose(
                "note: \(file): a zip of \(plural(read.inputs.count, "capture")), each read as one device"
              )
              for skipped in read.skipped { context.diagnose("note: \(skipped)") }
            } catch {
              throw InputError("\(file): \(error.reason)")
            }
            continue
          }
          try scanner.scan(path: file)
        }
      }
    }
    let summary = scanner.finish()
    for device in summary.incompleteDevices {
      if device.unreadableMentions > 0 {
        context.diagnose(
          "warning: \(device.input): \(plural(device.unreadableMentions, "mention")) of migration_outcome could not be read (a layout this tool does not recognize) at \(Self.lineWords(device.unreadableLines, total: device.unreadableMentions)); the verdict is on an incomplete sample"
        )
      }
      if device.malformedTags > 0 {
        context.diagnose(
          "warning: \(device.input): \(plural(device.malformedTags, "migration_outcome tag")) could not be read (malformed fields) at \(Self.lineWords(device.malformedLines, total: device.malformedTags)); the verdict is on an incomplete sample"
        )
      }
      if let problem = device.problem {
        context.diagnose("warning: \(device.input): \(problem)")
      }
    }
    if context.isVerbose {
      for location in summary.malformedLines {
        context.diagnose("malformed migration_outcome line: \(location)")
      }
      let unlisted = summary.malformed - summary.malformedLines.count
      if unlisted > 0 {
        context.diagnose("(\(unlisted) more malformed lines not listed)")
      }
    }
    if let html {
      do {
        try NewFile.write(Array(summary.htmlReport().utf8), to: html)
      } catch {
        switch error {
        case .exists:
          throw OutputError.exists(
            "--html \(html) already exists; it is never overwritten: name a new file, e.g. --html \(ShellWord.quote(RecoveryRendering.freeName(like: html)))"
          )
        case .failed(let failure):
          throw OutputError.cannotWrite(
            "--html \(html): cannot be created in \(PrivateDirectory.parent(of: html)): \(failure.reason)"
          )
        }
      }
    }
    let text = summary.textReport()
    return .result(
      summary.jsonValue, text: text.hasSuffix("\n") ? text : text + "\n",
      jsonStyle: OutcomeSummary.jsonStyle)
  }

  /// The inputs to read: each file as given, and for a folder every file in it and below it, in
  /// name order, each one device (hidden files such as `.DS_Store` left out); says so on
  /// standard error. What a folder holds that is not read (a FIFO, a socket, a device, a link, a
  /// name that is not UTF-8) is returned as unread, each with why: it makes the sample incomplete.
  static func expand(_ files: [String], context: ToolContext) throws -> (
    inputs: [String], unread: [(input: String, reason: String)]
  ) {
    var inputs: [String] = []
    var unread: [(input: String, reason: String)] = []
    for file in files {
      let status: FileStatus?
      do {
        status = try FileStatus.following(path: file)
      } catch {
        status = nil  // the scan names what is wrong with it
      }
      guard file != "-", status?.kind == .directory, UnifiedLogReader.kind(of: file) == nil else {
        inputs.append(file)
        continue
      }
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
            let prefix = parts[...archive].map { String(decoding: $0, as: UTF8.self) }.joined(
              separator: "/")
            let path = (file.hasSuffix("/") ? file : file + "/") + prefix
            if !archives.contains(path) { archives.append(path) }
            return
          }
          // A tracev3 file of an archive folder not named .logarchive (Persist/… inside it):
          // the archive is one device.
          if parts.count >= 2, parts[parts.count - 1].suffix(8).elementsEqual(".tracev3".utf8) {
            let base = file.hasSuffix("/") ? file : file + "/"
            let names = parts.map { String(decoding: $0, as: UTF8.self) }
            for depth in 1..<names.count {  // the outermost archive folder
              let folder = base + names[..<depth].joined(separator: "/")
              let isArchive =
                archiveFolders[folder]
                ?? (UnifiedLogReader.kind(of: folder) == .logArchive)
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
              (
                (file.hasSuffix("/") ? String(file.dropLast()) : file) + entry.displayPath,
                "a \(entry.status.kind.humanName), not a file"
              ))
            return
          }
          guard let relative = UserPath.validUTF8(entry.relativePath) else {
            skipped.append(entry.displayPath)
            return
          }
          found.append((file.hasSuffix("/") ? file : file + "/") + relative)
        }
      } catch {
        throw InputError("\(file): \(error)")
      }
      for problem in walk.problems {
        context.diagnose("warning: \(file)\(problem.displayPath): \(problem.error)")
      }
      for name in skipped {
        unread.append(
          (
            (file.hasSuffix("/") ? String(file.dropLast()) : file) + name,
            "a name that is not UTF-8 (rename it to read it)"
          ))
      }
      // Every other file of an archive (timesync, uuidtext, Info.plist) belongs to it (and what
      // is not a file there is the archive reader's to name).
      found = found.filter { path in !archives.contains { path.hasPrefix($0 + "/") } } + archives
      unread += notFiles.filter { entry in !archives.contains { entry.input.hasPrefix($0 + "/") } }
      var note =
        "note: \(file): a folder of \(plural(found.count, "file")), each read as one device"
      if hidden > 0 { note += " (\(plural(hidden, "hidden file")) left out)" }
      context.diagnose(note)
      inputs += found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }
    return (inputs, unread)
  }

  /// Refuses, before anything is read, an `--html` that exists or that is one of the inputs (the
  /// name forgotten: `outcomes --html logs/*.log` would write the page over the first capture).
  static func requireNewOutput(_ html: String, inputs: [String], invocation: [String] = []) throws {
    func rerun(_ free: String) -> [NextStep] {
      guard let index = invocation.firstIndex(of: "--html"), index + 1 < invocation.count else {
        return []
      }
      var again = invocation
      again[index + 1] = free
      return [.command(again, label: "to a new file; nothing is replaced")]
    }
    // What cannot be examined is taken as absent here: NewFile then refuses or reports it.
    func status(_ path: String) -> FileStatus? {
      do {
        return try FileStatus.following(path: path)
      } catch {
        return nil
      }
    }
    let target = status(html)
    for input in inputs where input != "-" {
      let same =
        UserPath.resolved(input) == html
        || (target != nil && status(input)?.identity == target?.identity)
      if same {
        let free = RecoveryRendering.freeName(like: "outcomes.html")
        throw OutputError.exists(
          "--html \(html) is one of the log captures to read; it is never written over: name a new file, e.g. --html \(ShellWord.quote(free))",
          next: rerun(free))
      }
    }
    if let target {
      let kind = target.kind == .regular ? "" : " (a \(target.kind.humanName))"
      let free = RecoveryRendering.freeName(like: html)
      throw OutputError.exists(
        "--html \(html) already exists\(kind); it is never overwritten: name a new file, e.g. --html \(ShellWord.quote(free))",
        next: rerun(free))
    }
  }

  /// `line 3`, `lines 3, 17 and 40`, `lines 3, 17, … (the first 10)`.
  static func lineWords(_ numbers: [Int], total: Int) -> String {
    let lines = numbers.map(String.init)
    guard lines.count > 1 else { return "line " + (lines.first ?? "?") }
    if total > lines.count {
      return "lines " + lines.joined(separator: ", ") + ", … (the first \(lines.count))"
    }
    return "lines " + lines.dropLast().joined(separator: ", ") + " and " + lines[lines.count - 1]
  }
}
