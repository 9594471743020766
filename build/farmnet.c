// SPDX-License-Identifier: GPL-2.0
/*
 * farm-net - the addresses of build/farm.sh's distcc farm (docs/build.md,
 * "A farm on one machine"): one IPv4 range, farm_net, cut into a /30 per
 * server slot, whose addresses sit on the farm's own veths (kfhN) only.
 *
 *   farm-net check RANGE [--addrs FILE] [--routes FILE]
 *   farm-net slot RANGE S     slot S's addresses: "HERE THERE SPARE"
 *   farm-net slots RANGE      how many slots (/30s, at most 64)
 *   farm-net hosts RANGE      every address of RANGE, one a line
 *   farm-net watch RANGE [--dev DEV]...   until SIGTERM/SIGINT: count the
 *                             IPv4 packets this machine sends to RANGE
 *                             through DEVs (default: every interface but
 *                             lo and the farm's veths), then print
 *                             "N packets to RANGE, M others" and each of
 *                             the first 10 "DEV ADDRESS" (exit 1 when N > 0)
 *
 * check: is RANGE on no network this machine is on? It reads the host
 * namespace's interface addresses (ip -o -4 addr show) and routes (ip -4
 * route show table all), or FILEs with the same text (the tests). A
 * conflict is an address whose network overlaps RANGE, or a route more
 * specific than the default one that overlaps it and sends somewhere:
 * with either, a packet for a farm address whose namespace is gone (or not
 * up yet) would leave through that interface instead of failing here. Not
 * conflicts: the default route (it covers everything), the farm's own veths
 * (kfhN) and their routes, and routes that send nothing (unreachable,
 * blackhole, prohibit, throw: farm.sh adds "unreachable RANGE" itself).
 * Exit 0 when there is none; 1 naming each one, a free documentation range
 * and the variable to set; 2 on usage errors.
 */
#include "../lib/kf.h"
#include "../lib/proc.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

struct net {
	uint32_t addr;		/* host order */
	int prefix;
};

static uint32_t mask_of(int prefix)
{
	return prefix <= 0 ? 0 : 0xffffffffu << (32 - prefix);
}

/* "a.b.c.d/n" or "a.b.c.d" (/32); host bits kept. 0 on success. */
static int parse_net(const char *s, struct net *n)
{
	char buf[64], *slash, *end;
	struct in_addr a;
	long p = 32;

	if (snprintf(buf, sizeof(buf), "%s", s) >= (int)sizeof(buf))
		return -1;
	slash = strchr(buf, '/');
	if (slash) {
		*slash = 0;
		errno = 0;
		p = strtol(slash + 1, &end, 10);
		if (errno || end == slash + 1 || *end || p < 0 || p > 32)
			return -1;
	}
	if (inet_pton(AF_INET, buf, &a) != 1)
		return -1;
	n->addr = ntohl(a.s_addr);
	n->prefix = (int)p;
	return 0;
}

static int overlap(struct net a, struct net b)
{
	uint32_t m = mask_of(a.prefix < b.prefix ? a.prefix : b.prefix);

	return (a.addr & m) == (b.addr & m);
}

static const char *dotted(uint32_t a, char *buf, size_t n)
{
	struct in_addr x = { .s_addr = htonl(a) };

	return inet_ntop(AF_INET, &x, buf, (socklen_t)n) ? buf : "?";
}

/* The farm's range: a network address, /8../30 (a /30 per slot). */
static struct net range_arg(const char *s)
{
	struct net n;

	if (!strchr(s, '/') || parse_net(s, &n) < 0)
		kf_die(2, "farm_net=%s is not an IPv4 range (ADDRESS/PREFIX, e.g. 198.51.100.0/24)", s);
	if (n.prefix < 8 || n.prefix > 30)
		kf_die(2, "farm_net=%s: the prefix must be /8 to /30 (a /30 per server), "
		       "e.g. 198.51.100.0/24", s);
	if (n.addr & ~mask_of(n.prefix)) {
		char buf[INET_ADDRSTRLEN];

		kf_die(2, "farm_net=%s has host bits set; the network is %s/%d", s,
		       dotted(n.addr & mask_of(n.prefix), buf, sizeof(buf)), n.prefix);
	}
	return n;
}

