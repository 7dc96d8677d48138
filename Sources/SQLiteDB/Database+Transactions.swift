/// How a transaction takes its locks.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_transaction.html>
package enum TransactionKind: String, Sendable {
  /// Locks are taken on first use.
  case deferred = "DEFERRED"
  /// The write lock is taken at `BEGIN`, so contention shows up there and not halfway through.
  case immediate = "IMMEDIATE"
  /// Like `immediate`, and readers in other connections are also excluded in rollback-journal mode.
  case exclusive = "EXCLUSIVE"
}

/// What a transaction body asks for when it finishes without throwing.
package enum TransactionCompletion: Sendable {
  case commit
  case rollback
}

/// What a transaction body gives back: its value, with what it wrote committed or rolled back.
package struct TransactionResult<Value> {
  /// The body's value, returned by the transaction.
  package let value: Value
  /// Whether what the body wrote is kept.
  package let completion: TransactionCompletion

  /// Keeps what the body wrote and returns `value`.
  package static func commit(_ value: Value) -> TransactionResult { .init(value, .commit) }
  /// Undoes what the body wrote and returns `value`.
  package static func rollback(_ value: Value) -> TransactionResult { .init(value, .rollback) }

  private init(_ value: Value, _ completion: TransactionCompletion) {
    self.value = value
    self.completion = completion
  }
}

extension Database {
  /// Runs `body` in a transaction and returns its value: committed when it returns, rolled back
  /// when it throws (as GRDB's `DatabaseWriter.write`).
  ///
  /// - Throws: the body's error, or ``SQLiteError`` from `BEGIN`/`COMMIT`.
  package func write<Value>(
    _ kind: TransactionKind = .immediate, _ body: () throws(SQLiteError) -> Value
  ) throws(SQLiteError) -> Value {
    try write(kind, mapError: { $0 }, body)
  }

  /// Runs `body` in a transaction and returns its value: committed when it returns, rolled back
  /// when it throws.
  ///
  /// - Parameter mapError: turns an error of `BEGIN` or `COMMIT` into the body's error type.
  /// - Throws: the body's error, or `BEGIN`/`COMMIT`'s error through `mapError`.
  package func write<Value, Failure: Error>(
    _ kind: TransactionKind = .immediate, mapError: (SQLiteError) -> Failure,
    _ body: () throws(Failure) -> Value
  ) throws(Failure) -> Value {
    try inTransaction(kind, mapError: mapError) { () throws(Failure) in .commit(try body()) }
  }

  /// Runs `body` in a transaction: commits or rolls back as its result says, rolls back if it
  /// throws, and returns its value.
  ///
  /// The first error is the one rethrown: a failed rollback after a failed body does not hide the
  /// cause.
  ///
  /// - Parameter mapError: turns an error of `BEGIN`, `COMMIT` or `ROLLBACK` into the body's error
  ///   type.
  /// - Throws: the body's error, or `BEGIN`/`COMMIT`'s error through `mapError`.
  package func inTransaction<Value, Failure: Error>(
    _ kind: TransactionKind = .immediate, mapError: (SQLiteError) -> Failure,
    _ body: () throws(Failure) -> TransactionResult<Value>
  ) throws(Failure) -> Value {
    do {
      try execute(sql: "BEGIN \(kind.rawValue) TRANSACTION")
    } catch {
      throw mapError(error)
    }
    let result: TransactionResult<Value>
    do {
      result = try body()
    } catch {
      rollbackIgnoringErrors()
      throw error
    }
    do {
      switch result.completion {
      case .commit: try execute(sql: "COMMIT TRANSACTION")
      case .rollback: try execute(sql: "ROLLBACK TRANSACTION")
      }
    } catch {
      rollbackIgnoringErrors()
      throw mapError(error)
    }
    return result.value
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
