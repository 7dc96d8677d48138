import DittoRecoverCLI
import Foundation

// `--json` counts before any `--`: the tool's one rule, here for the process's own outputs.
let isJSON = CommandLineTool.asksForJSON(Array(CommandLine.arguments.dropFirst()))
// Interrupts first (SIGINT, SIGTERM, SIGHUP): from here on, whatever the run makes is removed
// if it is stopped (Interruption).
Interruption.install(isJSON: isJSON)
// `next:` lines name the program as it was run (`./ditto-recover` pastes and runs in this folder).
ProgramName.use(argv0: CommandLine.arguments.first)
// The arguments as bytes: a path that is not valid UTF-8 is still a path (RawArguments).
let raw = RawArguments(argc: CommandLine.argc, argv: CommandLine.unsafeArgv)
// What runs stopped by SIGKILL left is removed where this run makes a private folder, and only
// folders that prove to be ours (PrivateDirectory): a command that makes none cleans nothing.
let context = ToolContext(
  standardOutput: Interruption.standardOutput, standardError: Interruption.standardError)
context.publishOutputs = { try raw.publishOutputs() }
context.folderName = { raw.folderName(standingFor: $0) }
context.isLinkedLibrary = { raw.isLinkedLibrary($0) }
context.errorIsTerminal = isatty(2) == 1
context.outputIsTerminal = isatty(1) == 1
// Alone on a terminal: the guided recovery (`ditto-recover guide`); in a pipe, the help.
let arguments = Tool.arguments(
  raw.arguments, standardInputIsTerminal: isatty(0) == 1, standardOutputIsTerminal: isatty(1) == 1)
let code = Tool.main(arguments, context: context, refusal: raw.refusal)
raw.remove()
Interruption.reportLeftovers()
Interruption.exit(code)
