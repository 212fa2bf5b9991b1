/*
 * hmap.h: a string-keyed hash map with open addressing (linear probing).
 *
 * Keys are copied into the map's arena and live until hmap_release(); the
 * values are the caller's (the map never frees them).  A value slot is valid
 * until the next hmap_put().  Entries are kept in insertion order, so hmap_foreach() gives deterministic output.
 */
#ifndef HMAP_H
#define HMAP_H

#include <stddef.h>
#include <stdint.h>

#include "arena.h"

struct hmap_ent {
	const char *key;	/* NUL-terminated copy; may contain NULs */
	size_t len;
	uint64_t hash;
	void *val;
};

struct hmap {
	struct hmap_ent *ents;	/* insertion order */
	size_t n, alloc;
	uint32_t *idx;		/* 0 = empty, else ents index + 1 */
	size_t cap;		/* power of two */
	struct arena keys;
};

void hmap_init(struct hmap *h, size_t hint);
void hmap_release(struct hmap *h);
/* Returns the value slot for key, or NULL when the key is absent. */
void **hmap_get(struct hmap *h, const char *key, size_t len);
/* Returns the value slot for key, adding the key (value NULL) if absent. */
void **hmap_put(struct hmap *h, const char *key, size_t len);
/* Like hmap_put; *isnew tells whether the key was added. */
void **hmap_put2(struct hmap *h, const char *key, size_t len, int *isnew);
/* The one string hash of the library (ctree uses it too). */
uint64_t hmap_hash(const char *key, size_t len);

/* An empty map has no entries array: ents + 0 would be NULL + 0. */
#define hmap_foreach(h, e) \
	for ((e) = (h)->ents; (e) != NULL && (e) < (h)->ents + (h)->n; (e)++)

#endif
