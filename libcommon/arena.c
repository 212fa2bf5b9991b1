/* arena.c: a bump allocator. */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "err.h"
#include "xmem.h"

struct arena_chunk {
	struct arena_chunk *next;
	size_t size, used;
	alignas(max_align_t) unsigned char data[];
};

#define ALIGN (alignof(max_align_t))

void
arena_init(struct arena *a, size_t chunk_size)
{
	a->head = a->spare = NULL;
	a->chunk_size = chunk_size > 0 ? chunk_size : 64 * 1024;
}

static struct arena_chunk *
chunk_new(size_t size)
{
	struct arena_chunk *c;

	c = xmalloc(sizeof(*c) + size);
	c->size = size;
	c->used = 0;
	c->next = NULL;
	return c;
}

void *
arena_alloc(struct arena *a, size_t n)
{
	struct arena_chunk *c;
	size_t size;

	if (a->chunk_size == 0)
		arena_init(a, 0);
	n = (n + ALIGN - 1) & ~(ALIGN - 1);
	if (n == 0)
		n = ALIGN;
	c = a->head;
	if (c == NULL || c->size - c->used < n) {
		if (a->spare != NULL && a->spare->size >= n) {
			c = a->spare;
			a->spare = c->next;
			c->used = 0;
		} else {
			if (n > (size_t)-1 / 2)
				die("out of memory");
			size = n > a->chunk_size ? n : a->chunk_size;
			c = chunk_new(size);
		}
		c->next = a->head;
		a->head = c;
	}
	c->used += n;
	return c->data + c->used - n;
}

char *
arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void
arena_reset(struct arena *a)
{
	struct arena_chunk *c, *next;

	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		c->used = 0;
		c->next = a->spare;
		a->spare = c;
	}
	a->head = NULL;
}

static void
chain_free(struct arena_chunk *c)
{
	struct arena_chunk *next;

	for (; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
}

void
arena_release(struct arena *a)
{
	chain_free(a->head);
	chain_free(a->spare);
	a->head = a->spare = NULL;
}
