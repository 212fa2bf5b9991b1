/* xmem.c: allocation that never fails. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "err.h"
#include "xmem.h"

void *
xmalloc(size_t n)
{
	return xrealloc(NULL, n);
}

void *
xcalloc(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > (size_t)-1 / size)
		die("out of memory");
	if ((p = calloc(n != 0 && size != 0 ? n : 1, size != 0 ? size : 1))
	    == NULL)
		die("out of memory");
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n != 0 ? n : 1)) == NULL)
		die("out of memory");
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > (size_t)-1 / size)
		die("out of memory");
	return xrealloc(p, n * size);
}

void *
xcalloc_table(size_t n)
{
	void *p;

	if (n < (4u << 20))
		return xcalloc(1, n);
	if (posix_memalign(&p, 2u << 20, n) != 0)
		die("out of memory");
#ifdef MADV_HUGEPAGE
	madvise(p, n, MADV_HUGEPAGE);
#endif
	memset(p, 0, n);
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

size_t
xgrow_room(size_t alloc, size_t need)
{
	size_t n = alloc != 0 ? alloc : 16;

	while (n < need) {
		if (n > (size_t)-1 / 2)
			die("out of memory");
		n *= 2;
	}
	return n;
}

void *
xgrow(void *p, size_t *alloc, size_t need, size_t size)
{
	if (need <= *alloc)
		return p;
	*alloc = xgrow_room(*alloc, need);
	return xreallocarray(p, *alloc, size);
}
