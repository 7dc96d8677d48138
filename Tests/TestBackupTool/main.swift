import EngineTestSupport
// A test-only maker of a Finder/iTunes backup of a device with Ditto 2.x data (DittoBackupFixture),
// for the release test (scripts/release-test), which runs the shipped binary on it.
//
//   test-backup-tool <backup folder to create> [<password>]   (with a password: encrypted)
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count == 2 || arguments.count == 3 else {
  FileHandle.standardError.write(
    Data("usage: test-backup-tool <backup folder> [<password>]\n".utf8))
  exit(64)
}
do {
  try DittoBackupFixture.build(
    at: arguments[1], date: Date(timeIntervalSince1970: 1_700_000_000),
    encryption: arguments.count == 3 ? BackupEncryption(password: arguments[2]) : nil,
    library: nil)
} catch {
  FileHandle.standardError.write(Data("test-backup-tool: \(error)\n".utf8))
  exit(1)
}
