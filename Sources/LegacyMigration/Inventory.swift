import SafeFiles

/// The inventory the seed asks for: every file under the App Group container (and the app's `Library`
/// and `Documents`), with its size, one line each.
///
/// Lines look like `inventory[appgroup] 524288B /Ditto.sqlite` and `inventory[app] 1024B /Documents/x`.
/// Links are listed, never followed; a file that is not regular gets its kind in parentheses; names are
/// escaped so one file is one line. At most ``reportLimit`` files are listed per root, then one line
/// says how many were left out.
package enum Inventory {
  /// Files listed per root before the rest are only counted.
  package static let reportLimit = 10_000

  /// Produces the inventory of `layout`, calling `emit` once per line.
  package static func produce(
    for layout: ContainerLayout, reportLimit: Int = reportLimit, emit: (String) -> Void
  ) {
    let walker = DirectoryWalker(reportLimit: reportLimit)
    walk(root: layout.container, tag: "appgroup", prefix: "", walker: walker, emit: emit)
    if let home = layout.home {
      var remaining = walker
      for folder in ["Library", "Documents"] {
        let shown = remaining.reportLimit
        let count = walk(
          root: home + "/" + folder, tag: "app", prefix: "/" + folder, walker: remaining,
          emit: emit)
        remaining.reportLimit = max(0, shown - count)
      }
    }
  }

  /// One inventory line for a file of `bytes` bytes at `displayPath` (which starts with `/`).
  package static func line(
    tag: String, bytes: Int64, displayPath: String, kind: FileKind = .regular
  )
    -> String
  {
    let note = kind == .regular ? "" : " (\(kind.humanName))"
    return "inventory[\(tag)] \(bytes)B \(displayPath)\(note)"
  }

  /// Walks one root; returns how many files it listed.
  @discardableResult
  private static func walk(
    root: String, tag: String, prefix: String, walker: DirectoryWalker, emit: (String) -> Void
  ) -> Int {
    let summary: DirectoryWalkSummary
    do {
      // `root/.`: the folder the caller named, reached even when its own name is a link (the
      // CLI hands an argument that is not UTF-8 over as one); everything inside is walked
      // without following a link, as always.
      summary = try walker.walk(root: root + "/.") { entry in
        emit(
          line(
            tag: tag, bytes: entry.status.size, displayPath: prefix + entry.displayPath,
            kind: entry.status.kind))
      }
    } catch {
      if !(tag == "app" && error.isNotFound) {
        emit(
          "inventory[\(tag)] cannot list /: \(error.reason)"
        )
      }
      return 0
    }
    for problem in summary.problems {
      emit("inventory[\(tag)] cannot list \(prefix)\(problem.displayPath): \(problem.error.reason)")
    }
    if summary.leftOut > 0 || summary.stoppedEarly {
      let count = summary.stoppedEarly ? "at least \(summary.leftOut)" : "\(summary.leftOut)"
      emit(
        "inventory[\(tag)] \(count) more files under \(prefix.isEmpty ? "/" : prefix) not listed (limit \(walker.reportLimit))"
      )
    }
    return summary.reported
  }
}
