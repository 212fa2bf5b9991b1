/*
 * test_zin_map.c: regular files read through zin's mapped windows: lines
 * across window edges, lines longer than a window, the pad after the
 * data, sizes that are a multiple of the page, a file that grows or
 * shrinks while it is read, and memory that stays that of a window.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "unit.h"
#include "zin.h"

/*
 * The text of line i of a made-up file: its number, a colon, then a run
 * of letters whose length an LCG picks (0 to 3000, and every 97th line
 * longer than a window when big is set).
 */
static size_t
gen_line(unsigned long i, int big, char *out, size_t cap)
{
	unsigned long r = i * 2654435761ul + 12345;
	size_t n, len, k;

	n = (size_t)snprintf(out, cap, "%lu:", i);
	len = (r >> 7) % 3001;
	if (big && i % 97 == 50)
		len = ZIN_WIN + (r % 9000);
	for (k = 0; k < len && n < cap; k++)
		out[n++] = (char)('a' + (i + k) % 26);
	return n;
}

/* A file of lines from gen_line() of at least size bytes; *nlines set. */
static char *
gen_file(size_t size, int big, int final_nl, unsigned long *nlines)
{
	size_t cap = 2 * ZIN_WIN, n;
	char *line = malloc(cap), *path = tmp_file("", 0);
	unsigned long i;
	size_t total = 0;
	FILE *fp;

	assert_non_null(line);
	fp = fopen(path, "wb");
	assert_non_null(fp);
	for (i = 0; total < size; i++) {
		n = gen_line(i, big, line, cap);
		assert_int_equal(fwrite(line, 1, n, fp), n);
		total += n;
		if (total < size || final_nl) {
			fputc('\n', fp);
			total++;
		}
	}
	assert_int_equal(fclose(fp), 0);
	*nlines = i;
	free(line);
	return path;
}

/* Every line of path through zin_getline() is gen_line()'s. */
static void
check_getline(const char *path, int big, unsigned long nlines, int final_nl)
{
	size_t cap = 2 * ZIN_WIN, n, len;
	char *want = malloc(cap);
	const char *line;
	unsigned long i;
	struct zin z;

	assert_non_null(want);
	assert_int_equal(zin_open(&z, path), 0);
	for (i = 0; i < nlines; i++) {
		assert_int_equal(zin_getline(&z, &line, &len), 1);
		n = gen_line(i, big, want, cap);
		assert_int_equal(len, n);
		assert_memory_equal(line, want, n);
		assert_int_equal(z.no_newline, i + 1 == nlines && !final_nl);
		if (i == 0)
			assert_non_null(z.map);	/* it is the mapped path */
	}
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	free(want);
}

/*
 * The same lines found by a caller over zin_peek(), zin_fill() and
 * zin_take(), reading the ZIN_PAD bytes after what peek shows.
 */
static void
check_peek(const char *path, int big, unsigned long nlines)
{
	size_t cap = 2 * ZIN_WIN, n, have, scan;
	char *want = malloc(cap);
	const char *p, *nl;
	volatile unsigned long pad = 0;
	unsigned long i;
	struct zin z;
	ssize_t got;
	int k;

	assert_non_null(want);
	assert_int_equal(zin_open(&z, path), 0);
	for (i = 0; ; i++) {
		scan = 0;
		for (;;) {
			have = zin_peek(&z, &p);
			for (k = 0; k < ZIN_PAD; k++)
				pad += (unsigned char)p[have + k];
			nl = memchr(p + scan, '\n', have - scan);
			if (nl != NULL)
				break;
			scan = have;
			assert_true((got = zin_fill(&z)) >= 0);
			if (got == 0)
				break;
		}
		if (nl == NULL && have == 0)
			break;
		n = gen_line(i, big, want, cap);
		assert_int_equal(nl != NULL ? (size_t)(nl - p) : have, n);
		assert_memory_equal(p, want, n);
		zin_take(&z, nl != NULL ? n + 1 : n);
	}
	assert_int_equal(i, nlines);
	assert_int_equal(zin_fill(&z), 0);
	zin_close(&z);
	free(want);
	(void)pad;
}

static void
lines_across_window_edges(void **state)
{
	unsigned long n;
	char *path;
	int nl;

	(void)state;
	for (nl = 0; nl <= 1; nl++) {
		path = gen_file(3 * ZIN_WIN + 12345, 0, nl, &n);
		check_getline(path, 0, n, nl);
		check_peek(path, 0, n);
		tmp_remove(path);
	}
}

static void
lines_longer_than_a_window(void **state)
{
	unsigned long n;
	char *path;

	(void)state;
	path = gen_file(3 * ZIN_WIN, 1, 0, &n);
	check_getline(path, 1, n, 0);
	check_peek(path, 1, n);
	tmp_remove(path);
}

/*
 * A file of exactly k pages: the pad after its last byte is readable (a
 * mapping of the file alone would fault there) and, past the file, zero.
 */
