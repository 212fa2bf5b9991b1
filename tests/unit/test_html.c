/* test_html.c: HTML escaping and assets (html.h). */
#include "unit.h"
#include "html.h"

static char *
text(const char *s, size_t len)
{
	static char buf[4096];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(fp);
	html_text(fp, s, len);
	assert_true(ftell(fp) < (long)sizeof(buf));
	fclose(fp);
	return buf;
}

static void
text_escapes_the_five_specials(void **state)
{
	static const char in[] = "<script>alert('x & \"y\"')</script>";

	(void)state;
	assert_string_equal(text(in, sizeof(in) - 1),
	    "&lt;script&gt;alert(&#39;x &amp; &quot;y&quot;&#39;)"
	    "&lt;/script&gt;");
}

static void
text_keeps_plain_text_and_utf8(void **state)
{
	static const char in[] = "aten::mm (caf\xc3\xa9) \xe2\x82\xac\t\n"
	    "\xf0\x9f\x94\xa5";

	(void)state;
	assert_string_equal(text(in, sizeof(in) - 1), in);
}

static void
text_replaces_bad_utf8_and_controls(void **state)
{
	(void)state;
	assert_string_equal(text("a\xff" "b", 3), "a\xef\xbf\xbd" "b");
	assert_string_equal(text("\xc0\xaf", 2),
	    "\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(text("x\0y", 3), "x\xef\xbf\xbdy");
	assert_string_equal(text("\x01\x7f", 2),
	    "\xef\xbf\xbd\xef\xbf\xbd");
	assert_string_equal(text("\xe2\x82", 2),
	    "\xef\xbf\xbd\xef\xbf\xbd");
}

static void
textz_is_text_of_a_c_string(void **state)
{
	static char buf[64];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	html_textz(fp, "a<b");
	fclose(fp);
	assert_string_equal(buf, "a&lt;b");
}

static void
asset_is_written_as_it_is(void **state)
{
	static const char js[] = "if (a < b && c > d) x = '&amp;';";
	static char buf[128];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	html_asset(fp, js, sizeof(js) - 1);
	fclose(fp);
	assert_string_equal(buf, js);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(text_escapes_the_five_specials),
		cmocka_unit_test(text_keeps_plain_text_and_utf8),
		cmocka_unit_test(text_replaces_bad_utf8_and_controls),
		cmocka_unit_test(textz_is_text_of_a_c_string),
		cmocka_unit_test(asset_is_written_as_it_is),
	};

	return cmocka_run_group_tests_name("html", tests, NULL, NULL);
}
