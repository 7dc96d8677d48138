import ContainerFiles
import DittoStore
import Foundation
import LegacyMigration
import LegacyStore
import SafeFiles
import Salvage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Copies of a container near the folder given, found by what the files hold, never by their
/// names. Before the tool says "nothing here" (or imports less than a copy holds), it looks, and it
/// says where it looked: an answer never sounds final while the dittos are one folder away, or
/// while a folder nearby could not be opened.
///
/// THE SEARCHED SPACE: the folder holding the one given (its siblings, whatever their names) and
/// everything below it, down to ``depth`` folders below the folder given (a container six folders
/// down, and the three levels of the app's store folders inside it), at most ``entryBudget`` entries and ``readBudget`` databases read. Links are never
/// followed; a FIFO, a socket or a device is never opened.
///
/// WHAT COUNTS: every regular file whose first bytes are SQLite's ("SQLite format 3") or a `-wal`'s
/// (its magic number), under any name and in any letter case. A file SQLite pairs with a main file
/// (`<name>-wal`) belongs to that store. Each store is placed:
///
///   WHERE IT IS                                        WHAT IT IS       THE COMMAND THAT READS IT
///   a place the app's probe reads, below a folder A    a container copy `--container A`
///   (`Ditto.sqlite` in any case, in A, A/Documents,
///   A/Library/Application Support[/Ditto])
///   anywhere else, under any name                      a store file     `recover --from FILE`
///
/// A container copy is surveyed as `--container` reads it; a store file is read on a snapshot (or
/// rebuilt by salvage when only its `-wal` is left, or SQLite cannot open it). Databases that are
/// not Ditto 2.x stores (the 3.x library, another app's) are left out by what they hold.
///
/// "NOT OPENED": a folder the search could not list, a link it did not follow, a file it could
/// not read, a level below the depth: each is named, and while one is, "nothing" is never said.
struct NearbyCopies {
  /// A copy nearby that holds legacy data.
  struct Copy: Equatable, Encodable {
    /// The folder to pass as `--container` (kind `container`), or the file to pass as `--from`
    /// (kind `store`).
    let path: String
    /// Dittos a recovery from it would give (its `-wal` applied, or rebuilt by salvage).
    let dittos: Int
    /// True when it holds legacy files (a store, a lone `-wal`, defaults keys), read or not.
    let hasLegacyData: Bool
    /// How it relates to the folder given: `sibling`, `xcappdata` or `below`.
    let relation: String
    /// `container` (a folder with a container's layout) or `store` (a store file elsewhere).
    let kind: String
    /// Of its dittos, those the folder read does not give (by category title and text); nil
    /// when the folder read holds no legacy data (then every ditto of the copy is missing).
    var missingHere: Int? = nil
    /// The survey the search made of a container copy, kept for the comparison with the folder
    /// read (so a copy is surveyed once); never printed, never compared.
    var survey: KeptSurvey? = nil

    private enum CodingKeys: String, CodingKey {
      case path, dittos, hasLegacyData, relation, kind, missingHere
    }
  }

  /// A survey carried along, not part of what a copy is.
  struct KeptSurvey: Equatable {
    let value: LegacySurvey
    static func == (_: Self, _: Self) -> Bool { true }
  }

  /// A place nearby the search could not look into.
  struct NotOpened: Equatable, Encodable {
    let path: String
    let reason: String
  }

  /// What was searched, so that an answer can say it.
  struct Space: Equatable, Encodable {
    /// The folder searched (the one holding the folder given).
    let root: String
    /// Levels searched below the folder given.
    let depth: Int
    /// Folders listed.
    let folders: Int
    /// Files whose first bytes were read.
    let filesExamined: Int
    /// False when a budget stopped the search before the whole space was seen.
    let complete: Bool
    /// What could not be looked into.
    let notOpened: [NotOpened]
    /// False when only the folder given was searched, not what lies beside it: its folder is the
    /// home folder or the top of the disk (a walk there would be a walk of the whole home, and
    /// on a Mac would ask for every protected folder), so `root` is the folder given.
    var besideSearched = true

    /// True when "nothing" may be said about this space: all of it seen, nothing left unopened.
    var isExhaustive: Bool { complete && notOpened.isEmpty }

