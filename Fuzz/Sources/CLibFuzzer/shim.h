// libFuzzer's entry point for programs that keep their own main (compiler-rt FuzzerInterface.h).
// Nothing to link here: `-sanitize=fuzzer` links libFuzzer itself.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*UserCb)(const uint8_t *Data, size_t Size));
