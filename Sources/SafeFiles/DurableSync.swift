#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Flushes `descriptor`'s data to the drive itself, where durability is promised (the defaults plist
/// before it replaces the old one, a recovery file before it is published).
///
/// On Darwin `fsync` hands the data to the drive but not through its cache; `fcntl(F_FULLFSYNC)`
/// does (falling back to `fsync` on file systems that refuse it, such as some network volumes).
/// Elsewhere `fsync` is the full flush.
///
/// - Returns: 0, or the `errno` of the failed call.
package func syncToDrive(_ descriptor: Int32) -> Int32 {
  #if canImport(Darwin)
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
  #endif
  return fsync(descriptor) == 0 ? 0 : errno
}
