#include "cpictures.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// The libraries' headers give the types; the functions themselves come from dlsym, so nothing
// here is linked against them.
#include <gif_lib.h>
#include <jpeglib.h>
#include <png.h>
#include <webp/decode.h>
#include <webp/demux.h>

/// At most this many pixels are held while decoding (a picture is reduced to the window long
/// before this; it bounds what a hostile header can make us allocate).
#define CPIC_MAX_PIXELS (64u * 1024u * 1024u)
/// At most this many pixels are decoded at all: a small file can claim a huge picture (a PNG of
/// 20000 x 20000 zeros compresses to a few hundred KB) and would hold the reader for seconds.
#define CPIC_MAX_SOURCE_PIXELS (128u * 1024u * 1024u)
/// A progressive (multi-scan) JPEG is decoded through a buffer of every DCT coefficient of the
/// whole picture (128 bytes a block a component): at most this many bytes of it. A 702-byte file
/// can claim 11585 x 11585 CMYK, a gigabyte of coefficients.
#define CPIC_MAX_JPEG_COEFFICIENT_BYTES (256ull * 1024u * 1024u)
/// libjpeg's own memory limit, above the coefficient buffer: what it cannot fit, it refuses.
#define CPIC_MAX_JPEG_MEMORY (320l * 1024 * 1024)
/// At most this many scans (djpeg's -maxscans): ordinary progressive JPEGs have about ten; one
/// of 100,000 empty scans would hold the reader for minutes.
#define CPIC_MAX_JPEG_SCANS 100
/// A decode that takes longer than this is given up (every picture format), said in words.
#define CPIC_MAX_DECODE_SECONDS 3.0

static void say(char *error, size_t size, const char *format, ...);

/// Whether a picture of this size may be decoded; otherwise says why.
static int decodable(long width, long height, char *error, size_t size) {
    if (width > 0 && height > 0 && (uint64_t)width * (uint64_t)height <= CPIC_MAX_SOURCE_PIXELS) return 1;
    say(error, size, "it is %ld x %ld pixels, too large to draw", width, height);
    return 0;
}

static void say(char *error, size_t size, const char *format, ...) {
    if (!error || size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error, size, format, arguments);
    va_end(arguments);
}

// MARK: loading

typedef struct {
    const char *names[3];
    pthread_once_t once;
    void *handle;
    char error[256];
} library;

static void open_library(library *lib) {
    for (int i = 0; i < 3 && lib->names[i]; i++) {
        lib->handle = dlopen(lib->names[i], RTLD_NOW | RTLD_LOCAL);
        if (lib->handle) return;
    }
    const char *why = dlerror();
    snprintf(lib->error, sizeof lib->error, "%s cannot be loaded (%s)", lib->names[0], why ? why : "not found");
}

static library jpeg_library = {{"libjpeg.so.62", "libjpeg.so.8", "libjpeg.so"}, PTHREAD_ONCE_INIT, NULL, ""};
static library png_library = {{"libpng16.so.16", "libpng16.so", "libpng.so"}, PTHREAD_ONCE_INIT, NULL, ""};
static library gif_library = {{"libgif.so.7", "libgif.so", NULL}, PTHREAD_ONCE_INIT, NULL, ""};
static library webp_library = {{"libwebp.so.7", "libwebp.so", NULL}, PTHREAD_ONCE_INIT, NULL, ""};
static library webpdemux_library = {{"libwebpdemux.so.2", "libwebpdemux.so", NULL}, PTHREAD_ONCE_INIT, NULL, ""};
static library chafa_library = {{"libchafa.so.0", "libchafa.so", NULL}, PTHREAD_ONCE_INIT, NULL, ""};

static void once_jpeg(void) { open_library(&jpeg_library); }
static void once_png(void) { open_library(&png_library); }
static void once_gif(void) { open_library(&gif_library); }
static void once_webp(void) { open_library(&webp_library); }
static void once_webpdemux(void) { open_library(&webpdemux_library); }
static void once_chafa(void) { open_library(&chafa_library); }

static void *load(library *lib, void (*once)(void), char *error, size_t size) {
    pthread_once(&lib->once, once);
    if (!lib->handle) say(error, size, "%s", lib->error);
    return lib->handle;
}

/// Looks up `name` in `handle` into `slot`; false (and the reason) when it is missing.
static int find(void *handle, const char *name, void **slot, char *error, size_t size) {
    *slot = dlsym(handle, name);
    if (!*slot) say(error, size, "the library has no %s", name);
    return *slot != NULL;
}

#define FIND(handle, symbol, pointer) find(handle, symbol, (void **)&(pointer), error, error_size)

// MARK: reducing while decoding

/// The whole-number reduction that keeps a `width` x `height` picture at least as large as it
/// will be shown when fitted into a `box_width` x `box_height` box, aspect kept.
static int reduction(int width, int height, int box_width, int box_height) {
    if (box_width <= 0 || box_height <= 0) return 1;
    int by_width = width / box_width, by_height = height / box_height;
    int factor = by_width > by_height ? by_width : by_height;
    return factor < 1 ? 1 : factor;
}

/// Receives rows of `width` RGBA pixels and keeps their average over boxes of `across` x `down`
/// pixels: a picture is reduced row by row, never held at full size. The box is the reduction
/// factor both ways, but never wider or taller than the picture (a 3 x 1000 picture reduced
/// by 25 keeps its 3 columns' worth in one).
typedef struct {
    int width, height, across, down;
    int out_width, out_height;
    uint64_t *sums;
    unsigned char *pixels;
    int rows_seen;
} reducer;