    /// `searched 12 folders beside and below X (6 levels down)`, and what was not.
    var sentence: String {
      var text =
        "searched \(plural(folders, "folder")) and \(plural(filesExamined, "file")) \(besideSearched ? "beside and below" : "below") \(root) (to \(depth) levels below the folder given), by content"
      if !besideSearched {
        text += "; not what lies beside it (the home folder or the top of the disk)"
      }
      if !complete { text += "; stopped at the search's limit before the end" }
      if !notOpened.isEmpty {
        text += "; \(plural(notOpened.count, "place")) not opened"
      }
      return text
    }
  }

  /// What the search found and where it looked.
  struct Findings: Equatable {
    /// Copies holding legacy data, most dittos first.
    var copies: [Copy]
    var space: Space
  }

  /// Levels of folders searched below the folder given: a container six folders down, and the
  /// folders the app's probe reads inside it (`Library/Application Support/Ditto`, three more).
  static let depth = 9
  /// Entries (files and folders) looked at, at most: a home folder given by mistake must not
  /// turn into a walk of the disk.
  static let entryBudget = 50_000
  /// Databases read at most.
  static let readBudget = 64

  /// Searches the space around `given` (the folder named) for copies of `folder` (the container
  /// read, `given` or a folder inside it); `folder`'s own stores are never counted as copies.
  static func search(given: String, folder: String) -> Findings {
    search(given: given, folder: folder, besideToo: true)
  }

  /// Only the folder given and below it (see ``Space/besideSearched``).
  private static func searchBelowOnly(given: String, folder: String) -> Findings {
    search(given: given, folder: folder, besideToo: false)
  }

