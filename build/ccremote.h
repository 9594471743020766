/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ccremote.h - ccache_remote, the shared compiler cache (docs/build.md "A
 * shared compiler cache"): the setting's URL, what ccache is given for it,
 * the URL as every message shows it (password as ***), and a Redis probe.
 * The setting reaches the tools in the environment (KF_CCACHE_REMOTE),
 * never on a command line, so the password is in no ps output of ours.
 */
#ifndef KF_CCREMOTE_H
#define KF_CCREMOTE_H

#include <stddef.h>

/* The environment variable build.mk hands the setting in. */
#define CCR_ENV "KF_CCACHE_REMOTE"
/*
 * ccache's timeouts for the remote (its remote_storage attributes, ms): a
 * server that does not answer costs each compile at most these, then the
 * compile goes on with the local cache (ccache 4.7 has no backoff shared
 * between its processes).
 */
#define CCR_CONNECT_MS 200
#define CCR_OPERATION_MS 1000

/* redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] */
struct ccr_url {
	char user[64];		/* a Redis ACL user, "" for the default user */
	char password[128];	/* "" for none */
	char host[256];
	int port;		/* 6379 when not given */
	int db;			/* -1 when not given */
};

/*
 * Parse ccache_remote's value. 0 on success; -1 with err holding a
 * one-line message that names the fix and shows the URL redacted.
 */
int ccr_parse(const char *url, struct ccr_url *u, char *err, size_t n);

/* The URL as messages and records show it: "redis://:***@HOST:PORT". */
void ccr_redacted(const struct ccr_url *u, char *out, size_t n);

/*
 * Any string that may be a URL, redacted without parsing it: what lies
 * between "://" and the last '@' before the host becomes ":***".
 */
void ccr_redact_raw(const char *url, char *out, size_t n);

/*
 * ccache's remote_storage value (CCACHE_REMOTE_STORAGE): ccache 4.7 takes
 * "redis://PASSWORD@HOST" (it sends no AUTH for ":PASSWORD@"), with
 * timeouts as attributes.
 */
void ccr_ccache_value(const struct ccr_url *u, char *out, size_t n);

/* 1 when `ccache --version` output lists its Redis backend (redis-storage). */
int ccr_ccache_has_redis(const char *version_text);

/* Outcome of ccr_probe. */
enum ccr_status {
	CCR_OK = 0,
	CCR_NO_ANSWER,		/* no connection, or no reply in time */
	CCR_BAD_PASSWORD,	/* AUTH refused */
	CCR_NEEDS_PASSWORD,	/* the server asks for one, the URL has none */
	CCR_NO_PASSWORD_SET,	/* the URL has one, the server has none */
	CCR_BAD_REPLY,		/* not a Redis server's answer */
	CCR_FULL,		/* SET refused: memory full, nothing evicted */
};

/*
 * Connect, AUTH when the URL has a password, PING, and with set_test a SET
 * of a key of kflavour's own ("kflavour:cache-check", expiring in 60 s);
 * the whole within timeout_ms. msg gets a one-line description (the URL
 * redacted).
 */
enum ccr_status ccr_probe(const struct ccr_url *u, int timeout_ms, int set_test,
			  char *msg, size_t n);

/*
 * The remote's part in each compiler call of a ccache 4.7 stats log
 * (CCACHE_STATSLOG: "# FILE", then the counters the call raised, one a
 * line), calls on /dev/null left out as in kb_ccache_count. A call is one
 * of: a hit (remote_storage_hit), an error (remote_storage_error: refused,
 * reset, a server stopped past the operation timeout, a store refused), a
 * timeout (remote_storage_timeout), a miss (remote_storage_miss, or in
 * depend mode only remote_storage_read_miss); stored counts the calls that
 * wrote to it (remote_storage_write).
 */
struct ccr_counts {
	long hits;
	long misses;
	long errors;
	long timeouts;
	long stored;
};
void ccr_count(const char *log_text, struct ccr_counts *c);

#endif /* KF_CCREMOTE_H */
