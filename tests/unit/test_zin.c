/* test_zin.c: plain and gzip input (zin.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <zlib.h>

#include "unit.h"
#include "zin.h"

/* Writes the strings as consecutive gzip members; returns the path. */
static char *
gz_file(const char *const parts[], size_t n)
{
	char *path = tmp_file("", 0);
	size_t i;
	gzFile gz;

	for (i = 0; i < n; i++) {
		gz = gzopen(path, i == 0 ? "wb" : "ab");
		assert_non_null(gz);
		assert_int_equal(gzwrite(gz, parts[i],
		    (unsigned)strlen(parts[i])), (int)strlen(parts[i]));
		assert_int_equal(gzclose(gz), Z_OK);
	}
	return path;
}

static void
getline_splits_lines_and_keeps_cr(void **state)
{
	char *path = tmp_filez("one\ntwo\r\n\nlast");
	const char *line;
	struct zin z;
	size_t len;

	(void)state;
	assert_int_equal(zin_open(&z, path), 0);
	assert_string_equal(z.name, path);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "one");
	assert_false(z.no_newline);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "two\r");
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(len, 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "last");
	assert_true(z.no_newline);
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	tmp_remove(path);
}

static void
peek_shows_the_bytes_at_hand_and_take_consumes_them(void **state)
{
	char *path = tmp_filez("ab\ncd\nef\nlast");
	const char *line, *p;
	struct zin z;
	size_t len;

	(void)state;
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_peek(&z, &p), 0);	/* nothing read yet */
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "ab");
	assert_int_equal(zin_peek(&z, &p), 10);
	assert_mem_str(p, 10, "cd\nef\nlast");
	zin_take(&z, 3);		/* "cd\n", found by the caller */
	assert_false(z.no_newline);
	assert_int_equal(zin_peek(&z, &p), 7);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "ef");
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "last");
	assert_true(z.no_newline);
	assert_int_equal(zin_peek(&z, &p), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	tmp_remove(path);
}

static void
getline_on_an_empty_file_is_eof(void **state)
{
	char *path = tmp_file("", 0);
	const char *line;
	struct zin z;
	size_t len;

	(void)state;
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	tmp_remove(path);
}

static void
getline_keeps_nul_bytes(void **state)
{
	char *path = tmp_file("a\0b\nc", 5);
	const char *line;
	struct zin z;
	size_t len;

	(void)state;
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(len, 3);
	assert_memory_equal(line, "a\0b", 3);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "c");
	zin_close(&z);
	tmp_remove(path);
}

/* A 10 MB line between short ones, with and without a final newline. */
static void
long_line(int final_nl)
{
	size_t big = 10 * 1024 * 1024, i, n;
	char *data = malloc(big + 16), *path;
	const char *line;
	struct zin z;
	size_t len;

	assert_non_null(data);
	memcpy(data, "x\n", 2);
	for (i = 2; i < big + 2; i++)
		data[i] = (char)('0' + i % 10);
	n = big + 2;
	memcpy(data + n, "\ny", 2);
	n += 2;
	if (final_nl)
		data[n++] = '\n';
	path = tmp_file(data, n);
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "x");
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(len, big);
	assert_memory_equal(line, data + 2, big);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "y");
	assert_int_equal(z.no_newline, !final_nl);
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	tmp_remove(path);
	free(data);
}

static void
getline_reads_a_10mb_line(void **state)
{
	(void)state;
	long_line(1);
}

static void
getline_reads_a_10mb_line_then_one_without_newline(void **state)
{
	(void)state;
	long_line(0);
}

static void
last_long_line_without_newline_is_whole(void **state)
{
	size_t big = 3 * 1024 * 1024, i;
	char *data = malloc(big), *path;
	const char *line;
	struct zin z;
	size_t len;

	(void)state;
	assert_non_null(data);
	for (i = 0; i < big; i++)
		data[i] = (char)('a' + i % 26);
	path = tmp_file(data, big);
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(len, big);
	assert_memory_equal(line, data, big);
	assert_true(z.no_newline);
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	tmp_remove(path);
	free(data);
}

/* Compresses text as one gzip member into buf; returns its length. */
static size_t
gz_bytes(const char *text, char *buf, size_t cap)
{
	const char *parts[1] = { text };
	char *path = gz_file(parts, 1);
	size_t n;
	FILE *fp;

	fp = fopen(path, "rb");
	assert_non_null(fp);
	n = fread(buf, 1, cap, fp);
	fclose(fp);
	tmp_remove(path);
	return n;
}

static void
gzip_is_detected_from_the_data(void **state)
{
	const char *parts[] = { "a,b\n1,2\n" };
	char *path = gz_file(parts, 1);
	const char *line;
	struct zin z;
	size_t len;

	(void)state;
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "a,b");
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "1,2");
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	tmp_remove(path);
}

static void
gzip_members_are_read_in_turn(void **state)
{
	const char *parts[] = { "one\ntw", "o\nthree\n" };
	char *path = gz_file(parts, 2);
	const char *line;
	struct zin z;
	size_t len;

	(void)state;
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "one");
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "two");
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "three");
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	tmp_remove(path);
}

