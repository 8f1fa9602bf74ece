#ifndef CPICTURES_H
#define CPICTURES_H

#include <stddef.h>

// Pictures for the reader: PNG, JPEG, GIF (first frame) and WebP are decoded by their own
// libraries (libpng, libjpeg-turbo, giflib, libwebp) and drawn by libchafa as Unicode symbols,
// sixels, kitty or iTerm2 images. Every library is loaded on first use (dlopen), so a reader of
// a story without pictures pays nothing for them at start-up.

/// Pixels in RGBA, 8 bits a channel, rows `width * 4` bytes apart.
typedef struct {
    unsigned char *pixels;
    int width, height;
    /// The picture's own size before any scaling.
    int original_width, original_height;
} cpic_image;

enum { CPIC_FORMAT_UNKNOWN = 0, CPIC_FORMAT_PNG, CPIC_FORMAT_JPEG, CPIC_FORMAT_GIF, CPIC_FORMAT_WEBP };

/// The format by the first bytes, or CPIC_FORMAT_UNKNOWN.
int cpic_format(const unsigned char *data, size_t size);

/// Decodes a picture to RGBA for showing it fitted (aspect kept) into a `want_width` x `want_height`
/// pixel box: at least as large as it will be shown, never larger than the picture (JPEG is scaled
/// while decoding, by libjpeg's DCT scaling; WebP by libwebp; PNG and GIF are reduced row by row).
/// A box of 0 x 0 means full size. 0 on success; otherwise `error` holds the reason.
int cpic_decode(const unsigned char *data, size_t size, int want_width, int want_height, cpic_image *out,
    char *error, size_t error_size);
void cpic_image_free(cpic_image *image);

enum { CPIC_DRAW_SYMBOLS = 0, CPIC_DRAW_SIXEL, CPIC_DRAW_KITTY, CPIC_DRAW_ITERM };
enum { CPIC_COLORS_TRUE = 0, CPIC_COLORS_256, CPIC_COLORS_16 };

/// Draws the image into `columns` x `rows` cells of `cell_width` x `cell_height` pixels; returns
/// the bytes to write to the terminal (free with cpic_free), or NULL with `error` set.
char *cpic_draw(const cpic_image *image, int how, int colors, int columns, int rows, int cell_width, int cell_height,
    size_t *length, char *error, size_t error_size);
void cpic_free(char *bytes);

#endif
