/* test_ndw.c: the NDJSON writer (ndw.h). */
#include <math.h>
#include <stdint.h>

#include "unit.h"
#include "nd.h"
#include "ndw.h"

static void
writes_a_flat_record(void **state)
{
	struct ndw w;

	(void)state;
	ndw_init(&w, 0);
	ndw_begin(&w);
	ndw_strz(&w, "name", "aten::mm");
	ndw_i64(&w, "i", INT64_MIN);
	ndw_u64(&w, "u", UINT64_MAX);
	ndw_bool(&w, "t", 1);
	ndw_bool(&w, "f", 0);
	ndw_null(&w, "n");
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{\"name\":\"aten::mm\","
	    "\"i\":-9223372036854775808,\"u\":18446744073709551615,"
	    "\"t\":true,\"f\":false,\"n\":null}");
	ndw_release(&w);
}

static void
writes_nested_objects_and_arrays(void **state)
{
	struct ndw w;

	(void)state;
	ndw_init(&w, 0);
	ndw_begin(&w);
	ndw_arr(&w, "stack");
	ndw_strz(&w, NULL, "a");
	ndw_i64(&w, NULL, 2);
	ndw_obj(&w, NULL);
	ndw_null(&w, "x");
	ndw_close(&w);
	ndw_arr(&w, NULL);
	ndw_close(&w);
	ndw_close(&w);
	ndw_obj(&w, "o");
	ndw_obj(&w, "p");
	ndw_end(&w);
	assert_string_equal(w.buf.buf,
	    "{\"stack\":[\"a\",2,{\"x\":null},[]],\"o\":{\"p\":{}}}");
	/* A second record starts afresh. */
	ndw_begin(&w);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{}");
	ndw_release(&w);
}

static void
raw_passes_values_through_unchanged(void **state)
{
	static const char line[] = "{\"ts\":18446744073709551615,"
	    "\"n\":-9223372036854775808,\"x\":8.1097E+14,"
	    "\"a\":[1,\"\\u00e9\"]}";
	const char *keys[] = { "ts", "n", "x", "a" };
	struct nd_slice v[4];
	struct ndw w;
	size_t i;

	(void)state;
	assert_int_equal(nd_fields(line, sizeof(line) - 1, keys, v, 4), 4);
	ndw_init(&w, 0);
	ndw_begin(&w);
	for (i = 0; i < 4; i++)
		ndw_raw(&w, keys[i], v[i].p, v[i].len);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, line);
	ndw_release(&w);
}

static const char *
quote(const char *s, size_t len, unsigned flags, struct strbuf *sb)
{
	strbuf_reset(sb);
	ndw_quote(sb, s, len, flags);
	return sb->buf;
}

static void
quote_escapes_quotes_backslashes_and_controls(void **state)
{
	static const char in[] = "a\"b\\c\n\t\r\b\f\x01\x1f\x7f/";
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_string_equal(quote(in, sizeof(in) - 1, 0, &sb),
	    "\"a\\\"b\\\\c\\n\\t\\r\\b\\f\\u0001\\u001f\x7f/\"");
	assert_string_equal(quote("x\0y", 3, 0, &sb), "\"x\\u0000y\"");
	assert_string_equal(quote("", 0, 0, &sb), "\"\"");
	strbuf_release(&sb);
}

