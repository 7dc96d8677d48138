import EngineTestSupport
import Foundation
import LegacyMigration
import SafeFiles
import StoreFixtures
import TestSupport
import Testing

/// Containers built to trap a naive migrator: special files, links, loops, huge and odd names.
/// Each run is a child process with a deadline, so a hang fails the test instead of stalling it.
@Suite
struct HostileContainerTests {
  static let deadline: TimeInterval = 60

  /// Runs the tool on `container`, killing it at the deadline; returns the run and the seconds it took.
  func run(_ arguments: [String], prefix: [String] = []) throws -> (ToolRun, TimeInterval) {
    let start = Date()
    let launcher: ProcessLauncher
    if prefix.isEmpty {
      launcher = try ProcessLauncher(arguments)
    } else {
      launcher = try ProcessLauncher(arguments, wrapper: prefix)
    }
    let watchdog = DispatchWorkItem { kill(launcher.process.processIdentifier, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + Self.deadline, execute: watchdog)
    let result = launcher.finish()
    watchdog.cancel()
    return (result, Date().timeIntervalSince(start))
  }

  func recover(_ container: String) throws -> (ToolRun, TimeInterval) {
    try run(["recover", "--container", container, "--json"])
  }

  enum Trap: String, CaseIterable {
    case fifo, socket, directory, danglingLink, linkOutside, linkLoopInLibrary
  }

  @Test(arguments: Trap.allCases)
  func specialFilesNamedDittoSqliteAreFoundNotOpenedAndCountForNothing(trap: Trap) throws {
    let folder = try TemporaryDirectory("hostile")
    let container = folder.appending("device")
    let builder = try ContainerBuilder(root: container)
    try LibraryFixtures.copy(.empty, toFolder: container)
    // Outside the container and outside the space searched for copies of it: a link is the
    // only way there.
    let elsewhere = try TemporaryDirectory("elsewhere")
    let outside = elsewhere.appending("outside.sqlite")
    try LegacyStoreWriter.write(
      FixtureContent.make(categories: 1, dittosPerCategory: 3, seed: 1), to: outside)
    switch trap {
    case .fifo: try builder.makeFIFO(at: "Ditto.sqlite")
    case .socket: try makeSocket(at: builder.path("Ditto.sqlite"))
    case .directory:
      try FileManager.default.createDirectory(
        atPath: builder.path("Ditto.sqlite"), withIntermediateDirectories: true)
    case .danglingLink:
      try FileManager.default.createSymbolicLink(
        atPath: builder.path("Ditto.sqlite"), withDestinationPath: folder.appending("nothing"))
    case .linkOutside:
      try FileManager.default.createSymbolicLink(
        atPath: builder.path("Ditto.sqlite"), withDestinationPath: outside)
    case .linkLoopInLibrary:
      try FileManager.default.createDirectory(
        atPath: builder.path("Library"), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: builder.path("Library/loop"), withDestinationPath: builder.path("Library"))
      try FileManager.default.createSymbolicLink(
        atPath: builder.path("Library/Application Support"),
        withDestinationPath: "../Library/Application Support")
    }
    // A hang is killed by the watchdog (exit code 9), which fails the exit code check. Found, not
    // read: never nothing_on_disk, and (transient) never a flag write.
    let (result, _) = try recover(container)
    #expect(result.exitCode == 65, "\(trap): \(result.standardError)")
    #expect(result.json?["outcome"] as? String == "found_unreadable")
    #expect(result.json?["reason"] as? String == "not_a_file")
    #expect(result.json?["inserted"] as? Int == 0, "\(trap): followed a link out of the container")
    #expect(
      result.outcomeLines == [
        "migration_outcome source=manual outcome=found_unreadable categories=0 dittos=0 inserted=0 reason=not_a_file"
      ])
    #expect(result.standardError.contains("not opened"), "\(trap): no reason given")
    let defaults = ContainerLayout(container: container).defaultsPath
    for _ in 1...4 {
      let (migrated, _) = try run(["migrate", "--container", container, "--json"])
      #expect(migrated.exitCode == 65, "\(trap): \(migrated.standardError)")
      #expect(migrated.json?["outcome"] as? String == "found_unreadable")
      #expect(migrated.json?["flagSet"] as? Bool == false)
      #expect(migrated.json?["attempts"] as? Int == 0, "the counter moved")
    }
    #expect(try FileStatus.of(path: defaults) == nil, "\(trap): the flag store was written")
    let (status, _) = try run(["status", "--container", container, "--json"])
    let named = (status.json?["notOpened"] as? [[String: Any]])?.compactMap {
      $0["path"] as? String
    }
    #expect(
      named == [trap == .linkLoopInLibrary ? "Library/Application Support" : "Ditto.sqlite"],
      "\(trap): \(status.standardOutput)")
    #expect(status.json?["hasRecoverableLegacyData"] as? Bool == true)
    let inventory = try run(["inventory", "--container", container]).0
    #expect(inventory.exitCode == 0)
    #expect(inventory.standardOutput.split(separator: "\n").count < 20)
  }

  @Test func aSparse2GiBFileIsRefusedQuicklyAndNeverLoaded() throws {
    let folder = try TemporaryDirectory("sparse")
    let container = folder.appending("device")
    let builder = try ContainerBuilder(root: container)
    try LibraryFixtures.copy(.empty, toFolder: container)
    // Zeros (no SQLite header) and a file that starts like SQLite: both 2 GiB, both sparse.
    for (name, header) in [
      ("Ditto.sqlite", [UInt8]()),
      ("Documents/Ditto.sqlite", Array("SQLite format 3\0".utf8) + [0x10, 0, 2, 2]),
    ] {
      try builder.writeBytes(header, at: name)
      guard truncate(builder.path(name), off_t(HarnessBudget.current.sparseFileBytes)) == 0 else {
        Issue.record("cannot make a sparse file here")
        return
      }
    }
    let before = try FileHashesLite(container)
    // Never loaded whole: this run's own peak memory, measured by GNU time around it alone (other
    // children of the test process do not count).
    #expect(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "scripts/setup installs it")
    let (result, seconds) = try run(
      ["recover", "--container", container, "--json"],
      prefix: ["/usr/bin/time", "-f", "maxrss_kb=%M"])
    #expect(result.exitCode == 65, "\(result.standardError)")  // 9 when the watchdog killed a hang
    let peakLine = result.standardError.split(separator: "\n").last { $0.hasPrefix("maxrss_kb=") }
    let peakKB = peakLine.flatMap { Int($0.dropFirst("maxrss_kb=".count)) } ?? Int.max
    #expect(peakKB < 256 * 1024, "a child peaked at \(peakKB) KB")
    #expect(result.json?["outcome"] as? String == "found_unreadable")
    let after = try FileHashesLite(container)
    #expect(before.entries.allSatisfy { after.entries[$0.key] == $0.value })
    report("hostile: 2 GiB sparse stores refused in \(String(format: "%.2f", seconds)) s")
  }

  /// A gzip capture that expands a thousandfold (48 MiB of log lines in about 150 KB): read in
  /// bounded memory, each piece read before the next is decoded.
  @Test func aGzipCaptureThatExpandsAThousandfoldIsReadInBoundedMemory() throws {
    let folder = try TemporaryDirectory("gzip-bomb")
    let capture = folder.appending("tester.log.gz")
    let made = try ToolRun.shell(
      "yes 'an ordinary line of a log capture, padded to look like one: nothing to see here' | head -c 50331648 | gzip -9 > tester.log.gz",
      in: folder.path)
    #expect(made.exitCode == 0, "\(made.standardError)")
    func peak(_ arguments: [String]) throws -> Int {
      let (result, _) = try run(arguments, prefix: ["/usr/bin/time", "-f", "maxrss_kb=%M"])
      let line = result.standardError.split(separator: "\n").last { $0.hasPrefix("maxrss_kb=") }
      return line.flatMap { Int($0.dropFirst("maxrss_kb=".count)) } ?? Int.max
    }
    let baseline = try peak(["--version"])
    let reading = try peak(["outcomes", capture])
    #expect(
      reading - baseline < 32 * 1024, "outcomes peaked \(reading - baseline) KB above --version")
  }

  @Test func manyFilesAndOddNamesKeepTheInventoryBounded() throws {
    let folder = try TemporaryDirectory("many")
    let container = folder.appending("device")
    let builder = try ContainerBuilder(root: container)
    try LibraryFixtures.copy(.empty, toFolder: container)
    try builder.writeStore(FixtureContent.make(categories: 2, dittosPerCategory: 3, seed: 3))
    let count = HarnessBudget.current.manyFiles
    for chunk in 0..<(count / 1000) {
      let directory = builder.path("Library/Caches/d\(chunk)")
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      for index in 0..<1000 { close(open(directory + "/f\(index)", O_CREAT | O_WRONLY, 0o644)) }
    }
    let oddNames: [[UInt8]] = [Array("new\nline".utf8), Array("tab\there".utf8)]
    try FileManager.default.createDirectory(
      atPath: builder.path("Documents"), withIntermediateDirectories: true)
    for name in oddNames {
      #expect(OddFileName.makeEmptyFile(Array(builder.path("Documents").utf8) + [0x2F] + name) == 0)
    }
    // odd\xFFname, or odd\x7Fname where the file system refuses bytes that are not UTF-8 (APFS).
    let odd = try OddFileName.makeFile(in: builder.path("Documents"))
    let (result, seconds) = try run(["inventory", "--container", container])
    let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
    #expect(lines.count <= Inventory.reportLimit + 1)
    #expect(lines.last?.contains("more files") == true)
    #expect(result.standardOutput.contains("new\\nline"))
    #expect(result.standardOutput.contains("/Documents/" + odd.shown))
    let (migrated, _) = try recover(container)
    #expect(migrated.json?["outcome"] as? String == "success")
    report(
      "hostile: inventory of \(count + 4) files in \(String(format: "%.2f", seconds)) s, \(lines.count) lines"
    )
  }

  func makeSocket(at path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8.prefix(raw.count - 1))
      raw.copyBytes(from: bytes)
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else { throw POSIXError(.EADDRINUSE) }
  }
}

/// Sizes and kinds only (hashing 2 GiB of zeros would be slow; the content is a hole anyway).
struct FileHashesLite: Equatable {
  var entries: [String: String] = [:]
  init(_ root: String) throws {
    _ = try DirectoryWalker().walk(root: root) { entry in
      entries[entry.displayPath] =
        "\(entry.status.kind) \(entry.status.size) \(entry.status.modificationTime)"
    }
  }
}
