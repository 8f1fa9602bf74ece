#include "ccrypto.h"

#include <dlfcn.h>
#include <pthread.h>

// Only the few functions used, declared by shape (OpenSSL's types are opaque here).
#define ED25519_TYPE 1087 /* EVP_PKEY_ED25519 (NID_ED25519) */

static struct {
    const void *(*sha256)(void);
    const void *(*sha512)(void);
    int (*digest)(const void *, size_t, unsigned char *, unsigned int *, const void *, void *);
    int (*rand_bytes)(unsigned char *, int);
    void *(*new_raw_private_key)(int, void *, const unsigned char *, size_t);
    void *(*new_raw_public_key)(int, void *, const unsigned char *, size_t);
    int (*get_raw_public_key)(const void *, unsigned char *, size_t *);
    void (*pkey_free)(void *);
    void *(*md_ctx_new)(void);
    void (*md_ctx_free)(void *);
    int (*digest_sign_init)(void *, void **, const void *, void *, void *);
    int (*digest_sign)(void *, unsigned char *, size_t *, const unsigned char *, size_t);
    int (*digest_verify_init)(void *, void **, const void *, void *, void *);
    int (*digest_verify)(void *, const unsigned char *, size_t, const unsigned char *, size_t);
} crypto;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static const char *load_error = "libcrypto was not loaded";

static void load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcrypto.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        load_error = "libcrypto.so.3 was not found (install libssl3, OpenSSL's library)";
        return;
    }
#define LOAD(field, name)                           \
    *(void **)(&crypto.field) = dlsym(library, name); \
    if (!crypto.field) {                            \
        load_error = "libcrypto lacks " name " (OpenSSL 1.1.1 or later is needed)"; \
        return;                                     \
    }
    LOAD(sha256, "EVP_sha256")
    LOAD(sha512, "EVP_sha512")
    LOAD(digest, "EVP_Digest")
    LOAD(rand_bytes, "RAND_bytes")
    LOAD(new_raw_private_key, "EVP_PKEY_new_raw_private_key")
    LOAD(new_raw_public_key, "EVP_PKEY_new_raw_public_key")
    LOAD(get_raw_public_key, "EVP_PKEY_get_raw_public_key")
    LOAD(pkey_free, "EVP_PKEY_free")
    LOAD(md_ctx_new, "EVP_MD_CTX_new")
    LOAD(md_ctx_free, "EVP_MD_CTX_free")
    LOAD(digest_sign_init, "EVP_DigestSignInit")
    LOAD(digest_sign, "EVP_DigestSign")
    LOAD(digest_verify_init, "EVP_DigestVerifyInit")
    LOAD(digest_verify, "EVP_DigestVerify")
#undef LOAD
    loaded = 1;
}

int ccrypto_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *ccrypto_load_error(void) { return load_error; }

int ccrypto_sha256(const uint8_t *bytes, size_t count, uint8_t *digest) {
    if (!ccrypto_load()) return 0;
    unsigned int size = 0;
    return crypto.digest(bytes, count, digest, &size, crypto.sha256(), NULL) == 1 && size == 32;
}

int ccrypto_sha512(const uint8_t *bytes, size_t count, uint8_t *digest) {
    if (!ccrypto_load()) return 0;
    unsigned int size = 0;
    return crypto.digest(bytes, count, digest, &size, crypto.sha512(), NULL) == 1 && size == 64;
}

int ccrypto_random(uint8_t *bytes, size_t count) {
    if (!ccrypto_load() || count > 0x7fffffff) return 0;
    return crypto.rand_bytes(bytes, (int)count) == 1;
}

int ccrypto_ed25519_public_key(const uint8_t *seed, uint8_t *public_key) {
    if (!ccrypto_load()) return 0;
    void *key = crypto.new_raw_private_key(ED25519_TYPE, NULL, seed, 32);
    if (!key) return 0;
    size_t size = 32;
    int ok = crypto.get_raw_public_key(key, public_key, &size) == 1 && size == 32;
    crypto.pkey_free(key);
    return ok;
}

int ccrypto_ed25519_sign(const uint8_t *seed, const uint8_t *message, size_t count, uint8_t *signature) {
    if (!ccrypto_load()) return 0;
    void *key = crypto.new_raw_private_key(ED25519_TYPE, NULL, seed, 32);
    if (!key) return 0;
    void *context = crypto.md_ctx_new();
    size_t size = 64;
    int ok = context && crypto.digest_sign_init(context, NULL, NULL, NULL, key) == 1
        && crypto.digest_sign(context, signature, &size, message, count) == 1 && size == 64;
    if (context) crypto.md_ctx_free(context);
    crypto.pkey_free(key);
    return ok;
}

int ccrypto_ed25519_verify(const uint8_t *public_key, const uint8_t *message, size_t count, const uint8_t *signature) {
    if (!ccrypto_load()) return 0;
    void *key = crypto.new_raw_public_key(ED25519_TYPE, NULL, public_key, 32);
    if (!key) return 0;
    void *context = crypto.md_ctx_new();
    int ok = context && crypto.digest_verify_init(context, NULL, NULL, NULL, key) == 1
        && crypto.digest_verify(context, signature, 64, message, count) == 1;
    if (context) crypto.md_ctx_free(context);
    crypto.pkey_free(key);
    return ok;
}
