#ifndef DITTO_COPENSSL_H
#define DITTO_COPENSSL_H

// The few libcrypto (OpenSSL 3) calls BackupCrypto makes on Linux, loaded with dlopen on first use
// instead of linked: loading and relocating libcrypto at every start costs about 1.5 ms, a large
// share of a typical run, and only encrypted backups need it. Each function returns 0 (or NULL) when
// the library could not be loaded; ditto_crypto_load says why.

#include <stddef.h>
#include <stdint.h>

/// Loads libcrypto once (thread-safe). Returns 1 when loaded; otherwise 0 and, when `reason` is not
/// NULL, a message (from dlerror) in `reason` (at most `size` bytes, NUL-terminated).
int ditto_crypto_load(char *reason, size_t size);

/// EVP_CIPHER_CTX_new; NULL on failure.
void *ditto_cipher_context_new(void);
/// EVP_CIPHER_CTX_free.
void ditto_cipher_context_free(void *context);
/// Sets up `context` for AES in CBC mode (wrap = 0, no padding) or RFC 3394 key wrap (wrap = 1)
/// with a key of `key_bytes` (16, 24 or 32) bytes; `iv` may be NULL. Returns 1 on success.
int ditto_cipher_init(void *context, int wrap, const uint8_t *key, int key_bytes, const uint8_t *iv,
                      int encrypt);
/// EVP_CipherUpdate. Returns 1 on success.
int ditto_cipher_update(void *context, uint8_t *out, int *out_length, const uint8_t *in,
                        int in_length);
/// EVP_CipherFinal_ex. Returns 1 on success.
int ditto_cipher_final(void *context, uint8_t *out, int *out_length);
/// PKCS5_PBKDF2_HMAC with SHA-1 (sha256 = 0) or SHA-256 (sha256 = 1). Returns 1 on success.
int ditto_pbkdf2(const char *password, int password_length, const uint8_t *salt, int salt_length,
                 int iterations, int sha256, int key_length, uint8_t *out);

#endif
