import DittoRecoverCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The arguments as bytes: a path that is not valid UTF-8 is still a path (RawArguments).
let raw = RawArguments(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
let isJSON = raw.arguments.prefix { $0 != "--" }.contains("--json")
let code = Tool.main(
  raw.arguments,
  context: ToolContext(
    standardOutput: DisplayingOutput(
      FileDescriptorOutput.standardOutput, raw: raw, isJSON: isJSON),
    standardError: DisplayingOutput(FileDescriptorOutput.standardError, raw: raw, isJSON: false)))
raw.remove()
exit(code)
