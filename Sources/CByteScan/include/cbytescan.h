#ifndef CBYTESCAN_H
#define CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

// Scans of a story file's string bytes, sixteen bytes at a time where the processor has vector
// registers (SSE2 on x86-64, which every x86-64 processor has), a byte at a time elsewhere. Both
// return the first place the Swift caller must look at itself; every byte passed over is one
// the caller would have passed over, and multi-byte characters are passed whole, so the places
// the caller sees are the ones its own byte-at-a-time loop would reach.

/// Inside a JSON string, from `from` (before `to`): the first '"', byte below 0x20, byte that
/// does not begin valid UTF-8 (overlong forms, surrogates and values past U+10FFFF are not
/// valid), or '\\' that does not begin one of the escapes \" \\ \/ \b \f \n \r \t (those are
/// passed, and `*escapes` set to 1); `to` when there is none.
size_t cbs_json_string_stop(const uint8_t *bytes, size_t from, size_t to, unsigned *escapes);

/// Inside a string's content, for the text rules, from `from` (before `to`): the first '\\'
/// that begins \u or ends the content (any other '\\' is passed with the byte after it), '[',
/// byte below 0x20, 0x7F, C1 control (C2 80..C2 9F), bidi control (E2 80 AA..E2 80 AE, E2 81
/// A6..E2 81 A9), or 0xC2/0xE2 too near `to` to be read whole; `to` when there is none.
/// Any other byte of 0x80 or more is passed with the continuation bytes (0x80..0xBF) after it.
/// The bytes up to `limit` (at least `to`) may be read, never looked at past `to`.
size_t cbs_text_scan_stop(const uint8_t *bytes, size_t from, size_t to, size_t limit);

/// The same two scans a byte at a time: what a processor without SSE2 runs (and the end of a
/// string too short for a block), callable here so that the tests check it on any processor.
size_t cbs_json_string_stop_bytewise(const uint8_t *bytes, size_t from, size_t to, unsigned *escapes);
size_t cbs_text_scan_stop_bytewise(const uint8_t *bytes, size_t from, size_t to);

#endif
