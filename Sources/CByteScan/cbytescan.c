#include "cbytescan.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define CBS_VECTORS 1
#endif

// Length of the valid UTF-8 sequence at `i` (2 to 4; `bytes[i]` is 0x80 or more), or 0.
static inline size_t utf8_length(const uint8_t *p, size_t i, size_t n) {
    uint8_t b0 = p[i];
#define CONT(k) ((k) < n && (p[k] & 0xC0) == 0x80)
    if (b0 >= 0xC2 && b0 <= 0xDF) return CONT(i + 1) ? 2 : 0;
    if (b0 >= 0xE0 && b0 <= 0xEF) {
        if (!CONT(i + 1) || !CONT(i + 2)) return 0;
        if (b0 == 0xE0 && p[i + 1] < 0xA0) return 0; // overlong
        if (b0 == 0xED && p[i + 1] >= 0xA0) return 0; // surrogate
        return 3;
    }
    if (b0 >= 0xF0 && b0 <= 0xF4) {
        if (!CONT(i + 1) || !CONT(i + 2) || !CONT(i + 3)) return 0;
        if (b0 == 0xF0 && p[i + 1] < 0x90) return 0; // overlong
        if (b0 == 0xF4 && p[i + 1] >= 0x90) return 0; // past U+10FFFF
        return 4;
    }
#undef CONT
    return 0;
}

// Both scans share one shape: a byte that may need looking at is passed to `step`, which gives
// the place after it, or 0 to stop there (a step always moves forward, so 0 is never a place
// after). With vectors, a block's candidates are walked in its bit mask without loading it
// again; a step that passes the end of the block (a character or escape across it) is followed
// by the next block from where it ended. A block may be read past `n` up to `limit` (the bytes
// there are readable), its bits from `n` on cleared: a short string is one block.
#define CBS_SCAN(STOPMASK, STEP)                                                                  \
    do {                                                                                          \
        while (i < n && i + 16 <= limit) {                                                        \
            __m128i x = _mm_loadu_si128((const __m128i *)(p + i));                                \
            unsigned mask = (unsigned)_mm_movemask_epi8(STOPMASK);                                \
            if (n - i < 16) mask &= (1u << (n - i)) - 1;                                          \
            size_t block = i;                                                                     \
            while (mask != 0) {                                                                   \
                size_t k = block + (size_t)__builtin_ctz(mask);                                   \
                mask &= mask - 1;                                                                 \
                if (k < i) continue;                                                              \
                size_t next = STEP(p, k, n);                                                      \
                if (next == 0) return k;                                                          \
                i = next;                                                                         \
            }                                                                                     \
            if (i < block + 16) i = block + 16;                                                   \
        }                                                                                         \
        if (i > n) i = n;                                                                         \
    } while (0)

// The place after a byte of a JSON string that needs looking at, or 0 to stop at it.
static inline size_t json_string_step(const uint8_t *p, size_t i, size_t n, unsigned *escapes) {
    uint8_t b = p[i];
    if (b < 0x80) {
        if (b == '"' || b < 0x20) return 0;
        if (b == '\\') {
            if (i + 1 >= n) return 0;
            switch (p[i + 1]) {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
                *escapes = 1;
                return i + 2;
            default:
                return 0;
            }
        }
        return i + 1;
    }
    size_t length = utf8_length(p, i, n);
    return length == 0 ? 0 : i + length;
}

size_t cbs_json_string_stop(const uint8_t *p, size_t i, size_t n, unsigned *escapes) {
#ifdef CBS_VECTORS
    const size_t limit = n;
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), space = _mm_set1_epi8(0x20);
    // A signed compare: below 0x20, or 0x80 and above (negative).
#define JSON_MASK _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)), _mm_cmplt_epi8(x, space))
#define JSON_STEP(p, k, n) json_string_step(p, k, n, escapes)
    CBS_SCAN(JSON_MASK, JSON_STEP);
#undef JSON_MASK
#undef JSON_STEP
#endif
    return cbs_json_string_stop_bytewise(p, i, n, escapes);
}

size_t cbs_json_string_stop_bytewise(const uint8_t *p, size_t i, size_t n, unsigned *escapes) {
    while (i < n) {
        if (p[i] >= 0x20 && p[i] < 0x80 && p[i] != '"' && p[i] != '\\') {
            i += 1;
            continue;
        }
        size_t next = json_string_step(p, i, n, escapes);
        if (next == 0) return i;
        i = next;
    }
    return n;
}

static inline int is_bidi_control(uint32_t v) { return (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069); }

// The place after a byte of a string's content that needs looking at, or 0 to stop at it.
static inline size_t text_scan_step(const uint8_t *p, size_t i, size_t n) {
    uint8_t b = p[i];
    if (b < 0x80) {
        if (b == '\\') return (i + 1 < n && p[i + 1] != 'u') ? i + 2 : 0;
        if (b == '[' || b < 0x20 || b == 0x7F) return 0;
        return i + 1;
    }
    if (b == 0xC2) {
        if (i + 1 >= n || (p[i + 1] >= 0x80 && p[i + 1] <= 0x9F)) return 0;
        return i + 2;
    }
    if (b == 0xE2) {
        if (i + 2 >= n) return 0;
        uint32_t v = (uint32_t)(b & 0x0F) << 12 | (uint32_t)(p[i + 1] & 0x3F) << 6 | (uint32_t)(p[i + 2] & 0x3F);
        return is_bidi_control(v) ? 0 : i + 3;
    }
    i += 1;
    while (i < n && (p[i] & 0xC0) == 0x80) i += 1;
    return i;
}

size_t cbs_text_scan_stop(const uint8_t *p, size_t i, size_t n, size_t limit) {
#ifdef CBS_VECTORS
    const __m128i backslash = _mm_set1_epi8('\\'), bracket = _mm_set1_epi8('['), space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
#define TEXT_MASK                                                                                 \
    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, backslash), _mm_cmpeq_epi8(x, bracket)),          \
                 _mm_or_si128(_mm_cmpeq_epi8(x, del), _mm_cmplt_epi8(x, space)))
    CBS_SCAN(TEXT_MASK, text_scan_step);
#undef TEXT_MASK
#else
    (void)limit;
#endif
    return cbs_text_scan_stop_bytewise(p, i, n);
}

size_t cbs_text_scan_stop_bytewise(const uint8_t *p, size_t i, size_t n) {
    while (i < n) {
        if (p[i] >= 0x20 && p[i] < 0x7F && p[i] != '[' && p[i] != '\\') {
            i += 1;
            continue;
        }
        size_t next = text_scan_step(p, i, n);
        if (next == 0) return i;
        i = next;
    }
    return n;
}
