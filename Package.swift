// swift-tools-version:6.0
import PackageDescription

// What each module uses (arrows point to the users; nothing points back up):
//   SQLiteDB (the only Swift code calling SQLite's C API) ← SQLiteSnapshot (the private copy every
//     store is read on) ← LegacyStore (the 2.x reader), DittoStore (the 3.x library), BackupReader,
//     Salvage
//   LibraryMerge (the engine's protocols and merge rules; uses nothing) ← LegacyMigration, DittoStore
//   LegacyMigration (the engine: survey, sources, migrator) ← ContainerFiles (a container copy's
//     files) ← RecoveryFile ← DittoRecoverCLI ← ditto-recover (shipped)
//   StoreFixtures (test stores and containers) ← FixtureTool ← ditto-fixture (a developer's tool,
//     never shipped), EngineTestSupport (no CLI) ← TestSupport (CLI tests) and the tests: no
//     shipped product links StoreFixtures
// The layers, and each module's own test target, are the table in README's "How it is built".
// Every module a target's files import (inside `#if` too) is one of its declared dependencies,
// never reached only through another module: scripts/check-imports, run by .ci/run, holds it.
// C: CSQLite and SQLiteShims (SQLite), SystemShims (copy_file_range), BuildInfo (the commit a
// release was built from) and COpenSSL (libcrypto on
// Linux), used only by SQLiteDB, SafeFiles and BackupCrypto. Telemetry and OutcomeReport use
// nothing of ours.
let package = Package(
  name: "DittoRecovery",
  // SwiftData's floor: the app embeds LegacyMigration (with its own SwiftData destination).
  platforms: [.iOS(.v17), .macOS(.v14)],
  products: [
    .executable(name: "ditto-recover", targets: ["ditto-recover"]),
    // A developer's tool, never shipped: test containers (with Ditto.store files that must never
    // reach a device).
    .executable(name: "ditto-fixture", targets: ["ditto-fixture"]),
    .library(name: "LegacyMigration", targets: ["LegacyMigration"]),
    .library(name: "LibraryMerge", targets: ["LibraryMerge"]),
    // The engine's logger facade and its os.Logger backend (docs/EMBEDDING.md §3).
    .library(name: "Telemetry", targets: ["Telemetry"]),
    // `PropertyListValue`, the type of the App Group defaults a `LegacyDefaultsSource` returns
    // (the reader and writer are the package's own).
    .library(name: "PropertyLists", targets: ["PropertyLists"]),
  ],
  dependencies: [],
  targets: [
    // On Linux SQLite is the system library from libsqlite3-dev; on Apple platforms it is the SDK's SQLite3.
    .systemLibrary(
      name: "CSQLite",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    // C wrappers for the variadic parts of the SQLite API (sqlite3_db_config), which Swift cannot call.
    .target(
      name: "SQLiteShims",
      linkerSettings: [.linkedLibrary("sqlite3")]
    ),
    .target(
      name: "SQLiteDB",
      dependencies: [
        .target(name: "CSQLite", condition: .when(platforms: [.linux])),
        "SQLiteShims",
      ]
    ),
    .target(name: "Telemetry"),
    // Property lists read and written by the package's own code (binary and XML, keyed archives):
    // every plist from outside goes through it, on every platform alike.
    .target(name: "PropertyLists", dependencies: ["CivilCalendar"]),
    // The engine's own protocols (destination, flag store) and the merge rules: no store, no reader.
    .target(name: "LibraryMerge"),
    // copy_file_range(2) for snapshot copies (not in Swift's Glibc module).
    .target(name: "SystemShims"),
    .target(name: "SafeFiles", dependencies: ["SystemShims"]),
    // The CLI's own: signal handlers (C) and the ledger of what a run made, removed when it is
    // interrupted. Never linked into the app's products.
    .target(name: "InterruptShims"),
    .target(name: "RunCleanup", dependencies: ["SafeFiles"]),
    // The private copy every store is read on (a legacy store, a library, a backup manifest) and
    // the one way to open it.
    .target(name: "SQLiteSnapshot", dependencies: ["SQLiteDB", "SafeFiles"]),
    .target(
      name: "LegacyStore",
      dependencies: ["SQLiteDB", "SQLiteSnapshot", "SafeFiles", "PropertyLists"]),
    // The Ditto 3.x library (SwiftData's Ditto.store): read on a snapshot, validated, insert-only writes.
    .target(
      name: "DittoStore", dependencies: ["SQLiteDB", "SQLiteSnapshot", "SafeFiles", "LibraryMerge"]),
    // Salvage decodes raw pages (main file, -wal, free space) beside the reader, never inside it.
    .target(
      name: "Salvage", dependencies: ["LegacyStore", "SQLiteSnapshot", "SafeFiles", "SQLiteDB"]),
    .target(
      name: "LegacyMigration",
      dependencies: [
        "LegacyStore", "LibraryMerge", "Telemetry", "SafeFiles", "Salvage", "PropertyLists",
      ]
    ),
    // The files of a container copy the engine never names: the App Group defaults plist as a flag
    // store and legacy source, and where the library lies.
    .target(
      name: "ContainerFiles",
      dependencies: [
        "LegacyMigration", "LibraryMerge", "LegacyStore", "SafeFiles", "PropertyLists",
      ]),
    .target(
      name: "Exchange", dependencies: ["LegacyStore", "SafeFiles", "SQLiteDB", "JSONOutput"]),
    // The `.dittorecovery` file: a standalone 2.x-layout store written from what the engine reads.
    .target(
      name: "RecoveryFile",
      dependencies: [
        "SQLiteDB", "SafeFiles", "LegacyStore", "LibraryMerge", "LegacyMigration", "Telemetry",
        "ContainerFiles", "PropertyLists",
      ]),
    // On Linux the crypto comes from OpenSSL's libcrypto, loaded on first use (headers: libssl-dev);
    // on Apple platforms from CommonCrypto.
    .target(name: "COpenSSL"),
    .target(
      name: "BackupCrypto",
      dependencies: [.target(name: "COpenSSL", condition: .when(platforms: [.linux]))]
    ),
    .target(
      name: "BackupReader",
      dependencies: ["SQLiteDB", "SQLiteSnapshot", "SafeFiles", "PropertyLists", "BackupCrypto"]),
    .target(
      name: "StoreFixtures",
      dependencies: [
        "SQLiteDB", "LegacyStore", "LegacyMigration", "Exchange", "SafeFiles", "ContainerFiles",
        "PropertyLists",
      ]),
    .target(
      name: "DittoRecoverCLI",
      dependencies: [
        "LegacyMigration", "LegacyStore", "DittoStore", "LibraryMerge", "Telemetry", "Exchange",
        "SafeFiles", "OutcomeReport", "BackupReader", "Salvage", "ContainerFiles", "RecoveryFile",
        "BuildInfo", "SystemShims", "BackupCrypto", "UnifiedLog", "InterruptShims", "RunCleanup",
        "ByteStreams", "JSONOutput",
      ]
    ),
    // The commit and date a release was built from (scripts/release defines them; "" otherwise).
    .target(name: "BuildInfo"),
    .executableTarget(name: "ditto-recover", dependencies: ["DittoRecoverCLI"]),
    // The developer's fixture tool: StoreFixtures behind ditto-recover's command-line plumbing.
    .target(
      name: "FixtureTool",
      dependencies: ["DittoRecoverCLI", "StoreFixtures", "SafeFiles", "Exchange", "JSONOutput"]),
    .executableTarget(name: "ditto-fixture", dependencies: ["FixtureTool", "DittoRecoverCLI"]),
    .executableTarget(
      name: "salvage-bench", dependencies: ["Salvage", "LegacyStore"],
      path: "Benchmarks/SalvageBench"),
    // Writes the log-archive benchmark's input (scripts/bench, Benchmarks/bench_logs.py).
    .executableTarget(
      name: "log-bench", dependencies: ["LogArchiveFixtures"], path: "Benchmarks/LogBench"),
    // The app's launch path in-process (docs/EMBEDDING.md's model): scripts/bench runs it.
    .executableTarget(
      name: "launch-bench",
      dependencies: [
        "ExampleApp", "LegacyMigration", "LibraryMerge", "Telemetry", "StoreFixtures",
        "PropertyLists", "CSQLite",
      ],
      path: "Benchmarks/LaunchBench"),
    // gzip and tar, streamed (no unpacking to disk): captures and sysdiagnose archives.
    .target(name: "ByteStreams"),
    // The package's one JSON writer: the string escaper every JSON text quotes its strings with,
    // JSONValue and the encoder every command's `--json` value goes through.
    .target(name: "JSONOutput"),
    // The package's one calendar arithmetic (days since 1970 and back).
    .target(name: "CivilCalendar"),
    // Apple's unified log (.logarchive, tracev3, timesync, uuidtext, dsc; sysdiagnose archives),
    // read by our own code: no Mac needed.
    .target(
      name: "UnifiedLog",
      dependencies: ["ByteStreams", "JSONOutput", "CivilCalendar", "SafeFiles", "PropertyLists"]),
    // Writes log archives with chosen entries (tracev3, timesync, uuidtext; LZ4 or stored; tar,
    // gzip): for tests, fuzz seeds and benchmarks. Never a product.
    .target(name: "LogArchiveFixtures", dependencies: ["ByteStreams"]),
    // Reads `log show` captures and log archives, and reports the distribution of
    // migration_outcome tags.
    .target(
      name: "OutcomeReport",
      dependencies: [
        "ByteStreams", "UnifiedLog", "Telemetry", "JSONOutput", "CivilCalendar", "SafeFiles",
      ]),
    // Stands in for the Ditto app: the code docs/EMBEDDING.md quotes (the launch, the menu, the
    // alert; the SwiftData destination, UIKit launch and SwiftUI recovery-file code behind
    // #if canImport, compiled by the Apple workflow), over an in-memory library with the app's
    // rules. Never a product.
    .target(
      name: "ExampleApp", dependencies: ["LegacyMigration", "LibraryMerge", "Telemetry"],
      path: "Examples/ExampleApp"),
    // What engine tests share: temporary folders, file hashes, fixtures, in-memory destination,
    // flag store, defaults and log handler, backup builders. No CLI, no child process: it builds
    // for iOS, where the Apple workflow runs the engine's tests.
    .target(
      name: "EngineTestSupport",
      dependencies: [
        "SQLiteDB", "LegacyStore", "Telemetry", "StoreFixtures", "SafeFiles", "BackupCrypto",
        "LibraryMerge", "DittoStore", "LegacyMigration", "ContainerFiles", "PropertyLists",
      ]
    ),
    // What CLI tests add: running ditto-recover in-process or as a child, and shell commands.
    .target(
      name: "TestSupport",
      dependencies: ["EngineTestSupport", "DittoRecoverCLI", "FixtureTool", "SafeFiles"]
    ),

    // Engine tests: each module's own, with EngineTestSupport (no CLI in it).
    .testTarget(
      name: "SQLiteDBTests",
      dependencies: ["SQLiteDB", "EngineTestSupport", "StoreFixtures", "SafeFiles"]),
    .testTarget(
      name: "SafeFilesTests",
      dependencies: [
        "SafeFiles", "EngineTestSupport", "SQLiteSnapshot", "BackupReader", "Salvage",
        "LegacyStore", "LegacyMigration", "StoreFixtures", "ContainerFiles", "RunCleanup",
      ]),
    .testTarget(
      name: "SQLiteSnapshotTests",
      dependencies: [
        "SQLiteSnapshot", "SQLiteDB", "SafeFiles", "EngineTestSupport", "StoreFixtures",
        "RunCleanup",
      ]),
    .testTarget(
      name: "LegacyStoreTests",
      dependencies: ["LegacyStore", "EngineTestSupport", "SafeFiles", "SQLiteDB", "StoreFixtures"]),
    .testTarget(
      name: "ExchangeTests",
      dependencies: ["Exchange", "LegacyStore", "EngineTestSupport", "StoreFixtures", "SafeFiles"]),
    .testTarget(
      name: "RecoveryFileTests",
      dependencies: [
        "RecoveryFile", "LegacyStore", "LibraryMerge", "LegacyMigration", "EngineTestSupport",
        "StoreFixtures", "SQLiteDB", "SafeFiles",
      ]),
    .testTarget(
      name: "ContainerFilesTests",
      dependencies: [
        "ContainerFiles", "LegacyMigration", "LibraryMerge", "EngineTestSupport", "PropertyLists",
        "SafeFiles", "StoreFixtures",
      ]),
    .testTarget(
      name: "DittoStoreTests",
      dependencies: [
        "DittoStore", "LibraryMerge", "StoreFixtures", "SQLiteDB", "SafeFiles", "EngineTestSupport",
      ]),
    .testTarget(
      name: "SalvageTests",
      dependencies: [
        "Salvage", "LegacyStore", "SQLiteDB", "SafeFiles", "StoreFixtures", "EngineTestSupport",
      ]),
    .testTarget(name: "LibraryMergeTests", dependencies: ["LibraryMerge"]),
    .testTarget(name: "TelemetryTests", dependencies: ["Telemetry", "EngineTestSupport"]),
    .testTarget(
      name: "LegacyMigrationTests",
      dependencies: [
        "LegacyMigration", "StoreFixtures", "EngineTestSupport", "SQLiteDB", "SafeFiles",
        "Salvage", "LibraryMerge", "DittoStore", "LegacyStore", "ContainerFiles", "SQLiteSnapshot",
        "BackupReader", "RecoveryFile", "PropertyLists", "Telemetry",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(name: "BackupCryptoTests", dependencies: ["BackupCrypto"]),
    .testTarget(
      name: "BackupReaderTests",
      dependencies: [
        "BackupReader", "EngineTestSupport", "StoreFixtures", "PropertyLists", "BackupCrypto",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "DittoRecoverCLITests",
      dependencies: [
        "DittoRecoverCLI", "TestSupport", "EngineTestSupport", "ditto-recover", "ditto-fixture",
        "DittoStore", "SQLiteDB",
        "Exchange",
        "LegacyStore", "RecoveryFile", "LegacyMigration", "LibraryMerge", "Telemetry",
        "ContainerFiles", "StoreFixtures", "SafeFiles", "OutcomeReport", "BackupReader",
        "LogArchiveFixtures", "PropertyLists", "ByteStreams", "UnifiedLog", "BackupCrypto",
      ]),
    // Test-only: a migrate that kills itself at a chosen stage (the crash harness drives it).
    .executableTarget(
      name: "crash-harness-tool",
      dependencies: [
        "DittoStore", "LegacyMigration", "LibraryMerge", "Telemetry", "ContainerFiles",
        "PropertyLists",
      ],
      path: "Tests/CrashHarnessTool"),
    // Test-only: writes a Finder/iTunes backup of a 2.x device, for the release test.
    .executableTarget(
      name: "test-backup-tool", dependencies: ["EngineTestSupport"], path: "Tests/TestBackupTool"),
    .testTarget(
      name: "HarnessTests",
      dependencies: [
        "TestSupport", "EngineTestSupport", "StoreFixtures", "DittoStore", "LegacyMigration",
        "LegacyStore", "SQLiteDB", "ditto-recover", "crash-harness-tool", "LibraryMerge",
        "ContainerFiles", "SafeFiles", "LogArchiveFixtures", "Telemetry",
      ],
      // The stage library the interrupt tests preload, compiled by them at test time.
      exclude: ["Shims"]),
    // Checks on the repository itself: no API newer than the declared platforms; the embedding
    // guide quotes the SwiftData destination as it is in SwiftDataTests.
    .testTarget(name: "PlatformTests"),
    // Only where SwiftData exists (macOS, iOS): a real SwiftData store written by
    // DittoStoreDestination and reopened, and the app's own destination (docs/EMBEDDING.md §1).
    // Empty on Linux.
    .testTarget(
      name: "SwiftDataTests",
      dependencies: [
        "DittoStore", "LegacyMigration", "LibraryMerge", "Telemetry", "EngineTestSupport",
        "ExampleApp",
      ]),
    // The example app driven through the seed's test plan and the locked cases.
    .testTarget(
      name: "ExampleAppTests",
      dependencies: [
        "ExampleApp", "LegacyMigration", "LibraryMerge", "StoreFixtures", "EngineTestSupport",
        "ContainerFiles", "PropertyLists",
      ]),
    .testTarget(name: "PropertyListsTests", dependencies: ["PropertyLists"]),
    .testTarget(
      name: "JSONOutputTests", dependencies: ["JSONOutput", "StoreFixtures"]),
    .testTarget(
      name: "UnifiedLogTests",
      dependencies: [
        "UnifiedLog", "LogArchiveFixtures", "ByteStreams", "StoreFixtures", "PropertyLists",
        "JSONOutput",
      ]),
    .testTarget(
      name: "OutcomeReportTests",
      dependencies: [
        "OutcomeReport", "ByteStreams", "UnifiedLog", "JSONOutput", "StoreFixtures", "Telemetry",
      ],
      exclude: ["Samples"]
    ),
  ]
)

// The libFuzzer targets (Fuzz/Sources, one `fuzz-<name>` per reader; see Fuzz/README.md). They are
// targets of this package, so they reach the readers through `package` access and nothing is public
// for them alone; they exist only when `DITTO_FUZZ=1` (scripts/fuzz sets it), so `swift build` and
// `swift test` never build them (they need `-sanitize=fuzzer`). Their seed corpus is
// Fuzz/corpus/<name>/.
let fuzzers: [(name: String, modules: [Target.Dependency])] = [
  ("legacy-store", ["LegacyStore", "StoreFixtures"]),
  (
    "defaults-plist",
    ["LegacyMigration", "ContainerFiles", "PropertyLists", "LibraryMerge", "Telemetry"]
  ),
  ("property-list", ["PropertyLists"]),
  ("backup-plist", ["BackupReader"]),
  ("mbfile", ["BackupReader"]),
  ("keybag", ["BackupReader"]),
  ("manifest-db", ["BackupReader"]),
  ("backup-path", ["BackupReader"]),
  ("csv", ["Exchange", "LegacyStore"]),
  ("outcome-log", ["OutcomeReport"]),
  ("unified-log", ["UnifiedLog"]),
  ("salvage", ["Salvage", "LegacyStore"]),
  (
    "recovery-file",
    ["RecoveryFile", "LegacyMigration", "LibraryMerge", "Telemetry", "PropertyLists"]
  ),
  ("ditto-store", ["DittoStore", "LibraryMerge"]),
]
if Context.environment["DITTO_FUZZ"] == "1" {
  package.targets += [
    // libFuzzer's LLVMFuzzerRunDriver; `-sanitize=fuzzer` links the library itself.
    .systemLibrary(name: "CLibFuzzer", path: "Fuzz/Sources/CLibFuzzer"),
    .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Fuzz/Sources/FuzzSupport"),
  ]
  for fuzzer in fuzzers {
    package.targets.append(
      .executableTarget(
        name: "fuzz-\(fuzzer.name)", dependencies: ["FuzzSupport"] + fuzzer.modules,
        path: "Fuzz/Sources/fuzz-\(fuzzer.name)"))
    package.products.append(
      .executable(name: "fuzz-\(fuzzer.name)", targets: ["fuzz-\(fuzzer.name)"]))
  }
}
