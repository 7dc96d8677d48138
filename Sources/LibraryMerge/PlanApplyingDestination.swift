/// A destination that holds its library in memory, as the app's `ModelContext` does: for each
/// import it opens one ``LibraryHold`` (one fetch), the engine plans against what the hold read, and
/// the hold applies the finished plan in one save.
///
/// The destination itself is a `Sendable` value (for SwiftData: the `ModelContainer`); the hold is
/// the one import's state (a `ModelContext` made on the import's task, the objects it fetched) and
/// never leaves that task.
///
/// ```swift
/// struct SwiftDataDestination: PlanApplyingDestination {
///   let container: ModelContainer
///   func holdLibrary() throws(DestinationError) -> SwiftDataImport {      // one fetch
///     try SwiftDataImport(context: ModelContext(container))
///   }
/// }
/// final class SwiftDataImport: LibraryHold {
///   let library: CurrentLibrary
///   func apply(_ plan: ImportPlan) throws(DestinationError) { … }         // one save()
/// }
/// ```
public protocol PlanApplyingDestination: Sendable {
  /// One import's hold on the library.
  associatedtype Hold: LibraryHold

  /// Reads the library for one import (one fetch) and returns the hold the plan is applied through.
  ///
  /// - Throws: ``DestinationError`` when the library cannot be read.
  func holdLibrary() throws(DestinationError) -> Hold

  /// Facts the report carries about this library (none by default).
  var libraryFacts: LibraryFacts { get }
}

/// One import's hold on an in-memory library: the library as read, and one atomic apply.
public protocol LibraryHold {
  /// The library as the app shows it, texts included; its category handles are the ones
  /// ``apply(_:)`` receives back in the plan.
  var library: CurrentLibrary { get }

  /// Inserts everything `plan` holds (made against ``library``) in one save: all of it or nothing.
  /// Never called with an empty plan.
  ///
  /// - Throws: ``DestinationError``; the library is then as it was.
  func apply(_ plan: ImportPlan) throws(DestinationError)
}

extension PlanApplyingDestination {
  public var libraryFacts: LibraryFacts { LibraryFacts() }

  package func outline() throws(DestinationError) -> LibraryOutline {
    try holdLibrary().library.outline
  }

  package func applyImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    let (hold, session) = try makeSession()
    let result = try body(session)
    guard !session.plan.isEmpty else { return result }
    // The last moment a cancelled task can stop the import: nothing has been written yet.
    if Task.isCancelled { throw .cancelled }
    do {
      try hold.apply(session.plan)
    } catch {
      throw .library(error)
    }
    return result
  }

  package func previewImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    try body(try makeSession().session)
  }

  private func makeSession() throws(ImportFailure) -> (hold: Hold, session: PlanSession) {
    do {
      let hold = try holdLibrary()
      return (hold, PlanSession(library: hold.library, facts: libraryFacts))
    } catch {
      throw .library(error)
    }
  }
}

/// The engine's view of an app's ``PlanApplyingDestination``: one fetch, a plan, one save.
package struct PlanApplyingAdapter<Destination: PlanApplyingDestination>: MigrationDestination {
  package let destination: Destination

  package init(_ destination: Destination) { self.destination = destination }

  package func outline() throws(DestinationError) -> LibraryOutline {
    try destination.outline()
  }

  package func applyImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    try destination.applyImport(body)
  }

  package func previewImport<Result>(_ body: (any ImportSession) throws(ImportFailure) -> Result)
    throws(ImportFailure) -> Result
  {
    try destination.previewImport(body)
  }
}
