/*
 * html.h: writing self-contained HTML pages.
 *
 * The hand-written files in assets/ are embedded at build time: for
 * assets/flame.js the build defines asset_flame_js[] and asset_flame_js_len
 * (see assets.h, generated).  Text goes through html_text(); JSON data
 * goes inside <script type="application/json"> written by ndw with
 * NDW_HTML_SAFE, so no data can close the element; the page's script reads
 * it with JSON.parse(el.textContent).  The embed step refuses an asset that
 * contains "</script" or "</style".
 */
#ifndef HTML_H
#define HTML_H

#include <stddef.h>
#include <stdio.h>

/*
 * Writes s with & < > " ' as entities, for element text or a quoted
 * attribute value.  Invalid UTF-8 bytes and control characters other than
 * tab, newline and carriage return are written as U+FFFD.
 */
void html_text(FILE *fp, const char *s, size_t len);
void html_textz(FILE *fp, const char *s);
/* Writes an embedded asset inside <script> or <style> as it is. */
void html_asset(FILE *fp, const char *data, size_t len);

/*
 * The skeleton every page of the toolkit shares: html_page_head() writes
 * the doctype, the head (charset, the line meta, the title, the style
 * sheet css) and opens the body; html_page_foot() writes the script js
 * and closes the page.  meta is one whole head line ("<meta ...>\n") or
 * NULL; the page's own markup and data go in between.
 */
struct html_page {
	const char *title;
	const char *meta;
	const char *css, *js;
	size_t css_len, js_len;
};

void html_page_head(FILE *fp, const struct html_page *pg);
void html_page_foot(FILE *fp, const struct html_page *pg);

#endif
