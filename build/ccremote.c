// SPDX-License-Identifier: GPL-2.0
/* ccremote.c - ccache_remote's URL, ccache's value for it, a Redis probe. */
#include "ccremote.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define FORM "redis://[:PASSWORD@]HOST[:PORT]"

void ccr_redact_raw(const char *url, char *out, size_t n)
{
	const char *s = strstr(url, "://"), *host, *at = NULL;

	if (!s) {
		/* no scheme: an '@' still hides what comes before it */
		at = strrchr(url, '@');
		snprintf(out, n, "%s%s", at ? "***" : "", at ? at : url);
		return;
	}
	host = s + 3;
	for (const char *p = host; *p && *p != '/'; p++)
		if (*p == '@')
			at = p;
	if (at)
		snprintf(out, n, "%.*s:***%s", (int)(host - url), url, at);
	else
		snprintf(out, n, "%s", url);
}

static int fail(char *err, size_t n, const char *url, const char *fmt, const char *what)
{
	char r[512], m[512];

	ccr_redact_raw(url, r, sizeof(r));
	snprintf(m, sizeof(m), fmt, what);
	snprintf(err, n, "ccache_remote=%s: %s", r, m);
	return -1;
}

/* The characters a password may hold: none ccache's setting or a URL splits on. */
static int password_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '~' || c == '-';
}

static int host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '-';
}

