// The CLI tests' support: running ditto-recover itself, in-process or as a child, and shell
// commands (ToolRunner.swift). Engine tests use EngineTestSupport alone, which has no CLI in it.
