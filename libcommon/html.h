/*
 * html.h: writing self-contained HTML pages.
 *
 * The hand-written files in assets/ are embedded at build time: for
 * assets/flame.js the build defines asset_flame_js[] and asset_flame_js_len
 * (see assets.h, generated).  Text goes through html_text(); JSON data
 * goes inside <script type="application/json"> written by ndw with
 * NDW_HTML_SAFE, so no data can close the element.
 */
#ifndef HTML_H
#define HTML_H

#include <stddef.h>
#include <stdio.h>

/* Writes s with & < > " ' escaped, for element text or attribute values. */
void html_text(FILE *fp, const char *s, size_t len);
/* Writes an embedded asset inside <script> or <style> as it is. */
void html_asset(FILE *fp, const char *data, size_t len);

#endif