/* digits only, in [lo, hi]; -1 otherwise */
static long number(const char *s, size_t l, long lo, long hi)
{
	long v = 0;

	if (l == 0 || l > 6)
		return -1;
	for (size_t i = 0; i < l; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v < lo || v > hi ? -1 : v;
}

int ccr_parse(const char *url, struct ccr_url *u, char *err, size_t n)
{
	const char *s, *auth, *at = NULL, *host, *hend, *colon, *slash;
	size_t l;

	memset(u, 0, sizeof(*u));
	u->port = 6379;
	u->db = -1;
	if (!url || !*url)
		return fail(err, n, "", "empty; give " FORM "%s", "");
	s = strstr(url, "://");
	if (!s)
		return fail(err, n, url, "not a URL; give %s", FORM);
	if (strncmp(url, "redis", 5) != 0 || s != url + 5) {
		char scheme[32];

		snprintf(scheme, sizeof(scheme), "%.*s", (int)(s - url < 20 ? s - url : 20), url);
		if (strcmp(scheme, "rediss") == 0)
			return fail(err, n, url, "TLS (rediss://) is not in ccache 4.7's Redis backend; "
				    "give %s on a trusted network", FORM);
		return fail(err, n, url, "unknown scheme '%s://'; kflavour's shared cache is "
			    "ccache's Redis backend: give " FORM, scheme);
	}
	auth = s + 3;
	if (strpbrk(auth, " \t\n|?#"))
		return fail(err, n, url, "blanks, '|', '?' and '#' have no place in it; give %s", FORM);
	for (const char *p = auth; *p && *p != '/'; p++)
		if (*p == '@')
			at = p;
	host = auth;
	if (at) {
		const char *c = memchr(auth, ':', (size_t)(at - auth));

		if (!c)
			return fail(err, n, url, "'X@' before the host names a user without a password; "
				    "write the password after a colon: %s", FORM);
		l = (size_t)(c - auth);
		if (l >= sizeof(u->user))
			return fail(err, n, url, "the user name is too long%s", "");
		for (size_t i = 0; i < l; i++)
			if (!password_char(auth[i]))
				return fail(err, n, url, "the user name may hold only letters, digits and . _ ~ -%s", "");
		memcpy(u->user, auth, l);
		l = (size_t)(at - c - 1);
		if (l == 0)
			return fail(err, n, url, "the password after ':' is empty; give %s, or no '@' for a server without one", FORM);
		if (l >= sizeof(u->password))
			return fail(err, n, url, "the password is longer than 127 characters%s", "");
		for (size_t i = 0; i < l; i++)
			if (!password_char(c[1 + i]))
				return fail(err, n, url, "the password may hold only letters, digits and "
					    ". _ ~ - (ccache splits its setting on '|' and blanks); make one with "
					    "'openssl rand -hex 16'%s", "");
		memcpy(u->password, c + 1, l);
		host = at + 1;
	}
	slash = strchr(host, '/');
	hend = slash ? slash : host + strlen(host);
	if (*host == '[')
		return fail(err, n, url, "IPv6 addresses are not taken; give an IPv4 address or a name: %s", FORM);
	colon = memchr(host, ':', (size_t)(hend - host));
	l = (size_t)((colon ? colon : hend) - host);
	if (l == 0)
		return fail(err, n, url, "no host; give %s", FORM);
	if (l >= sizeof(u->host))
		return fail(err, n, url, "the host name is too long%s", "");
	for (size_t i = 0; i < l; i++)
		if (!host_char(host[i]))
			return fail(err, n, url, "the host may hold only letters, digits, '.' and '-'; give %s", FORM);
	memcpy(u->host, host, l);
	if (colon) {
		long p = number(colon + 1, (size_t)(hend - colon - 1), 1, 65535);

		if (p < 0)
			return fail(err, n, url, "the port must be a number from 1 to 65535 (Redis: 6379)%s", "");
		u->port = (int)p;
	}
	if (slash && slash[1]) {
		long d = number(slash + 1, strlen(slash + 1), 0, 9999);

		if (d < 0)
			return fail(err, n, url, "after the host only /DB, a database number, may follow; give %s", FORM);
		u->db = (int)d;
	}
	return 0;
}

void ccr_redacted(const struct ccr_url *u, char *out, size_t n)
{
	char db[16] = "";

	if (u->db >= 0)
		snprintf(db, sizeof(db), "/%d", u->db);
	snprintf(out, n, "redis://%s%s%s%s:%d%s", u->user, *u->password ? ":***" : "",
		 *u->password ? "@" : "", u->host, u->port, db);
}

void ccr_ccache_value(const struct ccr_url *u, char *out, size_t n)
{
	char db[16] = "";

	if (u->db >= 0)
		snprintf(db, sizeof(db), "/%d", u->db);
	snprintf(out, n, "redis://%s%s%s%s%s:%d%s|connect-timeout=%d|operation-timeout=%d",
		 u->user, *u->user ? ":" : "", u->password, *u->password ? "@" : "", u->host,
		 u->port, db, CCR_CONNECT_MS, CCR_OPERATION_MS);
}

int ccr_ccache_has_redis(const char *t)
{
	const char *p = t;

	while (p && *p) {
		size_t l = strcspn(p, "\n");

		if (strncmp(p, "Features:", 9) == 0) {
			for (const char *w = p + 9; w < p + l;) {
				size_t wl;

				w += strspn(w, " \t");
				wl = strcspn(w, " \t\n");
				if (wl == 13 && strncmp(w, "redis-storage", 13) == 0)
					return 1;
				w += wl;
			}
			return 0;
		}
		p = p[l] ? p + l + 1 : NULL;
	}
	return 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Connect within the deadline; the socket or -1 with errno. */
static int connect_by(const struct ccr_url *u, double deadline)
{
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM }, *ai = NULL;
	char port[8];
	int fd, r, e;

	snprintf(port, sizeof(port), "%d", u->port);
	r = getaddrinfo(u->host, port, &hints, &ai);
	if (r != 0 || !ai) {
		errno = EHOSTUNREACH;
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		freeaddrinfo(ai);
		return -1;
	}
	r = connect(fd, ai->ai_addr, ai->ai_addrlen);
	freeaddrinfo(ai);
	if (r < 0 && errno == EINPROGRESS) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		socklen_t el = sizeof(e);
		double left = deadline - now_ms();

		if (left < 1 || poll(&p, 1, (int)left) != 1) {
			close(fd);
			errno = ETIMEDOUT;
			return -1;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &el) < 0 || e != 0) {
			close(fd);
			errno = e ? e : EIO;
			return -1;
		}
		r = 0;
	}
	if (r < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* One reply line ("+OK", "-ERR ...") into line, within the deadline; 0 or -1. */
static int reply(int fd, double deadline, char *line, size_t n)
{
	size_t len = 0;

	while (len + 1 < n) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = deadline - now_ms();
		ssize_t got;

		if (left < 1 || poll(&p, 1, (int)left) != 1)
			return -1;
		got = read(fd, line + len, 1);
		if (got <= 0)
			return -1;
		if (line[len] == '\n') {
			line[len && line[len - 1] == '\r' ? len - 1 : len] = '\0';
			return 0;
		}
		len++;
	}
	line[len] = '\0';
	return 0;
}

