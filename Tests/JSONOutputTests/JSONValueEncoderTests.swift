import JSONOutput
import Testing

/// The tool's outputs are values encoded once: nil written as null unless declared omitted, keys
/// sorted, integers as integers, nested arrays and objects kept.
@Suite struct JSONValueEncoderTests {
  struct Inner: Encodable {
    let name: String
    let rows: Int?
  }

  struct Output: Encodable {
    let count: Int64
    let ratio: Double
    let flag: Bool
    let absent: String?
    let grid: [[Int]]
    let inners: [Inner]
    @OmittedWhenNil var hidden: String? = nil
    @OmittedWhenNil var shown: [String]? = nil
    @OmittedWhenNil var nullable: String?? = nil
  }

  @Test func valuesBecomeTheSameTreeAsBuiltByHand() throws {
    var output = Output(
      count: 3, ratio: 0.5, flag: true, absent: nil, grid: [[1, 2], [], [3]],
      inners: [Inner(name: "a/b", rows: nil), Inner(name: "c", rows: 2)])
    output.shown = ["x"]
    output.nullable = .some(nil)
    let expected: JSONValue = .object([
      "count": 3, "ratio": .double(0.5), "flag": true, "absent": .null,
      "grid": .array([.array([1, 2]), .array([]), .array([3])]),
      "inners": .array([
        .object(["name": "a/b", "rows": .null]), .object(["name": "c", "rows": 2]),
      ]),
      "shown": .array(["x"]), "nullable": .null,
    ])
    #expect(try JSONValueEncoder().encode(output) == expected)
    // Rendered: sorted keys, slashes as they are.
    let text = JSONValue(encoding: output).rendered()
    #expect(text.contains("\"name\": \"a/b\""))
    #expect(!text.contains("hidden"))
    #expect(
      text.firstRange(of: "\"absent\"")!.lowerBound < text.firstRange(of: "\"count\"")!.lowerBound)
  }
}
