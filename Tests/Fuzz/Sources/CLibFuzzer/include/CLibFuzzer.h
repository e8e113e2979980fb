// libFuzzer's entry point for programs that have their own main (every SwiftPM executable has one).
// Declared here so that Swift calls it with the C calling convention; -sanitize=fuzzer links it.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
