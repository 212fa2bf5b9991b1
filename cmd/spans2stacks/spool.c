/* spool.c: unsorted spans put in order per thread, in bounded memory. */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "spool.h"
#include "strbuf.h"
#include "xmem.h"

/* Spans a run reader holds at a time (32 kB). */
#define RD_SPANS (32768 / sizeof(struct bspan))

void
spool_init(struct spool *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->fd = -1;
#ifdef M_MMAP_THRESHOLD
	/*
	 * Buffers of megabytes come and go with every run.  glibc raises its
	 * mmap threshold to the size of each one freed, and the next ones
	 * then come from the heap, which fragments: memory would creep up
	 * with the number of runs.  A fixed threshold keeps them mmapped.
	 */
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}

static void
tmp_open(struct spool *sp)
{
	struct strbuf path = STRBUF_INIT;
	const char *dir = getenv("TMPDIR");

	strbuf_addf(&path, "%s/spans2stacks.XXXXXX",
	    dir != NULL && *dir != '\0' ? dir : "/tmp");
	if ((sp->fd = mkstemp(path.buf)) < 0)
		die_errno("cannot create a temporary file in '%.*s'",
		    (int)(path.len - 20), path.buf);
	unlink(path.buf);
	strbuf_release(&path);
}

static void
tmp_write(struct spool *sp, const struct bspan *s, size_t n)
{
	const char *p = (const char *)s;
	size_t left = n * sizeof(*s);
	ssize_t k;

	while (left > 0) {
		if ((k = write(sp->fd, p, left)) < 0) {
			if (errno == EINTR)
				continue;
			die_errno("cannot write the temporary file");
		}
		p += k;
		left -= (size_t)k;
	}
	sp->fspans += n;
}

/* Sorts a thread's spans in memory, through room kept for it. */
static void
sort_thr(struct spool *sp, struct spool_thr *st)
{
	if (st->sorted || st->n <= 1)
		return;
	if (sp->tmp_alloc < st->n) {
		free(sp->tmp);
		sp->tmp = xreallocarray(NULL, st->n, sizeof(*sp->tmp));
		sp->tmp_alloc = st->n;
	}
	spans_sort_in(st->buf, st->n, sp->tmp);
}

/* Gives the room of a thread back. */
static void
thr_free(struct spool *sp, struct spool_thr *st)
{
	free(st->buf);
	st->buf = NULL;
	sp->held -= st->alloc;
	st->alloc = 0;
}

/*
 * Sorts every thread's spans in memory and writes each as a run.  A
 * thread keeps its room for the next run unless it used half of it or
 * less.
 */
static void
spill(struct spool *sp)
{
	struct spool_thr *st;
	size_t i;

	if (sp->fd < 0)
		tmp_open(sp);
	for (i = 0; i < sp->nthr; i++) {
		st = &sp->thr[i];
		if (st->n > 0) {
			sort_thr(sp, st);
			st->runs = xreallocarray(st->runs, st->nruns + 1,
			    sizeof(*st->runs));
			st->runs[st->nruns].off = sp->fspans;
			st->runs[st->nruns++].n = st->n;
			tmp_write(sp, st->buf, st->n);
		}
		if (st->n <= st->alloc / 2)
			thr_free(sp, st);
		st->n = 0;
		st->sorted = 1;
	}
}

static struct spool_thr *
thr_of(struct spool *sp, struct thread *th)
{
	if (th->spool == 0) {
		XGROW(sp->thr, sp->nthr + 1, sp->thr_alloc);
		memset(&sp->thr[sp->nthr], 0, sizeof(sp->thr[0]));
		sp->thr[sp->nthr].th = th;
		sp->thr[sp->nthr].sorted = 1;
		th->spool = ++sp->nthr;
	}
	return &sp->thr[th->spool - 1];
}

/* Makes room for one more span of st (which is full). */
static void
thr_grow(struct spool *sp, struct spool_thr *st)
{
	size_t grow = st->alloc ? st->alloc : 64, i;

	/* What is allocated, not only what is held, stays in bound. */
	if (sp->held + grow > SPOOL_CAP) {
		spill(sp);
		if (st->n < st->alloc)	/* its room is empty now */
			return;
		grow = 64;
		/* Every room is empty: all go back if that is needed. */
		for (i = 0; sp->held + grow > SPOOL_CAP && i < sp->nthr; i++)
			thr_free(sp, &sp->thr[i]);
	}
	st->alloc += grow;
	st->buf = xreallocarray(st->buf, st->alloc, sizeof(*st->buf));
	sp->held += grow;
}

