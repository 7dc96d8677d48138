import OutcomeReport
import SafeFiles

/// `outcomes --html FILE`: the report as one new HTML page, never written over anything.
enum HTMLReportFile {
  /// Refuses, before anything is read, an `--html` that exists or that is one of the inputs (the
  /// name forgotten: `outcomes --html logs/*.log` would write the page over the first capture).
  static func requireNew(_ html: String, inputs: [String], invocation: [String] = []) throws {
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

  /// Writes `page` as the new file `html`, whole or not at all.
  ///
  /// - Throws: ``OutputError``: the name was taken meanwhile (never overwritten), or the file
  ///   could not be made.
  static func write(_ page: String, to html: String) throws {
    do {
      try NewFile.write(Array(page.utf8), to: html)
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
}
