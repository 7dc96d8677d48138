import SafeFiles

/// The wrong kind of input, named with the command that fits it (``InputKind``).
enum WrongKind {
  /// A path given as a backup that is something else; nil when it is nothing we know.
  static func forBackup(_ path: String) -> InputError? {
    let kind = InputKind.of(path)
    switch kind {
    case .container, .xcappdata:
      return InputError(
        "\(ArgumentSpelling.shown(path: path)) is \(kind.description), not a Finder/iTunes backup",
        next: [.command(.status(container: path))])
    case .ditto2Store:
      return InputError(
        "\(ArgumentSpelling.shown(path: path)) is \(kind.description), not a Finder/iTunes backup",
        next: [
          .export(
            .export(legacy: path, format: "csv"), into: "dittos.csv")
        ])
    case .recoveryFile:
      return InputError(
        "\(ArgumentSpelling.shown(path: path)) is \(kind.description), not a Finder/iTunes backup",
        next: [.command(.status(from: path))])
    case .ditto3Library:
      return InputError(
        "\(ArgumentSpelling.shown(path: path)) is \(kind.description), not a Finder/iTunes backup",
        next: [
          .export(
            .export(library: path, format: "csv"), into: "dittos.csv")
        ])
    case .backup, .unknown:
      return nil
    }
  }

  /// A path given as `--container` that is something else; nil when it is a folder we do not
  /// recognise (it is probed as it is).
  static func forContainer(_ path: String) -> InputError? {
    let kind = InputKind.of(path)
    let what =
      "--container \(ArgumentSpelling.shown(path: path)) is \(kind.description), not a copied App Group container"
    switch kind {
    case .backup:
      return InputError(
        what,
        next: [.command(Invocation(BackupRecoverCommand.self).with(BackupCommand.backup, path))])
    case .ditto2Store:
      return InputError(
        what,
        next: [
          .export(
            .export(legacy: path, format: "csv"), into: "dittos.csv"),
          .command(
            .status(container: PrivateDirectory.parent(of: path)),
            label: "or the folder holding it"),
        ])
    case .recoveryFile:
      return InputError(what, next: [.command(.status(from: path))])
    case .ditto3Library:
      return InputError(
        what,
        next: [
          .command(
            .status(container: PrivateDirectory.parent(of: path)),
            label: "the folder holding it")
        ])
    case .container, .xcappdata, .unknown:
      return nil
    }
  }

  /// A file given as a 2.x store (`--legacy`) that is the 3.x library.
  static func forLegacy(_ path: String, format: String) -> DataError? {
    guard InputKind.of(path) == .ditto3Library else { return nil }
    return DataError(
      "--legacy \(ArgumentSpelling.shown(path: path)) is a Ditto 3.x library (Ditto.store), not a Ditto 2.x store",
      next: [.command(.export(library: path, format: format))])
  }

  /// A file given as the 3.x library (`--library`) that is a 2.x store or a recovery file.
  static func forLibrary(_ path: String, format: String) -> DataError? {
    let kind = InputKind.of(path)
    guard kind == .ditto2Store || kind == .recoveryFile else { return nil }
    return DataError(
      "--library \(ArgumentSpelling.shown(path: path)) is \(kind.description), not the Ditto 3.x library",
      next: [.command(.export(legacy: path, format: format))])
  }
}