static int reducer_start(reducer *r, int width, int height, int want_width, int want_height, char *error, size_t size) {
    memset(r, 0, sizeof *r);
    int factor = reduction(width, height, want_width, want_height);
    r->width = width;
    r->height = height;
    r->across = factor < width ? factor : (width > 0 ? width : 1);
    r->down = factor < height ? factor : (height > 0 ? height : 1);
    r->out_width = width / r->across > 0 ? width / r->across : 1;
    r->out_height = height / r->down > 0 ? height / r->down : 1;
    if (width <= 0 || height <= 0 || (uint64_t)r->out_width * (uint64_t)r->out_height > CPIC_MAX_PIXELS) {
        say(error, size, "it is %d x %d pixels, too large to draw", width, height);
        return 0;
    }
    r->sums = calloc((size_t)r->out_width * 4, sizeof(uint64_t));
    r->pixels = malloc((size_t)r->out_width * (size_t)r->out_height * 4);
    if (!r->sums || !r->pixels) {
        free(r->sums);
        free(r->pixels);
        r->sums = NULL;
        r->pixels = NULL;
        say(error, size, "there is not enough memory to draw it");
        return 0;
    }
    return 1;
}

static void reducer_row(reducer *r, const unsigned char *row) {
    int out_y = r->rows_seen / r->down;
    r->rows_seen++;
    if (out_y >= r->out_height) return;
    if (r->across == 1 && r->down == 1) {
        memcpy(r->pixels + (size_t)out_y * (size_t)r->out_width * 4, row, (size_t)r->out_width * 4);
        return;
    }
    // out_width * across <= width: every pixel read is in the row.
    for (int x = 0; x < r->out_width; x++) {
        const unsigned char *p = row + (size_t)x * (size_t)r->across * 4;
        uint64_t *s = r->sums + (size_t)x * 4;
        for (int k = 0; k < r->across; k++, p += 4) {
            s[0] += p[0];
            s[1] += p[1];
            s[2] += p[2];
            s[3] += p[3];
        }
    }
    if (r->rows_seen % r->down == 0) {
        uint64_t box = (uint64_t)r->across * (uint64_t)r->down;
        unsigned char *out = r->pixels + (size_t)out_y * (size_t)r->out_width * 4;
        for (size_t i = 0; i < (size_t)r->out_width * 4; i++) out[i] = (unsigned char)(r->sums[i] / box);
        memset(r->sums, 0, (size_t)r->out_width * 4 * sizeof(uint64_t));
    }
}

static void reducer_finish(reducer *r, cpic_image *out) {
    // Rows a short picture never sent stay black rather than undefined.
    int complete = r->rows_seen / r->down;
    if (complete < r->out_height)
        memset(r->pixels + (size_t)complete * (size_t)r->out_width * 4, 0,
            (size_t)(r->out_height - complete) * (size_t)r->out_width * 4);
    free(r->sums);
    r->sums = NULL;
    out->pixels = r->pixels;
    out->width = r->out_width;
    out->height = r->out_height;
    out->original_width = r->width;
    out->original_height = r->height;
    r->pixels = NULL;
}

static void reducer_abandon(reducer *r) {
    free(r->sums);
    free(r->pixels);
    r->sums = NULL;
    r->pixels = NULL;
}

// MARK: formats

int cpic_format(const unsigned char *data, size_t size) {
    if (size >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0) return CPIC_FORMAT_PNG;
    if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) return CPIC_FORMAT_JPEG;
    if (size >= 6 && (memcmp(data, "GIF87a", 6) == 0 || memcmp(data, "GIF89a", 6) == 0)) return CPIC_FORMAT_GIF;
    if (size >= 12 && memcmp(data, "RIFF", 4) == 0 && memcmp(data + 8, "WEBP", 4) == 0) return CPIC_FORMAT_WEBP;
    return CPIC_FORMAT_UNKNOWN;
}

// MARK: JPEG (libjpeg-turbo)

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    /// Set when our progress monitor stopped the decode (the message is ours, not libjpeg's).
    int stopped_by_us;
} jpeg_failure;

static void jpeg_fail(j_common_ptr info) {
    jpeg_failure *failure = (jpeg_failure *)info->err;
    info->err->format_message(info, failure->message);
    longjmp(failure->jump, 1);
}

static double monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/// Called by libjpeg as it works: stops a picture with too many scans, or one taking too long.
typedef struct {
    struct jpeg_progress_mgr manager;
    double deadline;
} jpeg_watch;

static void jpeg_progress(j_common_ptr common) {
    jpeg_watch *watch = (jpeg_watch *)common->progress;
    jpeg_failure *failure = (jpeg_failure *)common->err;
    j_decompress_ptr info = (j_decompress_ptr)common;
    if (info->input_scan_number > CPIC_MAX_JPEG_SCANS) {
        snprintf(failure->message, sizeof failure->message, "it has more than %d scans, too many to draw", CPIC_MAX_JPEG_SCANS);
        failure->stopped_by_us = 1;
        longjmp(failure->jump, 1);
    }
    if (monotonic_seconds() > watch->deadline) {
        snprintf(failure->message, sizeof failure->message, "it takes longer than %.0f s to decode", CPIC_MAX_DECODE_SECONDS);
        failure->stopped_by_us = 1;
        longjmp(failure->jump, 1);
    }
}

static void jpeg_quiet(j_common_ptr info) { (void)info; }

