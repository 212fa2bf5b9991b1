/*
 * xmem.h: allocation that never fails.
 *
 * Each function dies with "out of memory" (err.h) instead of returning
 * NULL, and never returns NULL: a request for 0 bytes gets 1.  What they
 * return is the caller's, to free().
 */
#ifndef XMEM_H
#define XMEM_H

#include <stddef.h>

void *xmalloc(size_t n);
/* n zeroed elements of size bytes; dies if n * size overflows. */
void *xcalloc(size_t n, size_t size);
/* Resizes p (NULL: a new block) to n bytes. */
void *xrealloc(void *p, size_t n);
/* Resizes p to n elements of size bytes; dies if n * size overflows. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);

#endif
