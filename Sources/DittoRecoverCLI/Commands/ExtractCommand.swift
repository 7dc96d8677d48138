import Foundation
import LegacyMigration
import RecoveryFile
import SafeFiles

/// `ditto-recover extract`: everything recoverable in a container, as one `.dittorecovery` file.
struct ExtractCommand: Command {
  static let name = "extract"
  static let abstract = "Write everything recoverable in a container into one recovery file."
  static let discussion: String? = """
    Reads the chosen 2.x store (its -wal applied), the App Group defaults' 1.x list and keyboard
    additions (and, with --salvage, what salvage rebuilds) on private copies, merges them as a recovery
    into an empty library would, and writes the result as a standalone file in the 2.x store layout
    that Ditto opens ('Recover from file') and 'recover --from' reads. The container is only read; an
    existing file is never overwritten (exit 73). Exits 65 when nothing readable was found.
    """
  @Argument(
    group: [ContainerOptions.container.spec, ContainerOptions.home.spec], ContainerOptions.init)
  var target: ContainerOptions
  @Argument(RecoveryFileOutput.out) var out: String?
  @Argument(RecoveryFileOutput.salvage) var salvage: Bool
  @Argument(RecoveryFileOutput.includeNeverCommitted) var includesNeverCommitted: Bool

  func run(_ context: ToolContext) throws -> CommandOutput {
    try ContainerPreflight(target).validate(context)
    // The folder's survey, salvage included: what salvage would add is read from it.
    let here = try ContainerPreflight(target).requireNoBetterCopy(context, stopsWhenFewer: false)
    let layout = target.layout
    let now = Date()
    let out = self.out ?? RecoveryRendering.defaultOutput(for: now)
    try RecoveryFileOutput.requireOutside(
      out, inputs: [layout.container] + (layout.home.map { [$0] } ?? []))
    let extraction = RecoveryExtraction(
      layout: layout, includesSalvage: salvage || includesNeverCommitted,
      includesNeverCommitted: includesNeverCommitted, logger: context.logger)
    var info = RecoveryFileInfo(origin: .container, createdAt: now, toolVersion: Tool.version)
    info.container = ArgumentSpelling.shown(path: OutputFolder.resolved(layout.container))
    return try RecoveryFileOutput.finish(
      extraction, info: info, out: out, source: ContainerMember(container: layout.container),
      context: context, surveyed: here)
  }
}
