/*
 * unit.h: helpers shared by the cmocka unit tests.
 *
 * run_child() runs a function in a child process with stdout and stderr
 * captured, for code that exits (die(), die_usage(), --version) or writes
 * to the standard streams.  tmp_file() writes bytes to a new temporary
 * file; the caller unlinks and frees the path.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct child {
	int status;		/* exit code, or 128 + signal number */
	char out[65536];	/* captured stdout, NUL-terminated */
	char err[65536];	/* captured stderr, NUL-terminated */
};

static void
slurp(FILE *fp, char *buf, size_t n)
{
	size_t got;

	rewind(fp);
	got = fread(buf, 1, n - 1, fp);
	buf[got] = '\0';
	fclose(fp);
}

/* Runs fn(arg) in a child; its return counts as exit(0). */
static inline void
run_child(void (*fn)(void *), void *arg, struct child *c)
{
	FILE *out = tmpfile(), *err = tmpfile();
	pid_t pid;
	int st;

	assert_non_null(out);
	assert_non_null(err);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fileno(out), STDOUT_FILENO);
		dup2(fileno(err), STDERR_FILENO);
		fn(arg);
		exit(0);
	}
	assert_true(waitpid(pid, &st, 0) == pid);
	c->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	slurp(out, c->out, sizeof(c->out));
	slurp(err, c->err, sizeof(c->err));
}

/* Writes len bytes of data to a new temporary file; returns its path. */
static inline char *
tmp_file(const void *data, size_t len)
{
	char *path = strdup("/tmp/profpipe-unit-XXXXXX");
	int fd;

	assert_non_null(path);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, data, len) == (ssize_t)len);
	close(fd);
	return path;
}

static inline char *
tmp_filez(const char *s)
{
	return tmp_file(s, strlen(s));
}

static inline void
tmp_remove(char *path)
{
	unlink(path);
	free(path);
}

/* Asserts that the n bytes at p equal the string want. */
#define assert_mem_str(p, n, want) do { \
	assert_int_equal((n), strlen(want)); \
	assert_memory_equal((p), (want), (n)); \
} while (0)

#endif