static int send_all(int fd, const char *s, size_t l, double deadline)
{
	while (l) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		double left = deadline - now_ms();
		ssize_t w;

		if (left < 1 || poll(&p, 1, (int)left) != 1)
			return -1;
		w = send(fd, s, l, MSG_NOSIGNAL);
		if (w <= 0)
			return -1;
		s += w;
		l -= (size_t)w;
	}
	return 0;
}

enum ccr_status ccr_probe(const struct ccr_url *u, int timeout_ms, int set_test,
			  char *msg, size_t n)
{
	double deadline = now_ms() + timeout_ms;
	char red[512], cmd[512], line[256];
	enum ccr_status st = CCR_OK;
	int fd, l = 0;

	ccr_redacted(u, red, sizeof(red));
	fd = connect_by(u, deadline);
	if (fd < 0) {
		snprintf(msg, n, "%s does not answer (connect: %s)", red, strerror(errno));
		return CCR_NO_ANSWER;
	}
	/* AUTH [USER] PASSWORD, then PING: Redis's protocol, arrays of bulk strings */
	if (*u->password && *u->user)
		l = snprintf(cmd, sizeof(cmd), "*3\r\n$4\r\nAUTH\r\n$%zu\r\n%s\r\n$%zu\r\n%s\r\n",
			     strlen(u->user), u->user, strlen(u->password), u->password);
	else if (*u->password)
		l = snprintf(cmd, sizeof(cmd), "*2\r\n$4\r\nAUTH\r\n$%zu\r\n%s\r\n",
			     strlen(u->password), u->password);
	l += snprintf(cmd + l, sizeof(cmd) - (size_t)l, "*1\r\n$4\r\nPING\r\n");
	if (send_all(fd, cmd, (size_t)l, deadline) < 0) {
		snprintf(msg, n, "%s does not answer (send: %s)", red, strerror(errno));
		st = CCR_NO_ANSWER;
		goto out;
	}
	if (*u->password) {
		if (reply(fd, deadline, line, sizeof(line)) < 0) {
			snprintf(msg, n, "%s accepts connections but does not answer within %d ms", red, timeout_ms);
			st = CCR_NO_ANSWER;
			goto out;
		}
		if (strstr(line, "without any password configured") || strstr(line, "no password is set")) {
			snprintf(msg, n, "%s: the server has no password (requirepass) but the URL gives one: "
				 "set requirepass on the server (docs/build.md)", red);
			st = CCR_NO_PASSWORD_SET;
			goto out;
		}
		if (line[0] == '-') {
			snprintf(msg, n, "%s refuses the password (%.60s): give the server's requirepass", red, line + 1);
			st = CCR_BAD_PASSWORD;
			goto out;
		}
		if (strcmp(line, "+OK") != 0) {
			snprintf(msg, n, "%s does not answer as Redis does (%.40s)", red, line);
			st = CCR_BAD_REPLY;
			goto out;
		}
	}
	if (reply(fd, deadline, line, sizeof(line)) < 0) {
		snprintf(msg, n, "%s accepts connections but does not answer within %d ms", red, timeout_ms);
		st = CCR_NO_ANSWER;
	} else if (strncmp(line, "-NOAUTH", 7) == 0) {
		snprintf(msg, n, "%s asks for a password: give redis://:PASSWORD@%s:%d", red, u->host, u->port);
		st = CCR_NEEDS_PASSWORD;
	} else if (strcmp(line, "+PONG") != 0) {
		snprintf(msg, n, "%s does not answer as Redis does (%.40s)", red, line);
		st = CCR_BAD_REPLY;
	} else if (!set_test) {
		snprintf(msg, n, "%s answers%s", red, *u->password ? " and accepts the password" : "");
	} else {
		static const char set[] = "*5\r\n$3\r\nSET\r\n$20\r\nkflavour:cache-check\r\n"
					  "$1\r\n1\r\n$2\r\nEX\r\n$2\r\n60\r\n";

		if (send_all(fd, set, sizeof(set) - 1, deadline) < 0 ||
		    reply(fd, deadline, line, sizeof(line)) < 0) {
			snprintf(msg, n, "%s does not answer a SET within %d ms", red, timeout_ms);
			st = CCR_NO_ANSWER;
		} else if (strncmp(line, "-OOM", 4) == 0) {
			snprintf(msg, n, "%s refuses to store (%.70s): its memory is full and its policy "
				 "evicts nothing; give it maxmemory-policy allkeys-lru (docs/build.md)", red, line + 1);
			st = CCR_FULL;
		} else if (strcmp(line, "+OK") != 0) {
			snprintf(msg, n, "%s refuses to store (%.70s)", red, line[0] == '-' ? line + 1 : line);
			st = CCR_BAD_REPLY;
		} else {
			snprintf(msg, n, "%s answers%s and stores", red,
				 *u->password ? ", accepts the password" : "");
		}
	}
out:
	close(fd);
	return st;
}

