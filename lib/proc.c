// SPDX-License-Identifier: GPL-2.0
/* proc.c - start, wait for, stop a command; forward signals (proc.h). */
#include "proc.h"
#include "kf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

volatile sig_atomic_t kf_proc_signal;
static volatile sig_atomic_t forward_to;	/* pid, or -pgid */

static void on_signal(int sig)
{
	kf_proc_signal = sig;
	if (forward_to)
		kill((pid_t)forward_to, sig);
}

void kf_proc_forward_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

void kf_proc_die_of(int sig)
{
	signal(sig, SIG_DFL);
	kill(getpid(), sig);
	_exit(128 + sig);	/* only if the signal was blocked */
}

static void xpipe(int fds[2])
{
	if (pipe2(fds, O_CLOEXEC))
		kf_die(2, "pipe: %s", strerror(errno));
}

/* In the child: the descriptors and signals the options ask for, then
 * exec; a failure's errno goes up the report pipe. */
static void child(char *const argv[], const struct kf_proc_opts *o,
		  const int po[2], const int pe[2], int report)
{
	int e, fd;

	if (o->group) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == 1)
			_exit(127);	/* the tool died before prctl */
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	fd = o->null_in || o->null_err ? open("/dev/null", O_RDWR) : -1;
	if (o->null_in && fd >= 0)
		dup2(fd, 0);
	for (size_t i = 0; o->env && o->env[i]; i++)
		putenv(o->env[i]);
	if (o->dir && chdir(o->dir) < 0)
		goto fail;
	if (o->log) {
		int l = open(o->log, O_WRONLY | O_CREAT | O_CLOEXEC |
			     (o->append ? O_APPEND : O_TRUNC), 0644);

		if (l < 0)
			goto fail;
		dup2(l, 1);
		dup2(l, 2);
	}
	if (o->pipe_out)
		dup2(po[1], 1);
	if (o->pipe_err)
		dup2(pe[1], 2);
	else if (o->err_to_out)
		dup2(1, 2);
	else if (o->null_err && fd >= 0)
		dup2(fd, 2);
	execvp(argv[0], argv);
fail:
	e = errno;
	if (write(report, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int kf_proc_start(struct kf_proc *p, char *const argv[],
		  const struct kf_proc_opts *o)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, px[2], e;

	if (o->pipe_out)
		xpipe(po);
	if (o->pipe_err)
		xpipe(pe);
	xpipe(px);
	p->group = o->group;
	p->pid = fork();
	if (p->pid < 0)
		kf_die(2, "fork: %s", strerror(errno));
	if (p->pid == 0)
		child(argv, o, po, pe, px[1]);
	if (o->group)
		setpgid(p->pid, p->pid);
	forward_to = o->group ? -p->pid : p->pid;
	if (kf_proc_signal)
		kill((pid_t)forward_to, kf_proc_signal);
	close(px[1]);
	p->out = po[0];
	p->err = pe[0];
	if (po[1] >= 0)
		close(po[1]);
	if (pe[1] >= 0)
		close(pe[1]);
	if (read(px[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		int status;

		close(px[0]);
		kf_proc_wait(p, -1, &status, NULL);
		if (p->out >= 0)
			close(p->out);
		if (p->err >= 0)
			close(p->err);
		p->out = p->err = -1;
		errno = e;
		return -1;
	}
	close(px[0]);
	return 0;
}

int kf_proc_wait(struct kf_proc *p, double secs, int *status, struct rusage *ru)
{
	double end = kf_now() + secs;
	struct rusage unused;

	for (;;) {
		pid_t r = wait4(p->pid, status, secs < 0 ? 0 : WNOHANG, ru ? ru : &unused);

		if (r == p->pid || (r < 0 && errno == ECHILD)) {
			forward_to = 0;
			return 1;
		}
		if (r < 0 && errno != EINTR)
			kf_die(2, "waitpid: %s", strerror(errno));
		if (secs >= 0 && kf_now() >= end)
			return 0;
		if (secs >= 0)
			usleep(20000);
	}
}

void kf_proc_stop(struct kf_proc *p, double grace, int *status)
{
	pid_t to = p->group ? -p->pid : p->pid;

	kill(to, SIGTERM);
	if (!kf_proc_wait(p, grace, status, NULL)) {
		kill(to, SIGKILL);
		kf_proc_wait(p, -1, status, NULL);
	}
	if (p->group)
		kill(to, SIGKILL);	/* anything it left in its group */
}
