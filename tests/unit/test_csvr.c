/* test_csvr.c: strict CSV reading (csvr.h). */
#include <zlib.h>

#include "unit.h"
#include "csvr.h"

/*
 * Reads path and renders every row as "line:f1|f2|..." and every bad row
 * as "line:ERROR", one per line, into out.
 */
static void
render(const char *path, struct strbuf *out)
{
	struct csvr r;
	struct csvr_row row;
	size_t i;
	int rc;

	strbuf_reset(out);
	assert_int_equal(csvr_open(&r, path), 0);
	while ((rc = csvr_next(&r, &row)) != 0) {
		if (rc < 0) {
			assert_true(strlen(csvr_error(&r)) > 0);
			strbuf_addf(out, "%lu:ERROR\n", r.pos.line);
			continue;
		}
		assert_int_equal(r.pos.line, row.line);
		strbuf_addf(out, "%lu:", row.line);
		for (i = 0; i < row.n; i++) {
			assert_int_equal(strlen(row.f[i]), row.len[i]);
			strbuf_addf(out, "%s%s", i > 0 ? "|" : "", row.f[i]);
		}
		strbuf_addch(out, '\n');
	}
	assert_int_equal(csvr_next(&r, &row), 0);
	csvr_close(&r);
}

static void
check(const char *csv, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	char *path = tmp_filez(csv);

	render(path, &out);
	assert_string_equal(out.buf, want);
	strbuf_release(&out);
	tmp_remove(path);
}

/* Skipping to a row's line gives the rows a full read gives from there. */
static void
skips_to_a_row_without_parsing_before_it(void **state)
{
	/* A quoted newline and a stray quote before the target line. */
	char *path = tmp_filez("h1,h2\n\"x\ny\",1\nbad\"q,2\n3,4\n5,6\n");
	struct csvr r;
	struct csvr_row row;

	(void)state;
	assert_int_equal(csvr_open(&r, path), 0);
	assert_int_equal(csvr_next(&r, &row), 1);
	assert_int_equal(csvr_skip_to(&r, 5), 0);
	assert_int_equal(csvr_next(&r, &row), 1);
	assert_int_equal(row.line, 5);
	assert_string_equal(row.f[0], "3");
	assert_string_equal(row.f[1], "4");
	assert_int_equal(csvr_next(&r, &row), 1);
	assert_int_equal(row.line, 6);
	assert_int_equal(csvr_next(&r, &row), 0);
	/* Past the end: EOF, not an error. */
	assert_int_equal(csvr_skip_to(&r, 99), 0);
	csvr_close(&r);
	tmp_remove(path);
}

static void
reads_rows_with_their_line_numbers(void **state)
{
	(void)state;
	check("a,b,c\n1,2,3\n4,5,6\n", "1:a|b|c\n2:1|2|3\n3:4|5|6\n");
}

static void
keeps_empty_fields_and_spaces(void **state)
{
	(void)state;
	check("a,,c\n, x ,\n", "1:a||c\n2:| x |\n");
}

static void
quoted_fields_hold_commas_quotes_and_newlines(void **state)
{
	(void)state;
	check("k,v\n\"a,b\",\"say \"\"hi\"\"\"\n\"two\nlines\",x\n7,8\n",
	    "1:k|v\n2:a,b|say \"hi\"\n3:two\nlines|x\n5:7|8\n");
}

static void
crlf_ends_rows(void **state)
{
	(void)state;
	check("a,b\r\n1,2\r\n", "1:a|b\n2:1|2\n");
	/* A quoted field last, and a CR inside a quoted one (data). */
	check("\"x,y\",\"z\"\r\n\"c\rr\",2\r\n", "1:x,y|z\n2:c\rr|2\n");
}

static void
utf8_bom_is_dropped(void **state)
{
	(void)state;
	check("\xef\xbb\xbfname,x\n\xc3\xa9,1\n", "1:name|x\n2:\xc3\xa9|1\n");
}

static void
bom_only_counts_at_the_start(void **state)
{
	(void)state;
	check("a\n\xef\xbb\xbf" "b\n", "1:a\n2:\xef\xbb\xbf" "b\n");
}

static void
blank_lines_are_skipped(void **state)
{
	(void)state;
	check("a\n\n\nb\n", "1:a\n4:b\n");
}

static void
last_row_without_newline_is_read(void **state)
{
	(void)state;
	check("a,b\n1,2", "1:a|b\n2:1|2\n");
	check("a,\"b\nc\"", "1:a|b\nc\n");
}

static void
empty_file_has_no_rows(void **state)
{
	(void)state;
	check("", "");
}

static void
stray_quote_is_a_bad_row_and_reading_goes_on(void **state)
{
	(void)state;
	check("a,b\n1,x\"y\n2,3\n", "1:a|b\n2:ERROR\n3:2|3\n");
	check("a,b\n\"q\"x,1\n2,3\n", "1:a|b\n2:ERROR\n3:2|3\n");
	check("a\nx\"\ny\"\nz\n", "1:a\n2:ERROR\n3:ERROR\n4:z\n");
}

static void
unclosed_quote_at_end_is_a_bad_row(void **state)
{
	(void)state;
	check("a,b\n1,\"open\n2,3\n", "1:a|b\n2:ERROR\n");
}

/*
 * Rows of simple fields are split without libcsv, the others by it; the
 * two kinds alternate here, so each row must come out as RFC 4180 reads
 * it whichever way it went, and a row libcsv takes back from the simple
 * split must keep none of its fields.
 */