static long slots_of(struct net n)
{
	long s = 1L << (30 - n.prefix);

	return s > 64 ? 64 : s;
}

/* The farm's own veth, this side of the pair: kfh<slot>. */
static int ours(const char *dev)
{
	size_t d;

	if (!dev || strncmp(dev, "kfh", 3) != 0)
		return 0;
	d = strspn(dev + 3, "0123456789");
	return d > 0 && (dev[3 + d] == 0 || dev[3 + d] == '@');
}

/* The text of an ip command (argv), or of FILE when given; the command
 * runs through lib/proc.c as every tool's do. */
static char *ip_text(const char *file, char *const argv[])
{
	struct kf_proc_opts o = { .pipe_out = 1, .null_in = 1 };
	struct kf_proc p;
	size_t len = 0, cap = 4096;
	ssize_t got;
	int status;
	char *t;

	if (file) {
		if (!(t = kf_read_file(file, NULL)))
			kf_die(2, "cannot read %s: %s", file, strerror(errno));
		return t;
	}
	if (kf_proc_start(&p, argv, &o))
		kf_die(2, "cannot run %s: %s; is iproute2 installed?", argv[0], strerror(errno));
	t = kf_xmalloc(cap);
	while ((got = read(p.out, t + len, cap - len - 1)) > 0 || (got < 0 && errno == EINTR)) {
		if (got < 0)
			continue;
		len += (size_t)got;
		if (cap - len < 2)
			t = kf_xrealloc(t, cap *= 2);
	}
	t[len] = 0;
	close(p.out);
	if (!kf_proc_wait(&p, -1, &status, NULL) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		kf_die(2, "'%s %s' failed; is iproute2 installed?", argv[0], argv[1]);
	return t;
}

#define MAXTOK 40

static int split(char *line, char **tok)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " \t\\", &save); t && n < MAXTOK; t = strtok_r(NULL, " \t\\", &save))
		tok[n++] = t;
	return n;
}

/* Each conflict of RANGE with the addresses and routes: printed (when
 * say) with what it is; returns their count. */
static int conflicts(struct net range, const char *range_s, const char *addrs_text,
		     const char *routes_text, int say)
{
	char *text, *l, *next, *tok[MAXTOK];
	int found = 0;

	/* "4: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\ ..." */
	text = kf_xstrdup(addrs_text);
	for (l = text; l && *l; l = next) {
		int n, i;

		next = kf_cut_line(l);
		n = split(l, tok);
		for (i = 2; i + 1 < n; i++) {
			struct net a;

			if (strcmp(tok[i], "inet") != 0 || parse_net(tok[i + 1], &a) < 0)
				continue;
			if (!ours(tok[1]) && overlap(a, range)) {
				found++;
				if (say)
					kf_warn("farm_net=%s: interface %s has %s, a network that overlaps it",
						range_s, tok[1], tok[i + 1]);
			}
			break;
		}
	}
	free(text);

	/* "[TYPE] PREFIX|default [via GW] [dev DEV] [table T] ..." */
	text = kf_xstrdup(routes_text);
	for (l = text; l && *l; l = next) {
		static const char *const quiet[] = { "unreachable", "blackhole", "prohibit", "throw" };
		static const char *const types[] = { "unicast", "local", "broadcast", "multicast",
						     "anycast", "nat" };
		const char *dev = NULL, *table = "main";
		char *whole;
		struct net r;
		int n, i, t = 0, skip = 0;

		next = kf_cut_line(l);
		whole = kf_xstrdup(l);
		n = split(l, tok);
		if (n == 0)
			goto next_route;
		for (i = 0; i < (int)(sizeof(quiet) / sizeof(quiet[0])); i++)
			if (strcmp(tok[0], quiet[i]) == 0)
				skip = 1;
		for (i = 0; i < (int)(sizeof(types) / sizeof(types[0])); i++)
			if (strcmp(tok[0], types[i]) == 0)
				t = 1;
		if (skip || t >= n)
			goto next_route;
		for (i = t + 1; i + 1 < n; i++) {
			if (strcmp(tok[i], "dev") == 0)
				dev = tok[i + 1];
			else if (strcmp(tok[i], "table") == 0)
				table = tok[i + 1];
		}
		if (strcmp(tok[t], "default") == 0 || parse_net(tok[t], &r) < 0 || r.prefix == 0 ||
		    ours(dev) || !overlap(r, range))
			goto next_route;
		found++;
		if (say)
			kf_warn("farm_net=%s: the route '%s' (table %s) overlaps it", range_s,
				kf_trim(whole), table);
next_route:
		free(whole);
	}
	free(text);
	return found;
}

