/* test_ofile.c: -o FILE written whole or not at all (ofile.h). */
#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>

#include "unit.h"
#include "err.h"
#include "ofile.h"

/* gcc's ASan and UBSan are two runtimes: only ASan's calls back ofile. */
#if defined(__SANITIZE_ADDRESS__)
#define ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN_BUILD 1
#endif
#endif

static char dir[] = "/tmp/profpipe-ofile-XXXXXX";
static char target[256];

static int
setup(void **state)
{
	(void)state;
	/* ofile hooks the signals once, at a process's first open, and
	 * leaves alone those with a handler or ignored: as in a program.
	 * (cmocka catches SIGSEGV around every test: no test of it here.) */
	signal(SIGABRT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	if (mkdtemp(dir) == NULL)
		return -1;
	snprintf(target, sizeof(target), "%s/out.html", dir);
	return 0;
}

/* Number of entries in dir besides . and .. */
static int
entries(void)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

static int
teardown(void **state)
{
	(void)state;
	unlink(target);
	return rmdir(dir);
}

static char *
contents(const char *path)
{
	static char buf[256];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (fp == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static void
close_renames_the_whole_file_into_place(void **state)
{
	struct ofile o;
	struct stat st;
	mode_t mask;
	FILE *fp;

	(void)state;
	fp = ofile_open(&o, target);
	assert_non_null(fp);
	fputs("partial", fp);
	fflush(fp);
	/* Until the close, the target does not exist. */
	assert_null(contents(target));
	assert_int_equal(entries(), 1);
	fputs(" and whole\n", fp);
	assert_int_equal(ofile_close(&o), 0);
	assert_string_equal(contents(target), "partial and whole\n");
	assert_int_equal(entries(), 1);
	/* The mode is a new file's: 0666 less the umask. */
	mask = umask(0);
	umask(mask);
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0666 & ~mask);
}

static void
write_and_die(void *arg)
{
	struct ofile o;
	FILE *fp;

	(void)arg;
	prog_init("prog");
	fp = ofile_open(&o, target);
	fputs("half a page", fp);
	fflush(fp);
	die("something went wrong");
}

static void
die_leaves_no_file_and_keeps_the_old_one(void **state)
{
	struct child c;
	FILE *fp;

	(void)state;
	fp = fopen(target, "w");
	fputs("old\n", fp);
	fclose(fp);
	run_child(write_and_die, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: something went wrong\n");
	assert_string_equal(contents(target), "old\n");
	assert_int_equal(entries(), 1);
	unlink(target);
}

static void
write_and_get_killed(void *arg)
{
	struct ofile o;
	FILE *fp;

	(void)arg;
	fp = ofile_open(&o, target);
	fputs("half", fp);
	fflush(fp);
	raise(SIGTERM);
	fputs("never", fp);
}

static void
sigterm_leaves_no_file(void **state)
{
	struct child c;

	(void)state;
	run_child(write_and_get_killed, NULL, &c);
	assert_int_equal(c.status, 128 + SIGTERM);
	assert_null(contents(target));
	assert_int_equal(entries(), 0);
}

static volatile int sink;

static void
end_by_report(void)
{
#ifdef ASAN_BUILD
	char *volatile buf = malloc(4);
	volatile size_t past = 4;

	sink = buf[past];
#else
	volatile int big = INT_MAX;

	sink = big + 1;
#endif
}

/* Opens the file, writes half of it and ends the way arg says. */
static void
write_and_end(void *arg)
{
	const char *how = arg;
	struct ofile o;
	int p[2];
	FILE *fp;

	prog_init("prog");
	fp = ofile_open(&o, target);
	fputs("half", fp);
	fflush(fp);
	if (strcmp(how, "abort") == 0) {
		abort();
	} else if (strcmp(how, "quit") == 0) {
		raise(SIGQUIT);
	} else if (strcmp(how, "epipe") == 0) {
		/* A message to a stderr nobody reads (2>&1 | head -1). */
		if (pipe(p) != 0)
			_exit(99);
		close(p[0]);
		dup2(p[1], STDERR_FILENO);
		warn("a message");
	} else if (strcmp(how, "report") == 0) {
		/* A sanitizer's report ends the run with _exit(), which
		 * skips atexit(): ASan's for a read past a buffer, or UBSan's
		 * for a signed overflow. */
		end_by_report();
	}
	fputs("never", fp);
	_exit(98);
}

static void
a_signal_or_abort_leaves_no_file(void **state)
{
	static const struct {
		const char *how;
		int status;
	} ends[] = {
		{ "abort", 128 + SIGABRT },
		{ "quit", 128 + SIGQUIT },
		{ "epipe", 128 + SIGPIPE },
	};
	struct child c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		run_child(write_and_end, (void *)ends[i].how, &c);
		assert_int_equal(c.status, ends[i].status);
		assert_null(contents(target));
		assert_int_equal(entries(), 0);
	}
}

/* Set by a sanitizer runtime (make asan, make ubsan); NULL otherwise. */
void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

static void
a_sanitizer_report_leaves_no_file(void **state)
{
	struct child c;

	(void)state;
	/* A plain build has no report to end the run. */
	if (__sanitizer_set_death_callback == NULL)
		return;
	run_child(write_and_end, (void *)"report", &c);
	assert_int_not_equal(c.status, 98);
	assert_true(strstr(c.err, "Sanitizer") != NULL ||
	    strstr(c.err, "runtime error") != NULL);
	assert_null(contents(target));
	assert_int_equal(entries(), 0);
}

static void
dash_and_null_mean_stdout(void **state)
{
	struct ofile o;

	(void)state;
	assert_ptr_equal(ofile_open(&o, "-"), stdout);
	assert_int_equal(ofile_close(&o), 0);
	assert_ptr_equal(ofile_open(&o, NULL), stdout);
	assert_int_equal(ofile_close(&o), 0);
	assert_int_equal(entries(), 0);
}

static void
a_device_is_written_directly(void **state)
{
	struct ofile o;
	struct stat st;
	FILE *fp;

	(void)state;
	fp = ofile_open(&o, "/dev/null");
	assert_non_null(fp);
	fputs("nothing\n", fp);
	assert_int_equal(ofile_close(&o), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
}

static void
write_full(void *arg)
{
	struct ofile o;
	FILE *fp;

	(void)arg;
	prog_init("prog");
	fp = ofile_open(&o, "/dev/full");
	fputs("data\n", fp);
	exit(ofile_close(&o) == 0 ? 0 : 1);
}

static void
a_write_error_is_reported(void **state)
{
	struct child c;

	(void)state;
	run_child(write_full, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err,
	    "prog: cannot write '/dev/full': No space left on device\n");
}

static void
open_missing_dir(void *arg)
{
	struct ofile o;

	(void)arg;
	prog_init("prog");
	ofile_open(&o, "/nonexistent/dir/out.html");
}

static void
an_impossible_path_is_fatal(void **state)
{
	struct child c;

	(void)state;
	run_child(open_missing_dir, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, "prog: cannot create "
	    "'/nonexistent/dir/out.html': No such file or directory\n");
}

static void
a_relative_path_works(void **state)
{
	char cwd[4096];
	struct ofile o;
	FILE *fp;

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	fp = ofile_open(&o, "out.html");
	fputs("rel\n", fp);
	assert_int_equal(ofile_close(&o), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_string_equal(contents(target), "rel\n");
	unlink(target);
}

static void
finish_nothing(void *arg)
{
	struct ofile o;

	prog_init("prog");
	ofile_open(&o, target);
	exit(ofile_finish(&o, arg != NULL ? EXIT_FAILURE : EXIT_SUCCESS));
}

static void
finish_some(void *arg)
{
	struct ofile o;

	(void)arg;
	prog_init("prog");
	fputs("some\n", ofile_open(&o, target));
	exit(ofile_finish(&o, EXIT_FAILURE));
}

static void
finish_writes_nothing_only_for_a_failed_empty_run(void **state)
{
	static char fail[] = "fail";
	struct child c;
	FILE *fp;

	(void)state;
	unlink(target);
	/* Failed, nothing written: no file, one line. */
	run_child(finish_nothing, fail, &c);
	assert_int_equal(c.status, 1);
	assert_int_equal(entries(), 0);
	assert_non_null(strstr(c.err, "prog: nothing to write: '"));
	assert_non_null(strstr(c.err, "out.html' not created\n"));
	/* An old file stays as it was. */
	fp = fopen(target, "w");
	fputs("old\n", fp);
	fclose(fp);
	run_child(finish_nothing, fail, &c);
	assert_int_equal(c.status, 1);
	assert_non_null(strstr(c.err, "out.html' left as it was\n"));
	assert_string_equal(contents(target), "old\n");
	assert_int_equal(entries(), 1);
	/* A run that succeeds writes its empty output. */
	run_child(finish_nothing, NULL, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.err, "");
	assert_string_equal(contents(target), "");
	/* A failed run that wrote something keeps it. */
	run_child(finish_some, NULL, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(contents(target), "some\n");
	assert_int_equal(entries(), 1);
	unlink(target);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(close_renames_the_whole_file_into_place),
		cmocka_unit_test(finish_writes_nothing_only_for_a_failed_empty_run),
		cmocka_unit_test(die_leaves_no_file_and_keeps_the_old_one),
		cmocka_unit_test(sigterm_leaves_no_file),
		cmocka_unit_test(a_signal_or_abort_leaves_no_file),
		cmocka_unit_test(a_sanitizer_report_leaves_no_file),
		cmocka_unit_test(dash_and_null_mean_stdout),
		cmocka_unit_test(a_device_is_written_directly),
		cmocka_unit_test(a_write_error_is_reported),
		cmocka_unit_test(an_impossible_path_is_fatal),
		cmocka_unit_test(a_relative_path_works),
	};

	return cmocka_run_group_tests_name("ofile", tests, setup, teardown);
}