static void
page_multiple_size_has_a_pad(void **state)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), sizes[3], i, k, have;
	const char *p, *line;
	char *data, *path;
	struct zin z;
	size_t len;

	(void)state;
	sizes[0] = pg;
	sizes[1] = 3 * pg;
	sizes[2] = ZIN_WIN;
	for (i = 0; i < 3; i++) {
		data = malloc(sizes[i]);
		assert_non_null(data);
		memset(data, 'x', sizes[i]);
		data[sizes[i] - 1] = '\n';
		data[10] = '\n';
		path = tmp_file(data, sizes[i]);
		assert_int_equal(zin_open(&z, path), 0);
		assert_int_equal(zin_getline(&z, &line, &len), 1);
		assert_int_equal(len, 10);
		have = zin_peek(&z, &p);
		assert_int_equal(have, sizes[i] - 11);
		for (k = 0; k < ZIN_PAD; k++)
			assert_int_equal(p[have + k], 0);
		assert_int_equal(zin_getline(&z, &line, &len), 1);
		assert_int_equal(len, sizes[i] - 12);
		assert_int_equal(zin_getline(&z, &line, &len), 0);
		assert_int_equal(zin_peek(&z, &p), 0);
		for (k = 0; k < ZIN_PAD; k++)
			assert_int_equal(p[k], 0);
		zin_close(&z);
		tmp_remove(path);
		free(data);
	}
}

static void
empty_file_has_a_pad(void **state)
{
	char *path = tmp_file("", 0);
	const char *p;
	struct zin z;
	int k;

	(void)state;
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_fill(&z), 0);
	assert_int_equal(zin_peek(&z, &p), 0);
	for (k = 0; k < ZIN_PAD; k++)
		assert_int_equal(p[k], 0);
	zin_close(&z);
	tmp_remove(path);
}

/* zin_read() hands over every byte of a file of several windows. */
static void
read_crosses_windows(void **state)
{
	unsigned long n, sum = 0, want = 0;
	size_t total = 0, i;
	char buf[7777], *path;
	const char *line;
	struct zin z;
	size_t len;
	ssize_t got;
	FILE *fp;
	int c;

	(void)state;
	path = gen_file(2 * ZIN_WIN + 999, 0, 1, &n);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	while ((c = fgetc(fp)) != EOF)
		want = want * 31 + (unsigned char)c;
	fclose(fp);
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	sum = 0;
	for (i = 0; i < len; i++)
		sum = sum * 31 + (unsigned char)line[i];
	sum = sum * 31 + '\n';
	total = len + 1;
	while ((got = zin_read(&z, buf, sizeof(buf))) > 0) {
		for (i = 0; i < (size_t)got; i++)
			sum = sum * 31 + (unsigned char)buf[i];
		total += (size_t)got;
	}
	assert_int_equal(got, 0);
	assert_int_equal(sum, want);
	zin_close(&z);
	tmp_remove(path);
}

/* stdin that is a regular file is mapped from its offset, which moves. */
static void
stdin_file_is_mapped_from_its_offset(void **state)
{
	char *path = tmp_filez("skip\nfirst\nsecond\n");
	int fd, saved = dup(STDIN_FILENO);
	const char *line;
	struct zin z;
	size_t len;

	(void)state;
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0 && saved >= 0);
	assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
	close(fd);
	assert_int_equal(lseek(STDIN_FILENO, 5, SEEK_SET), 5);
	assert_int_equal(zin_open(&z, "-"), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_non_null(z.map);
	assert_mem_str(line, len, "first");
	/* The offset is past what was mapped, as read(2) would leave it. */
	assert_int_equal(lseek(STDIN_FILENO, 0, SEEK_CUR), 18);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "second");
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	dup2(saved, STDIN_FILENO);
	close(saved);
	tmp_remove(path);
}

/* gzip and pipes keep read(2); zin_fill() grows the buffer for a line. */
static void
gzip_is_not_mapped_and_fill_grows(void **state)
{
	size_t big = 1 << 20, have = 0;
	char *text = malloc(big + 2), *path = tmp_file("", 0);
	const char *p;
	struct zin z;
	ssize_t got;
	gzFile gz;

	(void)state;
	assert_non_null(text);
	memset(text, 'q', big);
	text[big] = '\n';
	gz = gzopen(path, "wb");
	assert_non_null(gz);
	assert_int_equal(gzwrite(gz, text, (unsigned)big + 1), (int)big + 1);
	assert_int_equal(gzclose(gz), Z_OK);
	assert_int_equal(zin_open(&z, path), 0);
	while ((got = zin_fill(&z)) > 0)
		have = zin_peek(&z, &p);
	assert_int_equal(got, 0);
	assert_null(z.map);
	assert_int_equal(have, big + 1);
	assert_memory_equal(p, text, big + 1);
	zin_close(&z);
	tmp_remove(path);
	free(text);
}

