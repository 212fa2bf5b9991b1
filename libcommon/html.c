/* html.c: escaping text for HTML pages and writing embedded assets. */
#include <string.h>

#include "html.h"
#include "utf8.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

static const char *
entity(unsigned char c)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '"':
		return "&quot;";
	case '\'':
		return "&#39;";
	}
	return NULL;
}

/*
 * Bytes that need work: the five specials, control characters other than
 * tab, newline and carriage return (HTML forbids them; they are written
 * as U+FFFD), and every byte above 0x7f (checked as UTF-8).
 */
static int
special(unsigned char c)
{
	return entity(c) != NULL || c >= 0x80 ||
	    (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
}

void
html_text(FILE *fp, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + len, *run;
	const char *ent;
	size_t n;

	while (p < end) {
		for (run = p; p < end && !special(*p); p++)
			;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), fp);
		if (p == end)
			break;
		if ((ent = entity(*p)) != NULL) {
			fputs(ent, fp);
			p++;
		} else if (*p >= 0x80 &&
		    (n = utf8_len(p, (size_t)(end - p))) > 0) {
			fwrite(p, 1, n, fp);
			p += n;
		} else {
			fputs(REPLACEMENT, fp);
			p++;
		}
	}
}

void
html_textz(FILE *fp, const char *s)
{
	html_text(fp, s, strlen(s));
}

void
html_asset(FILE *fp, const char *data, size_t len)
{
	fwrite(data, 1, len, fp);
}

void
html_page_head(FILE *fp, const struct html_page *pg)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n", fp);
	if (pg->meta != NULL)
		fputs(pg->meta, fp);
	fputs("<title>", fp);
	html_textz(fp, pg->title);
	fputs("</title>\n<style>\n", fp);
	html_asset(fp, pg->css, pg->css_len);
	fputs("</style>\n</head>\n<body>\n", fp);
}

void
html_page_foot(FILE *fp, const struct html_page *pg)
{
	fputs("<script>\n", fp);
	html_asset(fp, pg->js, pg->js_len);
	fputs("</script>\n</body>\n</html>\n", fp);
}
