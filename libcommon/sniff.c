/*
 * sniff.c: the kind of an input, from its first line.  Only what is sure
 * is named: a line that fits no kind is SNIFF_OTHER, and the program
 * reads it as it would any other line.
 */
#include <ctype.h>
#include <string.h>

#include "nd.h"
#include "sniff.h"
#include "zin.h"

static const struct {
	const char *what, *todo;
} kinds[SNIFF_NKINDS] = {
	[SNIFF_OTHER] = { "is not what this program reads",
	    "see the program's manual" },
	[SNIFF_SQLITE] = { "is an SQLite database", "use db2spans" },
	[SNIFF_BINARY] = { "is a binary file, not text",
	    "give the profiler's text, CSV or NDJSON output" },
	[SNIFF_TRACE] = { "is a Chrome trace (trace-event JSON)",
	    "use trace2spans" },
	[SNIFF_JSON] = { "is JSON over several lines, not one record per "
	    "line", "a Chrome trace is read by trace2spans; 'jq -c' writes "
	    "one record per line" },
	[SNIFF_CSV] = { "is CSV, not NDJSON records",
	    "use pmc2ndjson for profiler counter CSV" },
	[SNIFF_FOLDED] = { "holds folded stacks, not NDJSON records",
	    "flame2html reads them" },
	[SNIFF_SPANS] = { "holds span records (start_ns, end_ns)",
	    "pipe them through spans2stacks" },
	[SNIFF_STACKS] = { "holds stack records (stack, self_ns)",
	    "flame2html draws them" },
	[SNIFF_DISPATCH] = { "holds dispatch records (pmc2ndjson)",
	    "metric-eval and topn read them" },
	[SNIFF_MIGX] = { "holds MIGraphX records (migx2ndjson)",
	    "topn and chart2html read them" },
	[SNIFF_METRICS] = { "holds metric records (metric-eval)",
	    "chart2html draws them" },
};

const char *
sniff_what(enum sniff_kind k)
{
	return kinds[k].what;
}

const char *
sniff_todo(enum sniff_kind k)
{
	return kinds[k].todo;
}

static int
has(const char *p, size_t len, const char *s)
{
	size_t n = strlen(s), i;

	for (i = 0; i + n <= len; i++)
		if (p[i] == s[0] && memcmp(p + i, s, n) == 0)
			return 1;
	return 0;
}

static int
is_type(struct nd_slice v, const char *const names[])
{
	for (; *names != NULL; names++)
		if (nd_str_eq(v, *names, strlen(*names)))
			return 1;
	return 0;
}

/* The kind of one well-formed JSON object, from its keys. */
static enum sniff_kind
record_kind(const char *p, size_t len)
{
	static const char *const keys[] = { "start_ns", "end_ns", "stack",
	    "self_ns", "type", "run", "metric_id", "table_id",
	    "traceEvents", "ph", "ts" };
	static const char *const pmc[] = { "dispatch", "sysinfo",
	    "roofline", "units", NULL };
	static const char *const migx[] = { "instruction", "summary",
	    "totals", "trace", "module", "meta", "other", NULL };
	struct nd_slice v[11];

	if (nd_fields(p, len, keys, v, 11) < 0)
		return SNIFF_OTHER;
	if (v[8].p != NULL || (v[9].p != NULL && v[10].p != NULL))
		return SNIFF_TRACE;
	if (v[0].p != NULL && v[1].p != NULL)
		return SNIFF_SPANS;
	if (v[2].p != NULL && v[3].p != NULL)
		return SNIFF_STACKS;
	if (v[4].p != NULL && is_type(v[4], pmc))
		return SNIFF_DISPATCH;
	if (v[4].p != NULL && v[5].p != NULL && is_type(v[4], migx))
		return SNIFF_MIGX;
	if (v[6].p != NULL && v[7].p != NULL)
		return SNIFF_METRICS;
	return SNIFF_OTHER;
}

/* A JSON text that does not parse as one object on this line. */
static enum sniff_kind
json_kind(const char *p, size_t len)
{
	size_t i = 1;

	if (has(p, len, "\"traceEvents\"") || (p[0] == '[' &&
	    has(p, len, "\"ph\"")))
		return SNIFF_TRACE;
	while (i < len && isspace((unsigned char)p[i]))
		i++;
	return i == len ? SNIFF_JSON : SNIFF_OTHER;
}

/* "a;b;c 12" or "a;b 3 4": the last blank-separated token is a count. */
static int
is_folded(const char *p, size_t len)
{
	size_t e = len, s;

	while (e > 0 && isspace((unsigned char)p[e - 1]))
		e--;
	s = e;
	while (s > 0 && isdigit((unsigned char)p[s - 1]))
		s--;
	return s < e && s > 0 && (p[s - 1] == ' ' || p[s - 1] == '\t') &&
	    memchr(p, ';', s) != NULL;
}

enum sniff_kind
sniff_line(const char *p, size_t len)
{
	if (len >= 16 && memcmp(p, "SQLite format 3", 16) == 0)
		return SNIFF_SQLITE;
	if (memchr(p, '\0', len) != NULL)
		return SNIFF_BINARY;
	if (len >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;
		len -= 3;
	}
	while (len > 0 && isspace((unsigned char)*p))
		p++, len--;
	while (len > 0 && isspace((unsigned char)p[len - 1]))
		len--;
	if (len == 0)
		return SNIFF_OTHER;
	if (*p == '{' && nd_fields(p, len, NULL, NULL, 0) == 0)
		return record_kind(p, len);
	if (*p == '{' || *p == '[')
		return json_kind(p, len);
	if (is_folded(p, len))
		return SNIFF_FOLDED;
	if (memchr(p, ',', len) != NULL)
		return SNIFF_CSV;
	return SNIFF_OTHER;
}

void
sniff_die(const char *file, enum sniff_kind k, const char *todo)
{
	if (todo == NULL || k == SNIFF_SQLITE || k == SNIFF_TRACE)
		todo = kinds[k].todo;
	die("%s %s: %s", file, kinds[k].what, todo);
}

void
sniff_check(const char *file, const char *line, size_t len,
    unsigned refuse, const char *todo)
{
	enum sniff_kind k = sniff_line(line, len);

	if (k != SNIFF_OTHER && (refuse & SNIFF_BIT(k)))
		sniff_die(file, k, todo);
}

void
sniff_file(const char *path, const char *name, unsigned refuse,
    const char *todo)
{
	struct zin z;
	const char *line;
	size_t len, i;

	if (zin_open(&z, path) != 0)
		return;
	while (zin_getline(&z, &line, &len) == 1) {
		for (i = 0; i < len && isspace((unsigned char)line[i]); i++)
			;
		if (i == len)
			continue;
		sniff_check(name, line, len, refuse, todo);
		break;
	}
	zin_close(&z);
}
