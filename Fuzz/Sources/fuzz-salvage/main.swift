import FuzzSupport
import LegacyStore
import Salvage

// The salvage decoder over hostile bytes: input = a main file and its `-wal` (SplitInput). Salvage
// reads every page, WAL frame, record, overflow chain and free block it can find; malformed pages
// must never crash it. Both the store path and the lone -wal path are tried, deleted rows included.
let scratch = Scratch()

FuzzDriver.run { bytes in
  let path = scratch.writeDatabase(bytes, named: "Ditto.sqlite")
  for target in [path, path + "-wal"] {
    do {
      let result = try Salvager.salvage(path: target, options: SalvageOptions(includeDeleted: true))
      _ = (result.library.dittoCount, result.deleted.count, result.sources.count)
    } catch {
      // LegacyStoreError: nothing decodable, named and explained.
    }
  }
  _ = Salvager.hasValidFrames(walPath: path + "-wal")
}
