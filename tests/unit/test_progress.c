/* test_progress.c: the progress line on stderr (progress.h). */
#include <time.h>

#include "unit.h"
#include "err.h"
#include "progress.h"

static void
nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void
quick_work(void *arg)
{
	int mode = *(int *)arg;
	uint64_t i;

	prog_init("prog");
	progress_init(mode, "records");
	for (i = 1; i <= 1000; i++)
		progress_update(i, i * 100);
	progress_done();
}

static void
nothing_is_shown_for_quick_work(void **state)
{
	int mode = PROGRESS_ON;
	struct child c;

	(void)state;
	run_child(quick_work, &mode, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
}

static void
slow_work(void *arg)
{
	int mode = *(int *)arg;

	prog_init("prog");
	progress_init(mode, "spans");
	progress_update(10, 0);
	nap(1100);
	progress_update(12345, 2500000);
	warn("a message");
	progress_update(12346, 2500001);
	nap(300);
	progress_update(20000, 0);
	progress_done();
}

static void
slow_work_shows_a_line_that_is_cleared(void **state)
{
	int mode = PROGRESS_ON;
	struct child c;
	char *msg;

	(void)state;
	run_child(slow_work, &mode, &c);
	assert_int_equal(c.status, 0);
	assert_non_null(strstr(c.err, "\rprog: 12345 spans, 2.5 MB, 1 s"));
	/* The line is wiped before the message, which starts a line. */
	msg = strstr(c.err, "prog: a message\n");
	assert_non_null(msg);
	assert_true(msg > c.err && msg[-1] == '\r');
	assert_non_null(strstr(msg, "\rprog: 20000 spans"));
	/* At the end the line is blank and the cursor at its start. */
	assert_int_equal(c.err[strlen(c.err) - 1], '\r');
	assert_null(strchr(msg + strlen("prog: a message\n"), '\n'));
}

static void
off_and_auto_without_a_terminal_show_nothing(void **state)
{
	int mode;
	struct child c;

	(void)state;
	mode = PROGRESS_OFF;
	run_child(slow_work, &mode, &c);
	assert_string_equal(c.err, "prog: a message\n");
	/* stderr is a file here, not a terminal. */
	mode = PROGRESS_AUTO;
	run_child(slow_work, &mode, &c);
	assert_string_equal(c.err, "prog: a message\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_is_shown_for_quick_work),
		cmocka_unit_test(slow_work_shows_a_line_that_is_cleared),
		cmocka_unit_test(off_and_auto_without_a_terminal_show_nothing),
	};

	return cmocka_run_group_tests_name("progress", tests, NULL, NULL);
}
