import EngineTestSupport
import Foundation
import Testing

@testable import DittoRecoverCLI

/// Where the guide looks for backups under WSL: every Windows user's iTunes and Microsoft Store
/// folders; none when there is no Windows users folder.
@Suite struct GuideBackupFoldersTests {
  @Test func windowsUsersAreLookedAtAndAnUnlistableUsersFolderIsNamed() throws {
    let folder = try TemporaryDirectory("guide-folders")
    let users = folder.appending("Users")
    for user in ["Ana", "Bo"] {
      try FileManager.default.createDirectory(
        atPath: users + "/" + user, withIntermediateDirectories: true)
    }
    let listed = GuideCommand.backupFolders(home: folder.path, windowsUsers: users)
    #expect(listed.count == 5)
    #expect(listed.contains(users + "/Bo/AppData/Roaming/Apple Computer/MobileSync/Backup"))
    #expect(listed.contains(users + "/Ana/Apple/MobileSync/Backup"))
    // Not WSL: nothing more than the Mac's folder.
    #expect(GuideCommand.backupFolders(home: folder.path, windowsUsers: users + "-none").count == 1)
    // (A users folder that is there but cannot be listed is looked at and named as not
    // readable; the tests run as root, which lists any folder, so that case is not built here.)
  }
}
