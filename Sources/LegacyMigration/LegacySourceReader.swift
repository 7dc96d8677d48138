import LegacyStore
import LibraryMerge
import Salvage
import Telemetry

/// Reads every legacy source of an attempt in full, before anything is planned or written, so a
/// read error is always a ``LegacyStoreError`` (or ``DefaultsError``) and never a library's.
struct LegacySourceReader {
  let logger: EngineLogger

  /// A store read in full.
  struct StoreRead {
    var candidate: LegacyCandidate
    var library: LegacyLibrary
  }

  /// Reads the first of `candidates` (in preference order) that SQLite can read; returns it with
  /// the first error met, or only the errors when none could be read.
  func readFirstReadable(_ candidates: [LegacyCandidate], chosen: LegacyCandidate?) -> (
    StoreRead?, [LegacyStoreError]
  ) {
    var errors: [LegacyStoreError] = []
    for candidate in candidates {
      if candidate != chosen {
        logger.info(
          "legacyStoreURL: falling back to \(candidate.path, privacy: .public) (\(candidate.bytes) bytes)"
        )
      }
      do {
        let library = try LegacyStoreReader.read(path: candidate.path)
        return (StoreRead(candidate: candidate, library: library), errors)
      } catch {
        logger.warning("legacyStoreURL: cannot read \(error.description, privacy: .public)")
        errors.append(error)
      }
    }
    return (nil, errors)
  }

  /// Reads a file the user picked (a `.dittorecovery` file or a 2.x store) in full.
  ///
  /// - Throws: ``LegacyStoreError`` naming the file and the reason.
  func readFile(_ path: String) throws(LegacyStoreError) -> LegacyLibrary {
    try LegacyStoreReader.read(path: path)
  }

  /// Rebuilds dittos from the bytes of the first of `candidates` that salvage decodes into at least
  /// one ditto (stores SQLite could not open, lone `-wal` files); nil when none does.
  func salvage(_ candidates: [LegacyCandidate]) -> StoreRead? {
    for candidate in candidates {
      do {
        let result = try Salvager.salvage(path: candidate.path, options: SalvageOptions())
        logger.info(
          "salvage: \(candidate.path, privacy: .public): \(result.library.dittoCount) dittos rebuilt from \(result.sources.map { "\($0.kind.rawValue) \($0.pages) pages" }.joined(separator: ", "), privacy: .public)"
        )
        // Rows rebuilt, or nothing: an unreadable store that salvage finds empty stays unreadable
        // ("could not read" never becomes "empty").
        if result.library.dittoCount > 0 {
          return StoreRead(candidate: candidate, library: result.library)
        }
      } catch {
        logger.warning("salvage: \(error.description, privacy: .public)")
      }
    }
    return nil
  }

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
      logger.warning("defaults: ignored \(problem, privacy: .public): unexpected type")
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
