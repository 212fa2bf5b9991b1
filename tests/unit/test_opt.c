/* test_opt.c: option arguments (opt.h). */
#include <limits.h>

#include "unit.h"
#include "opt.h"

static void
ulong_parses_numbers_in_range(void **state)
{
	(void)state;
	assert_int_equal(opt_ulong("-n", "10", 1, 100), 10);
	assert_int_equal(opt_ulong("-n", "1", 1, 100), 1);
	assert_int_equal(opt_ulong("-n", "100", 1, 100), 100);
	assert_int_equal(opt_ulong("-n", "0", 0, 5), 0);
	assert_true(opt_ulong("-n", "18446744073709551615", 0, ULONG_MAX) ==
	    ULONG_MAX);
}

static const char *bad_arg;

static void
call_ulong(void *arg)
{
	(void)arg;
	prog_init("prog");
	opt_ulong("--count", bad_arg, 1, 100);
}

static void
ulong_refuses_bad_values_with_exit_2(void **state)
{
	static const char *bad[] = {
		"", "x", "12x", "-1", " 5", "+5", "0", "101",
		"99999999999999999999999",
	};
	struct child c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bad_arg = bad[i];
		run_child(call_ulong, NULL, &c);
		if (c.status != 2)
			fail_msg("'%s' gave status %d", bad[i], c.status);
		assert_non_null(strstr(c.err, "prog: option '--count': '"));
	}
}

static void
double_parses_numbers(void **state)
{
	(void)state;
	assert_true(opt_double("-t", "0.5") == 0.5);
	assert_true(opt_double("-t", "-2e3") == -2000.0);
}

static void
call_double(void *arg)
{
	(void)arg;
	prog_init("prog");
	opt_double("--threshold", bad_arg);
}

static void
double_refuses_bad_values_with_exit_2(void **state)
{
	static const char *bad[] = { "", "x", "1.5x", "nan", "inf", "1e999" };
	struct child c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bad_arg = bad[i];
		run_child(call_double, NULL, &c);
		if (c.status != 2)
			fail_msg("'%s' gave status %d", bad[i], c.status);
	}
}

static void
call_version(void *arg)
{
	(void)arg;
	prog_init("/x/topn");
	opt_version();
}

static void
version_prints_name_toolkit_and_version(void **state)
{
	struct child c;

	(void)state;
	run_child(call_version, NULL, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, "topn (profpipe) " PROFPIPE_VERSION "\n");
	assert_string_equal(c.err, "");
}

enum { T_PARTIAL = 256, T_PROGRESS, T_STRICT };
static const struct option longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "key", required_argument, NULL, 'k' },
	{ "partial", no_argument, NULL, T_PARTIAL },
	{ "progress", no_argument, NULL, T_PROGRESS },
	{ "strict", no_argument, NULL, T_STRICT },
	{ NULL, 0, NULL, 0 }
};

/*
 * Copies the NULL-terminated in (at most 7) into argv for getopt, which
 * permutes it, and sets up a fresh parse; returns argc.
 */
static int
args_init(const char *const *in, char *argv[8])
{
	int argc;

	for (argc = 0; in[argc] != NULL && argc < 7; argc++)
		argv[argc] = strdup(in[argc]);
	argv[argc] = NULL;
	prog_init("prog");
	optind = 0;
	return argc;
}

/* Runs opt_next() over arg (NULL-terminated), printing what it returns. */
static void
call_next(void *arg)
{
	char *argv[8];
	int argc, ch;

	argc = args_init(arg, argv);
	while ((ch = opt_next(argc, argv, "hk:", longopts)) != -1) {
		if (ch == 'k')
			printf("k=%s ", optarg);
		else
			printf("%d ", ch);
	}
	printf("rest=%s\n", optind < argc ? argv[optind] : "");
	while (argc > 0)
		free(argv[--argc]);
}

static void
next_returns_good_options(void **state)
{
	const char *argv[] = { "x/prog", "-k", "v", "--strict", "--key=w",
		"--pa", "file", NULL };
	struct child c;

	(void)state;
	run_child(call_next, argv, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, "k=v 258 k=w 256 rest=file\n");
	assert_string_equal(c.err, "");
}

