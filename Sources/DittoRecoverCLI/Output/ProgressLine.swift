import Foundation

/// One updating line on standard error for work that takes more than about a second: what, how
/// far, how fast, how long is left. Shown only on a terminal and never with `--json`
/// (``ToolContext/showsProgress``), never on the results stream, and cleared when the work ends,
/// so that what a pipe receives is byte for byte the same with or without it.
final class ProgressLine: @unchecked Sendable {  // used from the thread that runs the work
  private let context: ToolContext
  private let what: String
  private var total: Int64
  private let started = Date()
  private var lastShown: Date?
  private var shown = false

  /// Progress of `what` over `total` bytes (0 when unknown).
  init(_ what: String, totalBytes: Int64, context: ToolContext) {
    self.context = context
    self.what = what
    total = totalBytes
  }

  /// `done` bytes of `total` (which became known as the work went) are done.
  func update(done: Int64, total: Int64) {
    self.total = total
    update(done: done)
  }

  /// `done` bytes of the total are done; the line is rewritten at most four times a second,
  /// and only once a second has passed.
  func update(done: Int64, detail: String = "") {
    guard let elapsed = due() else { return }
    let rate = Double(done) / max(elapsed, 0.001)
    var text = "\(what): \(Self.bytes(done))"
    if total > 0 {
      text += " of \(Self.bytes(total)) (\(min(100, done * 100 / max(total, 1)))%)"
    }
    text += ", \(Self.bytes(Int64(rate)))/s"
    if total > done, rate > 0 {
      text += ", about \(Self.duration(Double(total - done) / rate)) left"
    }
    if !detail.isEmpty { text += " \(detail)" }
    context.showProgress(text)
  }

  /// `count` items (`entries`) are done, with their rate; for work whose total is not known in
  /// bytes.
  func update(count: Int, of noun: String, detail: String = "") {
    guard let elapsed = due() else { return }
    let rate = Int(Double(count) / max(elapsed, 0.001))
    context.showProgress(
      "\(what): \(count) \(noun), \(rate) \(noun)/s\(detail.isEmpty ? "" : " " + detail)")
  }

  /// `count` of `total` items (`dittos`) are done: how far, how fast, how long is left.
  func update(count: Int64, of total: Int64, _ noun: String) {
    guard let elapsed = due() else { return }
    let rate = Double(count) / max(elapsed, 0.001)
    var text = "\(what): \(count) of \(total) \(noun)"
    if total > 0 { text += " (\(min(100, count * 100 / max(total, 1)))%)" }
    text += ", \(Int(rate)) \(noun)/s"
    if total > count, rate > 0 {
      text += ", about \(Self.duration(Double(total - count) / rate)) left"
    }
    context.showProgress(text)
  }

  /// Runs `body`, one call that cannot say how far it is (a key derivation slow by design, the
  /// manifest it unlocks), with the line showing `what` and how long it has run, redrawn from a
  /// timer four times a second (once a second has passed); cleared when `body` returns.
  static func whileRunning<Result>(
    _ what: String, context: ToolContext, _ body: () throws -> Result
  ) rethrows -> Result {
    guard context.showsProgress else { return try body() }
    let line = ProgressLine(what, totalBytes: 0, context: context)
    let queue = DispatchQueue(label: "ditto-recover.progress")
    let timer = DispatchSource.makeTimerSource(queue: queue)
    timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
    timer.setEventHandler { line.updateElapsed() }
    timer.resume()
    defer {
      timer.cancel()
      queue.sync {}  // a draw already under way ends before the line is cleared
      line.finish()
    }
    return try body()
  }

  /// The line as ``whileRunning(_:context:_:)`` draws it: what, and for how long so far.
  private func updateElapsed() {
    guard let elapsed = due() else { return }
    context.showProgress("\(what): \(Self.duration(elapsed)) so far")
  }

  /// The seconds since the work began, when the line is to be drawn now (a progress line is
  /// shown, a second has passed, and a quarter of one since it was last drawn); nil otherwise.
  private func due() -> Double? {
    guard context.showsProgress else { return nil }
    let now = Date()
    let elapsed = now.timeIntervalSince(started)
    guard elapsed >= 1, lastShown.map({ now.timeIntervalSince($0) >= 0.25 }) ?? true else {
      return nil
    }
    lastShown = now
    shown = true
    return elapsed
  }

  /// Clears the line (when one was shown).
  func finish() {
    if shown { context.clearProgress() }
    shown = false
  }

  static func bytes(_ count: Int64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var value = Double(count)
    var unit = 0
    while value >= 1000, unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
  }

  static func duration(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded(.up))
    return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
  }
}
