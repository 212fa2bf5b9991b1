/* test_strbuf.c: growable byte buffers (strbuf.h). */
#include "unit.h"
#include "strbuf.h"

static void
init_buffer_is_an_empty_string(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	assert_non_null(sb.buf);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	strbuf_reset(&sb);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
	assert_non_null(sb.buf);
	strbuf_init(&sb, 100);
	assert_true(sb.alloc >= 101);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
}

static void
add_appends_and_keeps_a_nul(void **state)
{
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	strbuf_add(&sb, "ab\0cd", 5);
	assert_int_equal(sb.len, 5);
	assert_memory_equal(sb.buf, "ab\0cd", 6);
	strbuf_addstr(&sb, "ef");
	strbuf_addch(&sb, 'g');
	assert_int_equal(sb.len, 8);
	assert_memory_equal(sb.buf, "ab\0cdefg", 9);
	strbuf_setlen(&sb, 1);
	assert_string_equal(sb.buf, "a");
	strbuf_release(&sb);
}

static void
addf_formats_long_output(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	char big[1000];

	(void)state;
	strbuf_addf(&sb, "%d-%s", 42, "x");
	assert_string_equal(sb.buf, "42-x");
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	strbuf_addf(&sb, "[%s]%llu", big, 18446744073709551615ULL);
	assert_int_equal(sb.len, 4 + 1 + 999 + 1 + 20);
	assert_string_equal(sb.buf + sb.len - 21, "]18446744073709551615");
	strbuf_release(&sb);
}

static void
grows_to_10mb_by_bytes(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t i, n = 10 * 1024 * 1024;

	(void)state;
	for (i = 0; i < n; i++)
		strbuf_addch(&sb, (char)('a' + i % 26));
	assert_int_equal(sb.len, n);
	assert_int_equal(sb.buf[n], '\0');
	assert_int_equal(sb.buf[n - 1], 'a' + (n - 1) % 26);
	strbuf_release(&sb);
}

static void
detach_hands_over_the_memory(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	char *s;

	(void)state;
	s = strbuf_detach(&sb, &len);
	assert_int_equal(len, 0);
	assert_string_equal(s, "");
	free(s);
	strbuf_addstr(&sb, "kept");
	s = strbuf_detach(&sb, &len);
	assert_int_equal(len, 4);
	assert_string_equal(s, "kept");
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	free(s);
	strbuf_release(&sb);
}

static void
getline_reads_lines_and_a_last_one_without_newline(void **state)
{
	char *path = tmp_filez("one\ntwo\r\n\nlast");
	struct strbuf sb = STRBUF_INIT;
	FILE *fp = fopen(path, "r");

	(void)state;
	assert_non_null(fp);
	assert_int_equal(strbuf_getline(&sb, fp), 0);
	assert_string_equal(sb.buf, "one");
	assert_int_equal(strbuf_getline(&sb, fp), 0);
	assert_string_equal(sb.buf, "two\r");
	assert_int_equal(strbuf_getline(&sb, fp), 0);
	assert_string_equal(sb.buf, "");
	assert_int_equal(strbuf_getline(&sb, fp), 0);
	assert_string_equal(sb.buf, "last");
	assert_int_equal(strbuf_getline(&sb, fp), EOF);
	fclose(fp);
	strbuf_release(&sb);
	tmp_remove(path);
}

static void
getline_on_an_empty_file_is_eof(void **state)
{
	char *path = tmp_file("", 0);
	struct strbuf sb = STRBUF_INIT;
	FILE *fp = fopen(path, "r");

	(void)state;
	assert_int_equal(strbuf_getline(&sb, fp), EOF);
	fclose(fp);
	strbuf_release(&sb);
	tmp_remove(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(init_buffer_is_an_empty_string),
		cmocka_unit_test(add_appends_and_keeps_a_nul),
		cmocka_unit_test(addf_formats_long_output),
		cmocka_unit_test(grows_to_10mb_by_bytes),
		cmocka_unit_test(detach_hands_over_the_memory),
		cmocka_unit_test(
		    getline_reads_lines_and_a_last_one_without_newline),
		cmocka_unit_test(getline_on_an_empty_file_is_eof),
	};

	return cmocka_run_group_tests_name("strbuf", tests, NULL, NULL);
}
