import LegacyMigration
import LibraryMerge

/// What `status` says about a container, worked out once: the survey (at salvage depth), the
/// completion flag as read, the library, the copies nearby. Its JSON value and its text are both
/// rendered from it, and only the one printed is built (``CommandOutput/result(_:text:exitCode:trailer:jsonStyle:)``).
struct StatusView {
  let survey: LegacySurvey
  let flag: Result<Bool, FlagStoreError>
  let library: LibraryStatus
  let target: ContainerOptions
  /// The command line as typed (the copies nearby are named with the same command on them).
  let invocation: [String]
  let nearby: NearbyCopies.Findings?

  /// The `--json` value.
  var value: StatusOutput {
    var output = StatusOutput(survey: survey, flag: flag, library: library, target: target)
    output.add(nearby: nearby, survey: survey, target: target, invocation: invocation)
    return output
  }

  /// The text.
  var text: String {
    StatusRendering.text(
      survey, flag: flag, library: library, target: target, invocation: invocation,
      nearby: nearby)
  }
}
