// SPDX-License-Identifier: GPL-2.0
/*
 * package-changelog - date a debian/changelog by SOURCE_DATE_EPOCH.
 *
 *   package-changelog FILE
 *
 * The tree's scripts/package/mkdebian (6.1 and 6.12) writes the changelog
 * of its packages with the time it ran ("date -R"), and builddeb copies
 * that changelog into every package (usr/share/doc/<package>/
 * changelog.Debian.gz): no two builds would give the same .debs. make deb
 * runs this as dpkg-buildpackage's init hook (DPKG_FLAGS, package/package.mk),
 * after mkdebian and before anything reads the changelog for a package:
 * every trailer line (" -- NAME <EMAIL>  DATE") gets SOURCE_DATE_EPOCH's
 * date, in UTC, in the RFC 2822 form dpkg reads. The file is rewritten
 * atomically; a missing or malformed SOURCE_DATE_EPOCH, or a changelog
 * without a trailer line, is an error (exit 2) that stops the build.
 */
#include "../lib/kf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
	static const char *const day[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					   "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	struct strbuf out = { 0 };
	char *text, *line, *next, *end, date[64];
	int trailers = 0;
	long long secs;
	time_t t;
	struct tm tm;

	kf_prog = "package-changelog";
	if (argc != 2) {
		fprintf(stderr, "usage: %s debian/changelog (SOURCE_DATE_EPOCH set)\n", kf_prog);
		return 2;
	}
	errno = 0;
	secs = sde ? strtoll(sde, &end, 10) : -1;
	if (!sde || errno || *end || end == sde || secs < 0)
		kf_die(2, "SOURCE_DATE_EPOCH is %s%s%s; make deb sets it (package/package.mk): run it through make",
		       sde ? "'" : "", sde ? sde : "not set", sde ? "', not seconds since the epoch" : "");
	t = (time_t)secs;
	if (!gmtime_r(&t, &tm))
		kf_die(2, "SOURCE_DATE_EPOCH=%s: out of range", sde);
	snprintf(date, sizeof(date), "%s, %02d %s %04d %02d:%02d:%02d +0000", day[tm.tm_wday],
		 tm.tm_mday, mon[tm.tm_mon], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
	text = kf_read_file(argv[1], NULL);
	if (!text)
		kf_die(2, "%s: cannot read it (%s); run it in the Kbuild O= directory after mkdebian",
		       argv[1], strerror(errno));
	for (line = text; line; line = next) {
		char *sep;

		next = kf_cut_line(line);
		/* " -- NAME <EMAIL>  DATE": two spaces before the date */
		if (!strncmp(line, " -- ", 4) && (sep = strstr(line, ">  "))) {
			sb_addn(&out, line, (size_t)(sep - line) + 3);
			sb_add(&out, date);
			trailers++;
		} else {
			sb_add(&out, line);
		}
		if (next || *line)
			sb_add(&out, "\n");
	}
	if (!trailers)
		kf_die(2, "%s: no trailer line (' -- NAME <EMAIL>  DATE'); not a changelog mkdebian wrote",
		       argv[1]);
	if (kf_write_atomic(argv[1], out.s, out.len))
		kf_die(2, "%s: cannot write it: %s", argv[1], strerror(errno));
	free(out.s);
	free(text);
	return 0;
}
