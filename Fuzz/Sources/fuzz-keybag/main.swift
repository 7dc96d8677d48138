import BackupReader
import FuzzSupport

// The keybag's TLV parser over hostile bytes: input = the raw `BackupKeyBag` value.
FuzzDriver.run { bytes in
  do {
    let bag = try KeyBag(bytes, file: "Manifest.plist")
    FuzzDriver.expect(
      bag.iterations >= 1 && bag.iterations <= KeyBag.maximumIterations,
      "accepted \(bag.iterations) iterations")
  } catch {
    // BackupError.malformed.
  }
}
