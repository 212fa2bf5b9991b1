/*
 * spool.h: puts unsorted spans in order (start ascending, end descending,
 * input order for full ties) per thread, in bounded memory.
 *
 * Spans are kept in memory per thread, room for SPOOL_CAP in all; then every
 * thread's spans are sorted and written as one run to a temporary file
 * (deleted at once; in $TMPDIR, else /tmp), 24 bytes a span.  At the end
 * of an input each thread's runs and the spans still in memory are merged
 * and handed to the tree in order, so memory holds SPOOL_CAP spans, as
 * many for sorting, and a 32 kB buffer per run, whatever the input size.
 * A thread's room and the room for sorting are kept from run to run (a
 * thread that used less than half of its room gives it back), so that
 * memory is not handed back to the system and faulted in again each run.
 */
#ifndef SPOOL_H
#define SPOOL_H

#include <stddef.h>
#include <stdint.h>

#include "stacks.h"

#define SPOOL_CAP ((size_t)1 << 18)

struct spool_run {
	uint64_t off;			/* in the temporary file, in spans */
	size_t n;
};

struct spool_thr {
	struct thread *th;
	struct bspan *buf;
	size_t n, alloc;
	int sorted;			/* buf is in order so far */
	struct spool_run *runs;
	size_t nruns;
};

struct spool {
	struct spool_thr *thr;		/* by thread->spool - 1 */
	size_t nthr, thr_alloc;
	size_t held;			/* room for spans allocated */
	struct bspan *tmp;		/* room for sorting, */
	size_t tmp_alloc;		/* in spans */
	int fd;				/* the temporary file, or -1 */
	uint64_t fspans;		/* spans written to it */
};

void spool_init(struct spool *sp);
/* Keeps one span of thread th. */
void spool_add(struct spool *sp, struct thread *th, const struct bspan *s);
/* Gives the tree every kept span in order, thread by thread; empties sp. */
void spool_drain(struct spool *sp, struct tree *t);
void spool_release(struct spool *sp);

#endif
