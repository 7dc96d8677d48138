import BackupReader
import LegacyMigration

/// What `backup list` says, worked out once: each backup with what the survey of its rebuilt
/// Ditto files finds, the newest one holding a store (and the unreadable newer ones it depends
/// on), and the next steps. Its JSON value and its text are both rendered from it, and only the
/// one printed is built.
struct BackupListView {
  let summaries: [BackupSummary]
  /// What each backup's Ditto files hold, in the order of ``summaries`` (nil: none to survey).
  let surveys: [LegacySurvey?]
  let newest: BackupSummary?
  /// The backups newer than ``newest`` that could not be read.
  let undecided: [BackupSummary]
  let next: [NextStep]

  /// The `--json` value.
  var value: BackupListOutput {
    let backups = zip(summaries, surveys).map { summary, survey in
      BackupRendering.listOutput(
        summary, recoverable: survey.map(StatusRendering.Recoverable.init))
    }
    return BackupListOutput(
      backups: backups, newestWithDittoStore: newest?.backup.path,
      newestDependsOn: undecided.map(\.backup.path),
      next: next.commands.isEmpty ? nil : next.commands,
      notes: next.notes.isEmpty ? nil : next.notes)
  }

  /// The text.
  var text: String {
    BackupRendering.listText(summaries, newest: newest, undecided: undecided) { index in
      surveys[index].map(StatusRendering.headline)
    }
  }
}
