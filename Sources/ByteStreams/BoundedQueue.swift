import Foundation

/// A first-in first-out queue between one producer thread and one consumer thread, bounded: a
/// push waits while ``capacity`` elements wait, so memory stays flat however far the producer
/// could run ahead. The consumer may cancel (the producer's next push then returns false); the
/// producer closes it when done, with the failure that stopped it early, if any.
package final class BoundedQueue<Element, Failure: Error>: @unchecked Sendable {
  // Every field under `condition`.
  private let condition = NSCondition()
  private let capacity: Int
  private var elements: [Element] = []
  private var head = 0
  private var closed = false
  private var cancelled = false
  private var storedFailure: Failure?

  /// A queue holding at most `capacity` elements at a time.
  package init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// Waits for room, then adds `element`; false when the consumer cancelled (nothing is added).
  package func push(_ element: Element) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while elements.count - head >= capacity, !cancelled { condition.wait() }
    guard !cancelled else { return false }
    elements.append(element)
    condition.broadcast()
    return true
  }

  /// The next element, waiting for one; nil once the producer closed the queue and it is empty.
  package func pop() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while head == elements.count, !closed { condition.wait() }
    guard head < elements.count else { return nil }
    let element = elements[head]
    head += 1
    if head > capacity {
      elements.removeFirst(head)
      head = 0
    }
    condition.broadcast()
    return element
  }

  /// The producer is done (`failure`: why it stopped early).
  package func close(failure: Failure? = nil) {
    condition.lock()
    closed = true
    storedFailure = failure
    condition.broadcast()
    condition.unlock()
  }

  /// The consumer stopped: the producer's next push returns false.
  package func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }

  /// True once the consumer cancelled.
  package var isCancelled: Bool {
    condition.lock()
    defer { condition.unlock() }
    return cancelled
  }

  /// Why the producer stopped early, once it closed the queue.
  package var failure: Failure? {
    condition.lock()
    defer { condition.unlock() }
    return storedFailure
  }
}
