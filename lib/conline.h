/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conline.h - the one reader of boot console lines, under the boot log's
 * parser (boot/logparse.c) and the report's log diff (report/logdiff.c).
 *
 * A boot log written by the runner has one line per console line:
 *     "[+   1.234] text"      console text, host seconds since QEMU started
 *     "[+   1.234]! note"     a note of the runner (QEMU's exit, a timeout...)
 * A file without these prefixes is read as raw console text.
 */
#ifndef KF_CONLINE_H
#define KF_CONLINE_H

#include <stddef.h>

/* The runner's prefix of line: its length (0: none); *note says "]!". */
size_t kf_con_prefix(const char *line, int *note);

/*
 * A console line as the tools see it (malloc'd): no '\r', no terminal
 * escapes (SeaBIOS clears the screen), no other control characters, no
 * printk time stamp "[    1.234567] ". A tab is a space with KF_CON_TAB_SPACE
 * (the parser's matches), kept with 0 (the log diff shows the line as it was).
 */
#define KF_CON_TAB_SPACE 1
char *kf_con_clean(const char *line, int flags);

/*
 * Split text into lines and call fn for each: its number (from 1), whether
 * it is a runner note, and the line without the runner's prefix (not
 * cleaned; valid during the call only).
 */
void kf_con_lines(const char *text,
		  void (*fn)(size_t lineno, int note, const char *line, void *arg), void *arg);

#endif /* KF_CONLINE_H */
