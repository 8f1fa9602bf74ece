#ifndef CCRYPTO_H
#define CCRYPTO_H

#include <stddef.h>
#include <stdint.h>

// OpenSSL's libcrypto (already on every machine cyd runs on: libcurl's TLS uses it), loaded on
// first use (dlopen) like libcurl and libgit2: SHA-256 and SHA-512, Ed25519 keys, signatures and
// verification, and random bytes. Nothing is compiled in, so the reader's build pays nothing.

/// Loads libcrypto once; 1 on success, 0 on failure (see ccrypto_load_error).
int ccrypto_load(void);
const char *ccrypto_load_error(void);

/// SHA-256 of `count` bytes into `digest` (32 bytes); 1 on success.
int ccrypto_sha256(const uint8_t *bytes, size_t count, uint8_t *digest);
/// SHA-512 of `count` bytes into `digest` (64 bytes); 1 on success.
int ccrypto_sha512(const uint8_t *bytes, size_t count, uint8_t *digest);
/// `count` random bytes from the system's generator; 1 on success.
int ccrypto_random(uint8_t *bytes, size_t count);
/// The Ed25519 public key (32 bytes) of a 32-byte seed; 1 on success.
int ccrypto_ed25519_public_key(const uint8_t *seed, uint8_t *public_key);
/// Signs `count` bytes with the key of a 32-byte seed into `signature` (64 bytes); 1 on success.
int ccrypto_ed25519_sign(const uint8_t *seed, const uint8_t *message, size_t count, uint8_t *signature);
/// 1 when `signature` (64 bytes) is the public key's signature of the message, else 0.
int ccrypto_ed25519_verify(const uint8_t *public_key, const uint8_t *message, size_t count, const uint8_t *signature);

#endif
