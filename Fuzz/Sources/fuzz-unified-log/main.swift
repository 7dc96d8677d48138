import FuzzSupport
import UnifiedLog

// The unified-log reader over hostile bytes: a tracev3 file (header, catalog, LZ4 and stored
// ChunkSets, firehose, oversize, state dumps), or a tar / tar.gz holding tracev3 files. Every
// entry read is rendered in both `log show` styles.
//
// Invariants: reading never crashes or hangs, and the same bytes give the same answer.
FuzzDriver.run { bytes in
  let first = UnifiedLogBytes.read(bytes)
  let second = UnifiedLogBytes.read(bytes)
  FuzzDriver.expect(first == second, "two reads differ: \(first) and \(second)")
}
