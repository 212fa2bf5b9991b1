/* test_nd.c: the NDJSON reader (nd.h). */
#include <stdint.h>
#include <zlib.h>

#include "unit.h"
#include "nd.h"
#include "sniff.h"

static int
fields(const char *line, const char *const keys[], struct nd_slice vals[],
    size_t n)
{
	return nd_fields(line, strlen(line), keys, vals, n);
}

static int
valid(const char *line)
{
	return nd_fields(line, strlen(line), NULL, NULL, 0) == 0;
}

static void
fields_returns_raw_slices_of_wanted_keys(void **state)
{
	const char *keys[] = { "a", "b", "c", "missing" };
	struct nd_slice v[4];

	(void)state;
	assert_int_equal(fields(" {\"a\": 1 , \"b\":\"x y\","
	    "\"c\":[1,{\"a\":2}]}", keys, v, 4), 3);
	assert_mem_str(v[0].p, v[0].len, "1");
	assert_mem_str(v[1].p, v[1].len, "\"x y\"");
	assert_mem_str(v[2].p, v[2].len, "[1,{\"a\":2}]");
	assert_null(v[3].p);
	assert_int_equal(nd_type(v[0]), ND_NUMBER);
	assert_int_equal(nd_type(v[1]), ND_STRING);
	assert_int_equal(nd_type(v[2]), ND_ARRAY);
}

static void
fields_ignores_keys_of_nested_objects(void **state)
{
	const char *keys[] = { "name" };
	struct nd_slice v[1];

	(void)state;
	assert_int_equal(fields("{\"args\":{\"name\":\"inner\"}}", keys, v, 1),
	    0);
	assert_null(v[0].p);
}

static void
fields_takes_the_last_of_a_repeated_key(void **state)
{
	const char *keys[] = { "a" };
	struct nd_slice v[1];

	(void)state;
	assert_int_equal(fields("{\"a\":1,\"a\":2}", keys, v, 1), 1);
	assert_mem_str(v[0].p, v[0].len, "2");
}

static void
fields_matches_escaped_keys(void **state)
{
	const char *keys[] = { "ab", "q\"" };
	struct nd_slice v[2];

	(void)state;
	assert_int_equal(fields("{\"a\\u0062\":1,\"q\\\"\":2}", keys, v, 2),
	    2);
	assert_mem_str(v[0].p, v[0].len, "1");
	assert_mem_str(v[1].p, v[1].len, "2");
}