void
spool_add(struct spool *sp, struct thread *th, const struct bspan *s)
{
	struct spool_thr *st = thr_of(sp, th);

	if (st->n > 0 && span_before(s, &st->buf[st->n - 1]))
		st->sorted = 0;
	if (st->n == st->alloc)
		thr_grow(sp, st);
	st->buf[st->n++] = *s;
}

/* A reader of one run (or of the spans in memory: off is unused). */
struct rd {
	struct bspan *buf;
	size_t pos, len;
	uint64_t off, left;		/* the rest of the run in the file */
	size_t ord;			/* runs in file order, memory last */
};

static int
rd_fill(struct spool *sp, struct rd *r)
{
	size_t want = r->left < RD_SPANS ? (size_t)r->left : RD_SPANS;
	size_t got = 0, bytes = want * sizeof(struct bspan);
	ssize_t k;

	if (want == 0)
		return 0;
	while (got < bytes) {
		k = pread(sp->fd, (char *)r->buf + got, bytes - got,
		    (off_t)(r->off * sizeof(struct bspan) + got));
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			die_errno("cannot read the temporary file");
		got += (size_t)k;
	}
	r->off += want;
	r->left -= want;
	r->pos = 0;
	r->len = want;
	return 1;
}

/* Reader a's head comes first (a tie goes to the earlier run). */
static int
rd_less(const struct rd *a, const struct rd *b)
{
	const struct bspan *x = &a->buf[a->pos], *y = &b->buf[b->pos];

	if (x->start != y->start)
		return x->start < y->start;
	if (x->end != y->end)
		return x->end > y->end;
	return a->ord < b->ord;
}

static void
sift(struct rd **h, size_t n, size_t i)
{
	struct rd *x = h[i];
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && rd_less(h[c + 1], h[c]))
			c++;
		if (!rd_less(h[c], x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* Merges a thread's runs and its spans in memory into the tree. */
static void
merge_runs(struct spool *sp, struct spool_thr *st, struct tree *t)
{
	size_t k = st->nruns + (st->n > 0), n = 0, i;
	struct rd *rd = xcalloc(k, sizeof(*rd));
	struct rd **h = xcalloc(k, sizeof(*h));

	for (i = 0; i < st->nruns; i++) {
		rd[i].buf = xreallocarray(NULL, RD_SPANS, sizeof(*rd[i].buf));
		rd[i].off = st->runs[i].off;
		rd[i].left = st->runs[i].n;
		rd[i].ord = i;
		if (rd_fill(sp, &rd[i]))
			h[n++] = &rd[i];
	}
	if (st->n > 0) {
		rd[i].buf = st->buf;
		rd[i].len = st->n;
		rd[i].ord = i;
		h[n++] = &rd[i];
	}
	for (i = n; i-- > 0;)
		sift(h, n, i);
	while (n > 0) {
		tree_span(t, st->th, &h[0]->buf[h[0]->pos], 0);
		if (++h[0]->pos == h[0]->len && (h[0]->buf == st->buf ||
		    !rd_fill(sp, h[0])))
			h[0] = h[--n];
		if (n > 0)
			sift(h, n, 0);
	}
	for (i = 0; i < st->nruns; i++)
		free(rd[i].buf);
	free(rd);
	free(h);
}

void
spool_drain(struct spool *sp, struct tree *t)
{
	struct spool_thr *st;
	size_t i, j;

	for (i = 0; i < t->nthr; i++) {
		if (t->thr[i]->spool == 0)
			continue;
		st = &sp->thr[t->thr[i]->spool - 1];
		t->thr[i]->spool = 0;
		sort_thr(sp, st);
		if (st->nruns == 0)
			for (j = 0; j < st->n; j++)
				tree_span(t, st->th, &st->buf[j], 0);
		else
			merge_runs(sp, st, t);
		free(st->buf);
		free(st->runs);
	}
	free(sp->thr);
	free(sp->tmp);
	if (sp->fd >= 0)
		close(sp->fd);
	spool_init(sp);
}

void
spool_release(struct spool *sp)
{
	size_t i;

	for (i = 0; i < sp->nthr; i++) {
		free(sp->thr[i].buf);
		free(sp->thr[i].runs);
	}
	free(sp->thr);
	free(sp->tmp);
	if (sp->fd >= 0)
		close(sp->fd);
}