static void
next_reports_bad_options_in_its_words(void **state)
{
	static const struct {
		const char *arg, *arg2, *msg;
	} t[] = {
		{ "-x", NULL, "prog: unknown option '-x'\n" },
		{ "-hx", NULL, "prog: unknown option '-x'\n" },
		{ "--strict", "-xh", "prog: unknown option '-x'\n" },
		{ "-k", NULL, "prog: option '-k' needs an argument\n" },
		{ "-hk", NULL, "prog: option '-k' needs an argument\n" },
		{ "--foo", NULL, "prog: unknown option '--foo'\n" },
		{ "--foo=1", NULL, "prog: unknown option '--foo'\n" },
		{ "--p", NULL, "prog: option '--p' is ambiguous\n" },
		{ "--strict=1", NULL,
		    "prog: option '--strict' takes no argument\n" },
		{ "--str=1", NULL,
		    "prog: option '--strict' takes no argument\n" },
		{ "--key", NULL, "prog: option '--key' needs an argument\n" },
	};
	struct child c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *argv[] = { "prog", t[i].arg, t[i].arg2, NULL };

		run_child(call_next, argv, &c);
		assert_int_equal(c.status, 0);
		if (strcmp(c.err, t[i].msg) != 0)
			fail_msg("%s: got '%s'", t[i].arg, c.err);
		assert_non_null(strstr(c.out, "63 "));
	}
}

static void
common_usage(int status)
{
	printf("usage %d\n", status);
	exit(status);
}

/* Parses arg (NULL-terminated) with the shared block and prints opt. */
static void
call_common(void *arg)
{
	static const struct option lo[] = {
		{ "all", no_argument, NULL, 'a' },
		OPT__COMMON
	};
	struct opt_common c = OPT_COMMON_INIT;
	char *argv[8];
	int argc, ch;

	argc = args_init(arg, argv);
	while ((ch = opt_next(argc, argv, "a" OPT_COMMON_SHORT, lo)) != -1)
		switch (ch) {
		case 'a': printf("a "); break;
		default: opt_common(ch, optarg, &c, common_usage); break;
		}
	printf("o=%s w=%s p=%d s=%d\n", c.output ? c.output : "-",
	    c.where ? c.where : "-", c.progress, c.strict);
	while (argc > 0)
		free(argv[--argc]);
}

static void
common_sets_the_shared_options(void **state)
{
	static const struct {
		const char *a1, *a2, *a3, *out;
		int status;
	} t[] = {
		{ NULL, NULL, NULL, "o=- w=- p=-1 s=0\n", 0 },
		{ "-o", "f", "-a", "a o=f w=- p=-1 s=0\n", 0 },
		{ "--output=g", "--strict", NULL, "o=g w=- p=-1 s=1\n", 0 },
		{ "--where", ".x", "--progress", "o=- w=.x p=1 s=0\n", 0 },
		{ "--progress", "--no-progress", NULL, "o=- w=- p=0 s=0\n", 0 },
		{ "--no-pr", "--wh=.y", NULL, "o=- w=.y p=0 s=0\n", 0 },
		{ "-ah", NULL, NULL, "a usage 0\n", 0 },
		{ "--help", NULL, NULL, "usage 0\n", 0 },
		{ "--version", NULL, NULL, "prog (profpipe) " PROFPIPE_VERSION
		    "\n", 0 },
		{ "-x", NULL, NULL, "usage 2\n", 2 },
		{ "--strict=1", NULL, NULL, "usage 2\n", 2 },
	};
	struct child c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *argv[] = { "prog", t[i].a1, t[i].a2, t[i].a3,
			NULL };

		run_child(call_common, argv, &c);
		if (c.status != t[i].status || strcmp(c.out, t[i].out) != 0)
			fail_msg("%s: status %d, got '%s'", t[i].a1 ?
			    t[i].a1 : "(none)", c.status, c.out);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ulong_parses_numbers_in_range),
		cmocka_unit_test(ulong_refuses_bad_values_with_exit_2),
		cmocka_unit_test(double_parses_numbers),
		cmocka_unit_test(double_refuses_bad_values_with_exit_2),
		cmocka_unit_test(version_prints_name_toolkit_and_version),
		cmocka_unit_test(next_returns_good_options),
		cmocka_unit_test(next_reports_bad_options_in_its_words),
		cmocka_unit_test(common_sets_the_shared_options),
	};

	return cmocka_run_group_tests_name("opt", tests, NULL, NULL);
}
