import Testing

@testable import DittoRecoverCLI

/// How the tool prints what a command returns: once, text or JSON as decided for the run (only
/// the one printed is built), the trailer after the result.
@Suite struct CommandOutputPrintingTests {
  struct Value: Encodable {
    let file: String
    let count: Int
  }

  func printed(_ output: CommandOutput, json: Bool) throws -> (
    out: String, err: String, code: ExitCode
  ) {
    let (out, err) = (BufferOutput(), BufferOutput())
    let code = try output.print(to: out, errors: err, isJSON: json)
    return (out.text, err.text, code)
  }

  @Test func aResultIsItsTextOrItsValueNeverBoth() throws {
    let output = CommandOutput.result(
      Value(file: "/built/a", count: 2), text: "text /built/a\n", exitCode: .dataError,
      trailer: ["next: again"])
    let text = try printed(output, json: false)
    #expect(text.out == "text /built/a\n")
    #expect(text.err == "next: again\n")
    #expect(text.code == .dataError)
    let json = try printed(output, json: true)
    #expect(json.out == "{\n  \"count\": 2,\n  \"file\": \"/built/a\"\n}\n")
    #expect(json.err == "next: again\n")
  }

  /// Counts what was built.
  final class Built {
    var values = 0
    var texts = 0
  }

  @Test func onlyTheFormPrintedIsBuilt() throws {
    for json in [false, true] {
      let built = Built()
      func value() -> Value {
        built.values += 1
        return Value(file: "/a", count: 1)
      }
      func text() -> String {
        built.texts += 1
        return "text\n"
      }
      let printed = try printed(.result(value(), text: text()), json: json)
      #expect(printed.out == (json ? "{\n  \"count\": 1,\n  \"file\": \"/a\"\n}\n" : "text\n"))
      #expect(built.values == (json ? 1 : 0))
      #expect(built.texts == (json ? 0 : 1))
    }
  }

  @Test func aStreamWritesInEitherModeAndGivesTheExitCode() throws {
    let output = CommandOutput.stream { out in
      out.write("a,b\n")
      return .dataError
    }
    for json in [false, true] {
      let result = try printed(output, json: json)
      #expect(result.out == "a,b\n")
      #expect(result.code == .dataError)
    }
  }

  @Test func theCompactStyleIsOneLine() throws {
    let output = CommandOutput.result(
      Value(file: "a/b", count: 1), text: "", jsonStyle: .compactFoundation)
    #expect(try printed(output, json: true).out == "{\"count\":1,\"file\":\"a\\/b\"}\n")
  }
}