  private static func search(given: String, folder: String, besideToo: Bool) -> Findings {
    var root = parent(of: given)
    var walkRoot = resolved(root)
    // Beside a folder in the home folder or at the top of the disk lies everything: only the
    // folder given is searched then, and the answer says so.
    let home = ProcessInfo.processInfo.environment["HOME"].map(resolved)
    if besideToo, walkRoot == "/" || walkRoot == home {
      return searchBelowOnly(given: given, folder: folder)
    }
    if !besideToo {
      root = given
      walkRoot = given
    }
    // The folder given may be a link (an argument whose name is not UTF-8 is given to the tool as
    // a link this run made): the space is then its target's folder, and what lies inside the
    // target is named through the link.
    var inside: (name: [UInt8], path: String)?
    if besideToo, (try? FileStatus.of(path: given))??.kind == .symbolicLink,
      let real = resolvedBytes(given),
      let slash = real.lastIndex(of: UInt8(ascii: "/")),
      let parentText = UserPath.validUTF8(Array(real[..<slash]))
    {
      root = parentText.isEmpty ? "/" : parentText
      walkRoot = root
      inside = (Array(real[(slash + 1)...]), given)
    }
    /// The path of an entry below the root, as a string the tool can open; nil when it cannot
    /// be one (a name that is not UTF-8).
    func openable(_ relative: [UInt8]) -> String? {
      if let inside, relative.starts(with: inside.name),
        relative.count == inside.name.count || relative[inside.name.count] == UInt8(ascii: "/")
      {
        return UserPath.validUTF8(Array(relative[inside.name.count...])).map { inside.path + $0 }
      }
      return UserPath.validUTF8(relative).map { join(root, $0) }
    }
    let realRoot = resolvedBytes(walkRoot) ?? Array(walkRoot.utf8)
    let ownDefaults = ContainerLayout(container: folder).defaultsPath
    var notOpened: [NotOpened] = []
    var sqliteFiles: [String] = []
    var walFiles: [String] = []
    var examined = 0
    // Below the parent: the siblings are one level down, the folder given's own levels one more.
    var walker = DirectoryWalker(
      reportLimit: entryBudget, examineLimit: entryBudget, depthLimit: depth + (besideToo ? 2 : 1))
    // A mounted disk or a system folder (`/proc`) below is named, not walked.
    walker.staysOnFileSystem = true
    let summary: DirectoryWalkSummary
    do {
      // The folder as the user named it may sit behind a link (`/var` on a Mac): it is opened
      // as they named it, and only what lies below it is never followed.
      summary = try walker.walk(root: walkRoot, followingRootLink: !besideToo) { entry in
        let path = join(root, PrintablePath.escape(entry.relativePath))
        guard let rawPath = openable(entry.relativePath) else {
          // Looked at by its bytes: only a store or a -wal is named (the tool cannot read it
          // under that name); anything else is no copy.
          if entry.status.kind == .symbolicLink
            || (entry.status.kind == .regular
              && sniffHead(Array(walkRoot.utf8) + [UInt8(ascii: "/")] + entry.relativePath)
                != .other)
          {
            notOpened.append(
              NotOpened(path: path, reason: "a name that is not UTF-8 (rename it to read it)"))
          }
          return
        }
        // The folder read's own store places: the survey reports them, links and all.
        guard !isOwnStoreFile(rawPath, of: folder) else { return }
        switch entry.status.kind {
        case .symbolicLink:
          // Never followed; named when what it points to could be a copy (a folder, a store or a
          // -wal by its first bytes) outside the space searched. A dangling link, one to
          // anything else, or one into the space itself (searched anyway) is no copy.
          if let target = resolvedBytes(rawPath), target.starts(with: realRoot + [0x2F]) {
            return
          }
          let target: FileStatus?
          do {
            target = try FileStatus.following(path: rawPath)
          } catch {
            notOpened.append(
              NotOpened(path: path, reason: "a link whose target cannot be examined (\(error))"))
            return
          }
          switch target?.kind {
          case .directory?:
            notOpened.append(NotOpened(path: path, reason: "a link to a folder (not followed)"))
          case .regular? where sniffHead(Array(rawPath.utf8), followingLink: true) != .other:
            notOpened.append(NotOpened(path: path, reason: "a link to a store (not followed)"))
          default:
            break
          }
        case .regular:
          guard entry.status.size >= 32 else { return }
          examined += 1
          // The folder read's own App Group defaults: the survey reads them (no store).
          guard rawPath != ownDefaults else { return }
          switch sniff(rawPath) {
          case .sqlite: sqliteFiles.append(rawPath)
          case .wal: walFiles.append(rawPath)
          case .other:
            // A store's name in a probed place is a candidate whatever its bytes (a store whose
            // header is damaged may still be salvaged): the survey decides.
            if containerHolding(rawPath, within: root) != nil { sqliteFiles.append(rawPath) }
          case .unreadable(let reason): notOpened.append(NotOpened(path: path, reason: reason))
          }
        default:
          break  // FIFOs, sockets, devices: never opened, never a store
        }
      }
    } catch {
      var space = Space(
        root: root, depth: depth, folders: 0, filesExamined: 0, complete: false,
        notOpened: [NotOpened(path: root, reason: error.reason)])
      space.besideSearched = besideToo
      return Findings(copies: [], space: space)
    }
    var complete = !summary.stoppedEarly && summary.leftOut == 0
    for problem in summary.problems {
      let path = join(root, problem.displayPath.dropFirst().description)
      let reason: String
      switch problem.error.operation {
      case "descend into": reason = "deeper than the search goes"
      case "cross into": reason = "another disk or file system (not searched)"
      default: reason = problem.error.reason
      }
      notOpened.append(NotOpened(path: path, reason: reason))
    }

    // Group: a `-wal` SQLite pairs with its main file belongs to that store.
    let mains = Set(sqliteFiles)
    let loneWALs = walFiles.filter {
      !($0.hasSuffix("-wal") && mains.contains(String($0.dropLast(4))))
    }
    var containers: [String] = []
    var storeFiles: [String] = []
    for file in sqliteFiles + loneWALs {
      if let container = containerHolding(file, within: root), container != folder {
        if !containers.contains(container) { containers.append(container) }
      } else {
        storeFiles.append(file)
      }
    }

    var copies: [Copy] = []
    var reads = 0
    for container in containers {
      guard reads < readBudget else {
        complete = false
        break
      }
      reads += 1
      let survey = survey(of: container)
      guard survey.hasRecoverableLegacyData else { continue }
      copies.append(
        Copy(
          path: container, dittos: survey.preview(for: .manual).dittos,
          hasLegacyData: true, relation: relation(of: container, given: given), kind: "container",
          survey: KeptSurvey(value: survey)))
    }
    for file in storeFiles {
      guard reads < readBudget else {
        complete = false
        break
      }
      reads += 1
      switch count(file) {
      case .dittos(let dittos):
        copies.append(
          Copy(
            path: file, dittos: dittos, hasLegacyData: true,
            relation: relation(of: file, given: given), kind: "store"))
      case .notALegacyStore:
        continue
      case .notRead(let reason):
        notOpened.append(NotOpened(path: file, reason: reason))
      }
    }
    let sorted = copies.enumerated().sorted { lhs, rhs in
      lhs.element.dittos != rhs.element.dittos
        ? lhs.element.dittos > rhs.element.dittos : lhs.offset < rhs.offset
    }
    .map(\.element)
    var space = Space(
      root: root, depth: depth, folders: summary.directoriesListed, filesExamined: examined,
      complete: complete, notOpened: notOpened)
    space.besideSearched = besideToo
    return Findings(copies: sorted, space: space)
  }

