/// A message that names files, kept as values until it is printed: whoever prints it passes how
/// it shows a path (the tool names an argument it reached through a stand-in by the bytes the
/// user typed), and no printed text is searched for a path afterwards.
package protocol NamingFiles: CustomStringConvertible {
  /// The words, each file named by `naming`.
  func described(naming: (String) -> String) -> String
}

extension NamingFiles {
  /// The words, each file named as it was given.
  package var description: String { described(naming: { $0 }) }
}