static volatile sig_atomic_t stop;
static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

#define MAXDEV 16

/* What leaves: a packet socket per interface, outgoing IPv4 packets only,
 * their destination compared with the range. It sees what the interface
 * sends, after routing; it drops nothing. */
static int watch(struct net range, const char *range_s, char **devs, int ndev)
{
	struct pollfd pfd[MAXDEV];
	char names[MAXDEV][IF_NAMESIZE], seen[10][64 + INET_ADDRSTRLEN];
	unsigned long hits = 0, others = 0;
	struct sigaction sa = { .sa_handler = on_stop };
	struct if_nameindex *all = NULL;
	int n = 0, i;

	if (!ndev) {
		all = if_nameindex();
		for (i = 0; all && all[i].if_index && ndev < MAXDEV; i++)
			if (strcmp(all[i].if_name, "lo") != 0 && !ours(all[i].if_name))
				devs[ndev++] = all[i].if_name;
	}
	for (i = 0; i < ndev && n < MAXDEV; i++) {
		/* ETH_P_ALL: the kernel hands sent packets only to those */
		struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
		int fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(ETH_P_ALL));

		ll.sll_ifindex = (int)if_nametoindex(devs[i]);
		if (fd < 0 || !ll.sll_ifindex || bind(fd, (struct sockaddr *)&ll, sizeof(ll)) < 0)
			kf_die(2, "cannot watch %s: %s", devs[i], strerror(errno));
		pfd[n].fd = fd;
		pfd[n].events = POLLIN;
		snprintf(names[n++], IF_NAMESIZE, "%s", devs[i]);
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	printf("watching");
	for (i = 0; i < n; i++)
		printf(" %s", names[i]);
	printf("\n");
	fflush(stdout);
	while (!stop) {
		if (poll(pfd, (nfds_t)n, 500) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			unsigned char pkt[64];
			struct sockaddr_ll from = { 0 };
			socklen_t fl = sizeof(from);
			ssize_t got;
			struct net dst;

			if (!(pfd[i].revents & POLLIN))
				continue;
			got = recvfrom(pfd[i].fd, pkt, sizeof(pkt), MSG_TRUNC, (struct sockaddr *)&from, &fl);
			if (got < 20 || from.sll_pkttype != PACKET_OUTGOING ||
			    from.sll_protocol != htons(ETH_P_IP))
				continue;
			dst.addr = (uint32_t)pkt[16] << 24 | (uint32_t)pkt[17] << 16 |
				   (uint32_t)pkt[18] << 8 | pkt[19];
			dst.prefix = 32;
			if (!overlap(dst, range)) {
				others++;
				continue;
			}
			if (hits < 10) {
				char a[INET_ADDRSTRLEN];

				snprintf(seen[hits], sizeof(seen[hits]), "%s %s", names[i],
					 dotted(dst.addr, a, sizeof(a)));
			}
			hits++;
		}
	}
	printf("%lu packets to %s, %lu others\n", hits, range_s, others);
	for (i = 0; i < (int)hits && i < 10; i++)
		printf("%s\n", seen[i]);
	for (i = 0; i < n; i++)
		close(pfd[i].fd);
	if (all)
		if_freenameindex(all);
	return hits ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: farm-net check RANGE [--addrs FILE] [--routes FILE]\n"
		"       farm-net slot RANGE S | slots RANGE | hosts RANGE\n"
		"       farm-net watch RANGE [--dev DEV]...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *cmd, *range_s, *addrs_file = NULL, *routes_file = NULL;
	char a[INET_ADDRSTRLEN];
	struct net range;
	int i;

	kf_prog = "kflavour: farm";
	if (argc < 3)
		usage();
	cmd = argv[1];
	range_s = argv[2];
	range = range_arg(range_s);

	if (strcmp(cmd, "slots") == 0 && argc == 3) {
		printf("%ld\n", slots_of(range));
		return 0;
	}
	if (strcmp(cmd, "slot") == 0 && argc == 4) {
		char *end, b[INET_ADDRSTRLEN], c[INET_ADDRSTRLEN];
		long s = strtol(argv[3], &end, 10);
		uint32_t base;

		if (end == argv[3] || *end || s < 0 || s >= slots_of(range))
			return 1;
		base = range.addr + 4 * (uint32_t)s;
		printf("%s %s %s\n", dotted(base + 1, a, sizeof(a)), dotted(base + 2, b, sizeof(b)),
		       dotted(base + 3, c, sizeof(c)));
		return 0;
	}
	if (strcmp(cmd, "hosts") == 0 && argc == 3) {
		uint64_t k, size = 1ull << (32 - range.prefix);

		for (k = 0; k < size; k++)
			printf("%s\n", dotted(range.addr + (uint32_t)k, a, sizeof(a)));
		return 0;
	}
	if (strcmp(cmd, "watch") == 0) {
		char *devs[MAXDEV];
		int nd = 0;

		for (i = 3; i < argc; i++) {
			if (strcmp(argv[i], "--dev") != 0 || i + 1 >= argc || nd >= MAXDEV)
				usage();
			devs[nd++] = argv[++i];
		}
		return watch(range, range_s, devs, nd);
	}
	if (strcmp(cmd, "check") != 0)
		usage();
	for (i = 3; i < argc; i++) {
		if (strcmp(argv[i], "--addrs") == 0 && i + 1 < argc)
			addrs_file = argv[++i];
		else if (strcmp(argv[i], "--routes") == 0 && i + 1 < argc)
			routes_file = argv[++i];
		else
			usage();
	}
	{
		char *const addr_cmd[] = { "ip", "-o", "-4", "addr", "show", NULL };
		char *const route_cmd[] = { "ip", "-4", "route", "show", "table", "all", NULL };
		char *addrs = ip_text(addrs_file, addr_cmd);
		char *routes = ip_text(routes_file, route_cmd);
		static const char *const doc[] = { "198.51.100.0/24", "203.0.113.0/24",
						   "192.0.2.0/24" };
		const char *free_net = NULL;
		int bad = conflicts(range, range_s, addrs, routes, 1);

		for (i = 0; !free_net && bad && i < (int)(sizeof(doc) / sizeof(doc[0])); i++)
			if (!conflicts(range_arg(doc[i]), doc[i], addrs, routes, 0))
				free_net = doc[i];
		free(addrs);
		free(routes);
		if (!bad)
			return 0;
		kf_warn("refusing farm_net=%s: this machine is on a network that overlaps it, so a "
			"packet for a farm address whose namespace is gone could leave through a "
			"real interface. Set farm_net to a range no interface or route is on%s%s%s "
			"(make ... farm_net=RANGE, or in the environment of build/farm.sh)",
			range_s, free_net ? ", e.g. farm_net=" : "", free_net ? free_net : "",
			free_net ? ", free here" : "");
		return 1;
	}
}
