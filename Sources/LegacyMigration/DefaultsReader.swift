import LegacyStore
import LibraryMerge
import Salvage
import Telemetry

/// Reads the App Group defaults' legacy keys (small: held in memory).
struct DefaultsReader {
  let logger: EngineLogger

  /// The App Group defaults' legacy keys; nil when there are none.
  ///
  /// - Throws: ``DefaultsError/unreadable(file:reason:)`` when they cannot be read, and when legacy
  ///   keys are present but none holds a value of a usable type: data we could not read, never "no
  ///   data".
  func readDefaults(_ source: (any LegacyDefaultsSource)?) throws(DefaultsError)
    -> DefaultsLegacyContent?
  {
    guard let source, let values = try source.legacyValues() else { return nil }
    let content = DefaultsLegacyContent(values: values)
    if content.isEmpty, !content.problems.isEmpty {
      throw .unreadable(
        file: source.legacySourceName,
        reason: "legacy keys of an unexpected type: \(content.problems.joined(separator: ", "))")
    }
    for problem in content.problems {
      logger.info("defaults: ignored \(problem, privacy: .public): unexpected type")
    }
    return content
  }
}

extension MergeSource {
  /// The merge's view of categories read from a legacy source.
  init(kind: LegacySourceReport.Kind, categories: [LegacyCategory]) {
    self.init(
      kind: kind.rawValue,
      categories: categories.map { category in
        MergeCategory(
          title: category.title,
          dittos: category.dittos.map { MergeDitto(text: $0.text, useCount: $0.useCount) })
      })
  }
}
