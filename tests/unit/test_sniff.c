/* test_sniff.c: the kind of an input from its first line (sniff.h). */
#include "unit.h"
#include "err.h"
#include "sniff.h"

struct want {
	const char *line;
	size_t len;		/* 0: strlen(line) */
	enum sniff_kind kind;
};

static void
first_lines_name_their_kind(void **state)
{
	static const struct want t[] = {
		{ "SQLite format 3\0\x10\0\x01\x01", 21, SNIFF_SQLITE },
		{ "ab\0cd", 5, SNIFF_BINARY },
		{ "{\"traceEvents\":[{\"ph\":\"X\"}]}", 0, SNIFF_TRACE },
		{ "{\"ph\":\"X\",\"ts\":1,\"name\":\"a\"}", 0, SNIFF_TRACE },
		{ "[{\"ph\":\"X\",\"ts\":1", 0, SNIFF_TRACE },
		{ "{\"traceEvents\":[", 0, SNIFF_TRACE },
		{ "{", 0, SNIFF_JSON },
		{ "  [  ", 0, SNIFF_JSON },
		{ "\xef\xbb\xbf{", 0, SNIFF_JSON },
		{ "Dispatch_ID,Kernel_Name,GPU_ID", 0, SNIFF_CSV },
		{ "main;foo;bar 12", 0, SNIFF_FOLDED },
		{ "main;foo 3\t4", 0, SNIFF_FOLDED },
		{ "{\"name\":\"a\",\"start_ns\":1,\"end_ns\":2}", 0,
		    SNIFF_SPANS },
		{ "{\"thread\":\"1\",\"stack\":[\"a\"],\"self_ns\":1}", 0,
		    SNIFF_STACKS },
		{ "{\"type\":\"sysinfo\",\"gpu_arch\":\"gfx90a\"}", 0,
		    SNIFF_DISPATCH },
		{ "{\"type\":\"dispatch\",\"Dispatch_ID\":0}", 0,
		    SNIFF_DISPATCH },
		{ "{\"type\":\"summary\",\"run\":0}", 0, SNIFF_MIGX },
		{ "{\"metric_id\":\"2.1.0\",\"table_id\":\"2.1\"}", 0,
		    SNIFF_METRICS },
		/* What is not sure stays SNIFF_OTHER. */
		{ "{\"name\":\"a\",\"v\":1}", 0, SNIFF_OTHER },
		{ "{\"type\":\"summary\"}", 0, SNIFF_OTHER },
		{ "{\"a\":1", 0, SNIFF_OTHER },
		{ "main 12", 0, SNIFF_OTHER },
		{ "Summary:", 0, SNIFF_OTHER },
		{ "", 0, SNIFF_OTHER },
	};
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		len = t[i].len != 0 ? t[i].len : strlen(t[i].line);
		if (sniff_line(t[i].line, len) != t[i].kind)
			fail_msg("line %zu: kind %d, want %d", i,
			    sniff_line(t[i].line, len), t[i].kind);
	}
}

static void
check_spans(void *arg)
{
	const char *line = arg;

	prog_init("prog");
	sniff_check("x.nd", line, strlen(line), SNIFF_BIT(SNIFF_SPANS),
	    "do this");
}

static void
check_sqlite(void *arg)
{
	(void)arg;
	prog_init("prog");
	sniff_check("x.db", "SQLite format 3\0", 16, SNIFF_NOT_NDJSON,
	    "not used for a database");
}

static void
check_refuses_in_one_line_and_passes_the_rest(void **state)
{
	static char spans[] = "{\"start_ns\":1,\"end_ns\":2}";
	static char stacks[] = "{\"stack\":[],\"self_ns\":2}";
	static char text[] = "not json";
	struct child c;

	(void)state;
	run_child(check_spans, spans, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.out, "");
	assert_string_equal(c.err, "prog: x.nd holds span records "
	    "(start_ns, end_ns): do this\n");
	/* A database is always sent to db2spans. */
	run_child(check_sqlite, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: x.db is an SQLite database: use "
	    "db2spans\n");
	/* A kind not in the mask, and an unknown line, go on. */
	run_child(check_spans, stacks, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
	run_child(check_spans, text, &c);
	assert_int_equal(c.status, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(first_lines_name_their_kind),
		cmocka_unit_test(check_refuses_in_one_line_and_passes_the_rest),
	};

	return cmocka_run_group_tests_name("sniff", tests, NULL, NULL);
}