static void
quote_keeps_valid_utf8(void **state)
{
	static const char in[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_string_equal(quote(in, sizeof(in) - 1, 0, &sb),
	    "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	strbuf_release(&sb);
}

static void
quote_replaces_each_invalid_utf8_byte(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	/* docs/formats.md: each invalid byte becomes U+FFFD. */
	assert_string_equal(quote("a\xff" "b", 3, 0, &sb),
	    "\"a\xef\xbf\xbd" "b\"");
	assert_string_equal(quote("\xc0\x80", 2, 0, &sb),
	    "\"\xef\xbf\xbd\xef\xbf\xbd\"");
	assert_string_equal(quote("\xed\xa0\x80", 3, 0, &sb),
	    "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	assert_string_equal(quote("x\xe2\x82", 3, 0, &sb),
	    "\"x\xef\xbf\xbd\xef\xbf\xbd\"");
	/* Whatever the input, the output is valid JSON. */
	assert_int_equal(nd_validate(sb.buf, sb.len), 0);
	strbuf_release(&sb);
}

/*
 * The writer scans for bytes to escape several at a time: each kind of
 * byte, at every offset of a longer string, must still be found.
 */
static void
quote_finds_an_escape_at_every_offset(void **state)
{
	static const struct {
		const char *in, *out;
	} sp[] = {
		{ "\"", "\\\"" }, { "\\", "\\\\" }, { "\n", "\\n" },
		{ "\x1f", "\\u001f" }, { "\x7f", "\x7f" }, { " ", " " },
		{ "~", "~" }, { "\xc3\xa9", "\xc3\xa9" },
		{ "\xff", "\xef\xbf\xbd" },
	};
	struct strbuf sb = STRBUF_INIT;
	char in[64], want[80];
	size_t i, k, n;

	(void)state;
	for (i = 0; i < sizeof(sp) / sizeof(sp[0]); i++)
		for (k = 0; k <= 20; k++) {
			n = strlen(sp[i].in);
			memset(in, 'a', k);
			memcpy(in + k, sp[i].in, n);
			memset(in + k + n, 'b', 20);
			snprintf(want, sizeof(want), "\"%.*s%s%.20s\"", (int)k,
			    "aaaaaaaaaaaaaaaaaaaaa", sp[i].out,
			    "bbbbbbbbbbbbbbbbbbbb");
			assert_string_equal(quote(in, k + n + 20, 0, &sb),
			    want);
		}
	strbuf_release(&sb);
}

static void
plain_is_printable_ascii_without_quote_or_backslash(void **state)
{
	char in[32];
	size_t k;
	int c, want;

	(void)state;
	assert_true(ndw_plain("", 0));
	for (c = 0; c < 256; c++) {
		want = c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
		for (k = 0; k < 17; k++) {
			memset(in, 'x', sizeof(in));
			in[k] = (char)c;
			assert_int_equal(ndw_plain(in, 24), want);
			assert_int_equal(ndw_plain(in, k + 1), want);
			assert_true(ndw_plain(in, k));
		}
	}
}

static void
str_plain_writes_what_str_writes(void **state)
{
	struct ndw w;

	(void)state;
	ndw_init(&w, 0);
	ndw_begin(&w);
	ndw_str_plain(&w, "a", "x <y> & z", 9);
	ndw_arr(&w, "b");
	ndw_str_plain(&w, NULL, "", 0);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{\"a\":\"x <y> & z\",\"b\":[\"\"]}");
	ndw_release(&w);
	/* HTML-safe mode still escapes what could end a script. */
	ndw_init(&w, NDW_HTML_SAFE);
	ndw_begin(&w);
	ndw_str_plain(&w, "a", "<b>", 3);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{\"a\":\"\\u003cb\\u003e\"}");
	ndw_release(&w);
}

static void
html_safe_escapes_what_could_end_a_script(void **state)
{
	static const char in[] = "</script><!--&\xe2\x80\xa8\xe2\x80\xa9";
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_string_equal(quote(in, sizeof(in) - 1, NDW_HTML_SAFE, &sb),
	    "\"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029\"");
	assert_int_equal(nd_validate(sb.buf, sb.len), 0);
	assert_string_equal(quote(in, sizeof(in) - 1, 0, &sb),
	    "\"</script><!--&\xe2\x80\xa8\xe2\x80\xa9\"");
	strbuf_release(&sb);
}

static void
html_safe_applies_to_keys_too(void **state)
{
	struct ndw w;

	(void)state;
	ndw_init(&w, NDW_HTML_SAFE);
	ndw_begin(&w);
	ndw_strz(&w, "<k>", "&");
	ndw_end(&w);
	assert_string_equal(w.buf.buf,
	    "{\"\\u003ck\\u003e\":\"\\u0026\"}");
	ndw_release(&w);
}

static const char *
fmt(double v, struct strbuf *sb)
{
	strbuf_reset(sb);
	ndw_fmt_f64(sb, v);
	return sb->buf;
}

static void
doubles_use_the_shortest_round_trip_form(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	volatile double a = 0.1, b = 0.2;

	(void)state;
	assert_string_equal(fmt(0.1, &sb), "0.1");
	assert_string_equal(fmt(a + b, &sb), "0.30000000000000004");
	assert_string_equal(fmt(1.0 / 3.0, &sb), "0.3333333333333333");
	assert_string_equal(fmt(100.0, &sb), "100");
	assert_string_equal(fmt(-2.5, &sb), "-2.5");
	assert_string_equal(fmt(0.0, &sb), "0");
	assert_string_equal(fmt(123456789.125, &sb), "123456789.125");
	assert_string_equal(fmt(9007199254740993.0, &sb), "9007199254740992");
	assert_string_equal(fmt(1e21, &sb), "1e+21");
	assert_string_equal(fmt(1.7976931348623157e308, &sb),
	    "1.7976931348623157e+308");
	assert_string_equal(fmt(5e-324, &sb), "5e-324");
	strbuf_release(&sb);
}

static void
doubles_read_back_to_the_same_value(void **state)
{
	static const double v[] = {
		0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-7, 6.02214076e23, 1e300,
		2.2250738585072014e-308, 4.9406564584124654e-324, 1e23,
		-123.456, 18446744073709551615.0, 0.000123,
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fmt(v[i], &sb);
		assert_int_equal(nd_validate(sb.buf, sb.len), 0);
		if (strtod(sb.buf, NULL) != v[i])
			fail_msg("%.17g written as %s", v[i], sb.buf);
	}
	strbuf_release(&sb);
}

static void
non_finite_doubles_are_strings(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	struct ndw w;

	(void)state;
	assert_string_equal(fmt(NAN, &sb), "\"nan\"");
	assert_string_equal(fmt(INFINITY, &sb), "\"inf\"");
	assert_string_equal(fmt(-INFINITY, &sb), "\"-inf\"");
	ndw_init(&w, 0);
	ndw_begin(&w);
	ndw_f64(&w, "x", NAN);
	ndw_f64(&w, "y", 0.25);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{\"x\":\"nan\",\"y\":0.25}");
	ndw_release(&w);
	strbuf_release(&sb);
}

static void
emit_writes_one_line(void **state)
{
	char *text = NULL;
	size_t len = 0;
	struct ndw w;
	FILE *fp;

	(void)state;
	fp = open_memstream(&text, &len);
	assert_non_null(fp);
	ndw_init(&w, 0);
	ndw_begin(&w);
	ndw_i64(&w, "a", 1);
	ndw_end(&w);
	assert_int_equal(ndw_emit(&w, fp), 0);
	ndw_begin(&w);
	ndw_i64(&w, "a", 2);
	ndw_end(&w);
	assert_int_equal(ndw_emit(&w, fp), 0);
	fclose(fp);
	assert_string_equal(text, "{\"a\":1}\n{\"a\":2}\n");
	free(text);
	ndw_release(&w);
}

static void
emit_reports_a_write_error(void **state)
{
	struct ndw w;
	FILE *fp;
	int i, bad = 0;

	(void)state;
	fp = fopen("/dev/full", "w");
	assert_non_null(fp);
	setvbuf(fp, NULL, _IONBF, 0);
	ndw_init(&w, 0);
	for (i = 0; i < 4; i++) {
		ndw_begin(&w);
		ndw_i64(&w, "a", i);
		ndw_end(&w);
		if (ndw_emit(&w, fp) != 0)
			bad = 1;
	}
	assert_true(bad || fflush(fp) != 0);
	fclose(fp);
	ndw_release(&w);
}

static void
output_reads_back_with_nd(void **state)
{
	const char *keys[] = { "s", "u", "d" };
	struct strbuf sb = STRBUF_INIT;
	struct nd_slice v[3];
	struct ndw w;
	uint64_t u;
	double d;

	(void)state;
	ndw_init(&w, NDW_HTML_SAFE);
	ndw_begin(&w);
	ndw_str(&w, "s", "<\"\xff\n>", 5);
	ndw_u64(&w, "u", UINT64_MAX);
	ndw_f64(&w, "d", 0.1);
	ndw_end(&w);
	assert_int_equal(nd_fields(w.buf.buf, w.buf.len, keys, v, 3), 3);
	assert_int_equal(nd_val_str(v[0], &sb), 0);
	assert_string_equal(sb.buf, "<\"\xef\xbf\xbd\n>");
	assert_int_equal(nd_val_u64(v[1], &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(nd_val_f64(v[2], &d), 0);
	assert_true(d == 0.1);
	strbuf_release(&sb);
	ndw_release(&w);
}

static void
integers_are_written_in_full_at_every_length(void **state)
{
	static const struct {
		int64_t v;
		const char *want;
	} t[] = {
		{ 0, "0" }, { 7, "7" }, { 10, "10" }, { 99, "99" },
		{ 100, "100" }, { 1001, "1001" }, { -1, "-1" },
		{ -10, "-10" }, { 1736410576000000000, "1736410576000000000" },
		{ INT64_MAX, "9223372036854775807" },
		{ INT64_MIN, "-9223372036854775808" },
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		strbuf_reset(&sb);
		ndw_fmt_i64(&sb, t[i].v);
		assert_string_equal(sb.buf, t[i].want);
	}
	strbuf_reset(&sb);
	ndw_fmt_u64(&sb, UINT64_MAX);
	ndw_fmt_u64(&sb, 100000);
	assert_string_equal(sb.buf, "18446744073709551615100000");
	strbuf_release(&sb);
}

/* 128-bit integers in full: past 2^64, and both ends of the range. */
static void
writes_128_bit_integers_in_full(void **state)
{
	const ndw_int128 two64 = (ndw_int128)1 << 64;
	const ndw_int128 max = (two64 << 62) + ((two64 << 62) - 1);
	struct {
		ndw_int128 v;
		const char *want;
	} t[] = {
		{ 0, "0" }, { -1, "-1" }, { 42, "42" },
		{ INT64_MIN, "-9223372036854775808" },
		{ two64 - 1, "18446744073709551615" },
		{ two64, "18446744073709551616" },
		{ -two64, "-18446744073709551616" },
		{ two64 * 10 + 7, "184467440737095516167" },
		{ max, "170141183460469231731687303715884105727" },
		{ -max - 1, "-170141183460469231731687303715884105728" },
	};
	struct strbuf sb = STRBUF_INIT;
	struct ndw w;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		strbuf_reset(&sb);
		ndw_fmt_i128(&sb, t[i].v);
		assert_string_equal(sb.buf, t[i].want);
	}
	strbuf_release(&sb);
	ndw_init(&w, 0);
	ndw_begin(&w);
	ndw_i128(&w, "sum", two64);
	ndw_i128(&w, "min", -5);
	ndw_arr(&w, "v");
	ndw_i128(&w, NULL, -two64);
	ndw_i128(&w, NULL, 1);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{\"sum\":18446744073709551616,"
	    "\"min\":-5,\"v\":[-18446744073709551616,1]}");
	ndw_release(&w);
}

static void
keys_that_need_escapes_leave_the_fast_path(void **state)
{
	struct ndw w;

	(void)state;
	ndw_init(&w, NDW_HTML_SAFE);
	ndw_begin(&w);
	ndw_u64(&w, "plain_key", 1);
	ndw_u64(&w, "a\"b", 2);
	ndw_u64(&w, "<k>", 3);
	ndw_u64(&w, "caf\xc3\xa9", 4);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{\"plain_key\":1,\"a\\\"b\":2,"
	    "\"\\u003ck\\u003e\":3,\"caf\xc3\xa9\":4}");
	ndw_release(&w);
}

static void
value_appends_one_value_that_another_function_built(void **state)
{
	struct ndw w;
	struct strbuf *sb;

	(void)state;
	ndw_init(&w, 0);
	ndw_begin(&w);
	ndw_u64(&w, "a", 1);
	sb = ndw_value(&w, "shape");
	strbuf_addstr(sb, "[2,3]");
	ndw_arr(&w, "s");
	strbuf_addstr(ndw_value(&w, NULL), "{}");
	strbuf_addstr(ndw_value(&w, NULL), "4");
	ndw_close(&w);
	ndw_u64(&w, "b", 5);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{\"a\":1,\"shape\":[2,3],"
	    "\"s\":[{},4],\"b\":5}");
	ndw_release(&w);
}

static void
raw_values_are_made_html_safe_in_html_mode(void **state)
{
	static const char json[] = "{\"t\":\"</script>&\xe2\x80\xa8\","
	    "\"u\":\"\xe2\x80\xa9\xe2\x82\xac\"}";
	struct strbuf sb = STRBUF_INIT;
	struct ndw w;

	(void)state;
	ndw_fmt_raw(&sb, json, strlen(json), 0);
	assert_string_equal(sb.buf, json);
	strbuf_reset(&sb);
	ndw_fmt_raw(&sb, json, strlen(json), NDW_HTML_SAFE);
	assert_string_equal(sb.buf, "{\"t\":\"\\u003c/script\\u003e"
	    "\\u0026\\u2028\",\"u\":\"\\u2029\xe2\x82\xac\"}");
	ndw_init(&w, NDW_HTML_SAFE);
	ndw_begin(&w);
	ndw_raw(&w, "v", "\"<\"", 3);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{\"v\":\"\\u003c\"}");
	ndw_release(&w);
	strbuf_release(&sb);
}

/* ndw_put_u64(): every digit count, written where asked, end returned. */
static void
put_u64_writes_every_length_in_place(void **state)
{
	static const struct {
		uint64_t v;
		const char *want;
	} t[] = {
		{ 0, "0" }, { 9, "9" }, { 10, "10" }, { 99, "99" },
		{ 100, "100" }, { 999, "999" }, { 1000, "1000" },
		{ 9999, "9999" }, { 10000, "10000" }, { 10001, "10001" },
		{ 99999999, "99999999" }, { 100000000, "100000000" },
		{ 1736410576000000000u, "1736410576000000000" },
		{ UINT64_MAX, "18446744073709551615" },
	};
	char buf[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(buf, 'x', sizeof(buf));
		assert_ptr_equal(ndw_put_u64(buf, t[i].v),
		    buf + strlen(t[i].want));
		assert_memory_equal(buf, t[i].want, strlen(t[i].want));
		assert_int_equal(buf[strlen(t[i].want)], 'x');
	}
}

/*
 * Members laid out by hand between ndw_reserve() and ndw_commit() sit
 * in the record like added ones: the next member gets its comma.
 */
static void
reserve_and_commit_take_members_written_by_hand(void **state)
{
	struct ndw w;
	char *d;

	(void)state;
	ndw_init(&w, 0);
	ndw_begin(&w);
	ndw_u64(&w, "a", 1);
	d = ndw_reserve(&w, 4000);
	assert_true(w.buf.alloc - w.buf.len > 4000);
	memcpy(d, ",\"b\":", 5);
	d = ndw_put_u64(d + 5, 20);
	ndw_commit(&w, d);
	ndw_u64(&w, "c", 3);
	ndw_end(&w);
	assert_string_equal(w.buf.buf, "{\"a\":1,\"b\":20,\"c\":3}");
	assert_int_equal(w.buf.len, strlen(w.buf.buf));
	ndw_release(&w);
}

/*
 * ndw_finish() closes what is open and emits, as ndw_end() and
 * ndw_emit() do: straight away without NDW_BATCH, at ndw_flush() with it.
 */
static void
finish_closes_and_emits_a_record(void **state)
{
	static const char want[] = "{\"a\":1}\n{\"b\":[2,{\"c\":3}]}\n"
	    "{\"d\":4}\n";
	unsigned flags[] = { 0, NDW_BATCH };
	char *text = NULL;
	size_t len = 0, i;
	struct ndw w;
	FILE *fp;

	(void)state;
	for (i = 0; i < 2; i++) {
		fp = open_memstream(&text, &len);
		assert_non_null(fp);
		ndw_init(&w, flags[i]);
		ndw_begin(&w);
		ndw_i64(&w, "a", 1);
		assert_int_equal(ndw_finish(&w, fp), 0);
		ndw_begin(&w);
		ndw_arr(&w, "b");
		ndw_i64(&w, NULL, 2);
		ndw_obj(&w, NULL);
		ndw_i64(&w, "c", 3);
		assert_int_equal(ndw_finish(&w, fp), 0);
		ndw_begin(&w);
		ndw_i64(&w, "d", 4);
		assert_int_equal(ndw_finish(&w, fp), 0);
		fflush(fp);
		assert_int_equal(len, i == 0 ? strlen(want) : 0);
		assert_int_equal(ndw_flush(&w, fp), 0);
		fclose(fp);
		assert_string_equal(text, want);
		free(text);
		text = NULL;
		ndw_release(&w);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writes_a_flat_record),
		cmocka_unit_test(writes_nested_objects_and_arrays),
		cmocka_unit_test(raw_passes_values_through_unchanged),
		cmocka_unit_test(quote_escapes_quotes_backslashes_and_controls),
		cmocka_unit_test(quote_keeps_valid_utf8),
		cmocka_unit_test(quote_replaces_each_invalid_utf8_byte),
		cmocka_unit_test(quote_finds_an_escape_at_every_offset),
		cmocka_unit_test(
		    plain_is_printable_ascii_without_quote_or_backslash),
		cmocka_unit_test(str_plain_writes_what_str_writes),
		cmocka_unit_test(html_safe_escapes_what_could_end_a_script),
		cmocka_unit_test(html_safe_applies_to_keys_too),
		cmocka_unit_test(doubles_use_the_shortest_round_trip_form),
		cmocka_unit_test(doubles_read_back_to_the_same_value),
		cmocka_unit_test(non_finite_doubles_are_strings),
		cmocka_unit_test(emit_writes_one_line),
		cmocka_unit_test(emit_reports_a_write_error),
		cmocka_unit_test(output_reads_back_with_nd),
		cmocka_unit_test(integers_are_written_in_full_at_every_length),
		cmocka_unit_test(writes_128_bit_integers_in_full),
		cmocka_unit_test(keys_that_need_escapes_leave_the_fast_path),
		cmocka_unit_test(
		    value_appends_one_value_that_another_function_built),
		cmocka_unit_test(raw_values_are_made_html_safe_in_html_mode),
		cmocka_unit_test(put_u64_writes_every_length_in_place),
		cmocka_unit_test(
		    reserve_and_commit_take_members_written_by_hand),
		cmocka_unit_test(finish_closes_and_emits_a_record),
	};

	return cmocka_run_group_tests_name("ndw", tests, NULL, NULL);
}