static void
truncated_gzip_is_an_error(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *line;
	char *cut, buf[65536];
	struct zin z;
	size_t len, n;
	int i, rc;

	(void)state;
	for (i = 0; i < 20000; i++)
		strbuf_addf(&sb, "{\"i\":%d,\"r\":%u}\n", i,
		    (unsigned)(i * 2654435761u));
	n = gz_bytes(sb.buf, buf, sizeof(buf));
	assert_true(n > 1000);
	cut = tmp_file(buf, n / 2);
	assert_int_equal(zin_open(&z, cut), 0);
	while ((rc = zin_getline(&z, &line, &len)) == 1)
		;
	assert_int_equal(rc, -1);
	assert_true(strlen(zin_error(&z)) > 0);
	zin_close(&z);
	tmp_remove(cut);
	strbuf_release(&sb);
}

/*
 * A line that has arrived through a pipe is returned while the writer is
 * still writing: the reader must not wait for a full buffer (or EOF), or
 * the stages of a pipeline run one after the other.  An alarm turns a
 * hang into a failure.
 */
static void
getline_returns_what_a_pipe_holds(void **state)
{
	const char *line;
	char path[64];
	struct zin z;
	size_t len;
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(write(fds[1], "first\nsec", 9), 9);
	snprintf(path, sizeof(path), "/dev/fd/%d", fds[0]);
	assert_int_equal(zin_open(&z, path), 0);
	alarm(5);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	alarm(0);
	assert_int_equal(len, 5);
	assert_memory_equal(line, "first", 5);
	assert_int_equal(write(fds[1], "ond\n", 4), 4);
	close(fds[1]);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(len, 6);
	assert_memory_equal(line, "second", 6);
	assert_int_equal(zin_getline(&z, &line, &len), 0);
	zin_close(&z);
	close(fds[0]);
}

static void
garbage_after_gzip_is_an_error(void **state)
{
	const char *line;
	char *bad, buf[4096];
	struct zin z;
	size_t len, n;

	(void)state;
	n = gz_bytes("a\nb\n", buf, sizeof(buf) - 4);
	memcpy(buf + n, "junk", 4);
	bad = tmp_file(buf, n + 4);
	assert_int_equal(zin_open(&z, bad), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_int_equal(zin_getline(&z, &line, &len), -1);
	assert_string_equal(zin_error(&z), "trailing garbage after gzip data");
	zin_close(&z);
	tmp_remove(bad);
}

static void
read_returns_bytes_after_lines(void **state)
{
	char *path = tmp_filez("head\nbody bytes");
	const char *line;
	char buf[64];
	struct zin z;
	size_t len;
	ssize_t n;

	(void)state;
	assert_int_equal(zin_open(&z, path), 0);
	assert_int_equal(zin_getline(&z, &line, &len), 1);
	assert_mem_str(line, len, "head");
	n = zin_read(&z, buf, sizeof(buf));
	assert_int_equal(n, 10);
	assert_memory_equal(buf, "body bytes", 10);
	assert_int_equal(zin_read(&z, buf, sizeof(buf)), 0);
	zin_close(&z);
	tmp_remove(path);
}

static void
open_fails_on_missing_file_and_directory(void **state)
{
	struct zin z;

	(void)state;
	errno = 0;
	assert_int_equal(zin_open(&z, "/nonexistent/file"), -1);
	assert_int_equal(errno, ENOENT);
	errno = 0;
	assert_int_equal(zin_open(&z, "/tmp"), -1);
	assert_int_equal(errno, EISDIR);
}

static void
dash_names_stdin(void **state)
{
	struct zin z;

	(void)state;
	assert_int_equal(zin_open(&z, "-"), 0);
	assert_string_equal(z.name, "<stdin>");
	zin_close(&z);
	assert_int_equal(zin_open(&z, NULL), 0);
	assert_string_equal(z.name, "<stdin>");
	zin_close(&z);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(getline_splits_lines_and_keeps_cr),
		cmocka_unit_test(
		    peek_shows_the_bytes_at_hand_and_take_consumes_them),
		cmocka_unit_test(getline_on_an_empty_file_is_eof),
		cmocka_unit_test(getline_keeps_nul_bytes),
		cmocka_unit_test(getline_reads_a_10mb_line),
		cmocka_unit_test(
		    getline_reads_a_10mb_line_then_one_without_newline),
		cmocka_unit_test(last_long_line_without_newline_is_whole),
		cmocka_unit_test(gzip_is_detected_from_the_data),
		cmocka_unit_test(gzip_members_are_read_in_turn),
		cmocka_unit_test(truncated_gzip_is_an_error),
		cmocka_unit_test(garbage_after_gzip_is_an_error),
		cmocka_unit_test(getline_returns_what_a_pipe_holds),
		cmocka_unit_test(read_returns_bytes_after_lines),
		cmocka_unit_test(open_fails_on_missing_file_and_directory),
		cmocka_unit_test(dash_names_stdin),
	};

	return cmocka_run_group_tests_name("zin", tests, NULL, NULL);
}
