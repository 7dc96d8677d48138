// The CLI tests' support: EngineTestSupport (temporary folders, fixtures, fakes), and running
// ditto-recover itself (ToolRunner.swift). Engine tests import EngineTestSupport alone.
@_exported import EngineTestSupport
