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
/*
 * n zeroed bytes for a big table probed at random (a hash index): from
 * 4 MiB on, aligned to and asking for 2 MiB huge pages, which saves TLB
 * misses.  It is free()d as any other block.
 */
void *xcalloc_table(size_t n);

/*
 * Grow-arrays.  An array p with room for *alloc elements of size bytes is
 * made to hold need of them: the room doubles (from 16) until it does,
 * and xgrow() returns the moved p with *alloc updated.  xgrow_room() is
 * the room alone, for arrays that grow side by side.  The usual call:
 *
 *	XGROW(v, n + 1, alloc);
 *	v[n++] = x;
 */
size_t xgrow_room(size_t alloc, size_t need);
void *xgrow(void *p, size_t *alloc, size_t need, size_t size);
#define XGROW(p, need, alloc) do {					\
	if ((need) > (alloc))						\
		(p) = xgrow((p), &(alloc), (need), sizeof(*(p)));	\
} while (0)

#endif
