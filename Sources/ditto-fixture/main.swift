import DittoRecoverCLI
import FixtureTool

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

exit(
  FixtureTool.main(
    Array(CommandLine.arguments.dropFirst()),
    context: ToolContext(
      standardOutput: FileDescriptorOutput.standardOutput,
      standardError: FileDescriptorOutput.standardError)))