  /// What a container copy at `path` holds, read on snapshots, nothing written, nothing logged;
  /// lone `-wal` files rebuilt, as `recover` would.
  static func survey(of path: String) -> LegacySurvey {
    let layout = ContainerLayout(container: path)
    return LegacySurvey.of(layout, defaults: AppGroupDefaults(path: layout.defaultsPath))
  }

  // MARK: - What a place gives

  /// The dittos a recovery from a surveyed container would give, as `title NUL text` keys: every
  /// store that reads, every lone `-wal` salvage rebuilds, the App Group defaults' keys. Read on
  /// snapshots; nothing written. Nil when some of its legacy data could not be read: what it
  /// holds is then unknown, never taken for "nothing more".
  static func dittoKeys(of survey: LegacySurvey) -> Set<String>? {
    var keys = Set<String>()
    for store in survey.stores {
      switch store.content {
      case .read:
        guard let library = try? LegacyStoreReader.read(path: store.candidate.path) else {
          return nil
        }
        add(library.categories, to: &keys)
      case .failed, nil:
        guard let salvaged = salvagedKeys(store.candidate.path) else { return nil }
        keys.formUnion(salvaged)
      }
    }
    for wal in survey.loneWALs where wal.mayHoldData {
      guard let salvaged = salvagedKeys(wal.candidate.path) else { return nil }
      keys.formUnion(salvaged)
    }
    switch survey.defaults {
    case .none: break
    case .read(let content): add(content.pending + content.version1, to: &keys)
    case .failed: return nil
    }
    return keys
  }

  /// The dittos of the store file (or lone `-wal`) at `path`, as ``dittoKeys(of:)`` gives them;
  /// nil when neither SQLite nor salvage reads it.
  static func dittoKeys(ofFile path: String) -> Set<String>? {
    guard let library = try? LegacyStoreReader.read(path: path) else { return salvagedKeys(path) }
    var keys = Set<String>()
    add(library.categories, to: &keys)
    return keys
  }

  private static func add(_ categories: [LegacyCategory], to keys: inout Set<String>) {
    for category in categories {
      for ditto in category.dittos where !ditto.text.isEmpty {
        keys.insert(category.title + "\u{0}" + ditto.text)
      }
    }
  }

  /// What salvage rebuilds from `path`; nil when it decodes nothing.
  private static func salvagedKeys(_ path: String) -> Set<String>? {
    guard let result = try? Salvager.salvage(path: path, options: SalvageOptions()) else {
      return nil
    }
    var keys = Set<String>()
    add(result.library.categories, to: &keys)
    return keys
  }

  // MARK: - Content

  private enum Sniffed: Equatable {
    case sqlite, wal, other
    case unreadable(String)
  }

  /// What the first bytes of `path` say it is (opened without following links, never blocking).
  private static func sniff(_ path: String) -> Sniffed {
    sniffHead(Array(path.utf8))
  }

