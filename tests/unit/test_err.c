/* test_err.c: messages, exit codes and the bad-record policy (err.h). */
#include <errno.h>

#include "unit.h"
#include "err.h"

static void
call_die(void *arg)
{
	(void)arg;
	prog_init("/usr/local/bin/prog");
	die("cannot open '%s'", "x.db");
}

static void
die_prints_one_line_and_exits_1(void **state)
{
	struct child c;

	(void)state;
	run_child(call_die, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: cannot open 'x.db'\n");
	assert_string_equal(c.out, "");
}

static void
call_die_errno(void *arg)
{
	(void)arg;
	prog_init("prog");
	errno = ENOENT;
	die_errno("cannot open '%s'", "x.db");
}

static void
die_errno_appends_the_system_message(void **state)
{
	struct child c;

	(void)state;
	run_child(call_die_errno, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err,
	    "prog: cannot open 'x.db': No such file or directory\n");
}

static void
call_die_at(void *arg)
{
	struct srcpos pos = { "<stdin>", 42 };

	(void)arg;
	prog_init("prog");
	die_at(&pos, "bad record");
}

static void
die_at_names_file_and_line(void **state)
{
	struct child c;

	(void)state;
	run_child(call_die_at, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: <stdin>:42: bad record\n");
}

static void
call_die_usage(void *arg)
{
	prog_init("prog");
	if (arg != NULL)
		die_usage("unknown option '%s'", "-z");
	die_usage(NULL);
}

static void
die_usage_exits_2(void **state)
{
	static char with_msg[] = "m";
	struct child c;

	(void)state;
	run_child(call_die_usage, with_msg, &c);
	assert_int_equal(c.status, 2);
	assert_string_equal(c.err, "prog: unknown option '-z'\n");
	run_child(call_die_usage, NULL, &c);
	assert_int_equal(c.status, 2);
	assert_string_equal(c.err, "");
}

static void
call_warns(void *arg)
{
	struct srcpos pos = { "a.csv", 3 };

	(void)arg;
	prog_init("prog");
	printf("out first\n");
	warn("plain %d", 1);
	errno = EACCES;
	warn_errno("cannot read '%s'", "b");
	warn_at(&pos, "bad field");
	printf("out last\n");
}

static void
warnings_go_to_stderr_and_return(void **state)
{
	struct child c;

	(void)state;
	run_child(call_warns, NULL, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "prog: plain 1\n"
	    "prog: cannot read 'b': Permission denied\n"
	    "prog: a.csv:3: bad field\n");
	assert_string_equal(c.out, "out first\nout last\n");
}

static void
call_bad_input(void *arg)
{
	struct bad_input bad = BAD_INPUT_INIT;
	struct srcpos pos = { "x.ndjson", 0 };
	int n = *(int *)arg;

	prog_init("prog");
	for (pos.line = 1; pos.line <= (unsigned long)n; pos.line++)
		bad_input(&bad, &pos, "not a JSON object");
	exit(bad_input_finish(&bad));
}

static void
bad_input_warns_ten_times_then_sums_up(void **state)
{
	struct child c;
	int n = 12, i;
	char want[2048], *p = want;

	(void)state;
	run_child(call_bad_input, &n, &c);
	assert_int_equal(c.status, 1);
	for (i = 1; i <= 10; i++)
		p += sprintf(p, "prog: x.ndjson:%d: not a JSON object\n", i);
	sprintf(p, "prog: skipped 12 bad records\n");
	assert_string_equal(c.err, want);
}

static void
one_bad_record_is_singular(void **state)
{
	struct child c;
	int n = 1;

	(void)state;
	run_child(call_bad_input, &n, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: x.ndjson:1: not a JSON object\n"
	    "prog: skipped 1 bad record\n");
}

static void
no_bad_records_exit_0_quietly(void **state)
{
	struct child c;
	int n = 0;

	(void)state;
	run_child(call_bad_input, &n, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
}

static void
call_strict(void *arg)
{
	struct bad_input bad = BAD_INPUT_INIT;
	struct srcpos pos = { "x.csv", 7 };

	(void)arg;
	prog_init("prog");
	bad.strict = 1;
	bad_input(&bad, &pos, "stray quote");
	printf("not reached\n");
}

static void
strict_makes_the_first_bad_record_fatal(void **state)
{
	struct child c;

	(void)state;
	run_child(call_strict, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: x.csv:7: stray quote\n");
	assert_string_equal(c.out, "");
}

static void
write_to_full(void *arg)
{
	(void)arg;
	prog_init("prog");
	if (freopen("/dev/full", "w", stdout) == NULL)
		exit(3);
	printf("some output\n");
	exit(close_stdout() != 0 ? 1 : 0);
}

static void
close_stdout_reports_a_full_disk(void **state)
{
	struct child c;

	(void)state;
	run_child(write_to_full, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err,
	    "prog: write error: No space left on device\n");
}

static void
write_ok(void *arg)
{
	(void)arg;
	prog_init("prog");
	printf("fine\n");
	exit(close_stdout() != 0 ? 1 : 0);
}

static void
close_stdout_is_quiet_on_success(void **state)
{
	struct child c;

	(void)state;
	run_child(write_ok, NULL, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, "fine\n");
	assert_string_equal(c.err, "");
}

static void
write_to_closed_pipe(void *arg)
{
	int fd[2];
	int i;

	(void)arg;
	signal(SIGPIPE, SIG_IGN);	/* as a parent shell might leave it */
	prog_init("prog");
	if (pipe(fd) != 0)
		exit(3);
	close(fd[0]);
	for (i = 0; i < 100; i++)
		if (write(fd[1], "x\n", 2) < 0)
			break;
	exit(4);	/* reached only if SIGPIPE was ignored */
}

static void
prog_init_restores_sigpipe(void **state)
{
	struct child c;

	(void)state;
	run_child(write_to_closed_pipe, NULL, &c);
	assert_int_equal(c.status, 128 + SIGPIPE);
	assert_string_equal(c.err, "");
}

static void
prog_init_takes_the_base_name(void **state)
{
	(void)state;
	prog_init("/a/b/topn");
	assert_string_equal(prog_name, "topn");
	prog_init("db2spans");
	assert_string_equal(prog_name, "db2spans");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(die_prints_one_line_and_exits_1),
		cmocka_unit_test(die_errno_appends_the_system_message),
		cmocka_unit_test(die_at_names_file_and_line),
		cmocka_unit_test(die_usage_exits_2),
		cmocka_unit_test(warnings_go_to_stderr_and_return),
		cmocka_unit_test(bad_input_warns_ten_times_then_sums_up),
		cmocka_unit_test(one_bad_record_is_singular),
		cmocka_unit_test(no_bad_records_exit_0_quietly),
		cmocka_unit_test(strict_makes_the_first_bad_record_fatal),
		cmocka_unit_test(close_stdout_reports_a_full_disk),
		cmocka_unit_test(close_stdout_is_quiet_on_success),
		cmocka_unit_test(prog_init_restores_sigpipe),
		cmocka_unit_test(prog_init_takes_the_base_name),
	};

	return cmocka_run_group_tests_name("err", tests, NULL, NULL);
}