static void
simple_and_other_rows_alternate(void **state)
{
	(void)state;
	/* Quoted fields with commas, an empty one, a last empty field. */
	check("\"a,b\",c,\"\",d,\n1,\"x\"\"y\",2\n\"k\"\n,\n",
	    "1:a,b|c||d|\n2:1|x\"y|2\n3:k\n4:|\n");
	/* A quoted field that goes on over lines after simple fields, and a
	 * simple row after it. */
	check("p,q\nx,\"multi\nline\",z\n7,8\n",
	    "1:p|q\n2:x|multi\nline|z\n4:7|8\n");
	/* Split up to a stray quote, then not simple: the error, and the
	 * rows after it whole. */
	check("1,2,3\n4,5,6\"\n7,8,9\n\"a\",\"b\"c\n0\n",
	    "1:1|2|3\n2:ERROR\n3:7|8|9\n4:ERROR\n5:0\n");
}

static void
reads_gzip_input(void **state)
{
	struct strbuf out = STRBUF_INIT;
	char path[] = "/tmp/profpipe-unit-XXXXXX";
	gzFile gz;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	gz = gzdopen(fd, "wb");
	assert_non_null(gz);
	gzputs(gz, "Dispatch_ID,Start_Timestamp\n0,18446744073709551615\n");
	gzclose(gz);
	render(path, &out);
	assert_string_equal(out.buf,
	    "1:Dispatch_ID|Start_Timestamp\n2:0|18446744073709551615\n");
	strbuf_release(&out);
	unlink(path);
}

/* A 16 MB field on one line, and one over 16,000 lines: libcsv's buffer
 * grows geometrically (it grew 4 KB at a time: quadratic under ASan). */
static void
long_fields_grow_the_buffer_geometrically(void **state)
{
	size_t big = 16 * 1024 * 1024, i, g, nl;
	char *data = malloc(big + 64), *path;
	struct csvr_row row;
	struct csvr r;

	(void)state;
	assert_non_null(data);
	for (nl = 0; nl <= 1; nl++) {
		memcpy(data, "h\n\"", 3);
		for (i = 3; i < big + 3; i++)
			data[i] = nl && i % 1000 == 0 ? '\n' :
			    (char)('a' + i % 26);
		memcpy(data + big + 3, "\"\n", 2);
		path = tmp_file(data, big + 5);
		g = csvr_buffer_grows();
		assert_int_equal(csvr_open(&r, path), 0);
		assert_int_equal(csvr_next(&r, &row), 1);
		assert_int_equal(csvr_next(&r, &row), 1);
		assert_int_equal(row.len[0], big);
		assert_memory_equal(row.f[0], data + 3, big);
		assert_int_equal(csvr_next(&r, &row), 0);
		csvr_close(&r);
		tmp_remove(path);
		assert_true(csvr_buffer_grows() - g < 40);
	}
	free(data);
}

static void
reads_a_10mb_field(void **state)
{
	size_t big = 10 * 1024 * 1024, i;
	char *data = malloc(big + 64), *path;
	struct csvr_row row;
	struct csvr r;

	(void)state;
	assert_non_null(data);
	memcpy(data, "h\n\"", 3);
	for (i = 3; i < big + 3; i++)
		data[i] = i % 1000 == 0 ? '\n' : (char)('a' + i % 26);
	memcpy(data + big + 3, "\",x\ny,z\n", 8);
	path = tmp_file(data, big + 11);
	assert_int_equal(csvr_open(&r, path), 0);
	assert_int_equal(csvr_next(&r, &row), 1);
	assert_int_equal(csvr_next(&r, &row), 1);
	assert_int_equal(row.line, 2);
	assert_int_equal(row.n, 2);
	assert_int_equal(row.len[0], big);
	assert_memory_equal(row.f[0], data + 3, big);
	assert_string_equal(row.f[1], "x");
	assert_int_equal(csvr_next(&r, &row), 1);
	assert_string_equal(row.f[0], "y");
	assert_int_equal(csvr_next(&r, &row), 0);
	csvr_close(&r);
	tmp_remove(path);
	free(data);
}

static void
open_fails_on_a_missing_file(void **state)
{
	struct csvr r;

	(void)state;
	assert_int_equal(csvr_open(&r, "/nonexistent/x.csv"), -1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_rows_with_their_line_numbers),
		cmocka_unit_test(keeps_empty_fields_and_spaces),
		cmocka_unit_test(quoted_fields_hold_commas_quotes_and_newlines),
		cmocka_unit_test(crlf_ends_rows),
		cmocka_unit_test(utf8_bom_is_dropped),
		cmocka_unit_test(bom_only_counts_at_the_start),
		cmocka_unit_test(blank_lines_are_skipped),
		cmocka_unit_test(last_row_without_newline_is_read),
		cmocka_unit_test(empty_file_has_no_rows),
		cmocka_unit_test(stray_quote_is_a_bad_row_and_reading_goes_on),
		cmocka_unit_test(unclosed_quote_at_end_is_a_bad_row),
		cmocka_unit_test(simple_and_other_rows_alternate),
		cmocka_unit_test(reads_gzip_input),
		cmocka_unit_test(skips_to_a_row_without_parsing_before_it),
		cmocka_unit_test(reads_a_10mb_field),
		cmocka_unit_test(long_fields_grow_the_buffer_geometrically),
		cmocka_unit_test(open_fails_on_a_missing_file),
	};

	return cmocka_run_group_tests_name("csvr", tests, NULL, NULL);
}
