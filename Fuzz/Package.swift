// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for DittoRecovery. A package of its own, so the main package's `swift build`
// and `swift test` never build them. Build and run with `scripts/fuzz` (see README.md); a plain
// `swift build` here builds uninstrumented binaries that libFuzzer cannot drive.
//
// One executable per fuzzer, `fuzz-<name>`, from `Sources/fuzz-<name>/main.swift`; its seed corpus
// is `corpus/<name>/`. To add one: write the main.swift and add a line to this table.
let fuzzers: [(name: String, modules: [String])] = [
  ("legacy-store", ["LegacyStore"]),
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
    "recovery-file", ["RecoveryFile", "LegacyMigration", "LibraryMerge", "Telemetry"]
  ),
  ("ditto-store", ["DittoStore", "LibraryMerge"]),
]

let package = Package(
  name: "DittoRecoveryFuzz",
  products: fuzzers.map { .executable(name: "fuzz-\($0.name)", targets: ["fuzz-\($0.name)"]) },
  dependencies: [.package(name: "DittoRecovery", path: "..")],
  targets: [
    // libFuzzer's LLVMFuzzerRunDriver; `-sanitize=fuzzer` links the library itself.
    .systemLibrary(name: "CLibFuzzer"),
    .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"]),
  ]
    + fuzzers.map { fuzzer in
      .executableTarget(
        name: "fuzz-\(fuzzer.name)",
        dependencies: ["FuzzSupport"]
          + fuzzer.modules.map { .product(name: $0, package: "DittoRecovery") })
    }
)
