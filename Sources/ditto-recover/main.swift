import DittoRecoverCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(
  Tool.main(
    Array(CommandLine.arguments.dropFirst()),
    context: ToolContext(
      standardOutput: FileDescriptorOutput.standardOutput,
      standardError: FileDescriptorOutput.standardError)))
