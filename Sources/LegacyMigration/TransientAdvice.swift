import LegacyStore

extension TransientReason {
  /// What the person holding the iPhone can do, in words they understand: the end of the detail of
  /// `RecoveryResult.foundButUnreadable` for a transient failure.
  public var deviceAdvice: String {
    switch self {
    case .permission:
      "Your old dittos are protected until this iPhone is unlocked: unlock it and try again"
    case .locked:
      "The file could not be read right now (on an iPhone, usually because it is still locked): unlock it and try again"
    case .busy:
      "Another part of Ditto is using the file: try again in a moment"
    case .noSpace:
      "There is not enough free storage to read it safely: free some space (Settings › General › iPhone Storage) and try again"
    case .changing:
      "The file was being changed while it was read: try again in a moment"
    case .defaults:
      "Ditto's shared settings could not be read right now (on an iPhone, usually because it is still locked): unlock it and try again"
    case .notAFile:
      "What has the data file's name is a link or a folder, not the file itself, so it was not opened"
    }
  }
}
