// Intentionally empty: the target only exports include/CLibFuzzer.h.
