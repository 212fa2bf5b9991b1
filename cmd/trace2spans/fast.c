/*
 * fast.c: the usual event in one pass.  An event that is a well-formed
 * JSON object with no escapes in it and no deep nesting is validated and
 * its members found while its end is looked for, so it is scanned once
 * instead of cut out by cut() and scanned again by nd_fields().  Whatever
 * this scanner does not take (an escape, bad JSON, nesting deeper than
 * FAST_DEPTH) goes to that general path, which says what is wrong, so
 * the answer is the same either way.  Accepting no more than nd_fields()
 * does is what keeps it so: every byte of the event is checked here as
 * nd_fields() checks it.
 */
#include <stdint.h>
#include <string.h>

#include "nd.h"
#include "utf8.h"

#include "trace2spans.h"

#define FAST_DEPTH 32

struct fscan {
	const unsigned char *p, *end;
	unsigned long lines;
	int depth;
	int more;		/* it stopped at the end of the bytes */
};

/* ASCII but controls, '"' and '\\': a string's bytes that need no look. */
static const unsigned char str_plain[256] = {
	[' '] = 1, ['!'] = 1, ['#'] = 1, ['$'] = 1, ['%'] = 1, ['&'] = 1,
	['\''] = 1, ['('] = 1, [')'] = 1, ['*'] = 1, ['+'] = 1, [','] = 1,
	['-'] = 1, ['.'] = 1, ['/'] = 1, ['0'] = 1, ['1'] = 1, ['2'] = 1,
	['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1,
	['9'] = 1, [':'] = 1, [';'] = 1, ['<'] = 1, ['='] = 1, ['>'] = 1,
	['?'] = 1, ['@'] = 1, ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1,
	['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1, ['J'] = 1,
	['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1,
	['Q'] = 1, ['R'] = 1, ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1,
	['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1, ['['] = 1, [']'] = 1,
	['^'] = 1, ['_'] = 1, ['`'] = 1, ['a'] = 1, ['b'] = 1, ['c'] = 1,
	['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1,
	['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1,
	['p'] = 1, ['q'] = 1, ['r'] = 1, ['s'] = 1, ['t'] = 1, ['u'] = 1,
	['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1, ['{'] = 1,
	['|'] = 1, ['}'] = 1, ['~'] = 1, [0x7f] = 1,
};

/* Gives up: at the end of the bytes, more input may help. */
static int
more(struct fscan *s)
{
	s->more = 1;
	return -1;
}

/* Skips white space, counting newlines; -1 at the end of the bytes. */
static int
ws_more(struct fscan *s)
{
	const unsigned char *p = s->p;

	for (; p < s->end; p++) {
		if (*p == '\n')
			s->lines++;
		else if (*p != ' ' && *p != '\t' && *p != '\r')
			break;
	}
	s->p = p;
	return p < s->end ? 0 : more(s);
}

/* ws_more(), inline for the usual cases: no white space, or one space. */
static inline int
ws(struct fscan *s)
{
	const unsigned char *p = s->p;

	if (s->end - p >= 2) {
		if (p[0] > ' ')
			return 0;
		if (p[0] == ' ' && p[1] > ' ') {
			s->p = p + 1;
			return 0;
		}
	}
	return ws_more(s);
}

/*
 * The high bit of each byte of the 8 at p that stops a string's plain
 * run: a quote, a backslash, a control byte, a byte >= 0x80.  The bits
 * above the lowest can be wrong (borrows), the lowest is right.
 */
static inline uint64_t
str_stops(const unsigned char *p)
{
	const uint64_t ones = 0x0101010101010101ULL;
	uint64_t w, q, b;

	memcpy(&w, p, 8);
	q = w ^ (ones * '"');
	b = w ^ (ones * '\\');
	return (((q - ones) & ~q) | ((b - ones) & ~b) |
	    ((w - ones * 0x20) & ~w) | w) & (ones * 0x80);
}

/* Moves p to the first byte that stops a string's plain run, or end. */
static inline const unsigned char *
str_run(const unsigned char *p, const unsigned char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t m;

	for (; end - p >= 8; p += 8)
		if ((m = str_stops(p)) != 0)
			return p + (__builtin_ctzll(m) >> 3);
#endif
	while (p < end && str_plain[*p])
		p++;
	return p;
}

/* A string without escapes; s->p is at its opening quote. */
static int
string(struct fscan *s)
{
	const unsigned char *p = s->p + 1, *end = s->end;
	size_t n;

	for (;;) {
		p = str_run(p, end);
		if (p >= end)
			return more(s);
		if (*p == '"')
			break;
		if (*p < 0x80)		/* a backslash or a control byte */
			return -1;
		if ((n = utf8_len(p, (size_t)(end - p))) == 0)
			return -1;
		p += n;
	}
	s->p = p + 1;
	return 0;
}

static int
digits(struct fscan *s, const unsigned char **pp)
{
	const unsigned char *p = *pp;

	if (p >= s->end)
		return more(s);
	if (*p < '0' || *p > '9')
		return -1;
	while (p < s->end && *p >= '0' && *p <= '9')
		p++;
	*pp = p;
	return 0;
}

/* A number by RFC 8259's grammar; it must be followed by a byte. */
static int
number(struct fscan *s)
{
	const unsigned char *p = s->p;

	if (*p == '-')
		p++;
	if (p < s->end && *p == '0')
		p++;
	else if (digits(s, &p) != 0)
		return -1;
	if (p < s->end && *p == '.') {
		p++;
		if (digits(s, &p) != 0)
			return -1;
	}
	if (p < s->end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < s->end && (*p == '+' || *p == '-'))
			p++;
		if (digits(s, &p) != 0)
			return -1;
	}
	if (p >= s->end)
		return more(s);
	s->p = p;
	return 0;
}

static int
literal(struct fscan *s, const char *word, size_t n)
{
	if ((size_t)(s->end - s->p) < n)
		return more(s);
	if (memcmp(s->p, word, n) != 0)
		return -1;
	s->p += n;
	return 0;
}

static int value(struct fscan *s);

/* The members of an object or the elements of an array, at s->p. */
static int
members(struct fscan *s, int obj)
{
	unsigned char close = obj ? '}' : ']';

	s->p++;
	if (ws(s) != 0)
		return -1;
	if (*s->p == close) {
		s->p++;
		return 0;
	}
	for (;;) {
		if (obj) {
			if (*s->p != '"' || string(s) != 0 || ws(s) != 0)
				return -1;
			if (*s->p != ':')
				return -1;
			s->p++;
			if (ws(s) != 0)
				return -1;
		}
		if (value(s) != 0 || ws(s) != 0)
			return -1;
		if (*s->p == close) {
			s->p++;
			return 0;
		}
		if (*s->p != ',')
			return -1;
		s->p++;
		if (ws(s) != 0)
			return -1;
	}
}

/* One value at s->p (white space skipped). */
static int
value(struct fscan *s)
{
	int rc;

	switch (*s->p) {
	case '"':
		return string(s);
	case '{': case '[':
		if (++s->depth > FAST_DEPTH)
			return -1;
		rc = members(s, *s->p == '{');
		s->depth--;
		return rc;
	case 't':
		return literal(s, "true", 4);
	case 'f':
		return literal(s, "false", 5);
	case 'n':
		return literal(s, "null", 4);
	default:
		return number(s);
	}
}

/* The K_ index of an event's key (its bytes between the quotes), or -1. */
static int
key_index(const unsigned char *k, size_t n)
{
	switch (n) {
	case 2:
		if (k[0] == 'p' && k[1] == 'h')
			return K_PH;
		if (k[0] == 't' && k[1] == 's')
			return K_TS;
		if (k[0] == 'i' && k[1] == 'd')
			return K_ID;
		break;
	case 3:
		if (memcmp(k, "pid", 3) == 0)
			return K_PID;
		if (memcmp(k, "tid", 3) == 0)
			return K_TID;
		if (memcmp(k, "dur", 3) == 0)
			return K_DUR;
		if (memcmp(k, "cat", 3) == 0)
			return K_CAT;
		if (memcmp(k, "id2", 3) == 0)
			return K_ID2;
		break;
	case 4:
		if (memcmp(k, "name", 4) == 0)
			return K_NAME;
		if (memcmp(k, "args", 4) == 0)
			return K_ARGS;
		break;
	}
	return -1;
}

/* One member of the event: its value goes to v[] when it is wanted. */
static int
event_member(struct fscan *s, struct nd_slice v[])
{
	const unsigned char *k = s->p + 1, *val;
	int i;

	if (*s->p != '"' || string(s) != 0)
		return -1;
	i = key_index(k, (size_t)(s->p - 1 - k));
	if (ws(s) != 0 || *s->p != ':')
		return -1;
	s->p++;
	if (ws(s) != 0)
		return -1;
	val = s->p;
	if (value(s) != 0)
		return -1;
	if (i >= 0) {		/* the last of a repeated key wins */
		v[i].p = (const char *)val;
		v[i].len = (size_t)(s->p - val);
	}
	return ws(s);
}

ssize_t
fast_event(const char *buf, size_t n, struct nd_slice v[],
    unsigned long *lines)
{
	struct fscan s = { (const unsigned char *)buf,
	    (const unsigned char *)buf + n, 0, 1, 0 };
	int i;

	for (i = 0; i < K_N; i++)
		v[i].p = NULL, v[i].len = 0;
	s.p++;			/* the '{' */
	if (ws(&s) != 0)
		return FAST_MORE;
	if (*s.p != '}')
		for (;;) {
			if (event_member(&s, v) != 0)
				return s.more ? FAST_MORE : FAST_SLOW;
			if (*s.p == '}')
				break;
			if (*s.p != ',')
				return FAST_SLOW;
			s.p++;
			if (ws(&s) != 0)
				return FAST_MORE;
		}
	*lines = s.lines;
	return (ssize_t)(s.p + 1 - (const unsigned char *)buf);
}
