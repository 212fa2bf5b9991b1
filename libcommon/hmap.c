/* hmap.c: a string-keyed hash map with open addressing. */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hmap.h"

uint64_t
hmap_hash(const char *key, size_t len)
{
	/* FNV-1a, 64 bits, with a final mix so low bits are usable. */
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)key[i];
		h *= 0x100000001b3ULL;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}

void
hmap_init(struct hmap *h, size_t hint)
{
	h->n = 0;
	h->alloc = 0;
	h->ents = NULL;
	h->cap = 16;
	while (h->cap < hint * 2)
		h->cap *= 2;
	h->idx = calloc(h->cap, sizeof(*h->idx));
	if (h->idx == NULL)
		die("out of memory");
	arena_init(&h->keys, 0);
}

void
hmap_release(struct hmap *h)
{
	free(h->ents);
	free(h->idx);
	arena_release(&h->keys);
	h->ents = NULL;
	h->idx = NULL;
	h->n = h->alloc = h->cap = 0;
}

static size_t
find(const struct hmap *h, const char *key, size_t len, uint64_t hash)
{
	size_t mask = h->cap - 1, i = hash & mask;
	const struct hmap_ent *e;

	for (;; i = (i + 1) & mask) {
		if (h->idx[i] == 0)
			return i;
		e = &h->ents[h->idx[i] - 1];
		if (e->hash == hash && e->len == len &&
		    memcmp(e->key, key, len) == 0)
			return i;
	}
}

static void
grow(struct hmap *h)
{
	size_t i, j, mask;
	uint32_t *idx;

	mask = h->cap * 2 - 1;
	idx = calloc(h->cap * 2, sizeof(*idx));
	if (idx == NULL)
		die("out of memory");
	for (i = 0; i < h->n; i++) {
		for (j = h->ents[i].hash & mask; idx[j] != 0; j = (j + 1) & mask)
			;
		idx[j] = (uint32_t)(i + 1);
	}
	free(h->idx);
	h->idx = idx;
	h->cap *= 2;
}

void **
hmap_get(struct hmap *h, const char *key, size_t len)
{
	size_t i = find(h, key, len, hmap_hash(key, len));

	return h->idx[i] == 0 ? NULL : &h->ents[h->idx[i] - 1].val;
}

void **
hmap_put2(struct hmap *h, const char *key, size_t len, int *isnew)
{
	uint64_t hash = hmap_hash(key, len);
	size_t i = find(h, key, len, hash);
	struct hmap_ent *e;

	*isnew = 0;
	if (h->idx[i] != 0)
		return &h->ents[h->idx[i] - 1].val;
	if (h->n >= UINT32_MAX - 1)
		die("out of memory");
	if (h->n == h->alloc) {
		h->alloc = h->alloc ? h->alloc * 2 : 16;
		h->ents = realloc(h->ents, h->alloc * sizeof(*h->ents));
		if (h->ents == NULL)
			die("out of memory");
	}
	e = &h->ents[h->n++];
	e->key = arena_strndup(&h->keys, key, len);
	e->len = len;
	e->hash = hash;
	e->val = NULL;
	h->idx[i] = (uint32_t)h->n;
	*isnew = 1;
	if (h->n * 2 > h->cap) {
		grow(h);
		return &h->ents[h->n - 1].val;
	}
	return &e->val;
}

void **
hmap_put(struct hmap *h, const char *key, size_t len)
{
	int isnew;

	return hmap_put2(h, key, len, &isnew);
}
