// libFuzzer entry point for the picture glue of CPictures: bytes -> the format's decoder
// (through dlopen, as cyd loads it) -> reduction -> libchafa. Built and run by
// scripts/fuzz-pictures.sh with clang -fsanitize=fuzzer,address; not part of the package build.
#include "cpictures.h"
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char error[256];
    cpic_image image;
    // The box comes from the input's length: full size, and reduced to a few sizes.
    int boxes[4][2] = {{0, 0}, {80, 40}, {16, 8}, {640, 200}};
    int *box = boxes[size % 4];
    if (cpic_decode(data, size, box[0], box[1], &image, error, sizeof error) == 0) {
        size_t length = 0;
        char *drawn = cpic_draw(&image, (int)(size % 4 == 1 ? CPIC_DRAW_SIXEL : CPIC_DRAW_SYMBOLS), CPIC_COLORS_256, 20, 10, 10, 20, &length,
            error, sizeof error);
        cpic_free(drawn);
        cpic_image_free(&image);
    }
    return 0;
}
