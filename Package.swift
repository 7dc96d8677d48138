// swift-tools-version:6.0
import PackageDescription

// Dependencies point downward only:
// SQLiteDB ← LegacyStore, DittoLibrary ← LegacyMigration ← DittoRecoverCLI ← ditto-recover;
// SQLiteDB, SafeFiles, LegacyStore, BackupCrypto ← BackupReader ← DittoRecoverCLI.
// BackupCrypto is the only other module touching C pointers (the system's crypto library).
// Telemetry uses Foundation only. Only SQLiteDB touches a C pointer.
let package = Package(
  name: "DittoRecovery",
  products: [
    .executable(name: "ditto-recover", targets: ["ditto-recover"]),
    .library(name: "LegacyMigration", targets: ["LegacyMigration"]),
    // For the fuzzers in Fuzz/ (a separate package, so `swift build` and `swift test` here never
    // build them): each module they drive is a product.
    .library(name: "LegacyStore", targets: ["LegacyStore"]),
    .library(name: "DittoLibrary", targets: ["DittoLibrary"]),
    .library(name: "BackupReader", targets: ["BackupReader"]),
    .library(name: "Exchange", targets: ["Exchange"]),
    .library(name: "OutcomeReport", targets: ["OutcomeReport"]),
    .library(name: "Salvage", targets: ["Salvage"]),
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
    // copy_file_range(2) for snapshot copies (not in Swift's Glibc module).
    .target(name: "SystemShims"),
    .target(name: "SafeFiles", dependencies: ["SystemShims"]),
    .target(name: "LegacyStore", dependencies: ["SQLiteDB", "SafeFiles"]),
    .target(name: "DittoLibrary", dependencies: ["SQLiteDB", "LegacyStore"]),
    // Salvage decodes raw pages (main file, -wal, free space) beside the reader, never inside it.
    .target(name: "Salvage", dependencies: ["LegacyStore", "SafeFiles", "SQLiteDB"]),
    .target(
      name: "LegacyMigration",
      dependencies: ["LegacyStore", "DittoLibrary", "Telemetry", "SafeFiles", "Salvage"]
    ),
    .target(name: "Exchange", dependencies: ["LegacyStore", "SafeFiles"]),
    // On Linux the crypto comes from OpenSSL's libcrypto, loaded on first use (headers: libssl-dev);
    // on Apple platforms from CommonCrypto.
    .target(name: "COpenSSL"),
    .target(
      name: "BackupCrypto",
      dependencies: [.target(name: "COpenSSL", condition: .when(platforms: [.linux]))]
    ),
    .target(
      name: "BackupReader", dependencies: ["SQLiteDB", "SafeFiles", "LegacyStore", "BackupCrypto"]),
    .target(
      name: "StoreFixtures",
      dependencies: ["SQLiteDB", "LegacyStore", "LegacyMigration", "Exchange", "SafeFiles"]),
    .target(
      name: "DittoRecoverCLI",
      dependencies: [
        "LegacyMigration", "LegacyStore", "DittoLibrary", "Telemetry", "StoreFixtures", "Exchange",
        "SafeFiles", "OutcomeReport", "BackupReader", "Salvage",
      ]
    ),
    .executableTarget(name: "ditto-recover", dependencies: ["DittoRecoverCLI"]),
    .executableTarget(
      name: "salvage-bench", dependencies: ["Salvage", "LegacyStore"],
      path: "Benchmarks/SalvageBench"),
    // Reads `log show` captures and reports the distribution of migration_outcome tags.
    .target(name: "OutcomeReport"),
    .target(
      name: "TestSupport",
      dependencies: [
        "SQLiteDB", "LegacyStore", "Telemetry", "StoreFixtures", "DittoRecoverCLI", "SafeFiles",
        "BackupCrypto",
      ]
    ),

    .testTarget(name: "SQLiteDBTests", dependencies: ["SQLiteDB", "TestSupport", "StoreFixtures"]),
    .testTarget(name: "LegacyStoreTests", dependencies: ["LegacyStore", "TestSupport"]),
    .testTarget(name: "DittoLibraryTests", dependencies: ["DittoLibrary", "TestSupport"]),
    .testTarget(
      name: "SalvageTests",
      dependencies: [
        "Salvage", "LegacyStore", "SQLiteDB", "SafeFiles", "StoreFixtures", "TestSupport",
      ]),
    .testTarget(name: "TelemetryTests", dependencies: ["Telemetry", "TestSupport"]),
    .testTarget(
      name: "LegacyMigrationTests",
      dependencies: [
        "LegacyMigration", "StoreFixtures", "TestSupport", "DittoRecoverCLI", "SQLiteDB",
        "SafeFiles", "Salvage", "BackupReader",
      ],
      exclude: ["Fixtures"]
    ),
    .testTarget(name: "BackupCryptoTests", dependencies: ["BackupCrypto"]),
    .testTarget(
      name: "BackupReaderTests",
      dependencies: ["BackupReader", "TestSupport", "StoreFixtures"],
      exclude: ["Fixtures"]
    ),
    .testTarget(
      name: "DittoRecoverCLITests",
      dependencies: [
        "DittoRecoverCLI", "TestSupport", "ditto-recover", "DittoLibrary", "Exchange",
        "LegacyStore",
        "StoreFixtures",
      ]),
    .testTarget(
      name: "HarnessTests",
      dependencies: [
        "TestSupport", "StoreFixtures", "DittoLibrary", "LegacyMigration", "LegacyStore",
        "SQLiteDB",
        "ditto-recover",
      ]),
    .testTarget(
      name: "OutcomeReportTests",
      dependencies: ["OutcomeReport"],
      exclude: ["Samples"]
    ),
  ]
)