static void
fields_keeps_64bit_integers_exact(void **state)
{
	const char *keys[] = { "u", "i", "ts" };
	struct nd_slice v[3];
	uint64_t u;
	int64_t i;

	(void)state;
	assert_int_equal(fields("{\"u\":18446744073709551615,"
	    "\"i\":-9223372036854775808,\"ts\":1751344815171234567}",
	    keys, v, 3), 3);
	assert_mem_str(v[0].p, v[0].len, "18446744073709551615");
	assert_mem_str(v[1].p, v[1].len, "-9223372036854775808");
	assert_int_equal(nd_val_u64(v[0], &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(nd_val_i64(v[1], &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(nd_val_u64(v[2], &u), 0);
	assert_true(u == 1751344815171234567ULL);
	assert_int_equal(nd_val_i64(v[2], &i), 0);
	assert_true(i == 1751344815171234567LL);
}

static struct nd_slice
sl(const char *s)
{
	struct nd_slice v = { s, strlen(s) };

	return v;
}

static void
val_int_refuses_out_of_range_and_fractions(void **state)
{
	uint64_t u;
	int64_t i;

	(void)state;
	assert_int_equal(nd_val_u64(sl("18446744073709551616"), &u), -1);
	assert_int_equal(nd_val_u64(sl("-1"), &u), -1);
	assert_int_equal(nd_val_i64(sl("9223372036854775807"), &i), 0);
	assert_true(i == INT64_MAX);
	assert_int_equal(nd_val_i64(sl("9223372036854775808"), &i), -1);
	assert_int_equal(nd_val_i64(sl("-9223372036854775809"), &i), -1);
	assert_int_equal(nd_val_i64(sl("1.0"), &i), -1);
	assert_int_equal(nd_val_i64(sl("1e3"), &i), -1);
	assert_int_equal(nd_val_i64(sl("\"1\""), &i), -1);
	assert_int_equal(nd_val_i64(sl("-0"), &i), 0);
	assert_true(i == 0);
}

static void
val_f64_reads_numbers(void **state)
{
	double d;

	(void)state;
	assert_int_equal(nd_val_f64(sl("0.1"), &d), 0);
	assert_true(d == 0.1);
	assert_int_equal(nd_val_f64(sl("-2.5E+3"), &d), 0);
	assert_true(d == -2500.0);
	assert_int_equal(nd_val_f64(sl("18446744073709551615"), &d), 0);
	assert_true(d == 18446744073709551615.0);
	assert_int_equal(nd_val_f64(sl("\"1\""), &d), -1);
	assert_int_equal(nd_val_f64(sl("null"), &d), -1);
}

static void
fields_accepts_valid_numbers(void **state)
{
	(void)state;
	assert_true(valid("{\"a\":0}"));
	assert_true(valid("{\"a\":-0}"));
	assert_true(valid("{\"a\":0.5e-3}"));
	assert_true(valid("{\"a\":1E+2}"));
	assert_true(valid("{\"a\":-12.25e10}"));
	assert_true(valid("{\"a\":123456789012345678901234567890}"));
}

static void
fields_rejects_invalid_numbers(void **state)
{
	static const char *bad[] = {
		"{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":-}",
		"{\"a\":1e}", "{\"a\":1e+}", "{\"a\":+1}", "{\"a\":NaN}",
		"{\"a\":Infinity}", "{\"a\":-Infinity}", "{\"a\":0x10}",
		"{\"a\":1 2}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (valid(bad[i]))
			fail_msg("accepted %s", bad[i]);
}

static void
fields_rejects_malformed_structure(void **state)
{
	static const char *bad[] = {
		"", "   ", "[1,2]", "1", "\"x\"", "null", "{", "}",
		"{\"a\":1,}", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{'a':1}",
		"{\"a\":1} x", "{\"a\":1}{}", "{\"a\":[1,]}", "{\"a\":[1 2]}",
		"{\"a\":tru}", "{\"a\":nul}", "{\"a\":True}", "{\"a\":1",
		"{\"a\":\"x}", "{\"a\":[1,2}", "{,}", "{\"a\":1,,\"b\":2}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (valid(bad[i]))
			fail_msg("accepted '%s'", bad[i]);
	assert_int_equal(fields("{\"a\":1,}", NULL, NULL, 0), -1);
	assert_true(strlen(nd_error()) > 0);
}

static void
fields_accepts_whitespace_and_literals(void **state)
{
	(void)state;
	assert_true(valid("{}"));
	assert_true(valid(" \t{ \"a\" : [ true , false , null ] , "
	    "\"b\" : { } , \"c\" : [ ] }\t "));
}

static void
fields_rejects_bad_utf8(void **state)
{
	static const char *bad[] = {
		"{\"a\":\"\xff\"}",			/* never valid */
		"{\"a\":\"\xc0\x80\"}",			/* overlong NUL */
		"{\"a\":\"\xe0\x80\xaf\"}",		/* overlong '/' */
		"{\"a\":\"\xed\xa0\x80\"}",		/* encoded surrogate */
		"{\"a\":\"\xf4\x90\x80\x80\"}",		/* above U+10FFFF */
		"{\"a\":\"\xe2\x82\"}",			/* cut short */
		"{\"a\":\"\x80\"}",			/* lone continuation */
		"{\"\xfe\":1}",				/* in a key */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (valid(bad[i]))
			fail_msg("accepted bad UTF-8 #%zu", i);
}

static void
fields_accepts_valid_utf8(void **state)
{
	(void)state;
	assert_true(valid("{\"a\":\"caf\xc3\xa9 \xe2\x82\xac "
	    "\xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"}"));
	assert_true(valid("{\"\xe5\x90\x8d\":\"\xef\xbb\xbf\"}"));
}

static void
fields_rejects_lone_surrogates(void **state)
{
	static const char *bad[] = {
		"{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}",
		"{\"a\":\"\\ud800x\"}", "{\"a\":\"\\ud800\\u0041\"}",
		"{\"a\":\"\\udc00\\ud800\"}", "{\"a\":\"\\uDBFF\"}",
		"{\"a\":\"\\ud800\\ud800\"}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (valid(bad[i]))
			fail_msg("accepted '%s'", bad[i]);
	assert_true(valid("{\"a\":\"\\ud83d\\ude00\"}"));
	assert_true(valid("{\"a\":\"\\uDBFF\\uDFFF\"}"));
}

static void
fields_rejects_bad_escapes_and_controls(void **state)
{
	static const char *bad[] = {
		"{\"a\":\"\\x41\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12g4\"}",
		"{\"a\":\"\\'\"}", "{\"a\":\"\\\"}", "{\"a\":\"tab\there\"}",
		"{\"a\":\"\x01\"}", "{\"a\":\"\x1f\"}",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (valid(bad[i]))
			fail_msg("accepted '%s'", bad[i]);
	assert_true(valid("{\"a\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\"}"));
	/* DEL (0x7f) needs no escape in JSON. */
	assert_true(valid("{\"a\":\"\x7f\"}"));
}

static void
fields_rejects_nul_bytes(void **state)
{
	static const char line[] = "{\"a\":\"x\0y\"}";

	(void)state;
	assert_int_equal(nd_fields(line, sizeof(line) - 1, NULL, NULL, 0), -1);
}

static void
fields_refuses_very_deep_nesting_without_crashing(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	(void)state;
	strbuf_addstr(&sb, "{\"a\":");
	for (i = 0; i < 100000; i++)
		strbuf_addch(&sb, '[');
	for (i = 0; i < 100000; i++)
		strbuf_addch(&sb, ']');
	strbuf_addch(&sb, '}');
	assert_int_equal(nd_fields(sb.buf, sb.len, NULL, NULL, 0), -1);
	strbuf_reset(&sb);
	strbuf_addstr(&sb, "{\"a\":");
	for (i = 0; i < 100; i++)
		strbuf_addch(&sb, '[');
	for (i = 0; i < 100; i++)
		strbuf_addch(&sb, ']');
	strbuf_addch(&sb, '}');
	assert_int_equal(nd_fields(sb.buf, sb.len, NULL, NULL, 0), 0);
	strbuf_release(&sb);
}

static void
validate_checks_any_value(void **state)
{
	(void)state;
	assert_int_equal(nd_validate("1", 1), 0);
	assert_int_equal(nd_validate(" \"x\" ", 5), 0);
	assert_int_equal(nd_validate("[1,{\"a\":null}]", 14), 0);
	assert_int_equal(nd_validate("[1,", 3), -1);
	assert_int_equal(nd_validate("1 1", 3), -1);
	assert_int_equal(nd_validate("", 0), -1);
}

static void
val_str_decodes_escapes_and_surrogate_pairs(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_int_equal(nd_val_str(sl("\"a\\\"b\\\\c\\/d\\n\\t\\u00e9\""),
	    &sb), 0);
	assert_string_equal(sb.buf, "a\"b\\c/d\n\t\xc3\xa9");
	strbuf_reset(&sb);
	assert_int_equal(nd_val_str(sl("\"\\ud83d\\ude00\\u20ac\""), &sb), 0);
	assert_string_equal(sb.buf, "\xf0\x9f\x98\x80\xe2\x82\xac");
	strbuf_reset(&sb);
	assert_int_equal(nd_val_str(sl("\"\\u0000\""), &sb), 0);
	assert_int_equal(sb.len, 1);
	assert_int_equal(sb.buf[0], '\0');
	strbuf_reset(&sb);
	assert_int_equal(nd_val_str(sl("12"), &sb), -1);
	strbuf_release(&sb);
}

static void
str_eq_compares_decoded_text(void **state)
{
	(void)state;
	assert_true(nd_str_eq(sl("\"abc\""), "abc", 3));
	assert_true(nd_str_eq(sl("\"a\\u0062c\""), "abc", 3));
	assert_false(nd_str_eq(sl("\"abc\""), "ab", 2));
	assert_false(nd_str_eq(sl("abc"), "abc", 3));
}

static void
iter_walks_objects_and_arrays(void **state)
{
	const char *keys[] = { "o", "a" };
	struct nd_slice v[2], k, x;
	struct nd_iter it;
	int n = 0;

	(void)state;
	assert_int_equal(fields("{\"o\":{ \"x\" : 1 , \"y\":[2,3],\"z\":\"}\"},"
	    "\"a\":[ \"s\" , {\"b\":2} , null ]}", keys, v, 2), 2);
	assert_int_equal(nd_iter_init(&it, v[0]), 0);
	while (nd_iter_next(&it, &k, &x) == 1) {
		static const char *wk[] = { "\"x\"", "\"y\"", "\"z\"" };
		static const char *wv[] = { "1", "[2,3]", "\"}\"" };

		assert_true(n < 3);
		assert_mem_str(k.p, k.len, wk[n]);
		assert_mem_str(x.p, x.len, wv[n]);
		n++;
	}
	assert_int_equal(n, 3);
	n = 0;
	assert_int_equal(nd_iter_init(&it, v[1]), 0);
	while (nd_iter_next(&it, &k, &x) == 1) {
		static const char *wv[] = { "\"s\"", "{\"b\":2}", "null" };

		assert_true(n < 3);
		assert_null(k.p);
		assert_mem_str(x.p, x.len, wv[n]);
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(nd_iter_init(&it, sl("1")), -1);
	assert_int_equal(nd_iter_init(&it, sl("{}")), 0);
	assert_int_equal(nd_iter_next(&it, &k, &x), 0);
}

static void
iter_skips_strings_with_escaped_quotes_and_backslashes(void **state)
{
	static const char line[] = "{\"o\":{\"a\\\"\":\"x\\\\\","
	    "\"b\":[\"\\\\\\\"}]\",\"\\\\\"],\"c\":1}}";
	static const char *wk[] = { "\"a\\\"\"", "\"b\"", "\"c\"" };
	static const char *wv[] = { "\"x\\\\\"",
	    "[\"\\\\\\\"}]\",\"\\\\\"]", "1" };
	const char *keys[] = { "o" };
	struct nd_slice v[1], k, x;
	struct nd_iter it;
	int n = 0;

	(void)state;
	assert_int_equal(nd_fields(line, sizeof(line) - 1, keys, v, 1), 1);
	assert_int_equal(nd_iter_init(&it, v[0]), 0);
	while (nd_iter_next(&it, &k, &x) == 1) {
		assert_true(n < 3);
		assert_mem_str(k.p, k.len, wk[n]);
		assert_mem_str(x.p, x.len, wv[n]);
		n++;
	}
	assert_int_equal(n, 3);
}

static void
reader_skips_blank_lines_and_counts_lines(void **state)
{
	char *path = tmp_filez("{\"a\":1}\n\n  \t\n{\"a\":2}\r\n\r\n"
	    "{\"a\":3}\n");
	struct nd_reader r;

	(void)state;
	assert_int_equal(nd_reader_open(&r, path), 0);
	assert_string_equal(r.pos.file, path);
	assert_int_equal(nd_read(&r), 1);
	assert_mem_str(r.line, r.len, "{\"a\":1}");
	assert_int_equal(r.pos.line, 1);
	assert_int_equal(nd_read(&r), 1);
	assert_mem_str(r.line, r.len, "{\"a\":2}");
	assert_int_equal(r.pos.line, 4);
	assert_int_equal(nd_read(&r), 1);
	assert_mem_str(r.line, r.len, "{\"a\":3}");
	assert_int_equal(r.pos.line, 6);
	assert_false(r.no_newline);
	assert_int_equal(nd_read(&r), 0);
	nd_reader_close(&r);
	tmp_remove(path);
}

static void
reader_line_is_the_record_without_blanks(void **state)
{
	char *path = tmp_filez("\xef\xbb\xbf {\"a\":1}\t\n  {\"a\":2} \r\n"
	    "\xef\xbb\xbf{\"a\":3}\n");
	struct nd_reader r;
	struct nd_iter it;
	struct nd_slice k, v, all = { " {\"b\":2} ", 9 };

	(void)state;
	assert_int_equal(nd_reader_open(&r, path), 0);
	assert_int_equal(nd_read(&r), 1);
	assert_mem_str(r.line, r.len, "{\"a\":1}");
	assert_int_equal(nd_read(&r), 1);
	assert_mem_str(r.line, r.len, "{\"a\":2}");
	/* A byte order mark only opens the first line. */
	assert_int_equal(nd_read(&r), 1);
	assert_mem_str(r.line, r.len, "\xef\xbb\xbf{\"a\":3}");
	assert_int_equal(nd_read(&r), 0);
	nd_reader_close(&r);
	tmp_remove(path);
	assert_int_equal(nd_iter_init(&it, all), 0);
	assert_int_equal(nd_iter_next(&it, &k, &v), 1);
	assert_mem_str(k.p, k.len, "\"b\"");
	assert_mem_str(v.p, v.len, "2");
	assert_int_equal(nd_iter_next(&it, &k, &v), 0);
}

static void
reader_reads_last_line_without_newline(void **state)
{
	char *path = tmp_filez("{\"a\":1}\n{\"a\":2}");
	struct nd_reader r;

	(void)state;
	assert_int_equal(nd_reader_open(&r, path), 0);
	assert_int_equal(nd_read(&r), 1);
	assert_false(r.no_newline);
	assert_int_equal(nd_read(&r), 1);
	assert_mem_str(r.line, r.len, "{\"a\":2}");
	assert_true(r.no_newline);
	assert_int_equal(nd_fields(r.line, r.len, NULL, NULL, 0), 0);
	assert_int_equal(nd_read(&r), 0);
	nd_reader_close(&r);
	tmp_remove(path);
}

static void
reader_truncated_last_line_is_a_bad_record(void **state)
{
	char *path = tmp_filez("{\"a\":1}\n{\"a\":12");
	struct nd_reader r;

	(void)state;
	assert_int_equal(nd_reader_open(&r, path), 0);
	assert_int_equal(nd_read(&r), 1);
	assert_int_equal(nd_read(&r), 1);
	assert_int_equal(r.pos.line, 2);
	assert_true(r.no_newline);
	assert_int_equal(nd_fields(r.line, r.len, NULL, NULL, 0), -1);
	assert_int_equal(nd_read(&r), 0);
	nd_reader_close(&r);
	tmp_remove(path);
}

static void
reader_empty_file_has_no_records(void **state)
{
	char *path = tmp_file("", 0);
	struct nd_reader r;

	(void)state;
	assert_int_equal(nd_reader_open(&r, path), 0);
	assert_int_equal(nd_read(&r), 0);
	assert_int_equal(nd_read(&r), 0);
	nd_reader_close(&r);
	tmp_remove(path);
}

static void
reader_reads_a_10mb_line(void **state)
{
	const char *keys[] = { "s", "n" };
	struct nd_slice v[2];
	size_t big = 10 * 1024 * 1024, i;
	char *data = malloc(big + 64), *path;
	struct nd_reader r;
	int64_t n;

	(void)state;
	assert_non_null(data);
	memcpy(data, "{\"s\":\"", 6);
	for (i = 6; i < big; i++)
		data[i] = (char)('a' + i % 26);
	memcpy(data + big, "\",\"n\":7}\n{\"n\":8}\n", 17);
	path = tmp_file(data, big + 17);
	assert_int_equal(nd_reader_open(&r, path), 0);
	assert_int_equal(nd_read(&r), 1);
	assert_int_equal(r.len, big + 8);
	assert_int_equal(nd_fields(r.line, r.len, keys, v, 2), 2);
	assert_int_equal(v[0].len, big - 6 + 2);
	assert_int_equal(nd_val_i64(v[1], &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(nd_read(&r), 1);
	assert_int_equal(r.pos.line, 2);
	assert_mem_str(r.line, r.len, "{\"n\":8}");
	assert_int_equal(nd_read(&r), 0);
	nd_reader_close(&r);
	tmp_remove(path);
	free(data);
}

static void
reader_reads_gzip_input(void **state)
{
	char path[] = "/tmp/profpipe-unit-XXXXXX";
	struct nd_reader r;
	gzFile gz;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	gz = gzdopen(fd, "wb");
	assert_non_null(gz);
	gzputs(gz, "{\"ts\":18446744073709551615}\n\n{\"ts\":2}\n");
	gzclose(gz);
	assert_int_equal(nd_reader_open(&r, path), 0);
	assert_int_equal(nd_read(&r), 1);
	assert_mem_str(r.line, r.len, "{\"ts\":18446744073709551615}");
	assert_int_equal(nd_read(&r), 1);
	assert_int_equal(r.pos.line, 3);
	assert_int_equal(nd_read(&r), 0);
	nd_reader_close(&r);
	unlink(path);
}

static void
reader_open_fails_on_a_missing_file(void **state)
{
	struct nd_reader r;

	(void)state;
	assert_int_equal(nd_reader_open(&r, "/nonexistent/x.ndjson"), -1);
}

/* nd_each() callback: prints "line:record" for each record. */
static void
print_record(struct nd_reader *r, void *arg)
{
	(void)arg;
	printf("%lu:%.*s\n", r->pos.line, (int)r->len, r->line);
}

struct each_arg {
	const char *path;
	int strict;
	unsigned refuse;
};

static void
call_each(void *arg)
{
	struct each_arg *e = arg;
	struct bad_input bad = BAD_INPUT_INIT;
	struct nd_loop loop = { print_record, NULL, &bad, e->refuse, NULL };
	int rc;

	prog_init("prog");
	bad.strict = e->strict;
	rc = nd_each(e->path, &loop);
	printf("rc=%d bad=%lu\n", rc, bad.count);
}

static void
each_hands_on_records_and_reports_a_truncated_last_line(void **state)
{
	struct each_arg e = { NULL, 0, 0 };
	struct child c;
	char want[256];

	(void)state;
	e.path = tmp_filez("{\"a\":1}\n\n {\"a\":2}\n{\"a\":");
	run_child(call_each, &e, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, "1:{\"a\":1}\n3:{\"a\":2}\nrc=0 bad=1\n");
	snprintf(want, sizeof(want), "prog: %s:4: truncated last line\n",
	    e.path);
	assert_string_equal(c.err, want);
	e.strict = 1;
	run_child(call_each, &e, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.err, want);
	tmp_remove((char *)e.path);
	/* A complete last line without a newline is a record. */
	e.path = tmp_filez("{\"a\":1}");
	run_child(call_each, &e, &c);
	assert_string_equal(c.out, "1:{\"a\":1}\nrc=0 bad=0\n");
	assert_string_equal(c.err, "");
	tmp_remove((char *)e.path);
	/* The first record is sniffed: a kind refused ends the run. */
	e.path = tmp_filez("\n{\"a\":1}\na;b 1\n");
	e.refuse = SNIFF_BIT(SNIFF_FOLDED);
	run_child(call_each, &e, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, "2:{\"a\":1}\n3:a;b 1\nrc=0 bad=0\n");
	tmp_remove((char *)e.path);
	e.path = tmp_filez("\na;b 1\n{\"a\":1}\n");
	run_child(call_each, &e, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.out, "");
	assert_non_null(strstr(c.err, e.path));
	tmp_remove((char *)e.path);
}

static void
each_reports_open_and_read_errors(void **state)
{
	static const unsigned char gz_cut[] = {	/* gzip of "{}\n", cut */
		0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03,
		0xab, 0xae, 0xe5, 0x02, 0x00
	};
	struct each_arg e = { "/nonexistent/x.ndjson", 0, 0 };
	struct child c;
	char want[256];

	(void)state;
	run_child(call_each, &e, &c);
	assert_string_equal(c.out, "rc=-1 bad=0\n");
	assert_string_equal(c.err, "prog: cannot open '/nonexistent/x.ndjson': "
	    "No such file or directory\n");
	e.path = tmp_file(gz_cut, sizeof(gz_cut));
	run_child(call_each, &e, &c);
	assert_string_equal(c.out, "1:{}\nrc=-1 bad=0\n");
	snprintf(want, sizeof(want), "prog: cannot read '%s': gzip data cut "
	    "short\n", e.path);
	assert_string_equal(c.err, want);
	tmp_remove((char *)e.path);
}

/* nd_each_keys() callback: "line:found:record|a|b", "-" for absent. */
static void
print_keys_record(struct nd_reader *r, void *arg)
{
	struct nd_slice *v = arg;
	int i;

	printf("%lu:%d:%.*s", r->pos.line, r->found, (int)r->len, r->line);
	for (i = 0; i < 2; i++)
		if (r->found >= 0 && v[i].p != NULL)
			printf("|%.*s", (int)v[i].len, v[i].p);
		else
			printf("|-");
	printf("\n");
}

static void
call_each_keys(void *arg)
{
	static const char *const keys[] = { "a", "b" };
	struct each_arg *e = arg;
	struct bad_input bad = BAD_INPUT_INIT;
	struct nd_slice v[2];
	struct nd_loop loop = { print_keys_record, v, &bad, 0, NULL };
	struct nd_keys ks;
	int rc;

	prog_init("prog");
	nd_keys_init(&ks, keys, 2);
	rc = nd_each_keys(e->path, &loop, &ks, v);
	printf("rc=%d bad=%lu\n", rc, bad.count);
	nd_keys_release(&ks);
}

static void
each_keys_finds_lines_and_values_in_one_pass(void **state)
{
	/*
	 * Records of one layout with values of every kind, and lines that
	 * are not one record: a '\n' in a nested value's blanks or before
	 * a ',' ends the line there, whatever the layout learnt.
	 */
	static const char in[] =
	    "\xef\xbb\xbf{\"a\":1,\"b\":\"x\"}\n"
	    "{\"a\":22,\"b\":\"yy\"}\n"
	    "{\"a\":-3,\"b\":\"z\\\"\"}\r\n"
	    "{\"a\":4.5e1,\"b\":0}  \n"
	    "\n"
	    "{\"a\":0,\"b\":[1, {\"c\":2}]}\n"
	    "{\"a\":[1,\n2],\"b\":1}\n"
	    "{\"a\":7\n,\"b\":1}\n"
	    "{\"a\":8,\"b\":true,\"c\":null}\n"
	    "  {\"b\":\"\xc3\xa9\",\"a\":9}\n"
	    "{\"a\":10,\"b\":\"w\"}x\n"
	    "{\"a\":11,\"b\":\"\x01\"}\n"
	    "{\"a\":12,\"b\":\"v\"}\n"
	    "{\"a\":13,\"b\":";
	static const char want[] =
	    "1:2:{\"a\":1,\"b\":\"x\"}|1|\"x\"\n"
	    "2:2:{\"a\":22,\"b\":\"yy\"}|22|\"yy\"\n"
	    "3:2:{\"a\":-3,\"b\":\"z\\\"\"}|-3|\"z\\\"\"\n"
	    "4:2:{\"a\":4.5e1,\"b\":0}|4.5e1|0\n"
	    "6:2:{\"a\":0,\"b\":[1, {\"c\":2}]}|0|[1, {\"c\":2}]\n"
	    "7:-1:{\"a\":[1,|-|-\n"
	    "8:-1:2],\"b\":1}|-|-\n"
	    "9:-1:{\"a\":7|-|-\n"
	    "10:-1:,\"b\":1}|-|-\n"
	    "11:2:{\"a\":8,\"b\":true,\"c\":null}|8|true\n"
	    "12:2:{\"b\":\"\xc3\xa9\",\"a\":9}|9|\"\xc3\xa9\"\n"
	    "13:-1:{\"a\":10,\"b\":\"w\"}x|-|-\n"
	    "14:-1:{\"a\":11,\"b\":\"\x01\"}|-|-\n"
	    "15:2:{\"a\":12,\"b\":\"v\"}|12|\"v\"\n"
	    "rc=0 bad=1\n";
	struct each_arg e = { NULL, 0, 0 };
	struct child c;
	char err[256];

	(void)state;
	e.path = tmp_filez(in);
	run_child(call_each_keys, &e, &c);
	assert_int_equal(c.status, 0);
	assert_string_equal(c.out, want);
	snprintf(err, sizeof(err), "prog: %s:16: truncated last line\n",
	    e.path);
	assert_string_equal(c.err, err);
	tmp_remove((char *)e.path);
	/* The same at the end of the input, with no newline after it. */
	e.path = tmp_filez("{\"a\":1,\"b\":2}\n{\"a\":[1,\n2]}");
	run_child(call_each_keys, &e, &c);
	assert_string_equal(c.out, "1:2:{\"a\":1,\"b\":2}|1|2\n"
	    "2:-1:{\"a\":[1,|-|-\nrc=0 bad=1\n");
	snprintf(err, sizeof(err), "prog: %s:3: truncated last line\n",
	    e.path);
	assert_string_equal(c.err, err);
	tmp_remove((char *)e.path);
}

/* Sums the "a" of records and checks their text and line numbers. */
struct sum_arg {
	struct nd_slice v[2];
	unsigned long next, bad;
	uint64_t sum;
};

static void
sum_record(struct nd_reader *r, void *arg)
{
	struct sum_arg *s = arg;
	char want[256], b[128];
	int64_t a = 0;

	snprintf(b, sizeof(b), "\"%0*lu\"", (int)(s->next % 97), s->next);
	snprintf(want, sizeof(want), "{\"a\":%lu,\"b\":%s}", s->next, b);
	if (r->pos.line != s->next + 1 || r->found != 2 ||
	    r->len != strlen(want) || memcmp(r->line, want, r->len) != 0 ||
	    nd_val_i64(s->v[0], &a) != 0 || s->v[1].len != strlen(b) ||
	    memcmp(s->v[1].p, b, strlen(b)) != 0)
		s->bad++;
	s->sum += (uint64_t)a;
	s->next++;
}

/*
 * Reads the n records of sb, in a file, with nd_each_keys() and keys,
 * each going to fn with s: checks that all n came, none of them bad, and
 * returns the sum fn made.
 */
static uint64_t
each_keys_sum(const struct strbuf *sb, unsigned long n,
    const char *const keys[], size_t nkeys,
    void (*fn)(struct nd_reader *, void *), struct sum_arg *s)
{
	struct bad_input bad = BAD_INPUT_INIT;
	struct nd_loop loop = { fn, s, &bad, 0, NULL };
	struct nd_keys ks;
	char *path = tmp_file(sb->buf, sb->len);

	memset(s, 0, sizeof(*s));
	nd_keys_init(&ks, keys, nkeys);
	assert_int_equal(nd_each_keys(path, &loop, &ks, s->v), 0);
	assert_int_equal(s->next, n);
	assert_int_equal(s->bad, 0);
	assert_int_equal(bad.count, 0);
	tmp_remove(path);
	nd_keys_release(&ks);
	return s->sum;
}

static void
each_keys_reads_records_across_buffer_ends(void **state)
{
	static const char *const keys[] = { "a", "b" };
	struct sum_arg s;
	struct strbuf sb = STRBUF_INIT;
	unsigned long i, n = 20000;

	(void)state;
	/* Records of 12 to 110 bytes: 1.2 MB, many buffers' worth. */
	for (i = 0; i < n; i++)
		strbuf_addf(&sb, "{\"a\":%lu,\"b\":\"%0*lu\"}\n", i,
		    (int)(i % 97), i);
	assert_true(each_keys_sum(&sb, n, keys, 2, sum_record, &s) ==
	    (uint64_t)n * (n - 1) / 2);
	strbuf_release(&sb);
}

/*
 * Member m of a wide record: its key is "m<m>" padded with '_' to
 * 1 + m % 53 bytes (keys of 2 to 53 bytes: 6 to 57 with the separator,
 * quotes and colon), but key 40 is 36 bytes long, and member 110
 * repeats key 5.  With bit 1 of alt, key 40 is another in its last
 * byte (the 38th of its separator and key); with bit 2, key 20 (21
 * bytes) in its last one (the 23rd); with bit 4, key 99 (47 bytes) in
 * its first.
 */
static void
wide_key(char *key, size_t m, int alt)
{
	size_t want = m == 40 ? 36 : 1 + m % 53;

	if (m == 110)
		m = 5, want = 1 + 5 % 53;
	snprintf(key, 64, "m%zu", m);
	while (strlen(key) < want)
		strcat(key, "_");
	if (m == 40 && (alt & 1))
		key[35] = '!';
	if (m == 20 && (alt & 2))
		key[20] = '!';
	if (m == 99 && (alt & 4))
		key[0] = 'M';
}

/*
 * A record of n members (wide_key()): member m's value is m * 10 + r,
 * except member 60 (an object), 70 (true), 71 (null) and 80 (a string
 * with an escaped quote).
 */
static void
wide_record(struct strbuf *sb, size_t n, unsigned r, int alt)
{
	size_t m;
	char key[64];

	strbuf_addch(sb, '{');
	for (m = 0; m < n; m++) {
		wide_key(key, m, alt);
		strbuf_addf(sb, "%s\"%s\":", m > 0 ? "," : "", key);
		if (m == 60)
			strbuf_addf(sb, "{\"m5\":%u,\"x\":[1,2]}", r);
		else if (m == 70 || m == 71)
			strbuf_addstr(sb, m == 70 ? "true" : "null");
		else if (m == 80)
			strbuf_addf(sb, "\"q\\\"%u\"", r);
		else
			strbuf_addf(sb, "%zu", m * 10 + r);
	}
	strbuf_addch(sb, '}');
}

static void
keys_read_wide_records_by_their_layout(void **state)
{
	static const size_t at[] = { 5, 20, 40, 80, 99 };
	static char names[5][64];
	const char *keys[] = { names[0], names[1], names[2], names[3],
		names[4] };
	static const struct { size_t n; int alt, found; } recs[] = {
		{ 100, 0, 5 }, { 100, 0, 5 }, { 100, 0, 5 },
		{ 100, 1, 4 },		/* key 40 another in its last byte */
		{ 100, 0, 5 },
		{ 100, 2, 4 },		/* key 20 so */
		{ 100, 0, 5 },
		{ 120, 4, 4 },		/* key 99 another in its first */
		{ 100, 0, 5 },
		{ 50, 0, 3 },		/* fewer members: no 80, 99 */
		{ 100, 0, 5 },
		{ 120, 0, 5 },		/* more: 110 repeats key 5 */
		{ 120, 0, 5 },
	};
	struct strbuf sb = STRBUF_INIT;
	struct nd_slice v[5], w[5];
	struct nd_keys ks;
	char want[32];
	size_t i, j;

	(void)state;
	/* Keys of 6, 21, 36, 28 and 47 bytes. */
	for (j = 0; j < 5; j++)
		wide_key(names[j], at[j], 0);
	nd_keys_init(&ks, keys, 5);
	for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		strbuf_reset(&sb);
		wide_record(&sb, recs[i].n, (unsigned)i, recs[i].alt);
		assert_int_equal(nd_fields_keys(sb.buf, sb.len, &ks, v),
		    recs[i].found);
		/* Member 110 has key 5 (the last one counts). */
		for (j = 0; j < 5; j++) {
			if (at[j] >= recs[i].n || (at[j] == 40 &&
			    (recs[i].alt & 1)) || (at[j] == 20 &&
			    (recs[i].alt & 2)) || (at[j] == 99 &&
			    (recs[i].alt & 4))) {
				assert_null(v[j].p);
				continue;
			}
			if (at[j] == 80)
				snprintf(want, sizeof(want), "\"q\\\"%zu\"", i);
			else
				snprintf(want, sizeof(want), "%zu", (at[j] == 5 &&
				    recs[i].n > 110 ? 110 : at[j]) * 10 + i);
			assert_mem_str(v[j].p, v[j].len, want);
		}
		/* The same as the reader that learns no layout. */
		assert_int_equal(nd_fields(sb.buf, sb.len, keys, w, 5),
		    recs[i].found);
		for (j = 0; j < 5; j++)
			assert_true(v[j].p == w[j].p && v[j].len == w[j].len);
	}
	/* A known layout does not hide an error: a value that is no JSON
	 * in member 80, then a number spoilt in member 99. */
	strbuf_reset(&sb);
	wide_record(&sb, 100, 1, 0);
	assert_int_equal(nd_fields_keys(sb.buf, sb.len, &ks, v), 5);
	*strstr(sb.buf, "\"q\\\"1\"") = 'x';
	assert_int_equal(nd_fields_keys(sb.buf, sb.len, &ks, v), -1);
	strbuf_reset(&sb);
	wide_record(&sb, 100, 1, 0);
	memcpy(strstr(sb.buf, "991}"), "99x", 3);
	assert_int_equal(nd_fields_keys(sb.buf, sb.len, &ks, v), -1);
	strbuf_release(&sb);
	nd_keys_release(&ks);
}

/* Sums member 99 of wide records and checks their line numbers. */
static void
sum_wide_record(struct nd_reader *r, void *arg)
{
	struct sum_arg *s = arg;
	int64_t a = 0;

	if (r->pos.line != s->next + 1 || r->found != 2 ||
	    nd_val_i64(s->v[0], &a) != 0 || s->v[1].len != 18)
		s->bad++;
	s->sum += (uint64_t)a;
	s->next++;
}

static void
each_keys_reads_wide_records_across_buffer_ends(void **state)
{
	static char names[2][64];
	const char *keys[] = { names[0], names[1] };
	struct sum_arg s;
	struct strbuf sb = STRBUF_INIT;
	unsigned long i, n = 2000;

	(void)state;
	wide_key(names[0], 99, 0);
	wide_key(names[1], 60, 0);
	/* Records of 100 members, about 3.3 kB each (with a nested one,
	 * member 60, of 18 bytes for r < 10): 6.5 MB, many buffers' worth. */
	for (i = 0; i < n; i++) {
		wide_record(&sb, 100, (unsigned)(i % 10), 0);
		strbuf_addch(&sb, '\n');
	}
	/* 990 + i % 10 for each: 990 * n and 45 for each 10 records. */
	assert_true(each_keys_sum(&sb, n, (const char *const *)keys, 2,
	    sum_wide_record, &s) == 990 * (uint64_t)n + 45 * (n / 10));
	strbuf_release(&sb);
}

static void
val_u64_reads_every_length_exactly(void **state)
{
	static const char *const ok[] = { "0", "7", "12345678", "123456789",
		"1234567812345678", "1736410576000000000",
		"00000000000000000001", "18446744073709551615" };
	static const uint64_t want[] = { 0, 7, 12345678, 123456789,
		1234567812345678ULL, 1736410576000000000ULL, 1,
		18446744073709551615ULL };
	static const char *const bad[] = { "", "18446744073709551616",
		"99999999999999999999", "1234567a", "12345678:",
		"1234567812345/78", " 1", "-1" };
	uint64_t x;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		assert_int_equal(nd_val_u64(sl(ok[i]), &x), 0);
		assert_true(x == want[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(nd_val_u64(sl(bad[i]), &x), -1);
}

static void
fields_finds_a_special_byte_at_every_offset(void **state)
{
	char line[64];
	size_t at;

	(void)state;
	/* A control byte, a quote or bad UTF-8 anywhere in a long string. */
	for (at = 0; at < 20; at++) {
		snprintf(line, sizeof(line), "{\"a\":\"%.*sX%.*s\"}",
		    (int)at, "abcdefghijklmnopqrstuvwxyz", (int)(20 - at),
		    "abcdefghijklmnopqrstuvwxyz");
		assert_true(valid(line));
		line[6 + at] = '\001';
		assert_false(valid(line));
		line[6 + at] = (char)0xFF;
		assert_false(valid(line));
		line[6 + at] = '"';
		assert_false(valid(line));
	}
}

static void
keys_find_the_values_fields_finds(void **state)
{
	static const char *const keys[] = { "a", "start_ns",
		"Dispatch_ID_long_key", "x", "b\"q" };
	static const char line[] = "{\"start_ns\":12, \"a\":\"v\","
	    "\"Dispatch_ID_long_key\":[1,{\"a\":2}],\"start_nsX\":3,"
	    "\"Dispatch_ID_long_kez\":4,\"b\\\"q\":null,\"\\u0061\":true}";
	struct nd_slice v[5], w[5];
	struct nd_keys ks;
	size_t i;

	(void)state;
	nd_keys_init(&ks, keys, 5);
	assert_int_equal(nd_fields_keys(line, sizeof(line) - 1, &ks, v), 4);
	assert_mem_str(v[0].p, v[0].len, "true");	/* "\u0061", the last */
	assert_mem_str(v[1].p, v[1].len, "12");
	assert_mem_str(v[2].p, v[2].len, "[1,{\"a\":2}]");
	assert_null(v[3].p);
	assert_mem_str(v[4].p, v[4].len, "null");
	assert_int_equal(nd_fields(line, sizeof(line) - 1, keys, w, 5), 4);
	for (i = 0; i < 5; i++)
		assert_true(v[i].p == w[i].p && v[i].len == w[i].len);
	nd_keys_release(&ks);
}

static void
keys_match_short_keys_at_the_end_of_a_line(void **state)
{
	static const char *const keys[] = { "a", "bc" };
	struct nd_slice v[2];
	struct nd_keys ks;
	/* Fewer than 8 bytes from the key to the end of the line. */
	char line[] = "{\"bc\":1,\"a\":2}";

	(void)state;
	nd_keys_init(&ks, keys, 2);
	assert_int_equal(nd_fields_keys(line, strlen(line), &ks, v), 2);
	assert_mem_str(v[0].p, v[0].len, "2");
	assert_mem_str(v[1].p, v[1].len, "1");
	assert_int_equal(nd_fields_keys("{\"ab\":1,\"b\":2}", 14, &ks, v), 0);
	nd_keys_release(&ks);
}

static void
keys_beyond_the_table_are_found_in_turn(void **state)
{
	static char names[40][8];
	const char *keys[40];
	struct nd_slice v[40];
	struct nd_keys ks;
	size_t i;

	(void)state;
	for (i = 0; i < 40; i++) {
		snprintf(names[i], sizeof(names[i]), "k%zu", i);
		keys[i] = names[i];
	}
	nd_keys_init(&ks, keys, 40);
	assert_int_equal(nd_fields_keys("{\"k39\":7,\"k0\":8,\"k4\":9}", 23,
	    &ks, v), 3);
	assert_mem_str(v[39].p, v[39].len, "7");
	assert_mem_str(v[0].p, v[0].len, "8");
	assert_mem_str(v[4].p, v[4].len, "9");
	assert_null(v[1].p);
	nd_keys_release(&ks);
}

static void
keys_fill_only_the_first_of_a_repeated_name(void **state)
{
	static const char *const keys[] = { "a", "b", "a" };
	struct nd_slice v[3];
	struct nd_keys ks;

	(void)state;
	nd_keys_init(&ks, keys, 3);
	assert_int_equal(nd_fields_keys("{\"a\":1,\"b\":2}", 13, &ks, v), 2);
	assert_mem_str(v[0].p, v[0].len, "1");
	assert_null(v[2].p);
	nd_keys_release(&ks);
}

static void
fields_report_the_column_of_an_error_in_any_member(void **state)
{
	static const struct { const char *line, *msg; } bad[] = {
		{ "{\"a\":1,\"b\":01}", "expected ',' or '}' at column 13" },
		{ "{\"a\":1,\"b\":\"x\001\"}", "control character in string "
		    "at column 14" },
		{ "{\"a\":1,\"b\":[1,2,]}", "invalid number at column 17" },
		{ "{\"a\":1,\"b\":2,\"c\":\"\\x\"}", "invalid escape at "
		    "column 19" },
		{ "{\"a\":1,\"b\":2} ,", "trailing characters after the "
		    "record at column 15" },
		{ "{\"a\":1,\"b\":-}", "invalid number at column 13" },
		{ "{\"a\":1,\"b\":2,\"c\":1.5e}", "invalid number at "
		    "column 22" },
	};
	static const char *const keys[] = { "a", "b" };
	struct nd_slice v[2];
	struct nd_keys ks;
	size_t i;

	(void)state;
	nd_keys_init(&ks, keys, 2);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(nd_fields_keys(bad[i].line,
		    strlen(bad[i].line), &ks, v), -1);
		assert_string_equal(nd_error(), bad[i].msg);
		assert_int_equal(fields(bad[i].line, keys, v, 2), -1);
		assert_string_equal(nd_error(), bad[i].msg);
	}
	nd_keys_release(&ks);
}

static void
fields_find_the_end_of_digits_at_every_offset(void **state)
{
	static const char digits[] = "1234567890123456789012345";
	char line[64];
	int len;

	(void)state;
	/* A digit run of every length, then a byte that ends or spoils it. */
	for (len = 1; len <= 24; len++) {
		snprintf(line, sizeof(line), "{\"a\":%.*s}", len, digits);
		assert_true(valid(line));
		snprintf(line, sizeof(line), "{\"a\":%.*s.5e12}", len, digits);
		assert_true(valid(line));
		snprintf(line, sizeof(line), "{\"a\":%.*sx}", len, digits);
		assert_false(valid(line));
		snprintf(line, sizeof(line), "{\"a\":%.*s\xc3\xa9}", len,
		    digits);
		assert_false(valid(line));
		snprintf(line, sizeof(line), "{\"a\":%.*s:1}", len, digits);
		assert_false(valid(line));
		snprintf(line, sizeof(line), "{\"a\":%.*s/1}", len, digits);
		assert_false(valid(line));
	}
}

static void
keys_read_records_of_changing_layouts(void **state)
{
	static const char *const keys[] = { "ab", "abc", "x" };
	static const struct { const char *line; int found; const char *ab,
	    *abc, *x; } recs[] = {
		{ "{\"ab\":1,\"abc\":2,\"x\":3}", 3, "1", "2", "3" },
		{ "{\"ab\":4,\"abc\":5,\"x\":6}", 3, "4", "5", "6" },
		/* Another key where "ab" was: its first bytes are the same. */
		{ "{\"abc\":7,\"ab\":8}", 2, "8", "7", NULL },
		{ "{\"ab\" :9,\"abd\":0,\"x\":\"y\"}", 2, "9", NULL, "\"y\"" },
		{ "{\"ab\" :9,\"abd\":0,\"x\":\"y\"}", 2, "9", NULL, "\"y\"" },
		{ "{\"a\\u0062\":10,\"q\":{\"ab\":1}}", 1, "10", NULL, NULL },
		{ "{\"ab\":1,\"abc\":2,\"x\":3}", 3, "1", "2", "3" },
	};
	struct nd_slice v[3];
	struct nd_keys ks;
	size_t i;

	(void)state;
	nd_keys_init(&ks, keys, 3);
	for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		assert_int_equal(nd_fields_keys(recs[i].line,
		    strlen(recs[i].line), &ks, v), recs[i].found);
		if (recs[i].ab != NULL)
			assert_mem_str(v[0].p, v[0].len, recs[i].ab);
		else
			assert_null(v[0].p);
		if (recs[i].abc != NULL)
			assert_mem_str(v[1].p, v[1].len, recs[i].abc);
		else
			assert_null(v[1].p);
		if (recs[i].x != NULL)
			assert_mem_str(v[2].p, v[2].len, recs[i].x);
		else
			assert_null(v[2].p);
	}
	nd_keys_release(&ks);
}

static void
keys_match_separators_and_long_keys_of_a_known_layout(void **state)
{
	/* Separator, quotes and ':' around them: 16, 17, 32 and 33 bytes. */
	static const char *const keys[] = { "twelve_bytes", "thirteen_byte",
		"twenty_eight_bytes_long_key_", "twenty_nine_bytes_long_key___" };
	static const struct { const char *line; int found; const char *v[4];
	} recs[] = {
		{ "{\"twelve_bytes\":1,\"thirteen_byte\":2,"
		    "\"twenty_eight_bytes_long_key_\":3,"
		    "\"twenty_nine_bytes_long_key___\":4}", 4,
		    { "1", "2", "3", "4" } },
		{ "{\"twelve_bytes\":5,\"thirteen_byte\":6,"
		    "\"twenty_eight_bytes_long_key_\":7,"
		    "\"twenty_nine_bytes_long_key___\":8}", 4,
		    { "5", "6", "7", "8" } },
		/* The same first 16 bytes, another key. */
		{ "{\"twelve_bytes\":1,\"thirteen_bytX\":2,"
		    "\"twenty_eight_bytes_long_key!\":3,"
		    "\"twenty_nine_bytes_long_key___\":4}", 2,
		    { "1", NULL, NULL, "4" } },
		{ "{\"twelve_bytes\":1 , \"thirteen_byte\" : 2 }", 2,
		    { "1", "2", NULL, NULL } },
		{ "{\"twelve_bytes\":1,\"thirteen_byte\":2,}", -1,
		    { NULL } },
		{ "{\"twelve_bytes\":1,\"thirteen_byte\":2,\"twenty_eight_b",
		    -1, { NULL } },
		{ "{}", 0, { NULL, NULL, NULL, NULL } },
		{ " {\"twelve_bytes\":9,\"thirteen_byte\":8,"
		    "\"twenty_eight_bytes_long_key_\":7,"
		    "\"twenty_nine_bytes_long_key___\":6} ", 4,
		    { "9", "8", "7", "6" } },
	};
	struct nd_slice v[4];
	struct nd_keys ks;
	size_t i, j;

	(void)state;
	nd_keys_init(&ks, keys, 4);
	for (i = 0; i < sizeof(recs) / sizeof(recs[0]); i++) {
		assert_int_equal(nd_fields_keys(recs[i].line,
		    strlen(recs[i].line), &ks, v), recs[i].found);
		for (j = 0; recs[i].found >= 0 && j < 4; j++)
			if (recs[i].v[j] != NULL)
				assert_mem_str(v[j].p, v[j].len, recs[i].v[j]);
			else
				assert_null(v[j].p);
	}
	nd_keys_release(&ks);
}

static void
keys_report_errors_in_a_record_of_a_known_layout(void **state)
{
	static const char *const keys[] = { "a", "b" };
	static const char good[] = "{\"a\":1,\"b\":\"x\"}";
	static const struct { const char *line, *msg; } bad[] = {
		{ "{\"a\":1,\"b\":\"x}", "unterminated string at column 15" },
		{ "{\"a\":01,\"b\":\"x\"}", "expected ',' or '}' at column 7" },
		{ "{\"a\":1,\"b\":\"x\"", "unterminated object at column 15" },
		{ "{\"a\":1,\"b\":\"\xc3\"}", "invalid UTF-8 at column 13" },
	};
	struct nd_slice v[2];
	struct nd_keys ks;
	size_t i;

	(void)state;
	nd_keys_init(&ks, keys, 2);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(nd_fields_keys(good, sizeof(good) - 1, &ks,
		    v), 2);
		assert_int_equal(nd_fields_keys(bad[i].line,
		    strlen(bad[i].line), &ks, v), -1);
		assert_string_equal(nd_error(), bad[i].msg);
	}
	nd_keys_release(&ks);
}

static void
keys_read_no_byte_after_a_record_cut_in_a_string(void **state)
{
	static const char *const keys[] = { "a", "b", "c" };
	static const char good[] = "{\"a\":1,\"b\":\"x\",\"c\":2}";
	static const char *const cut[] = { "{\"a\":1,\"b\":\"xy",
		"{\"a\":1,\"b\":\"x\\", "{\"a\":\"",
		"{\"a\":1,\"b\":\"x\",\"c\":" };
	struct nd_slice v[3];
	struct nd_keys ks;
	size_t i, j, n;
	char *line;

	(void)state;
	/*
	 * A layout of three members learnt, then records that end inside
	 * a string, each in a block of its own size: no byte after it is
	 * read (which ASan and valgrind would see), and each is refused.
	 */
	nd_keys_init(&ks, keys, 3);
	for (i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		for (j = 0; j < 20; j++)	/* by the layout from then on */
			assert_int_equal(nd_fields_keys(good, sizeof(good) - 1,
			    &ks, v), 3);
		n = strlen(cut[i]);
		line = malloc(n);
		assert_non_null(line);
		memcpy(line, cut[i], n);
		assert_int_equal(nd_fields_keys(line, n, &ks, v), -1);
		free(line);
	}
	nd_keys_release(&ks);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fields_returns_raw_slices_of_wanted_keys),
		cmocka_unit_test(fields_ignores_keys_of_nested_objects),
		cmocka_unit_test(fields_takes_the_last_of_a_repeated_key),
		cmocka_unit_test(fields_matches_escaped_keys),
		cmocka_unit_test(fields_keeps_64bit_integers_exact),
		cmocka_unit_test(val_int_refuses_out_of_range_and_fractions),
		cmocka_unit_test(val_f64_reads_numbers),
		cmocka_unit_test(val_u64_reads_every_length_exactly),
		cmocka_unit_test(fields_finds_a_special_byte_at_every_offset),
		cmocka_unit_test(fields_find_the_end_of_digits_at_every_offset),
		cmocka_unit_test(keys_find_the_values_fields_finds),
		cmocka_unit_test(keys_match_short_keys_at_the_end_of_a_line),
		cmocka_unit_test(keys_beyond_the_table_are_found_in_turn),
		cmocka_unit_test(keys_fill_only_the_first_of_a_repeated_name),
		cmocka_unit_test(keys_read_records_of_changing_layouts),
		cmocka_unit_test(
		    keys_match_separators_and_long_keys_of_a_known_layout),
		cmocka_unit_test(
		    keys_report_errors_in_a_record_of_a_known_layout),
		cmocka_unit_test(
		    keys_read_no_byte_after_a_record_cut_in_a_string),
		cmocka_unit_test(each_keys_finds_lines_and_values_in_one_pass),
		cmocka_unit_test(each_keys_reads_records_across_buffer_ends),
		cmocka_unit_test(keys_read_wide_records_by_their_layout),
		cmocka_unit_test(
		    each_keys_reads_wide_records_across_buffer_ends),
		cmocka_unit_test(
		    fields_report_the_column_of_an_error_in_any_member),
		cmocka_unit_test(fields_accepts_valid_numbers),
		cmocka_unit_test(fields_rejects_invalid_numbers),
		cmocka_unit_test(fields_rejects_malformed_structure),
		cmocka_unit_test(fields_accepts_whitespace_and_literals),
		cmocka_unit_test(fields_rejects_bad_utf8),
		cmocka_unit_test(fields_accepts_valid_utf8),
		cmocka_unit_test(fields_rejects_lone_surrogates),
		cmocka_unit_test(fields_rejects_bad_escapes_and_controls),
		cmocka_unit_test(fields_rejects_nul_bytes),
		cmocka_unit_test(
		    fields_refuses_very_deep_nesting_without_crashing),
		cmocka_unit_test(validate_checks_any_value),
		cmocka_unit_test(val_str_decodes_escapes_and_surrogate_pairs),
		cmocka_unit_test(str_eq_compares_decoded_text),
		cmocka_unit_test(iter_walks_objects_and_arrays),
		cmocka_unit_test(
		    iter_skips_strings_with_escaped_quotes_and_backslashes),
		cmocka_unit_test(reader_skips_blank_lines_and_counts_lines),
		cmocka_unit_test(reader_reads_last_line_without_newline),
		cmocka_unit_test(reader_truncated_last_line_is_a_bad_record),
		cmocka_unit_test(reader_empty_file_has_no_records),
		cmocka_unit_test(reader_line_is_the_record_without_blanks),
		cmocka_unit_test(reader_reads_a_10mb_line),
		cmocka_unit_test(reader_reads_gzip_input),
		cmocka_unit_test(reader_open_fails_on_a_missing_file),
		cmocka_unit_test(
		    each_hands_on_records_and_reports_a_truncated_last_line),
		cmocka_unit_test(each_reports_open_and_read_errors),
	};

	return cmocka_run_group_tests_name("nd", tests, NULL, NULL);
}
