#ifndef HEAPPROBE_H
#define HEAPPROBE_H
#include <stddef.h>

/// The free blocks glibc's fast bins hold in the main heap (mallinfo2's smblks); 0 where the C
/// library is not glibc. For tests of how cyd asks glibc's malloc to free.
size_t heap_probe_fast_bin_blocks(void);

#endif
