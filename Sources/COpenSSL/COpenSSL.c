#include "COpenSSL.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// Function pointers typed from OpenSSL's own header, so a signature mismatch fails the build.
static struct {
  __typeof__(&EVP_CIPHER_CTX_new) context_new;
  __typeof__(&EVP_CIPHER_CTX_free) context_free;
  __typeof__(&EVP_CIPHER_CTX_set_flags) set_flags;
  __typeof__(&EVP_CIPHER_CTX_set_padding) set_padding;
  __typeof__(&EVP_CipherInit_ex) init;
  __typeof__(&EVP_CipherUpdate) update;
  __typeof__(&EVP_CipherFinal_ex) final;
  __typeof__(&EVP_aes_128_cbc) aes_128_cbc;
  __typeof__(&EVP_aes_192_cbc) aes_192_cbc;
  __typeof__(&EVP_aes_256_cbc) aes_256_cbc;
  __typeof__(&EVP_aes_128_wrap) aes_128_wrap;
  __typeof__(&EVP_aes_192_wrap) aes_192_wrap;
  __typeof__(&EVP_aes_256_wrap) aes_256_wrap;
  __typeof__(&EVP_sha1) sha1;
  __typeof__(&EVP_sha256) sha256;
  __typeof__(&PKCS5_PBKDF2_HMAC) pbkdf2;
} crypto;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded = 0;
static char load_error[256] = "";

static void *symbol(void *library, const char *name, int *missing) {
  void *found = dlsym(library, name);
  if (found == NULL && *missing == 0) {
    *missing = 1;
    snprintf(load_error, sizeof load_error, "libcrypto has no %s", name);
  }
  return found;
}

static void load(void) {
  // OpenSSL 3 (Debian 12 and later); the major version fixes the ABI we were built against.
  void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *why = dlerror();
    snprintf(load_error, sizeof load_error, "%s", why ? why : "libcrypto.so.3 could not be loaded");
    return;
  }
  int missing = 0;
#define LOAD(field, name) crypto.field = (__typeof__(crypto.field))symbol(library, #name, &missing)
  LOAD(context_new, EVP_CIPHER_CTX_new);
  LOAD(context_free, EVP_CIPHER_CTX_free);
  LOAD(set_flags, EVP_CIPHER_CTX_set_flags);
  LOAD(set_padding, EVP_CIPHER_CTX_set_padding);
  LOAD(init, EVP_CipherInit_ex);
  LOAD(update, EVP_CipherUpdate);
  LOAD(final, EVP_CipherFinal_ex);
  LOAD(aes_128_cbc, EVP_aes_128_cbc);
  LOAD(aes_192_cbc, EVP_aes_192_cbc);
  LOAD(aes_256_cbc, EVP_aes_256_cbc);
  LOAD(aes_128_wrap, EVP_aes_128_wrap);
  LOAD(aes_192_wrap, EVP_aes_192_wrap);
  LOAD(aes_256_wrap, EVP_aes_256_wrap);
  LOAD(sha1, EVP_sha1);
  LOAD(sha256, EVP_sha256);
  LOAD(pbkdf2, PKCS5_PBKDF2_HMAC);
#undef LOAD
  loaded = !missing;
}

int ditto_crypto_load(char *reason, size_t size) {
  pthread_once(&load_once, load);
  if (!loaded && reason != NULL && size > 0) {
    snprintf(reason, size, "%s", load_error);
  }
  return loaded;
}

void *ditto_cipher_context_new(void) {
  return ditto_crypto_load(NULL, 0) ? crypto.context_new() : NULL;
}

void ditto_cipher_context_free(void *context) {
  if (context != NULL && ditto_crypto_load(NULL, 0)) crypto.context_free(context);
}

int ditto_cipher_init(void *context, int wrap, const uint8_t *key, int key_bytes, const uint8_t *iv,
                      int encrypt) {
  if (context == NULL || !ditto_crypto_load(NULL, 0)) return 0;
  const EVP_CIPHER *cipher = NULL;
  switch (key_bytes) {
    case 16: cipher = wrap ? crypto.aes_128_wrap() : crypto.aes_128_cbc(); break;
    case 24: cipher = wrap ? crypto.aes_192_wrap() : crypto.aes_192_cbc(); break;
    case 32: cipher = wrap ? crypto.aes_256_wrap() : crypto.aes_256_cbc(); break;
    default: return 0;
  }
  // OpenSSL 1.1 refuses wrap modes unless this flag is set; 3.x accepts it.
  if (wrap) crypto.set_flags(context, EVP_CIPHER_CTX_FLAG_WRAP_ALLOW);
  if (crypto.init(context, cipher, NULL, key, iv, encrypt) != 1) return 0;
  return wrap ? 1 : crypto.set_padding(context, 0);
}

int ditto_cipher_update(void *context, uint8_t *out, int *out_length, const uint8_t *in,
                        int in_length) {
  if (context == NULL || !ditto_crypto_load(NULL, 0)) return 0;
  return crypto.update(context, out, out_length, in, in_length);
}

int ditto_cipher_final(void *context, uint8_t *out, int *out_length) {
  if (context == NULL || !ditto_crypto_load(NULL, 0)) return 0;
  return crypto.final(context, out, out_length);
}

int ditto_pbkdf2(const char *password, int password_length, const uint8_t *salt, int salt_length,
                 int iterations, int sha256, int key_length, uint8_t *out) {
  if (!ditto_crypto_load(NULL, 0)) return 0;
  const EVP_MD *digest = sha256 ? crypto.sha256() : crypto.sha1();
  return crypto.pbkdf2(password, password_length, salt, salt_length, iterations, digest, key_length,
                       out);
}

#else
// Apple platforms use CommonCrypto; this target is not built there.
int ditto_crypto_load(char *reason, size_t size) {
  if (reason != NULL && size > 0) reason[0] = 0;
  return 0;
}
#endif
