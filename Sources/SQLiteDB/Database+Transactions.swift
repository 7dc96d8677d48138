/// How a transaction takes its locks.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
public enum TransactionKind: String, Sendable {
  /// Locks are taken on first use.
  case deferred = "DEFERRED"
  /// The write lock is taken at `BEGIN`, so contention shows up there and not halfway through.
  case immediate = "IMMEDIATE"
  /// Like `immediate`, and readers in other connections are also excluded in rollback-journal mode.
  case exclusive = "EXCLUSIVE"
}

/// What a transaction body asks for when it finishes without throwing.
public enum TransactionCompletion: Sendable {
  case commit
  case rollback
}

extension Database {
  /// Runs `body` inside a transaction: commits or rolls back as it answers, and rolls back if it throws.
  ///
  /// The first error is the one rethrown: a failed rollback after a failed body does not hide the cause.
  ///
  /// - Throws: the body's error, or ``SQLiteError`` from `BEGIN`/`COMMIT`.
  public func inTransaction(
    _ kind: TransactionKind = .immediate, _ body: () throws -> TransactionCompletion
  ) throws {
    try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
    let completion: TransactionCompletion
    do {
      completion = try body()
    } catch {
      rollbackIgnoringErrors()
      throw error
    }
    switch completion {
    case .commit:
      do {
        try execute(sql: "COMMIT TRANSACTION")
      } catch {
        rollbackIgnoringErrors()
        throw error
      }
    case .rollback:
      try execute(sql: "ROLLBACK TRANSACTION")
    }
  }

  private func rollbackIgnoringErrors() {
    // > If the transaction has already been rolled back automatically by the error response,
    // > then the ROLLBACK command will fail with an error, but no harm is caused by this.
    // > (https://www.sqlite.org/lang_transaction.html)
    guard isInsideTransaction else { return }
    do {
      try execute(sql: "ROLLBACK TRANSACTION")
    } catch {
      // The body's error is the one we report.
    }
  }
}
