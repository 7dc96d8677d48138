/// Encodes an `Encodable` value as a ``JSONValue`` (then rendered by ``JSONValue/rendered(indent:)``:
/// keys sorted, no escaped slashes, the same bytes on every platform).
///
/// An optional that is nil is written as `null` (synthesized `Encodable` would leave its key out):
/// the tool's outputs name every key of their contract. A key that a contract leaves out when it has
/// no value is declared ``OmittedWhenNil``.
package struct JSONValueEncoder {
  package init() {}

  /// The value as a JSON value tree.
  package func encode(_ value: some Encodable) throws -> JSONValue {
    let box = Node()
    try value.encode(to: TreeEncoder(node: box, codingPath: []))
    return box.resolved
  }
}

extension JSONValue {
  /// `value` encoded by ``JSONValueEncoder``. A value of this package's own output types cannot
  /// fail to encode (strings, integers, booleans, arrays and structs only): a failure is a
  /// programming error.
  package init(encoding value: some Encodable) {
    do {
      self = try JSONValueEncoder().encode(value)
    } catch {
      preconditionFailure("an output value failed to encode: \(error)")
    }
  }
}

/// A value whose key is left out of its JSON object when it is nil (a plain optional is written as
/// `null`).
@propertyWrapper
package struct OmittedWhenNil<Value: Encodable>: Encodable {
  package var wrappedValue: Value?

  package init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

  package func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}

extension KeyedEncodingContainer {
  /// Leaves the key out when the value is nil (the synthesized `encode(to:)` calls this overload).
  package mutating func encode<Value>(_ value: OmittedWhenNil<Value>, forKey key: Key) throws {
    if let wrapped = value.wrappedValue { try encode(wrapped, forKey: key) }
  }
}

/// The slot a container writes into: a value, or an object or array filled in place.
private final class Node {
  var value: JSONValue = .null
  var members: [String: Node]?
  var items: [Node]?

  var resolved: JSONValue {
    if let members { return .object(members.mapValues(\.resolved)) }
    if let items { return .array(items.map(\.resolved)) }
    return value
  }
}

private struct TreeEncoder: Encoder {
  let node: Node
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if node.members == nil { node.members = [:] }
    return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if node.items == nil { node.items = [] }
    return UnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(node: node, codingPath: codingPath)
  }
}

/// Turns a leaf value into a JSON value, or encodes a nested value into a fresh node.
private func encoded(_ value: some Encodable, codingPath: [any CodingKey]) throws -> Node {
  let node = Node()
  switch value {
  case let text as String: node.value = .string(text)
  case let flag as Bool: node.value = .bool(flag)
  case let number as any BinaryInteger: node.value = .int(Int64(clamping: number))
  case let number as Double: node.value = .double(number)
  default: try value.encode(to: TreeEncoder(node: node, codingPath: codingPath))
  }
  return node
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: Node
  let codingPath: [any CodingKey]

  private func set(_ child: Node, _ key: Key) { node.members?[key.stringValue] = child }

  mutating func encodeNil(forKey key: Key) throws { set(Node(), key) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    set(try encoded(value, codingPath: codingPath + [key]), key)
  }

  // Absent optionals are written as null (see `JSONValueEncoder`).
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let child = Node()
    child.members = [:]
    set(child, key)
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(node: child, codingPath: codingPath + [key]))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let child = Node()
    child.items = []
    set(child, key)
    return UnkeyedContainer(node: child, codingPath: codingPath + [key])
  }

  mutating func superEncoder() -> any Encoder {
    TreeEncoder(node: node, codingPath: codingPath)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    let child = Node()
    set(child, key)
    return TreeEncoder(node: child, codingPath: codingPath + [key])
  }
}

private struct IndexKey: CodingKey {
  var stringValue: String { String(intValue ?? 0) }
  var intValue: Int?
  init(_ index: Int) { intValue = index }
  init?(stringValue: String) { nil }
  init?(intValue: Int) { self.intValue = intValue }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]
  var count: Int { node.items?.count ?? 0 }

  mutating func encodeNil() throws { node.items?.append(Node()) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    // The child first: `count` reads the items the append modifies.
    let child = try encoded(value, codingPath: codingPath + [IndexKey(count)])
    node.items?.append(child)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    let child = Node()
    child.members = [:]
    let path = codingPath + [IndexKey(count)]
    node.items?.append(child)
    return KeyedEncodingContainer(KeyedContainer<NestedKey>(node: child, codingPath: path))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let child = Node()
    child.items = []
    let path = codingPath + [IndexKey(count)]
    node.items?.append(child)
    return UnkeyedContainer(node: child, codingPath: path)
  }

  mutating func superEncoder() -> any Encoder {
    let child = Node()
    let path = codingPath + [IndexKey(count)]
    node.items?.append(child)
    return TreeEncoder(node: child, codingPath: path)
  }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  let node: Node
  let codingPath: [any CodingKey]

  mutating func encodeNil() throws { node.value = .null }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let child = try encoded(value, codingPath: codingPath)
    node.value = child.value
    node.members = child.members
    node.items = child.items
  }
}