/* A file that grows while it is read is read to its new end. */
static void
growing_file_is_read_on(void **state)
{
	unsigned long n, i;
	char *path;
	const char *line;
	struct zin z;
	size_t len;
	FILE *fp;

	(void)state;
	path = gen_file(ZIN_WIN + 100, 0, 1, &n);
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	fp = fopen(path, "ab");
	assert_non_null(fp);
	fputs("appended\n", fp);
	fclose(fp);
	for (i = 1; i < n; i++)
		assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "appended");
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	tmp_remove(path);
}

/*
 * The file is cut short under the mapping: the pages past its new end
 * fault (SIGBUS) when read, by zin or by its caller; neither crashes,
 * and the next call is a read error that says so.
 */
static void
shrinking_file_is_a_read_error(void **state)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), have, k;
	unsigned long n, lines = 1;
	volatile unsigned long sum = 0;
	const char *line, *p;
	struct zin z;
	size_t len;
	char *path;
	int rc, by_caller;

	(void)state;
	for (by_caller = 0; by_caller <= 2; by_caller++) {
		path = gen_file(3 * ZIN_WIN, 0, 1, &n);
		assert_int_equal(zin_open(&z, path), 0);
		assert_int_equal(zin_getline(&z, &line, &len), 1);
		/* 2: cut past the window, found when the next is mapped. */
		assert_int_equal(truncate(path, by_caller == 2 ?
		    (off_t)ZIN_WIN + 5000 : (off_t)(8 * pg + 100)), 0);
		lines = 1;
		if (by_caller == 1) {
			/* The caller reads the window itself, past the cut. */
			have = zin_peek(&z, &p);
			for (k = 0; k < have; k++)
				sum += (unsigned char)p[k];
			assert_true(z.bus);
			assert_int_equal(zin_fill(&z), -1);
		} else {
			while ((rc = zin_getline(&z, &line, &len)) == 1)
				lines++;
			assert_int_equal(rc, -1);
			assert_true(lines < n);
		}
		assert_string_equal(zin_error(&z),
		    "file shrank while being read");
		assert_int_equal(zin_getline(&z, &line, &len), -1);
		zin_close(&z);
		tmp_remove(path);
	}
	(void)sum;
}

/*
 * A line that starts 256 kB (the read(2) buffer) before a window's end
 * and goes on past it is one line, not cut where a buffer would be.
 */
static void
line_of_a_buffer_at_a_window_edge(void **state)
{
	size_t first = ZIN_WIN - 256 * 1024 - 1, second = 300 * 1024;
	char *data = malloc(first + second + 2), *path;
	const char *line;
	struct zin z;
	size_t len;

	(void)state;
	assert_non_null(data);
	memset(data, 'a', first);
	data[first] = '\n';
	memset(data + first + 1, 'b', second);
	data[first + 1 + second] = '\n';
	path = tmp_file(data, first + second + 2);
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(len, first);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(len, second);
	assert_memory_equal(line, data + first + 1, second);
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	tmp_remove(path);
	free(data);
}

/*
 * Reads path whole and exits 0 when the peak resident set grew by less
 * than one and a half windows meanwhile (ru_maxrss, so that a moment
 * with two windows resident counts too), 1 when it grew more.
 */
static void
read_for_peak(void *arg)
{
	struct rusage before, after;
	const char *line;
	struct zin z;
	size_t len;

	if (getrusage(RUSAGE_SELF, &before) != 0 ||
	    zin_open(&z, arg) != 0)
		exit(2);
	while (zin_getline(&z, &line, &len) == 1)
		;
	zin_close(&z);
	if (getrusage(RUSAGE_SELF, &after) != 0)
		exit(2);
	exit(after.ru_maxrss - before.ru_maxrss <
	    3 * (long)(ZIN_WIN / 1024) / 2 ? 0 : 1);
}

/* Reading a file of 12 windows keeps about one resident at its peak. */
static void
memory_stays_that_of_a_window(void **state)
{
	unsigned long n;
	struct child c;
	char *path;

	(void)state;
	path = gen_file(12 * ZIN_WIN, 0, 1, &n);
	run_child(read_for_peak, path, &c);
	tmp_remove(path);
	assert_int_equal(c.status, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_across_window_edges),
		cmocka_unit_test(lines_longer_than_a_window),
		cmocka_unit_test(page_multiple_size_has_a_pad),
		cmocka_unit_test(empty_file_has_a_pad),
		cmocka_unit_test(read_crosses_windows),
		cmocka_unit_test(stdin_file_is_mapped_from_its_offset),
		cmocka_unit_test(gzip_is_not_mapped_and_fill_grows),
		cmocka_unit_test(growing_file_is_read_on),
		cmocka_unit_test(shrinking_file_is_a_read_error),
		cmocka_unit_test(line_of_a_buffer_at_a_window_edge),
		cmocka_unit_test(memory_stays_that_of_a_window),
	};

	return cmocka_run_group_tests_name("zin_map", tests, NULL, NULL);
}
