#ifndef PUSHGATE_CJEMALLOC_SHIM_H
#define PUSHGATE_CJEMALLOC_SHIM_H
// jemalloc replaces malloc and free for the whole process (librdkafka included) once the executable
// links it: Debian builds it without a symbol prefix.
#include <jemalloc/jemalloc.h>
#endif
