/* test_flist.c: file arguments and --files-from lists (flist.h). */
#include "unit.h"
#include "flist.h"

/* Collects every path of fl, each followed by '|', into buf. */
static void
collect(struct flist *fl, char *buf, size_t n)
{
	const char *p;

	buf[0] = '\0';
	while ((p = flist_next(fl)) != NULL) {
		strncat(buf, p, n - strlen(buf) - 1);
		strncat(buf, "|", n - strlen(buf) - 1);
	}
}

static void
no_arguments_and_no_list_is_stdin(void **state)
{
	struct flist fl;
	char buf[256];

	(void)state;
	flist_init(&fl, 0, NULL, NULL);
	collect(&fl, buf, sizeof(buf));
	assert_string_equal(buf, "-|");
	assert_int_equal(flist_release(&fl), 0);
}

static void
arguments_come_first_then_the_list(void **state)
{
	char a[] = "a.nd", b[] = "b nd";
	char *argv[] = { a, b, NULL };
	char *list = tmp_filez("c.nd\n\n d.nd\nlast.nd");
	struct flist fl;
	char buf[256];

	(void)state;
	flist_init(&fl, 2, argv, list);
	collect(&fl, buf, sizeof(buf));
	/* Blank lines skipped, spaces kept, a last line without '\n' read. */
	assert_string_equal(buf, "a.nd|b nd|c.nd| d.nd|last.nd|");
	assert_int_equal(fl.count, 5);
	assert_int_equal(flist_release(&fl), 0);
	tmp_remove(list);
}

static void
empty_list(void *arg)
{
	struct flist fl;
	char buf[256];

	prog_init("prog");
	flist_init(&fl, 0, NULL, arg);
	collect(&fl, buf, sizeof(buf));
	printf("[%s] %lu %d\n", buf, fl.count, flist_release(&fl));
}

static void
an_empty_list_gives_no_input_and_an_error(void **state)
{
	char *list = tmp_filez("\n\n");
	struct child c;
	char want[256];

	(void)state;
	run_child(empty_list, list, &c);
	assert_string_equal(c.out, "[] 0 -1\n");
	snprintf(want, sizeof(want), "prog: no input: the list '%s' names "
	    "no file\n", list);
	assert_string_equal(c.err, want);
	tmp_remove(list);
}

static void
many_paths_are_read_one_at_a_time(void **state)
{
	char *path = strdup("/tmp/profpipe-unit-XXXXXX");
	struct flist fl;
	const char *p;
	char want[32];
	FILE *fp;
	int fd, i;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	for (i = 0; i < 20000; i++)
		fprintf(fp, "rank%05d.stacks\n", i);
	fclose(fp);
	flist_init(&fl, 0, NULL, path);
	for (i = 0; (p = flist_next(&fl)) != NULL; i++) {
		snprintf(want, sizeof(want), "rank%05d.stacks", i);
		assert_string_equal(p, want);
	}
	assert_int_equal(i, 20000);
	assert_int_equal(flist_release(&fl), 0);
	tmp_remove(path);
}

static void
open_missing(void *arg)
{
	struct flist fl;

	prog_init("prog");
	flist_init(&fl, 0, NULL, arg);
}

static void
a_missing_list_is_fatal_with_exit_1(void **state)
{
	struct child c;
	static char missing[] = "/nonexistent/list";

	(void)state;
	run_child(open_missing, missing, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: cannot open '/nonexistent/list': "
	    "No such file or directory\n");
}

static void
stdin_twice(void *arg)
{
	char a[] = "a.nd", dash[] = "-";
	char *argv[] = { a, dash, NULL };
	struct flist fl;

	(void)arg;
	prog_init("prog");
	flist_init(&fl, 2, argv, "-");
}

static void
stdin_as_list_and_input_is_a_usage_error(void **state)
{
	struct child c;

	(void)state;
	run_child(stdin_twice, NULL, &c);
	assert_int_equal(c.status, 2);
	assert_non_null(strstr(c.err, "prog: '-' is both an input and the "
	    "list of --files-from"));
}

static void
dash_in_stdin_list(void *arg)
{
	struct flist fl;
	const char *p;
	FILE *in = tmpfile();

	(void)arg;
	prog_init("prog");
	fputs("a.nd\n-\nb.nd\n", in);
	rewind(in);
	dup2(fileno(in), STDIN_FILENO);
	flist_init(&fl, 0, NULL, "-");
	while ((p = flist_next(&fl)) != NULL)
		printf("%s\n", p);
	printf("release %d\n", flist_release(&fl));
}

static void
dash_in_a_list_on_stdin_ends_it_with_an_error(void **state)
{
	struct child c;

	(void)state;
	run_child(dash_in_stdin_list, NULL, &c);
	assert_string_equal(c.out, "a.nd\nrelease -1\n");
	assert_string_equal(c.err, "prog: <stdin>:2: '-' in a list read "
	    "from standard input\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_arguments_and_no_list_is_stdin),
		cmocka_unit_test(arguments_come_first_then_the_list),
		cmocka_unit_test(an_empty_list_gives_no_input_and_an_error),
		cmocka_unit_test(many_paths_are_read_one_at_a_time),
		cmocka_unit_test(a_missing_list_is_fatal_with_exit_1),
		cmocka_unit_test(stdin_as_list_and_input_is_a_usage_error),
		cmocka_unit_test(dash_in_a_list_on_stdin_ends_it_with_an_error),
	};

	return cmocka_run_group_tests_name("flist", tests, NULL, NULL);
}
