// SPDX-License-Identifier: GPL-2.0
/*
 * sha256.c - a file's SHA-256 (OpenSSL's EVP): the build facts name the
 * bzImage by it, and each boot record names the bzImage it booted, so the
 * report can tell a boot of an earlier build. Linked only into the tools
 * that need it (they add -lcrypto).
 */
#include "kf.h"

#include <openssl/evp.h>
#include <stdio.h>

long long kf_sha256_file(const char *path, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE], buf[65536];
	unsigned int mdlen = 0, i;
	long long total = 0;
	EVP_MD_CTX *ctx;
	FILE *f = fopen(path, "rb");
	size_t n;

	hex[0] = '\0';
	if (!f)
		return -1;
	ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		EVP_MD_CTX_free(ctx);
		fclose(f);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		EVP_DigestUpdate(ctx, buf, n);
		total += (long long)n;
	}
	if (ferror(f) || EVP_DigestFinal_ex(ctx, md, &mdlen) != 1) {
		EVP_MD_CTX_free(ctx);
		fclose(f);
		return -1;
	}
	EVP_MD_CTX_free(ctx);
	fclose(f);
	for (i = 0; i < mdlen && i < 32; i++)
		snprintf(hex + (size_t)2 * i, 3, "%02x", md[i]);
	return total;
}