static int decode_jpeg(const unsigned char *data, size_t size, int want_width, int want_height, cpic_image *out,
    char *error, size_t error_size) {
    void *lib = load(&jpeg_library, once_jpeg, error, error_size);
    if (!lib) return 1;
    struct jpeg_error_mgr *(*std_error)(struct jpeg_error_mgr *);
    void (*create)(j_decompress_ptr, int, size_t);
    void (*mem_src)(j_decompress_ptr, const unsigned char *, unsigned long);
    int (*read_header)(j_decompress_ptr, boolean);
    boolean (*start)(j_decompress_ptr);
    JDIMENSION (*read_scanlines)(j_decompress_ptr, JSAMPARRAY, JDIMENSION);
    void (*destroy)(j_decompress_ptr);
    void (*calc_output)(j_decompress_ptr);
    if (!FIND(lib, "jpeg_std_error", std_error) || !FIND(lib, "jpeg_CreateDecompress", create) ||
        !FIND(lib, "jpeg_mem_src", mem_src) || !FIND(lib, "jpeg_read_header", read_header) ||
        !FIND(lib, "jpeg_start_decompress", start) || !FIND(lib, "jpeg_read_scanlines", read_scanlines) ||
        !FIND(lib, "jpeg_destroy_decompress", destroy) || !FIND(lib, "jpeg_calc_output_dimensions", calc_output))
        return 1;

    struct jpeg_decompress_struct info;
    jpeg_failure failure;
    // What must be freed if libjpeg gives up. It is all allocated before the second setjmp and
    // not reassigned after it, so its values are still right when libjpeg jumps back (C leaves
    // locals changed between setjmp and longjmp indeterminate).
    struct { reducer r; unsigned char *row; } volatile_state;
    memset(&volatile_state, 0, sizeof volatile_state);
    info.err = std_error(&failure.manager);
    failure.manager.error_exit = jpeg_fail;
    failure.manager.output_message = jpeg_quiet;
    jpeg_watch watch;
    memset(&watch, 0, sizeof watch);
    watch.manager.progress_monitor = jpeg_progress;
    watch.deadline = monotonic_seconds() + CPIC_MAX_DECODE_SECONDS;
    failure.stopped_by_us = 0;
    if (setjmp(failure.jump)) {
        // Reading the header: nothing of ours allocated yet.
        if (failure.stopped_by_us) say(error, error_size, "%s", failure.message);
        else say(error, error_size, "libjpeg: %s", failure.message);
        destroy(&info);
        return 1;
    }
    create(&info, JPEG_LIB_VERSION, sizeof info);
    info.progress = &watch.manager;
    info.mem->max_memory_to_use = CPIC_MAX_JPEG_MEMORY;
    mem_src(&info, data, (unsigned long)size);
    read_header(&info, TRUE);
    if (!decodable((long)info.image_width, (long)info.image_height, error, error_size)) {
        destroy(&info);
        return 1;
    }
    if (info.progressive_mode || info.num_components > 4) {
        // The whole-picture coefficient buffer, measured before libjpeg allocates it.
        int max_h = 1, max_v = 1;
        for (int c = 0; c < info.num_components; c++) {
            if (info.comp_info[c].h_samp_factor > max_h) max_h = info.comp_info[c].h_samp_factor;
            if (info.comp_info[c].v_samp_factor > max_v) max_v = info.comp_info[c].v_samp_factor;
        }
        uint64_t bytes = 0;
        for (int c = 0; c < info.num_components; c++) {
            uint64_t columns = ((uint64_t)info.image_width * (uint64_t)info.comp_info[c].h_samp_factor + 8u * max_h - 1) / (8u * max_h);
            uint64_t rows = ((uint64_t)info.image_height * (uint64_t)info.comp_info[c].v_samp_factor + 8u * max_v - 1) / (8u * max_v);
            bytes += columns * rows * 128u;
        }
        if (bytes > CPIC_MAX_JPEG_COEFFICIENT_BYTES) {
            say(error, error_size, "it is a progressive JPEG of %u x %u pixels that needs %llu MB to decode, too large to draw",
                info.image_width, info.image_height, (unsigned long long)(bytes >> 20));
            destroy(&info);
            return 1;
        }
    }
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    // DCT scaling: the smallest n/8 that still covers what is wanted.
    int scale = 8;
    if (want_width > 0 && want_height > 0 && info.image_width > 0 && info.image_height > 0) {
        // The size it will be shown at: the box, narrowed or shortened to the picture's shape.
        long fitted_width = want_width, fitted_height = want_height;
        if ((long)info.image_width * want_height > (long)info.image_height * want_width)
            fitted_height = (long)info.image_height * want_width / (long)info.image_width;
        else
            fitted_width = (long)info.image_width * want_height / (long)info.image_height;
        for (int n = 1; n <= 8; n++) {
            if ((long)info.image_width * n >= fitted_width * 8 && (long)info.image_height * n >= fitted_height * 8) {
                scale = n;
                break;
            }
        }
    }
    info.scale_num = (unsigned)scale;
    info.scale_denom = 8;
    calc_output(&info);
    int width = (int)info.output_width, height = (int)info.output_height;
    if (!reducer_start(&volatile_state.r, width, height, want_width, want_height, error, error_size)) {
        destroy(&info);
        return 1;
    }
    volatile_state.row = malloc((size_t)width * 4);
    if (!volatile_state.row) {
        reducer_abandon(&volatile_state.r);
        destroy(&info);
        say(error, error_size, "there is not enough memory to draw it");
        return 1;
    }
    if (setjmp(failure.jump)) {
        // Decoding: what was allocated above goes too.
        if (failure.stopped_by_us) say(error, error_size, "%s", failure.message);
        else say(error, error_size, "libjpeg: %s", failure.message);
        reducer_abandon(&volatile_state.r);
        free(volatile_state.row);
        destroy(&info);
        return 1;
    }
    start(&info);
    while (info.output_scanline < info.output_height) {
        JSAMPROW rows[1] = {volatile_state.row};
        if (read_scanlines(&info, rows, 1) != 1) break;
        if (cmyk) {
            // Adobe writes CMYK inverted; others plainly. Either way: RGB = (1 - C)(1 - K)...
            unsigned char *p = volatile_state.row;
            for (int x = width - 1; x >= 0; x--) {
                unsigned c = p[x * 4], m = p[x * 4 + 1], y = p[x * 4 + 2], k = p[x * 4 + 3];
                if (!info.saw_Adobe_marker) {
                    c = 255 - c;
                    m = 255 - m;
                    y = 255 - y;
                    k = 255 - k;
                }
                p[x * 4] = (unsigned char)(c * k / 255);
                p[x * 4 + 1] = (unsigned char)(m * k / 255);
                p[x * 4 + 2] = (unsigned char)(y * k / 255);
                p[x * 4 + 3] = 255;
            }
        }
        reducer_row(&volatile_state.r, volatile_state.row);
    }
    // Not jpeg_finish_decompress: a picture cut short still shows what arrived.
    free(volatile_state.row);
    volatile_state.row = NULL;
    reducer_finish(&volatile_state.r, out);
    out->original_width = (int)info.image_width;
    out->original_height = (int)info.image_height;
    destroy(&info);
    return 0;
}

