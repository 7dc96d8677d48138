#ifndef DITTO_SYSTEM_SHIMS_H
#define DITTO_SYSTEM_SHIMS_H

#include <sys/types.h>

/// Copies up to `length` bytes from `in` at `*in_offset` to `out` at `*out_offset` inside the kernel
/// (Linux copy_file_range(2), which Swift's Glibc module does not expose), advancing both offsets.
/// Returns the bytes copied, 0 at the end of the input, or -1 with errno set; where the call does not
/// exist (other systems, old kernels) it returns -1 with errno = ENOSYS and the caller copies itself.
long ditto_copy_file_range(int in, long long *in_offset, int out, long long *out_offset, long length);

/// Renames `from` to `to` only when nothing has the name `to` (Linux renameat2 RENAME_NOREPLACE,
/// macOS renamex_np RENAME_EXCL): never replaces anything. Returns 0, or -1 with errno set (EEXIST
/// when `to` exists; EINVAL or ENOSYS where the file system or system cannot do it).
int ditto_rename_noreplace(const char *from, const char *to);

#endif
