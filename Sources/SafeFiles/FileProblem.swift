/// What went wrong with one file, its name and its reason apart: a message says
/// `<file>: <reason>`, and whoever prints it names the file as it shows it (a file rebuilt from a
/// backup by its place in the backup, a file read in a folder built before it was published by
/// the folder's final name), with no search through rendered text.
package struct FileProblem: Sendable, Equatable, NamingFiles {
  /// The file, as the reader opened it.
  package let file: String
  /// Why, without the file's name.
  package let reason: String

  package init(file: String, reason: String) {
    self.file = file
    self.reason = reason
  }

  /// `<file as shown>: <reason>`.
  package func described(naming shown: (String) -> String) -> String {
    shown(file) + ": " + reason
  }
}
