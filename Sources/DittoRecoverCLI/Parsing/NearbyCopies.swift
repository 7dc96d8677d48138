import ContainerFiles
import DittoStore
import LegacyMigration
import SafeFiles

/// Copies of a container near the folder given: where Finder, Files and zip tools put a second
/// copy. Before the tool says "nothing here" (or imports less than a copy holds), it looks at
/// them, so that an answer never sounds final while the dittos are one folder away.
///
/// Looked at (links never followed, hidden folders left out):
/// - siblings named as duplicates are named: `<name> copy`, `<name> copy 2`, `<name> 2`,
///   `<name> (1)`, `<name>-1`, and the localized "copy" words Finder uses;
/// - an Xcode `.xcappdata` bundle beside it (its `AppData`);
/// - containers up to three folders below the folder given, when it is not a container itself (a
///   zip unpacked inside a zip).
///
/// Each folder that has a container's layout is surveyed (read on private snapshots, nothing
/// written); those holding legacy data are returned with their counts, most dittos first.
struct NearbyCopies {
  /// A container copy nearby that holds legacy data.
  struct Copy: Equatable, Encodable {
    /// The folder to pass as `--container`.
    let path: String
    /// Dittos that read as they are there (its chosen store and the App Group defaults' keys).
    let dittos: Int
    /// True when it holds legacy files (a store, a lone `-wal`, defaults keys), read or not.
    let hasLegacyData: Bool
    /// How it relates to the folder given: `sibling`, `xcappdata` or `below`.
    let relation: String
  }

  /// The words Finder and Files put after a name they duplicate (English first).
  static let copyWords = [
    "copy", "Copy", "Kopie", "copie", "copia", "kopia", "kopio", "kopi", "cópia", "másolat",
    "kópia", "копия", "コピー", "副本", "拷贝", "복사본", "Αντίγραφο", "kopya", "salinan",
  ]

  /// How deep below the folder given containers are looked for.
  static let depth = 3
  /// At most this many folders are listed while looking below (a home folder given by mistake
  /// must not turn into a walk of the disk).
  static let folderBudget = 4000

  /// True when `name` is how a duplicate of `original` is named (`original copy`,
  /// `original 2`, `original (1)`, `original copy 3`, `original-1`).
  static func isDuplicateName(_ name: String, of original: String) -> Bool {
    guard name != original, name.hasPrefix(original) else { return false }
    var rest = Substring(name.dropFirst(original.count))
    func dropNumber(_ text: inout Substring) -> Bool {
      let digits = text.prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty else { return false }
      text = text.dropFirst(digits.count)
      return true
    }
    if rest.hasPrefix(" (") {
      rest = rest.dropFirst(2)
      return dropNumber(&rest) && rest == ")"
    }
    if rest.hasPrefix("-") || rest.hasPrefix("_") {
      rest = rest.dropFirst()
      return dropNumber(&rest) && rest.isEmpty
    }
    guard rest.hasPrefix(" ") else { return false }
    rest = rest.dropFirst()
    if dropNumber(&rest) { return rest.isEmpty }
    for word in copyWords where rest.hasPrefix(word) {
      var after = rest.dropFirst(word.count)
      if after.isEmpty { return true }
      if after.hasPrefix(" ") {
        after = after.dropFirst()
        return dropNumber(&after) && after.isEmpty
      }
    }
    return false
  }

  /// The folders near `folder` (the one read) and `given` (the one named) that have a
  /// container's layout, in a stable order; `folder` itself is never among them.
  static func candidates(given: String, folder: String) -> [(path: String, relation: String)] {
    var found: [(String, String)] = []
    var seen: Set<String> = [folder]
    func add(_ path: String, _ relation: String) {
      guard !seen.contains(path) else { return }
      seen.insert(path)
      found.append((path, relation))
    }
    // Siblings of the folder read, and of the folder given when it is another.
    for base in [folder, given] {
      let (parent, name) = split(base)
      guard !name.isEmpty else { continue }
      for child in subfolders(of: parent) {
        let path = join(parent, child)
        if child.hasSuffix(".xcappdata") {
          let appData = path + "/AppData"
          if appData != folder, FolderResolution.has(.appGroupContainer, at: appData) {
            add(appData, "xcappdata")
          }
        } else if isDuplicateName(child, of: name),
          FolderResolution.has(.appGroupContainer, at: path)
        {
          add(path, "sibling")
        }
      }
    }
    // Below the folder given (and the folder read), up to `depth` folders down: only when the
    // folder given is not itself a container (a download, an unpacked zip); a container's own
    // folders are not walked at every run.
    guard !FolderResolution.has(.appGroupContainer, at: given) else { return found }
    var budget = folderBudget
    var level = [given] + (folder == given ? [] : [folder])
    for _ in 0..<depth {
      var next: [String] = []
      for parent in level {
        for child in subfolders(of: parent) {
          budget -= 1
          if budget < 0 { return found }
          let path = join(parent, child)
          let place =
            child.hasSuffix(".xcappdata")
              && FolderResolution.has(
                .appGroupContainer, at: path + "/AppData")
            ? path + "/AppData" : path
          if FolderResolution.has(.appGroupContainer, at: place) {
            add(place, "below")
          }
          next.append(path)
        }
      }
      level = next
    }
    return found
  }

  /// The `candidates` holding legacy data, each surveyed once, most dittos first (ties: as found).
  static func find(in candidates: [(path: String, relation: String)]) -> [Copy] {
    candidates.compactMap { candidate in
      let survey = survey(of: candidate.path)
      guard survey.hasRecoverableLegacyData else { return nil }
      return Copy(
        path: candidate.path, dittos: survey.readableDittos, hasLegacyData: true,
        relation: candidate.relation)
    }
    .enumerated().sorted { lhs, rhs in
      lhs.element.dittos != rhs.element.dittos
        ? lhs.element.dittos > rhs.element.dittos : lhs.offset < rhs.offset
    }
    .map(\.element)
  }

  /// What a container copy at `path` holds, read on snapshots, nothing written, nothing logged.
  static func survey(of path: String) -> LegacySurvey {
    let layout = ContainerLayout(container: path)
    return LegacyDataMigrator(
      layout: layout, destination: DittoStoreDestination(path: layout.defaultLibraryPath),
      defaults: AppGroupDefaults(path: layout.defaultsPath), logger: .disabled
    ).survey(.contents)
  }

  private static func split(_ path: String) -> (parent: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let parent = String(path[..<slash])
    return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
  }

  private static func join(_ parent: String, _ child: String) -> String {
    parent == "/" ? "/" + child : parent + "/" + child
  }

  /// The folders in `path` (links not followed, hidden ones left out), in name order.
  private static func subfolders(of path: String) -> [String] {
    FolderResolution.subfolders(of: path).sorted()
  }
}
