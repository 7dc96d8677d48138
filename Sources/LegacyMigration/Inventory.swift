import SafeFiles

/// The inventory the seed asks for: every file under the App Group container (and the app's `Library`
/// and `Documents`), with its size, one line each.
///
/// Lines look like `inventory[appgroup] 524288B /Ditto.sqlite` and `inventory[app] 1024B /Documents/x`.
/// Links are listed, never followed; a file that is not regular gets its kind in parentheses; names are
/// escaped so one file is one line. At most ``reportLimit`` files are listed per root, then one line
/// says how many were left out.
///
/// The app's `Documents` holds what the user received (AirDrop and "Open in" put files in
/// `Documents/Inbox`) and named: for the engine's log, whose inventory lines are public, such names
/// are hidden (``Names/hidingReceived``) and each file there is told by its size and kind only:
/// `inventory[app] 40960B /Documents/Inbox/<received>.dittorecovery`.
package enum Inventory {
  /// How the names under the app's `Documents` are shown.
  package enum Names: Sendable {
    /// As they are (the tool's own output, on the user's own machine).
    case shown
    /// Names the app itself makes (its stores, `Inbox`) as they are; any other name as
    /// `<received>`, with its extension when it is one of a store or a recovery file.
    case hidingReceived
  }

  /// Files listed per root before the rest are only counted.
  package static let reportLimit = 10_000

  /// Produces the inventory of `layout`, calling `emit` once per line.
  package static func produce(
    for layout: ContainerLayout, reportLimit: Int = reportLimit, names: Names = .shown,
    emit: (String) -> Void
  ) {
    let walker = DirectoryWalker(reportLimit: reportLimit)
    walk(
      root: layout.container, tag: "appgroup", prefix: "", walker: walker, names: .shown,
      emit: emit)
    if let home = layout.home {
      var remaining = walker
      for folder in ["Library", "Documents"] {
        let shown = remaining.reportLimit
        let count = walk(
          root: home + "/" + folder, tag: "app", prefix: "/" + folder, walker: remaining,
          names: folder == "Documents" ? names : .shown, emit: emit)
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
    root: String, tag: String, prefix: String, walker: DirectoryWalker, names: Names,
    emit: (String) -> Void
  ) -> Int {
    let summary: DirectoryWalkSummary
    do {
      // `root/.`: the folder the caller named, reached even when its own name is a link (the
      // CLI hands an argument that is not UTF-8 over as one); everything inside is walked
      // without following a link, as always.
      summary = try walker.walk(root: root + "/.") { entry in
        emit(
          line(
            tag: tag, bytes: entry.status.size,
            displayPath: prefix + display(entry.relativePath, names: names),
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
      emit(
        "inventory[\(tag)] cannot list \(prefix)\(display(problem.relativePath, names: names)): \(problem.error.reason)"
      )
    }
    if summary.leftOut > 0 || summary.stoppedEarly {
      let count = summary.stoppedEarly ? "at least \(summary.leftOut)" : "\(summary.leftOut)"
      emit(
        "inventory[\(tag)] \(count) more files under \(prefix.isEmpty ? "/" : prefix) not listed (limit \(walker.reportLimit))"
      )
    }
    return summary.reported
  }

  /// `relativePath` (raw, below a walked root) as an inventory line shows it: `/`-prefixed,
  /// escaped, and with `names` applied.
  static func display(_ relativePath: [UInt8], names: Names) -> String {
    guard case .hidingReceived = names else {
      return "/" + PrintablePath.escape(relativePath)
    }
    let components = relativePath.split(
      separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    return components.map { "/" + hidden(Array($0)) }.joined()
  }

  /// Names the app itself gives files and folders it keeps in `Documents`: shown in the log.
  private static let ownNames: Set<String> = [
    "inbox", "ditto.sqlite", "ditto.sqlite-wal", "ditto.sqlite-shm", "ditto.store",
    "ditto.store-wal", "ditto.store-shm",
  ]
  /// Extensions that say what kind a received file is: kept after `<received>`.
  private static let kindExtensions: Set<String> = [
    "dittorecovery", "sqlite", "sqlite-wal", "sqlite-shm", "store", "db", "plist", "zip",
  ]

  private static func hidden(_ name: [UInt8]) -> String {
    let text = String(decoding: name, as: UTF8.self)
    if ownNames.contains(text.lowercased()) { return PrintablePath.escape(name) }
    guard let dot = text.lastIndex(of: ".") else { return "<received>" }
    let kind = text[text.index(after: dot)...].lowercased()
    return kindExtensions.contains(kind) ? "<received>." + kind : "<received>"
  }
}
