/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.h - the one way the host tools run a command: start it with argv
 * (PATH searched), its output on pipes or in a log, wait for it with a
 * timeout and its rusage, stop it (SIGTERM, grace, SIGKILL), and forward
 * SIGINT, SIGTERM and SIGHUP to it, so Ctrl-C ends the child and then the
 * tool the same way make expects.
 */
#ifndef KF_PROC_H
#define KF_PROC_H

#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

struct kf_proc_opts {
	const char *log;	/* stdout and stderr into this file (truncated) */
	int append;		/* the log appended to instead */
	const char *dir;	/* run in this directory */
	char *const *env;	/* NAME=VALUE strings added to its environment */
	int pipe_out;		/* stdout to a pipe: its read end is kf_proc.out */
	int pipe_err;		/* stderr to a pipe of its own: kf_proc.err */
	int err_to_out;		/* stderr where stdout goes */
	int null_in;		/* stdin from /dev/null */
	int null_err;		/* stderr to /dev/null */
	int group;		/* a process group of its own, killed with the tool */
};

struct kf_proc {
	pid_t pid;
	int out, err;		/* read ends, -1 when not piped */
	int group;
};

/*
 * Start argv. Returns 0, or -1 with errno when it could not be run (the
 * log not opened, or exec failed; the child is reaped). Every descriptor
 * the options do not name is inherited (Kbuild keeps make's jobserver).
 */
int kf_proc_start(struct kf_proc *p, char *const argv[],
		  const struct kf_proc_opts *o);
/*
 * Wait up to secs (< 0: until it ends). Returns 1 with *status (and *ru
 * when not NULL) when it ended, 0 when the time ran out.
 */
int kf_proc_wait(struct kf_proc *p, double secs, int *status, struct rusage *ru);
/* SIGTERM (to its group), up to grace seconds, then SIGKILL; reaped. */
void kf_proc_stop(struct kf_proc *p, double grace, int *status);

/* The signal forwarding: after this, SIGINT, SIGTERM and SIGHUP set
 * kf_proc_signal and go on to the running child (its group); SIGPIPE is
 * ignored. Handlers without SA_RESTART: poll() returns EINTR. */
void kf_proc_forward_signals(void);
extern volatile sig_atomic_t kf_proc_signal;
/* End this process by sig, as the child was ended (make sees the signal). */
void kf_proc_die_of(int sig) __attribute__((noreturn));

#endif /* KF_PROC_H */
