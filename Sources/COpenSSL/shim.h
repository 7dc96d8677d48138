// OpenSSL's libcrypto (Debian: libssl-dev), for BackupCrypto on Linux. Only the EVP interface is used:
// PKCS5_PBKDF2_HMAC, AES key wrap (RFC 3394) and AES-CBC.
#include <openssl/evp.h>