  /// What the first 16 bytes of the regular file at `path` (its bytes, any name) say it is;
  /// with `followingLink`, of the file a link at `path` points to (only ever read).
  private static func sniffHead(_ path: [UInt8], followingLink: Bool = false) -> Sniffed {
    let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW)
    let descriptor = (path + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, flags) }
    }
    guard descriptor >= 0 else {
      return errno == ELOOP ? .other : .unreadable(String(cString: strerror(errno)))
    }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .other }
    var head = [UInt8](repeating: 0, count: 16)
    let count = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 16, 0) }
    guard count >= 0 else { return .unreadable(String(cString: strerror(errno))) }
    head = Array(head.prefix(count))
    if head.count == 16, head == Array("SQLite format 3\0".utf8) { return .sqlite }
    if head.count >= 8 {
      let magic =
        UInt32(head[0]) << 24 | UInt32(head[1]) << 16 | UInt32(head[2]) << 8 | UInt32(head[3])
      let version =
        UInt32(head[4]) << 24 | UInt32(head[5]) << 16 | UInt32(head[6]) << 8 | UInt32(head[7])
      if magic & ~1 == 0x377F_0682, version == 3_007_000 { return .wal }
    }
    return .other
  }

  private enum Count {
    case dittos(Int)
    case notALegacyStore
    case notRead(String)
  }

  /// The dittos a store file (or a lone `-wal`) gives: read on a snapshot; rebuilt by salvage
  /// when SQLite cannot read it.
  private static func count(_ file: String) -> Count {
    let isLoneWAL = sniffIsWAL(file)
    if !isLoneWAL {
      do throws(LegacyStoreError) {
        let summary = try CoreDataStore.withSnapshot(of: file) {
          store throws(LegacyStoreError) in
          try LegacyStoreReader(store: store).count()
        }
        return .dittos(summary.dittos)
      } catch {
        switch error {
        case .notACoreDataStore, .notADittoStore, .ditto3Library: return .notALegacyStore
        case .permissionDenied, .busy, .ioError, .unreadable, .noSpaceForSnapshot, .changing,
          .notFound, .notARegularFile, .linkedFolder:
          return .notRead(ArgumentSpelling.described(error))
        case .notADatabase, .damaged: break  // salvage decides
        }
      }
    }
    do throws(LegacyStoreError) {
      let result = try Salvager.salvage(path: file, options: SalvageOptions())
      return result.library.dittoCount > 0 ? .dittos(result.library.dittoCount) : .notALegacyStore
    } catch {
      return .notALegacyStore
    }
  }

  private static func sniffIsWAL(_ file: String) -> Bool {
    if case .wal = sniff(file) { return true }
    return false
  }

  // MARK: - Places

  /// The container folder whose probe reads `file`: `file` is `Ditto.sqlite` (or its `-wal`) in
  /// some letter case in one of the probed folders of that container, which lies inside `root`.
  /// Nil for a store anywhere else or under another name.
  static func containerHolding(_ file: String, within root: String) -> String? {
    let (folder, name) = split(file)
    let storeName = name.lowercased().hasSuffix("-wal") ? String(name.dropLast(4)) : name
    guard LegacyStoreProbe.isStoreName(Array(storeName.utf8)) else { return nil }
    // The longest probed folder first: `A/Library/Application Support/Ditto.sqlite` is A's.
    for probed in LegacyStoreProbe.containerFolders.sorted(by: { $0.count > $1.count }) {
      let container: String
      if probed.isEmpty {
        container = folder
      } else if folder.hasSuffix("/" + probed) {
        container = String(folder.dropLast(probed.count + 1))
      } else {
        continue
      }
      if container.hasPrefix(root + "/") || (root == "/" && container != "/") {
        return container
      }
    }
    return nil
  }

  /// True for the files `folder`'s own probe reads (its stores and their `-wal` files).
  private static func isOwnStoreFile(_ path: String, of folder: String) -> Bool {
    guard let container = containerHolding(path, within: parent(of: folder)) else { return false }
    return container == folder
  }

  private static func relation(of path: String, given: String) -> String {
    if path.hasSuffix(".xcappdata/AppData") { return "xcappdata" }
    return path.hasPrefix(given + "/") ? "below" : "sibling"
  }

  /// The bytes of `path` with its links resolved, nil when it cannot be resolved.
  static func resolvedBytes(_ path: String) -> [UInt8]? {
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return UnsafeBufferPointer(start: real, count: strlen(real)).map { UInt8(bitPattern: $0) }
  }

  /// `path` with its links resolved (itself when it cannot be).
  static func resolved(_ path: String) -> String {
    guard let real = realpath(path, nil) else { return path }
    defer { free(real) }
    return String(cString: real)
  }

  private static func parent(of path: String) -> String {
    split(path).parent
  }

  private static func split(_ path: String) -> (parent: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let parent = String(path[..<slash])
    return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
  }

  private static func join(_ parent: String, _ child: String) -> String {
    parent == "/" ? "/" + child : parent + "/" + child
  }
}
