import EngineTestSupport
import Foundation
import TestSupport
import Testing

/// `completion bash|zsh|fish`, made from the commands' own declarations; the bash script is
/// sourced in bash and asked what it completes.
@Suite struct CompletionTests {
  /// What the bash script offers after `words` (the last one being completed).
  func bashCompletes(_ words: [String]) throws -> [String] {
    let folder = try TemporaryDirectory("completion")
    let script = ToolRunner.run(["completion", "bash"])
    #expect(script.exitCode == 0)
    try script.standardOutput.write(
      toFile: folder.appending("ditto-recover.bash"), atomically: true, encoding: .utf8)
    let array = words.map(shellQuoted).joined(separator: " ")
    let run = try ToolRun.shell(
      """
      bash -c 'source ditto-recover.bash
      COMP_WORDS=(\(array.replacingOccurrences(of: "'", with: "'\\''")))
      COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
      _ditto_recover
      printf "%s\\n" "${COMPREPLY[@]}"'
      """, in: folder.path)
    #expect(run.exitCode == 0, "\(run.standardError)")
    return run.standardOutput.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsOptionsAndTheirValues() throws {
    #expect(try bashCompletes(["ditto-recover", "ba"]) == ["backup"])
    #expect(try bashCompletes(["ditto-recover", "export", "--format", ""]) == ["json", "csv"])
    #expect(try bashCompletes(["ditto-recover", "outcomes", "--unit", ""]) == ["device", "tag"])
    #expect(try bashCompletes(["ditto-recover", "backup", ""]) == ["list", "recover", "extract"])
    #expect(
      try bashCompletes(["ditto-recover", "backup", "list", "--pass"]) == ["--password-file"])
    #expect(try bashCompletes(["ditto-recover", "completion", ""]) == ["bash", "zsh", "fish"])
    let migrate = try bashCompletes(["ditto-recover", "migrate", "--"])
    #expect(migrate.contains("--container") && migrate.contains("--json"))
  }

  @Test func zshAndFishScriptsCarryTheSameDeclarations() {
    let fish = ToolRunner.run(["completion", "fish"])
    #expect(fish.exitCode == 0)
    #expect(fish.standardOutput.contains("-l format -x -a 'json csv'"))
    #expect(fish.standardOutput.contains("-a backup -d"))
    let zsh = ToolRunner.run(["completion", "zsh"])
    #expect(zsh.standardOutput.hasPrefix("#compdef ditto-recover"))
    #expect(zsh.standardOutput.contains("bashcompinit"))
    #expect(ToolRunner.run(["completion", "tcsh"]).exitCode == 64)
  }
}
