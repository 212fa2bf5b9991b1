/* test_spool.c: standard input copied to a temporary file (spool.h). */
#include <fcntl.h>
#include <sys/stat.h>

#include "unit.h"
#include "err.h"
#include "spool.h"

static const char data[] = "line one\nline two\n\0binary\n";

/* Makes standard input a file holding data. */
static void
stdin_from_data(void)
{
	char *in = tmp_file(data, sizeof(data));
	int fd = open(in, O_RDONLY);

	assert_true(fd >= 0);
	dup2(fd, STDIN_FILENO);
	close(fd);
	unlink(in);
	free(in);
}

static int die_after;

/* Spools stdin, checks the copy, prints its path and removes it. */
static void
call_spool(void *arg)
{
	char buf[sizeof(data) + 16], *path;
	ssize_t n;
	int fd;

	(void)arg;
	prog_init("/x/spooler");
	stdin_from_data();
	path = spool_stdin();
	if (path == NULL)
		exit(3);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n != (ssize_t)sizeof(data) || memcmp(buf, data, sizeof(data)))
		exit(4);
	printf("%s\n", path);
	fflush(stdout);
	if (!die_after)
		spool_remove(path);
	else
		die("stopped");
}

static void
check_gone(const struct child *c)
{
	char path[4096];
	struct stat st;

	assert_int_equal(sscanf(c->out, "%4095s", path), 1);
	assert_non_null(strstr(path, "/spooler."));
	assert_int_equal(stat(path, &st), -1);
}

static void
copies_stdin_and_removes_the_file(void **state)
{
	struct child c;

	(void)state;
	setenv("TMPDIR", "", 1);
	run_child(call_spool, NULL, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
	assert_true(strncmp(c.out, "/tmp/spooler.", 13) == 0);
	check_gone(&c);
}

static void
file_goes_when_the_program_dies(void **state)
{
	struct child c;

	(void)state;
	unsetenv("TMPDIR");
	die_after = 1;
	run_child(call_spool, NULL, &c);
	die_after = 0;
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "spooler: stopped\n");
	check_gone(&c);
}

static void
uses_tmpdir(void **state)
{
	char dir[] = "/tmp/profpipe-spool-XXXXXX";
	struct child c;

	(void)state;
	assert_non_null(mkdtemp(dir));
	setenv("TMPDIR", dir, 1);
	run_child(call_spool, NULL, &c);
	unsetenv("TMPDIR");
	assert_int_equal(c.status, 0);
	assert_true(strncmp(c.out, dir, strlen(dir)) == 0);
	check_gone(&c);
	assert_int_equal(rmdir(dir), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(copies_stdin_and_removes_the_file),
		cmocka_unit_test(file_goes_when_the_program_dies),
		cmocka_unit_test(uses_tmpdir),
	};

	return cmocka_run_group_tests_name("spool", tests, NULL, NULL);
}
