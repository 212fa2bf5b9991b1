/* test_jqf.c: --where filters through libjq (jqf.h). */
#include "unit.h"
#include "err.h"
#include "jqf.h"

static int
match(struct jqf *f, const char *json)
{
	return jqf_match(f, json, strlen(json));
}

static void
match_follows_select_semantics(void **state)
{
	struct jqf *f = jqf_compile(".dur_ns > 100");

	(void)state;
	assert_int_equal(match(f, "{\"dur_ns\":101}"), 1);
	assert_int_equal(match(f, "{\"dur_ns\":100}"), 0);
	/* null > 100 is false in jq's ordering. */
	assert_int_equal(match(f, "{}"), 0);
	jqf_free(f);
}

static void
null_false_and_no_output_do_not_pass(void **state)
{
	struct jqf *f;

	(void)state;
	f = jqf_compile(".x");
	assert_int_equal(match(f, "{\"x\":null}"), 0);
	assert_int_equal(match(f, "{\"x\":false}"), 0);
	assert_int_equal(match(f, "{}"), 0);
	assert_int_equal(match(f, "{\"x\":0}"), 1);
	assert_int_equal(match(f, "{\"x\":\"\"}"), 1);
	assert_int_equal(match(f, "{\"x\":[]}"), 1);
	jqf_free(f);
	f = jqf_compile("empty");
	assert_int_equal(match(f, "{}"), 0);
	jqf_free(f);
}

static void
first_output_decides(void **state)
{
	struct jqf *f = jqf_compile(".a[]");

	(void)state;
	assert_int_equal(match(f, "{\"a\":[true,false]}"), 1);
	assert_int_equal(match(f, "{\"a\":[false,true]}"), 0);
	jqf_free(f);
}

static void
string_tests_work(void **state)
{
	struct jqf *f = jqf_compile(".name | startswith(\"aten::\")");

	(void)state;
	assert_int_equal(match(f, "{\"name\":\"aten::mm\"}"), 1);
	assert_int_equal(match(f, "{\"name\":\"hipMemcpy\"}"), 0);
	jqf_free(f);
}

static void
runtime_error_is_returned_with_a_message(void **state)
{
	struct jqf *f = jqf_compile(".a + 1");

	(void)state;
	assert_int_equal(match(f, "{\"a\":\"x\"}"), -1);
	assert_non_null(strstr(jqf_error(f), "cannot be added"));
	assert_null(strstr(jqf_error(f), "jq: error"));
	/* The filter still works on the next record. */
	assert_int_equal(match(f, "{\"a\":1}"), 1);
	jqf_free(f);
	f = jqf_compile("error(\"custom\")");
	assert_int_equal(match(f, "{}"), -1);
	assert_string_equal(jqf_error(f), "custom");
	jqf_free(f);
}

static void
unparsable_record_is_an_error(void **state)
{
	struct jqf *f = jqf_compile("true");

	(void)state;
	assert_int_equal(match(f, "{\"a\":"), -1);
	assert_true(strlen(jqf_error(f)) > 0);
	jqf_free(f);
}

static void
compile_bad(void *arg)
{
	prog_init("prog");
	jqf_compile(arg);
}

static void
compile_error_is_a_usage_error_without_prefix(void **state)
{
	static char syntax[] = ".a +* 1", undefined[] = "nosuchfunction(1)";
	struct child c;

	(void)state;
	run_child(compile_bad, syntax, &c);
	assert_int_equal(c.status, 2);
	assert_non_null(strstr(c.err, "prog: "));
	assert_non_null(strstr(c.err, "syntax error"));
	assert_null(strstr(c.err, "jq: error"));
	assert_null(strstr(c.err, "compile error"));
	/* One line. */
	assert_non_null(strchr(c.err, '\n'));
	assert_int_equal(strchr(c.err, '\n')[1], '\0');
	run_child(compile_bad, undefined, &c);
	assert_int_equal(c.status, 2);
	assert_non_null(strstr(c.err, "nosuchfunction/1 is not defined"));
}

static void
call_keep(void *arg)
{
	struct bad_input bad = BAD_INPUT_INIT;
	struct srcpos pos = { "in.nd", 7 };
	struct jqf *f;

	prog_init("prog");
	bad.strict = arg != NULL;
	f = jqf_compile(".n > 1");
	printf("%d ", jqf_keep(NULL, "{\"n\":0}", 7, &bad, &pos));
	printf("%d ", jqf_keep(f, "{\"n\":2}", 7, &bad, &pos));
	printf("%d ", jqf_keep(f, "{\"n\":0}", 7, &bad, &pos));
	printf("%d ", jqf_keep(f, "{\"n\":\"x\"}", 9, &bad, &pos));
	printf("bad=%lu\n", bad.count);
	jqf_free(f);
	f = jqf_compile(".n + 1");
	printf("%d ", jqf_keep(f, "{\"n\":\"x\"}", 9, &bad, &pos));
	printf("bad=%lu\n", bad.count);
	jqf_free(f);
}

static void
keep_passes_filters_and_reports_errors_as_bad_records(void **state)
{
	static const char err[] = "prog: in.nd:7: --where: string (\"x\") "
	    "and number (1) cannot be added\n";
	static char strict[] = "strict";
	struct child c;

	(void)state;
	run_child(call_keep, NULL, &c);
	assert_int_equal(c.status, 0);
	/* A string is greater than any number in jq's ordering. */
	assert_string_equal(c.out, "1 1 0 1 bad=0\n-1 bad=1\n");
	assert_string_equal(c.err, err);
	run_child(call_keep, strict, &c);
	assert_int_equal(c.status, 1);
	assert_string_equal(c.out, "1 1 0 1 bad=0\n");
	assert_string_equal(c.err, err);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(match_follows_select_semantics),
		cmocka_unit_test(null_false_and_no_output_do_not_pass),
		cmocka_unit_test(first_output_decides),
		cmocka_unit_test(string_tests_work),
		cmocka_unit_test(runtime_error_is_returned_with_a_message),
		cmocka_unit_test(unparsable_record_is_an_error),
		cmocka_unit_test(compile_error_is_a_usage_error_without_prefix),
		cmocka_unit_test(
		    keep_passes_filters_and_reports_errors_as_bad_records),
	};

	return cmocka_run_group_tests_name("jqf", tests, NULL, NULL);
}
