import Testing

@testable import DittoRecoverCLI

/// How the tool prints what a command returns: once, text or JSON as decided for the run, the
/// trailer after the result, published paths in either form.
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
