import ContainerFiles
import DittoStore
import LegacyMigration

/// The engine a command runs on its container options: the migrator, and the library as the tool
/// writes it.
enum EngineFactory {
  /// The migrator for this container: the library file as its destination, the container's App
  /// Group defaults plist as its flag store and legacy source, logging through the context.
  static func migrator(for options: ContainerOptions, context: ToolContext) -> LegacyDataMigrator {
    LegacyDataMigrator(
      layout: options.layout, destination: destination(options.libraryPath, context: context),
      defaults: AppGroupDefaults(path: options.layout.defaultsPath), logger: context.logger)
  }

  /// The library at `path` as the tool writes it, the import shown as a progress line on a
  /// terminal (dittos read of those the sources offer, how fast, how long is left).
  static func destination(_ path: String, context: ToolContext) -> DittoStoreDestination {
    let destination = DittoStoreDestination(
      path: path, locksExclusively: context.isLinkedLibrary(path))
    if context.showsProgress {
      let progress = ProgressLine("importing", totalBytes: 0, context: context)
      destination.observeProgress { merged in
        // Cleared once every ditto is read: the lines that follow are the run's own.
        if merged.read >= merged.offered {
          progress.finish()
        } else {
          progress.update(count: Int64(merged.read), of: Int64(merged.offered), "dittos")
        }
      }
    }
    return destination
  }
}
