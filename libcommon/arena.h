/*
 * arena.h: a bump allocator for many small objects freed together.
 *
 * Memory from arena_alloc() lives until arena_reset() or arena_release();
 * nothing is freed one by one.  Allocations are aligned for any type.
 */
#ifndef ARENA_H
#define ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk *head;	/* chunk being filled */
	struct arena_chunk *spare;	/* chunks kept by arena_reset() */
	size_t chunk_size;
};

#define ARENA_INIT { NULL, NULL, 0 }

void arena_init(struct arena *a, size_t chunk_size);
void *arena_alloc(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
/* Frees every allocation but keeps the memory for reuse. */
void arena_reset(struct arena *a);
void arena_release(struct arena *a);

#endif
