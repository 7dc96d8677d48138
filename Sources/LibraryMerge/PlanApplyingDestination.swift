/// A destination that holds its library in memory, as the app's `ModelContext` does: it hands over
/// the library with its texts and applies a finished plan in one save. The import streams into a
/// ``PlanSession`` and the plan is applied once, at the end.
///
/// ```swift
/// final class SwiftDataDestination: PlanApplyingDestination {
///   func currentLibrary() throws(DestinationError) -> CurrentLibrary { … }       // one fetch
///   func apply(_ plan: ImportPlan, to library: CurrentLibrary) throws(DestinationError) { … }  // one save()
/// }
/// ```
public protocol PlanApplyingDestination: MigrationDestination {
  /// The library as the app shows it, texts included; its category handles are the ones
  /// ``apply(_:to:)`` receives back.
  ///
  /// - Throws: ``DestinationError`` when the library cannot be read.
  func currentLibrary() throws(DestinationError) -> CurrentLibrary

  /// Inserts everything `plan` holds (made against `library`, just read) in one save: all of it or
  /// nothing. Never called with an empty plan.
  ///
  /// - Throws: ``DestinationError``; the library is then as it was.
  func apply(_ plan: ImportPlan, to library: CurrentLibrary) throws(DestinationError)

  /// Facts the report carries about this library (none by default).
  var libraryFacts: LibraryFacts { get }
}

extension PlanApplyingDestination {
  public var libraryFacts: LibraryFacts { LibraryFacts() }

  public func outline() throws(DestinationError) -> LibraryOutline { try currentLibrary().outline }

  public func applyImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    let session = try makeSession()
    let result = try body(session)
    guard !session.plan.isEmpty else { return result }
    do {
      try apply(session.plan, to: session.library)
    } catch {
      throw .library(error)
    }
    return result
  }

  public func previewImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    try body(try makeSession())
  }

  private func makeSession() throws(ImportFailure) -> PlanSession {
    do {
      return PlanSession(library: try currentLibrary(), facts: libraryFacts)
    } catch {
      throw .library(error)
    }
  }
}
