/* hmap.c: a string-keyed hash map with open addressing. */
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "hmap.h"
#include "xmem.h"

/*
 * The library's one string hash: eight bytes at a time, the length mixed
 * in first, the last bytes read as one overlapping word (no byte loop),
 * and a full final mix, so that the low bits used as an index depend on
 * every byte (names that differ only near the end of a word would
 * collide without it).
 */
uint64_t
hmap_hash(const char *key, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, v = 0;
	uint32_t lo, hi;
	size_t n = len;

	for (; n > 8; key += 8, n -= 8) {
		memcpy(&v, key, 8);
		h = (h ^ v) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	if (len >= 8)
		memcpy(&v, key + n - 8, 8);
	else if (n >= 4) {
		memcpy(&lo, key, 4);
		memcpy(&hi, key + n - 4, 4);
		v = (uint64_t)hi << 32 | lo;
	} else if (n > 0)
		v = (uint64_t)(unsigned char)key[0] << 16 |
		    (uint64_t)(unsigned char)key[n / 2] << 8 |
		    (unsigned char)key[n - 1];
	h ^= v;
	h ^= h >> 33;			/* MurmurHash3's fmix64 */
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
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
	h->idx = xcalloc(h->cap, sizeof(*h->idx));
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
	idx = xcalloc(h->cap * 2, sizeof(*idx));
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
	XGROW(h->ents, h->n + 1, h->alloc);
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
