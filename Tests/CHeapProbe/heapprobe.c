#include "heapprobe.h"
#include <stdlib.h>  // which C library this is (__GLIBC__)
#if defined(__GLIBC__)
#include <malloc.h>
#endif

size_t heap_probe_fast_bin_blocks(void) {
#if defined(__GLIBC__)
    return mallinfo2().smblks;
#else
    return 0;
#endif
}
