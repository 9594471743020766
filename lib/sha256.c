// SPDX-License-Identifier: GPL-2.0
/*
 * sha256.c - SHA-256 (OpenSSL's EVP) of a file or a buffer. The build facts
 * name the bzImage by it, and each boot record names the bzImage it booted,
 * so the report can tell a boot of an earlier build; the Kconfig probe cache
 * (lib/probes.c) names its entries by it. Linked only into the tools that
 * need it (they add -lcrypto).
 */
#include "kf.h"

#include <openssl/evp.h>
#include <stdio.h>

static void to_hex(const unsigned char *md, unsigned int mdlen, char hex[65])
{
	unsigned int i;

	for (i = 0; i < mdlen && i < 32; i++)
		snprintf(hex + (size_t)2 * i, 3, "%02x", md[i]);
}

void kf_sha256_mem(const void *data, size_t len, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;

	hex[0] = '\0';
	if (EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL) != 1)
		kf_die(2, "SHA-256 failed (OpenSSL)");
	to_hex(md, mdlen, hex);
}

long long kf_sha256_file(const char *path, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE], buf[65536];
	unsigned int mdlen = 0;
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
	to_hex(md, mdlen, hex);
	return total;
}