// MARK: PNG (libpng)

typedef struct {
    const unsigned char *data;
    size_t size, offset;
    void (*fail)(png_structp, png_const_charp);
} png_reader;

static void png_read_memory(png_structp png, png_bytep into, size_t count);
static png_voidp (*png_io)(png_const_structrp);

static void png_read_memory(png_structp png, png_bytep into, size_t count) {
    png_reader *reader = png_io(png);
    if (count > reader->size - reader->offset) {
        reader->fail(png, "the file ends early");
        return;
    }
    memcpy(into, reader->data + reader->offset, count);
    reader->offset += count;
}

/// libpng's errors end here: the message is kept and decoding jumps back to cpic_decode's
/// caller side (our own jump buffer, not libpng's).
typedef struct {
    jmp_buf jump;
    char message[200];
} png_failure;

static void png_fail(png_structp png, png_const_charp message);
static void *(*png_error_pointer)(png_const_structrp);

static void png_fail(png_structp png, png_const_charp message) {
    png_failure *failure = png_error_pointer(png);
    snprintf(failure->message, sizeof failure->message, "%s", message ? message : "unreadable");
    longjmp(failure->jump, 1);
}

static void png_quiet(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static int decode_png(const unsigned char *data, size_t size, int want_width, int want_height, cpic_image *out,
    char *error, size_t error_size) {
    void *lib = load(&png_library, once_png, error, error_size);
    if (!lib) return 1;
    png_structp (*create)(png_const_charp, png_voidp, png_error_ptr, png_error_ptr);
    png_infop (*create_info)(png_const_structrp);
    void (*destroy)(png_structpp, png_infopp, png_infopp);
    void (*set_read_fn)(png_structrp, png_voidp, png_rw_ptr);
    void (*read_info)(png_structrp, png_inforp);
    png_uint_32 (*get_width)(png_const_structrp, png_const_inforp);
    png_uint_32 (*get_height)(png_const_structrp, png_const_inforp);
    void (*set_expand)(png_structrp);
    void (*set_strip_16)(png_structrp);
    void (*set_gray_to_rgb)(png_structrp);
    void (*set_filler)(png_structrp, png_uint_32, int);
    int (*set_interlace)(png_structrp);
    void (*update_info)(png_structrp, png_inforp);
    void (*read_row)(png_structrp, png_bytep, png_bytep);
    void (*user_limits)(png_structrp, png_uint_32, png_uint_32);
    if (!FIND(lib, "png_create_read_struct", create) || !FIND(lib, "png_create_info_struct", create_info) ||
        !FIND(lib, "png_destroy_read_struct", destroy) || !FIND(lib, "png_set_read_fn", set_read_fn) ||
        !FIND(lib, "png_read_info", read_info) || !FIND(lib, "png_get_image_width", get_width) ||
        !FIND(lib, "png_get_image_height", get_height) || !FIND(lib, "png_set_expand", set_expand) ||
        !FIND(lib, "png_set_strip_16", set_strip_16) || !FIND(lib, "png_set_gray_to_rgb", set_gray_to_rgb) ||
        !FIND(lib, "png_set_filler", set_filler) || !FIND(lib, "png_set_interlace_handling", set_interlace) ||
        !FIND(lib, "png_read_update_info", update_info) || !FIND(lib, "png_read_row", read_row) ||
        !FIND(lib, "png_set_user_limits", user_limits) ||
        !FIND(lib, "png_get_error_ptr", png_error_pointer) || !FIND(lib, "png_get_io_ptr", png_io))
        return 1;

    // The size, read from IHDR before libpng sees it: past our limit of 65535 on a side, libpng
    // would only say "Invalid IHDR data".
    if (size >= 24 && memcmp(data + 12, "IHDR", 4) == 0) {
        uint32_t claimed_width = (uint32_t)data[16] << 24 | (uint32_t)data[17] << 16 | (uint32_t)data[18] << 8 | data[19];
        uint32_t claimed_height = (uint32_t)data[20] << 24 | (uint32_t)data[21] << 16 | (uint32_t)data[22] << 8 | data[23];
        if (claimed_width > 65535 || claimed_height > 65535) {
            say(error, error_size, "it is %u x %u pixels, more than 65535 on a side, too large to draw", claimed_width, claimed_height);
            return 1;
        }
    }
    png_failure failure;
    png_reader reader = {data, size, 0, png_fail};
    png_structp png = create(PNG_LIBPNG_VER_STRING, &failure, png_fail, png_quiet);
    if (!png) {
        say(error, error_size, "libpng could not start");
        return 1;
    }
    png_infop info = create_info(png);
    // As for JPEG: everything to free is allocated before the second setjmp, never reassigned.
    struct { reducer r; unsigned char *row; unsigned char *whole; } state;
    memset(&state, 0, sizeof state);
    if (!info || setjmp(failure.jump)) {
        say(error, error_size, "libpng: %s", info ? failure.message : "could not start");
        destroy(&png, info ? &info : NULL, NULL);
        return 1;
    }
    set_read_fn(png, &reader, png_read_memory);
    user_limits(png, 65535, 65535);
    read_info(png, info);
    int width = (int)get_width(png, info), height = (int)get_height(png, info);
    if (!decodable(width, height, error, error_size)) {
        destroy(&png, &info, NULL);
        return 1;
    }
    set_expand(png);
    set_strip_16(png);
    set_gray_to_rgb(png);
    set_filler(png, 0xFF, PNG_FILLER_AFTER);
    int passes = set_interlace(png);
    update_info(png, info);
    if (passes > 1 && (uint64_t)width * (uint64_t)height > CPIC_MAX_PIXELS) {
        say(error, error_size, "it is interlaced and %d x %d pixels, too large to draw", width, height);
        destroy(&png, &info, NULL);
        return 1;
    }
    if (!reducer_start(&state.r, width, height, want_width, want_height, error, error_size)) {
        destroy(&png, &info, NULL);
        return 1;
    }
    // An interlaced picture arrives in seven passes over the whole: it is held once.
    if (passes == 1)
        state.row = malloc((size_t)width * 4);
    else
        state.whole = calloc((size_t)width * (size_t)height, 4);
    if (!state.row && !state.whole) {
        reducer_abandon(&state.r);
        destroy(&png, &info, NULL);
        say(error, error_size, "there is not enough memory to draw it");
        return 1;
    }
    if (setjmp(failure.jump)) {
        say(error, error_size, "libpng: %s", failure.message);
        reducer_abandon(&state.r);
        free(state.row);
        free(state.whole);
        destroy(&png, &info, NULL);
        return 1;
    }
    if (passes == 1) {
        for (int y = 0; y < height; y++) {
            read_row(png, state.row, NULL);
            reducer_row(&state.r, state.row);
        }
    } else {
        for (int pass = 0; pass < passes; pass++)
            for (int y = 0; y < height; y++) read_row(png, state.whole + (size_t)y * (size_t)width * 4, NULL);
        for (int y = 0; y < height; y++) reducer_row(&state.r, state.whole + (size_t)y * (size_t)width * 4);
    }
    free(state.row);
    free(state.whole);
    reducer_finish(&state.r, out);
    destroy(&png, &info, NULL);
    return 0;
}

// MARK: GIF (giflib), the first frame

typedef struct {
    const unsigned char *data;
    size_t size, offset;
} gif_reader;

static int gif_read_memory(GifFileType *gif, GifByteType *into, int count) {
    gif_reader *reader = gif->UserData;
    size_t left = reader->size - reader->offset;
    size_t n = count < 0 ? 0 : (size_t)count;
    if (n > left) n = left;
    memcpy(into, reader->data + reader->offset, n);
    reader->offset += n;
    return (int)n;
}

static int decode_gif(const unsigned char *data, size_t size, int want_width, int want_height, cpic_image *out,
    char *error, size_t error_size) {
    void *lib = load(&gif_library, once_gif, error, error_size);
    if (!lib) return 1;
    GifFileType *(*open)(void *, InputFunc, int *);
    int (*close)(GifFileType *, int *);
    int (*record_type)(GifFileType *, GifRecordType *);
    int (*image_desc)(GifFileType *);
    int (*get_line)(GifFileType *, GifPixelType *, int);
    int (*extension)(GifFileType *, int *, GifByteType **);
    int (*extension_next)(GifFileType *, GifByteType **);
    int (*to_gcb)(size_t, const GifByteType *, GraphicsControlBlock *);
    const char *(*error_string)(int);
    if (!FIND(lib, "DGifOpen", open) || !FIND(lib, "DGifCloseFile", close) || !FIND(lib, "DGifGetRecordType", record_type) ||
        !FIND(lib, "DGifGetImageDesc", image_desc) || !FIND(lib, "DGifGetLine", get_line) ||
        !FIND(lib, "DGifGetExtension", extension) || !FIND(lib, "DGifGetExtensionNext", extension_next) ||
        !FIND(lib, "DGifExtensionToGCB", to_gcb) || !FIND(lib, "GifErrorString", error_string))
        return 1;
    gif_reader reader = {data, size, 0};
    int code = 0;
    GifFileType *gif = open(&reader, gif_read_memory, &code);
    if (!gif) {
        const char *why = error_string(code);
        say(error, error_size, "giflib: %s", why ? why : "unreadable");
        return 1;
    }
    int transparent = -1;
    int result = 1;
    unsigned char *indices = NULL, *canvas_row = NULL;
    // Every record takes at least a byte, so the file bounds the loop; comments and other
    // extensions before the picture are passed over, however many (within the time limit).
    double deadline = monotonic_seconds() + CPIC_MAX_DECODE_SECONDS;
    for (long records = 0;; records++) {
        if ((records & 1023) == 1023 && monotonic_seconds() > deadline) {
            say(error, error_size, "it takes longer than %.0f s to decode", CPIC_MAX_DECODE_SECONDS);
            result = 2;
            break;
        }
        GifRecordType type;
        if (record_type(gif, &type) == GIF_ERROR) break;
        if (type == EXTENSION_RECORD_TYPE) {
            int ext_code = 0;
            GifByteType *block = NULL;
            if (extension(gif, &ext_code, &block) == GIF_ERROR) break;
            if (ext_code == GRAPHICS_EXT_FUNC_CODE && block && block[0] >= 4) {
                GraphicsControlBlock control;
                if (to_gcb(block[0], block + 1, &control) == GIF_OK) transparent = control.TransparentColor;
            }
            int broken = 0;
            for (int blocks = 0; block && blocks < 1000000; blocks++) {
                if (extension_next(gif, &block) == GIF_ERROR) {
                    broken = 1;
                    break;
                }
            }
            if (broken) break;
            continue;
        }
        if (type == TERMINATE_RECORD_TYPE) {
            say(error, error_size, "the GIF has no picture in it");
            result = 2;
            break;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (image_desc(gif) == GIF_ERROR) break;
        int screen_width = gif->SWidth > 0 ? gif->SWidth : gif->Image.Width;
        int screen_height = gif->SHeight > 0 ? gif->SHeight : gif->Image.Height;
        int frame_width = gif->Image.Width, frame_height = gif->Image.Height;
        if (frame_width <= 0 || frame_height <= 0 || screen_width <= 0 || screen_height <= 0) {
            say(error, error_size, "the GIF's first frame has no size");
            result = 2;
            break;
        }
        if ((uint64_t)frame_width * (uint64_t)frame_height > CPIC_MAX_PIXELS || !decodable(screen_width, screen_height, error, error_size)) {
            if ((uint64_t)frame_width * (uint64_t)frame_height > CPIC_MAX_PIXELS)
                say(error, error_size, "it is %d x %d pixels, too large to draw", frame_width, frame_height);
            result = 2;
            break;
        }
        ColorMapObject *colors = gif->Image.ColorMap ? gif->Image.ColorMap : gif->SColorMap;
        if (!colors) {
            say(error, error_size, "the GIF has no colour table");
            result = 2;
            break;
        }
        indices = malloc((size_t)frame_width * (size_t)frame_height);
        canvas_row = malloc((size_t)screen_width * 4);
        if (!indices || !canvas_row) {
            say(error, error_size, "there is not enough memory to draw it");
            result = 2;
            break;
        }
        int failed = 0;
        if (gif->Image.Interlace) {
            static const int starts[4] = {0, 4, 2, 1}, steps[4] = {8, 8, 4, 2};
            for (int pass = 0; pass < 4 && !failed; pass++)
                for (int y = starts[pass]; y < frame_height && !failed; y += steps[pass])
                    failed = get_line(gif, indices + (size_t)y * (size_t)frame_width, frame_width) == GIF_ERROR;
        } else {
            for (int y = 0; y < frame_height && !failed; y++)
                failed = get_line(gif, indices + (size_t)y * (size_t)frame_width, frame_width) == GIF_ERROR;
        }
        if (failed) break;
        reducer r;
        if (!reducer_start(&r, screen_width, screen_height, want_width, want_height, error, error_size)) {
            result = 2;
            break;
        }
        for (int y = 0; y < screen_height; y++) {
            memset(canvas_row, 0, (size_t)screen_width * 4);
            int fy = y - gif->Image.Top;
            if (fy >= 0 && fy < frame_height) {
                for (int fx = 0; fx < frame_width; fx++) {
                    int x = gif->Image.Left + fx;
                    if (x < 0 || x >= screen_width) continue;
                    int index = indices[(size_t)fy * (size_t)frame_width + (size_t)fx];
                    if (index == transparent || index >= colors->ColorCount) continue;
                    GifColorType color = colors->Colors[index];
                    unsigned char *p = canvas_row + (size_t)x * 4;
                    p[0] = color.Red;
                    p[1] = color.Green;
                    p[2] = color.Blue;
                    p[3] = 255;
                }
            }
            reducer_row(&r, canvas_row);
        }
        reducer_finish(&r, out);
        result = 0;
        break;
    }
    if (result == 1) say(error, error_size, "giflib: %s", error_string(gif->Error) ? error_string(gif->Error) : "unreadable");
    free(indices);
    free(canvas_row);
    close(gif, &code);
    return result == 0 ? 0 : 1;
}

// MARK: WebP (libwebp; libwebpdemux for the first frame of an animation)

static const char *webp_status(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return "not enough memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "the picture data is broken";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "it uses a feature libwebp does not support";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "the file ends early";
    default: return "unreadable";
    }
}

static int decode_webp(const unsigned char *data, size_t size, int want_width, int want_height, cpic_image *out,
    char *error, size_t error_size) {
    void *lib = load(&webp_library, once_webp, error, error_size);
    if (!lib) return 1;
    int (*init_config)(WebPDecoderConfig *, int);
    VP8StatusCode (*features)(const uint8_t *, size_t, WebPBitstreamFeatures *, int);
    VP8StatusCode (*decode)(const uint8_t *, size_t, WebPDecoderConfig *);
    void (*free_buffer)(WebPDecBuffer *);
    if (!FIND(lib, "WebPInitDecoderConfigInternal", init_config) || !FIND(lib, "WebPGetFeaturesInternal", features) ||
        !FIND(lib, "WebPDecode", decode) || !FIND(lib, "WebPFreeDecBuffer", free_buffer))
        return 1;
    WebPDecoderConfig config;
    if (!init_config(&config, WEBP_DECODER_ABI_VERSION)) {
        say(error, error_size, "libwebp is not the version cyd was built for");
        return 1;
    }
    VP8StatusCode status = features(data, size, &config.input, WEBP_DECODER_ABI_VERSION);
    if (status != VP8_STATUS_OK) {
        say(error, error_size, "libwebp: %s", webp_status(status));
        return 1;
    }
    const uint8_t *bytes = data;
    size_t count = size;
    WebPDemuxer *demuxer = NULL;
    WebPIterator frame;
    void (*release)(WebPIterator *) = NULL;
    void (*demux_delete)(WebPDemuxer *) = NULL;
    if (config.input.has_animation) {
        void *demux_lib = load(&webpdemux_library, once_webpdemux, error, error_size);
        if (!demux_lib) return 1;
        WebPDemuxer *(*demux_new)(const WebPData *, int, WebPDemuxState *, int);
        int (*get_frame)(const WebPDemuxer *, int, WebPIterator *);
        if (!find(demux_lib, "WebPDemuxInternal", (void **)&demux_new, error, error_size) ||
            !find(demux_lib, "WebPDemuxGetFrame", (void **)&get_frame, error, error_size) ||
            !find(demux_lib, "WebPDemuxReleaseIterator", (void **)&release, error, error_size) ||
            !find(demux_lib, "WebPDemuxDelete", (void **)&demux_delete, error, error_size))
            return 1;
        WebPData whole = {data, size};
        demuxer = demux_new(&whole, 0, NULL, WEBP_DEMUX_ABI_VERSION);
        if (!demuxer || !get_frame(demuxer, 1, &frame)) {
            if (demuxer) demux_delete(demuxer);
            say(error, error_size, "libwebp: the animation's first frame cannot be read");
            return 1;
        }
        bytes = frame.fragment.bytes;
        count = frame.fragment.size;
        status = features(bytes, count, &config.input, WEBP_DECODER_ABI_VERSION);
        if (status != VP8_STATUS_OK) {
            release(&frame);
            demux_delete(demuxer);
            say(error, error_size, "libwebp: %s", webp_status(status));
            return 1;
        }
    }
    int width = config.input.width, height = config.input.height;
    int result = 1;
    if (width > 0 && height > 0 && !decodable(width, height, error, error_size)) {
        if (demuxer) {
            release(&frame);
            demux_delete(demuxer);
        }
        return 1;
    }
    reducer r;
    memset(&r, 0, sizeof r);
    if (width > 0 && height > 0) {
        // libwebp scales while decoding, to any size: ask for the reduced one directly.
        int factor = reduction(width, height, want_width, want_height);
        int out_width = width / factor > 0 ? width / factor : 1, out_height = height / factor > 0 ? height / factor : 1;
        if ((uint64_t)out_width * (uint64_t)out_height > CPIC_MAX_PIXELS) {
            say(error, error_size, "it is %d x %d pixels, too large to draw", width, height);
        } else {
            config.options.use_scaling = factor > 1;
            config.options.scaled_width = out_width;
            config.options.scaled_height = out_height;
            config.output.colorspace = MODE_RGBA;
            status = decode(bytes, count, &config);
            if (status != VP8_STATUS_OK) {
                say(error, error_size, "libwebp: %s", webp_status(status));
            } else {
                int w = config.output.width, h = config.output.height;
                unsigned char *pixels = malloc((size_t)w * (size_t)h * 4);
                if (!pixels) {
                    say(error, error_size, "there is not enough memory to draw it");
                } else {
                    for (int y = 0; y < h; y++)
                        memcpy(pixels + (size_t)y * (size_t)w * 4, config.output.u.RGBA.rgba + (size_t)y * (size_t)config.output.u.RGBA.stride,
                            (size_t)w * 4);
                    out->pixels = pixels;
                    out->width = w;
                    out->height = h;
                    out->original_width = width;
                    out->original_height = height;
                    result = 0;
                }
                free_buffer(&config.output);
            }
        }
    } else {
        say(error, error_size, "libwebp: the picture has no size");
    }
    if (demuxer) {
        release(&frame);
        demux_delete(demuxer);
    }
    return result;
}

int cpic_decode(const unsigned char *data, size_t size, int want_width, int want_height, cpic_image *out,
    char *error, size_t error_size) {
    memset(out, 0, sizeof *out);
    switch (cpic_format(data, size)) {
    case CPIC_FORMAT_JPEG: return decode_jpeg(data, size, want_width, want_height, out, error, error_size);
    case CPIC_FORMAT_PNG: return decode_png(data, size, want_width, want_height, out, error, error_size);
    case CPIC_FORMAT_GIF: return decode_gif(data, size, want_width, want_height, out, error, error_size);
    case CPIC_FORMAT_WEBP: return decode_webp(data, size, want_width, want_height, out, error, error_size);
    default: say(error, error_size, "it is not a PNG, JPEG, GIF or WebP picture"); return 1;
    }
}

void cpic_image_free(cpic_image *image) {
    if (!image) return;
    free(image->pixels);
    image->pixels = NULL;
}

// MARK: drawing (libchafa)

// libchafa's own header needs GLib's; the few functions used are declared here as the library
// exports them (its types are opaque pointers, its enums ints, GString a known struct).
typedef struct {
    char *str;
    size_t len;
    size_t allocated_len;
} chafa_gstring;

enum { CHAFA_PIXEL_RGBA8_UNASSOCIATED_ = 4 };
enum { CHAFA_SYMBOL_TAG_SPACE_ = 1 << 0, CHAFA_SYMBOL_TAG_BLOCK_ = 1 << 3, CHAFA_SYMBOL_TAG_BORDER_ = 1 << 4,
    CHAFA_SYMBOL_TAG_QUAD_ = 1 << 7, CHAFA_SYMBOL_TAG_HHALF_ = 1 << 8, CHAFA_SYMBOL_TAG_VHALF_ = 1 << 9 };
enum { CHAFA_CANVAS_MODE_TRUECOLOR_ = 0, CHAFA_CANVAS_MODE_INDEXED_256_ = 1, CHAFA_CANVAS_MODE_INDEXED_16_ = 3 };

char *cpic_draw(const cpic_image *image, int how, int colors, int columns, int rows, int cell_width, int cell_height,
    size_t *length, char *error, size_t error_size) {
    void *lib = load(&chafa_library, once_chafa, error, error_size);
    if (!lib) return NULL;
    void *(*config_new)(void);
    void (*config_unref)(void *);
    void (*set_geometry)(void *, int, int);
    void (*set_cell_geometry)(void *, int, int);
    void (*set_canvas_mode)(void *, int);
    void (*set_pixel_mode)(void *, int);
    void (*set_symbol_map)(void *, const void *);
    void *(*map_new)(void);
    void (*map_unref)(void *);
    void (*map_add)(void *, int);
    void *(*canvas_new)(const void *);
    void (*canvas_unref)(void *);
    void (*draw)(void *, int, const unsigned char *, int, int, int);
    chafa_gstring *(*print)(void *, void *);
    char *(*string_free)(chafa_gstring *, int);
    if (!FIND(lib, "chafa_canvas_config_new", config_new) || !FIND(lib, "chafa_canvas_config_unref", config_unref) ||
        !FIND(lib, "chafa_canvas_config_set_geometry", set_geometry) ||
        !FIND(lib, "chafa_canvas_config_set_cell_geometry", set_cell_geometry) ||
        !FIND(lib, "chafa_canvas_config_set_canvas_mode", set_canvas_mode) ||
        !FIND(lib, "chafa_canvas_config_set_pixel_mode", set_pixel_mode) ||
        !FIND(lib, "chafa_canvas_config_set_symbol_map", set_symbol_map) || !FIND(lib, "chafa_symbol_map_new", map_new) ||
        !FIND(lib, "chafa_symbol_map_unref", map_unref) || !FIND(lib, "chafa_symbol_map_add_by_tags", map_add) ||
        !FIND(lib, "chafa_canvas_new", canvas_new) || !FIND(lib, "chafa_canvas_unref", canvas_unref) ||
        !FIND(lib, "chafa_canvas_draw_all_pixels", draw) || !FIND(lib, "chafa_canvas_print", print) ||
        !FIND(lib, "g_string_free", string_free))
        return NULL;
    if (!image || !image->pixels || image->width <= 0 || image->height <= 0 || columns <= 0 || rows <= 0) {
        say(error, error_size, "nothing to draw");
        return NULL;
    }
    void *config = config_new();
    set_geometry(config, columns, rows);
    if (cell_width > 0 && cell_height > 0) set_cell_geometry(config, cell_width, cell_height);
    set_canvas_mode(config, colors == CPIC_COLORS_256   ? CHAFA_CANVAS_MODE_INDEXED_256_
                            : colors == CPIC_COLORS_16  ? CHAFA_CANVAS_MODE_INDEXED_16_
                                                        : CHAFA_CANVAS_MODE_TRUECOLOR_);
    set_pixel_mode(config, how);
    void *map = map_new();
    map_add(map, CHAFA_SYMBOL_TAG_SPACE_ | CHAFA_SYMBOL_TAG_BLOCK_ | CHAFA_SYMBOL_TAG_BORDER_ | CHAFA_SYMBOL_TAG_QUAD_ |
                     CHAFA_SYMBOL_TAG_HHALF_ | CHAFA_SYMBOL_TAG_VHALF_);
    set_symbol_map(config, map);
    void *canvas = canvas_new(config);
    char *result = NULL;
    if (canvas) {
        draw(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED_, image->pixels, image->width, image->height, image->width * 4);
        chafa_gstring *printed = print(canvas, NULL);
        if (printed) {
            result = malloc(printed->len + 1);
            if (result) {
                memcpy(result, printed->str, printed->len);
                result[printed->len] = 0;
                *length = printed->len;
            } else {
                say(error, error_size, "there is not enough memory to draw it");
            }
            string_free(printed, 1);
        } else {
            say(error, error_size, "libchafa drew nothing");
        }
        canvas_unref(canvas);
    } else {
        say(error, error_size, "libchafa could not make a canvas of %d x %d cells", columns, rows);
    }
    map_unref(map);
    config_unref(config);
    return result;
}

void cpic_free(char *bytes) { free(bytes); }