/* One call's counters, as flags: what the call counts as. */
enum { R_HIT = 1, R_MISS = 2, R_ERROR = 4, R_TIMEOUT = 8, R_WRITE = 16 };

static void count_call(struct ccr_counts *c, int f)
{
	if (f & R_HIT)
		c->hits++;
	else if (f & R_ERROR)
		c->errors++;
	else if (f & R_TIMEOUT)
		c->timeouts++;
	else if (f & R_MISS)
		c->misses++;
	if (f & R_WRITE)
		c->stored++;
}

void ccr_count(const char *log_text, struct ccr_counts *c)
{
	static const struct {
		const char *name;
		int flag;
	} names[] = {
		{ "remote_storage_hit", R_HIT },
		/* depend mode counts its manifest's miss only as a read miss */
		{ "remote_storage_miss", R_MISS },
		{ "remote_storage_read_miss", R_MISS },
		{ "remote_storage_error", R_ERROR },
		{ "remote_storage_timeout", R_TIMEOUT },
		{ "remote_storage_write", R_WRITE },
	};
	const char *p = log_text ? log_text : "";
	int counted = 1, f = 0;

	memset(c, 0, sizeof(*c));
	while (*p) {
		size_t l = strcspn(p, "\r\n");

		if (l >= 1 && p[0] == '#') {
			const char *fn = p + 1 + strspn(p + 1, " \t");
			size_t fl = l - (size_t)(fn - p);

			if (counted)
				count_call(c, f);
			f = 0;
			counted = !(fl == 0 || (fl == 9 && strncmp(fn, "/dev/null", 9) == 0));
		} else {
			for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				if (strlen(names[i].name) == l && strncmp(p, names[i].name, l) == 0)
					f |= names[i].flag;
		}
		p += l + strspn(p + l, "\r\n");
	}
	if (counted)
		count_call(c, f);
}
