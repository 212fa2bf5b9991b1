/*
 * pmc2ndjson: writes one NDJSON record per kernel dispatch from
 * rocprof-compute workload directories (every generation), rocprofv3 and
 * rocpd counter CSV and Nsight Compute CSV, after the workload's sysinfo
 * and roofline records.
 *
 * Cells are copied as written (numbers stay text), the accumulate files
 * SQ*.csv are joined by row position as rocprof-compute does, and every
 * file is read a row at a time, so memory does not grow with the number of
 * dispatches.  The stream is described in docs/formats.md.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "jqf.h"
#include "ndw.h"
#include "ofile.h"
#include "opt.h"
#include "pmc.h"
#include "progress.h"
#include "sniff.h"
#include "spool.h"
#include "strbuf.h"
#include "xmem.h"

#define MAX_DEPTH 16

/* An accumulate file, read in step with pmc_perf.csv. */
struct side {
	char *path, *stem;
	struct csvr r;
	struct hdr h;
	struct csvr_row row;
	unsigned long rows;	/* data rows read */
	int ended;
};

static struct opt_common opt = OPT_COMMON_INIT;

static const struct opt_help help[] = {
	{ "-c, --columns LIST", "write only these columns of the dispatch "
	    "records" },
	{ "--label NAME", "write \"run\":NAME in every record" },
	{ NULL, NULL }
};

static void
usage(int rc)
{
	FILE *fp = rc == EXIT_SUCCESS ? stdout : stderr;

	fprintf(fp, "usage: pmc2ndjson [-h] [-c list] [--label name] "
	    "[--no-progress] [-o file] [--progress] [--strict] [--version] "
	    "[--where expr] [path ...]\n");
	if (rc == EXIT_SUCCESS)
		opt_help(stdout, help);
	exit(rc);
}

/* -c: the comma-separated names of the columns to write. */
static void
parse_columns(struct pmc *pm, const char *arg)
{
	static struct hmap cols;
	const char *e;

	if (pm->columns == NULL) {
		hmap_init(&cols, 16);
		pm->columns = &cols;
	}
	for (; *arg != '\0'; arg = *e != '\0' ? e + 1 : e) {
		e = strchr(arg, ',');
		if (e == NULL)
			e = arg + strlen(arg);
		if (e > arg)
			*hmap_put(&cols, arg, (size_t)(e - arg)) = &cols;
	}
}

/* Sets out to dir/base.csv or dir/base.csv.gz, whichever exists. */
static int
find_file(const char *dir, const char *base, struct strbuf *out)
{
	strbuf_reset(out);
	strbuf_addf(out, "%s/%s.csv", dir, base);
	if (access(out->buf, F_OK) == 0)
		return 0;
	strbuf_addstr(out, ".gz");
	return access(out->buf, F_OK) == 0 ? 0 : -1;
}

/* Opens path and reads its header.  Returns 1, 0 when empty, -1 on error. */
static int
open_table(struct pmc *pm, struct csvr *r, struct hdr *h, const char *path,
    int textcols)
{
	struct csvr_row row;
	const char *dup;
	int rc;

	if (csvr_open(r, path) != 0) {
		warn_errno("cannot open '%s'", path);
		return -1;
	}
	if ((rc = next_row(r, &row)) <= 0) {
		if (rc < 0)
			warn_at(&r->pos, "%s", csvr_error(r));
		csvr_close(r);
		return rc;
	}
	if (hdr_init(pm, h, &row, textcols, &dup) != 0) {
		warn_at(&r->pos, "duplicate column '%s'", dup);
		hdr_release(h);
		csvr_close(r);
		return -1;
	}
	return 1;
}

/* Writes {"type":type, ...} for every row of a metadata file. */
static void
meta_stream(struct pmc *pm, const char *path, const char *type)
{
	struct csvr r;
	struct hdr h;
	struct csvr_row row;
	struct strbuf rec = STRBUF_INIT;
	size_t i;
	long name;
	int rc;

	if ((rc = open_table(pm, &r, &h, path, 0)) <= 0) {
		if (rc < 0)
			pm->rc = EXIT_FAILURE;
		return;
	}
	name = strcmp(type, "sysinfo") == 0 && pm->label == NULL ?
	    hdr_find(&h, "workload_name") : -1;
	while ((rc = next_row(&r, &row)) != 0) {
		if (!row_ok(pm, &r, rc, &row, h.n, h.n))
			continue;
		if (name >= 0 && row.len[name] > 0)
			set_run(pm, row.f[name], row.len[name]);
		strbuf_reset(&rec);
		rec_begin(pm, &rec, type);
		for (i = 0; i < h.n; i++) {
			strbuf_add(&rec, h.key[i], h.keylen[i]);
			put_cell(&rec, row.f[i], row.len[i], CELL_ANY);
		}
		strbuf_addch(&rec, '}');
		emit(pm, &rec);
	}
	strbuf_release(&rec);
	hdr_release(&h);
	csvr_close(&r);
}

/*
 * Appends row's cells under h to rec (the first without its comma when
 * first is set); reports a non-number.  This is the inner loop of the
 * program: the room for a row of numbers is made once, and keys and
 * numbers are copied straight in; text cells go through put_cell().
 */
static int
put_row(struct pmc *pm, struct strbuf *rec, const struct hdr *h,
    const struct csvr_row *row, const struct srcpos *pos, int first)
{
	size_t i, need = h->keysum + 8;
	char *p;

	for (i = 0; i < h->n; i++)
		need += row->len[i] + 4;	/* "null" for an empty cell */
	strbuf_grow(rec, need);
	p = rec->buf + rec->len;
	for (i = 0; i < h->n; i++) {
		if (!h->keep[i])
			continue;
		memcpy(p, h->key[i] + first, h->keylen[i] - first);
		p += h->keylen[i] - first;
		first = 0;
		if (row->len[i] > 0 && !h->text[i] &&
		    is_number(row->f[i], row->len[i])) {
			memcpy(p, row->f[i], row->len[i]);
			p += row->len[i];
			continue;
		}
		strbuf_setlen(rec, (size_t)(p - rec->buf));
		if (put_cell(rec, row->f[i], row->len[i],
		    h->text[i] ? CELL_TEXT : CELL_NUM) != 0) {
			bad(pm, pos, "column '%s': '%.40s' is not a number",
			    h->name[i], row->f[i]);
			return 0;
		}
		strbuf_grow(rec, need);
		p = rec->buf + rec->len;
	}
	strbuf_setlen(rec, (size_t)(p - rec->buf));
	return 1;
}

/* Does --columns keep any column of this header? */
static int
keeps_any(const struct hdr *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		if (h->keep[i])
			return 1;
	return 0;
}

/* Reads the accumulate row that goes with the dispatch at pos. */
static int
side_next(struct pmc *pm, struct side *s, const struct srcpos *pos)
{
	int rc;

	if (s->ended) {
		bad(pm, pos,
		    "no row for this dispatch in '%s' (it has %lu rows)",
		    s->path, s->rows);
		return 0;
	}
	if ((rc = next_row(&s->r, &s->row)) == 0) {
		s->ended = 1;
		return side_next(pm, s, pos);
	}
	s->rows++;
	return row_ok(pm, &s->r, rc, &s->row, s->h.n, s->h.n);
}

/* Reports the accumulate rows left after the last dispatch. */
static void
side_drain(struct pmc *pm, struct side *s, unsigned long n, const char *pmcpath)
{
	int rc;

	if (s->ended)
		return;
	while ((rc = next_row(&s->r, &s->row)) != 0)
		if (rc > 0)
			bad(pm, &s->r.pos, "no dispatch for this row in '%s' "
			    "(it has %lu rows)", pmcpath, n);
		else
			bad(pm, &s->r.pos, "%s", csvr_error(&s->r));
}

/* Builds and writes the record of one wide row and its accumulate rows. */
static void
wide_record(struct pmc *pm, struct strbuf *rec, const struct hdr *h,
    const struct csvr_row *row, const struct srcpos *pos,
    struct side *sq, size_t nsq)
{
	long ts = h->ts, te = h->te;
	size_t k, n;

	strbuf_reset(rec);
	rec_begin(pm, rec, "dispatch");
	if (!put_row(pm, rec, h, row, pos, 0))
		return;
	if (ts >= 0 && te >= 0) {
		strbuf_addstr(rec, ",\"dur_ns\":");
		put_diff(rec, row->f[ts], row->len[ts], row->f[te],
		    row->len[te]);
	}
	for (k = n = 0; k < nsq; k++) {
		if (!keeps_any(&sq[k].h))
			continue;
		strbuf_addstr(rec, n++ > 0 ? "," : ",\"blocks\":{");
		ndw_quote(rec, sq[k].stem, strlen(sq[k].stem), 0);
		strbuf_addstr(rec, ":{");
		if (!put_row(pm, rec, &sq[k].h, &sq[k].row, &sq[k].r.pos, 1))
			return;
		strbuf_addch(rec, '}');
	}
	strbuf_addstr(rec, n > 0 ? "}}" : "}");
	emit(pm, rec);
	progress_update(pm->records, 0);
}

/* Joins pmc_perf.csv (r, h) with the accumulate files, row by row. */
static void
wide_stream(struct pmc *pm, struct csvr *r, struct hdr *h, struct side *sq,
    size_t nsq)
{
	struct strbuf rec = STRBUF_INIT;
	struct csvr_row row;
	unsigned long n = 0;
	size_t k;
	int rc, ok;

	while ((rc = next_row(r, &row)) != 0) {
		n++;
		ok = row_ok(pm, r, rc, &row, h->n, h->n);
		for (k = 0; k < nsq; k++)
			if (!side_next(pm, &sq[k], &r->pos))
				ok = 0;
		if (ok)
			wide_record(pm, &rec, h, &row, &r->pos, sq, nsq);
	}
	for (k = 0; k < nsq; k++)
		side_drain(pm, &sq[k], n, r->pos.file);
	strbuf_release(&rec);
}

static int
is_sq_name(const char *name, struct strbuf *stem)
{
	size_t len = strlen(name);

	if (strncmp(name, "SQ", 2) != 0)
		return 0;
	if (len > 4 && strcmp(name + len - 4, ".csv") == 0)
		len -= 4;
	else if (len > 7 && strcmp(name + len - 7, ".csv.gz") == 0)
		len -= 7;
	else
		return 0;
	strbuf_reset(stem);
	strbuf_add(stem, name, len);
	return 1;
}

/* Adds the SQ*.csv files under dir (recursively) to *sq. */
static int
find_sq(const char *dir, int depth, struct side **sq, size_t *nsq,
    size_t *alloc)
{
	struct strbuf path = STRBUF_INIT, stem = STRBUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *d;

	if (depth > MAX_DEPTH || (d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, de->d_name);
		if (stat(path.buf, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			find_sq(path.buf, depth + 1, sq, nsq, alloc);
			continue;
		}
		if (!S_ISREG(st.st_mode) || !is_sq_name(de->d_name, &stem))
			continue;
		XGROW(*sq, *nsq + 1, *alloc);
		memset(&(*sq)[*nsq], 0, sizeof(**sq));
		(*sq)[*nsq].path = xstrdup(path.buf);
		(*sq)[(*nsq)++].stem = xstrdup(stem.buf);
	}
	closedir(d);
	strbuf_release(&path);
	strbuf_release(&stem);
	return 0;
}

static int
side_cmp(const void *a, const void *b)
{
	const struct side *x = a, *y = b;

	return strcmp(x->stem, y->stem);
}

static void
sides_free(struct side *sq, size_t nsq, size_t nopen)
{
	size_t k;

	for (k = 0; k < nsq; k++) {
		if (k < nopen) {
			hdr_release(&sq[k].h);
			csvr_close(&sq[k].r);
		}
		free(sq[k].path);
		free(sq[k].stem);
	}
	free(sq);
}

/* Finds, sorts and opens the accumulate files of dir.  -1: give up. */
static int
open_sides(struct pmc *pm, const char *dir, struct side **sqp, size_t *nsqp)
{
	struct side *sq = NULL;
	size_t nsq = 0, alloc = 0, k;
	int rc;

	find_sq(dir, 0, &sq, &nsq, &alloc);
	if (nsq > 1)
		qsort(sq, nsq, sizeof(*sq), side_cmp);
	for (k = 0; k < nsq; k++)
		if (k > 0 && strcmp(sq[k].stem, sq[k - 1].stem) == 0) {
			warn("'%s': two accumulate files named '%s'", dir,
			    sq[k].stem);
			sides_free(sq, nsq, 0);
			return -1;
		}
	for (k = 0; k < nsq; k++) {
		if ((rc = open_table(pm, &sq[k].r, &sq[k].h, sq[k].path,
		    1)) > 0)
			continue;
		/* Join the others; this one is reported and left out. */
		warn("'%s': %snot joined", sq[k].path, rc == 0 ?
		    "empty file, " : "");
		pm->rc = EXIT_FAILURE;
		free(sq[k].path);
		free(sq[k].stem);
		memmove(&sq[k], &sq[k + 1], (nsq - k - 1) * sizeof(*sq));
		nsq--;
		k--;
	}
	*sqp = sq;
	*nsqp = nsq;
	return 0;
}

/* The wide format: one row per dispatch, joined with SQ*.csv in a
 * workload directory.  It takes any header, so it comes last. */
static int
wide_detect(const struct hdr *h)
{
	(void)h;
	return 1;
}

static void
wide_input(struct pmc *pm, struct csvr *r, struct hdr *h,
    const struct pmc_input *in)
{
	struct side *sq = NULL;
	size_t nsq = 0;

	if (in->dir != NULL && open_sides(pm, in->dir, &sq, &nsq) != 0) {
		pm->rc = EXIT_FAILURE;
		return;
	}
	wide_stream(pm, r, h, sq, nsq);
	sides_free(sq, nsq, nsq);
}

static const struct pmc_format format_wide = {
	.name = "wide",
	.in_dirs = 1,
	.detect = wide_detect,
	.stream = wide_input,
};

/* The formats, tried in this order (see pmc.h). */
static const struct pmc_format *const formats[] = {
	&format_rocpd,
	&format_ncu,
	&format_wide,
	NULL
};

/* Reads the rows of an opened table with the first format that takes it. */
static void
table_stream(struct pmc *pm, struct csvr *r, struct hdr *h,
    const struct pmc_input *in)
{
	const struct pmc_format *const *f;

	for (f = formats; *f != NULL; f++)
		if ((in->dir == NULL || (*f)->in_dirs) && (*f)->detect(h)) {
			(*f)->stream(pm, r, h, in);
			return;
		}
}

/* The default "run" of a workload: its directory's name, until sysinfo. */
static void
dir_run(struct pmc *pm, const char *dir)
{
	size_t len = strlen(dir), b;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (b = len; b > 0 && dir[b - 1] != '/'; b--)
		;
	set_run(pm, dir + b, len - b);
}

/* Reads one workload directory. */
static void
dir_input(struct pmc *pm, const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	struct pmc_input in = { NULL, dir };
	struct csvr r;
	struct hdr h;
	int rc;

	if (pm->label == NULL)
		dir_run(pm, dir);

	if (find_file(dir, "pmc_perf", &path) != 0) {
		warn("'%s': no pmc_perf.csv", dir);
		pm->rc = EXIT_FAILURE;
		goto out;
	}
	if (find_file(dir, "sysinfo", &path) == 0)
		meta_stream(pm, path.buf, "sysinfo");
	else
		warn("'%s': no sysinfo.csv", dir);
	if (find_file(dir, "roofline", &path) == 0)
		meta_stream(pm, path.buf, "roofline");
	find_file(dir, "pmc_perf", &path);
	if ((rc = open_table(pm, &r, &h, path.buf, 1)) <= 0) {
		if (rc < 0)
			pm->rc = EXIT_FAILURE;
		goto out;
	}
	in.path = path.buf;
	table_stream(pm, &r, &h, &in);
	hdr_release(&h);
	csvr_close(&r);
out:
	strbuf_release(&path);
}

/* Reads one CSV file: wide, rocpd long format or Nsight Compute. */
static void
file_input(struct pmc *pm, const char *path)
{
	struct pmc_input in = { NULL, NULL };
	char *spool = NULL;
	struct csvr r;
	struct hdr h;
	int rc;

	if (pm->label == NULL)
		set_run(pm, NULL, 0);
	/* The rocpd long format is read twice: a pipe is copied to a file. */
	if (strcmp(path, "-") == 0 && (spool = spool_stdin()) == NULL) {
		pm->rc = EXIT_FAILURE;
		return;
	}
	sniff_file(spool != NULL ? spool : path, spool != NULL ? "<stdin>" :
	    path, SNIFF_BIT(SNIFF_SQLITE) | SNIFF_BIT(SNIFF_BINARY) |
	    SNIFF_BIT(SNIFF_TRACE) | SNIFF_BIT(SNIFF_JSON) |
	    SNIFF_BIT(SNIFF_FOLDED) | SNIFF_BIT(SNIFF_SPANS) |
	    SNIFF_BIT(SNIFF_STACKS) | SNIFF_BIT(SNIFF_DISPATCH) |
	    SNIFF_BIT(SNIFF_MIGX) | SNIFF_BIT(SNIFF_METRICS),
	    "pmc2ndjson reads profiler counter CSV and workload directories");
	rc = open_table(pm, &r, &h, spool != NULL ? spool : path, 1);
	if (rc > 0) {
		if (spool != NULL)
			r.pos.file = "<stdin>";
		in.path = spool != NULL ? spool : path;
		table_stream(pm, &r, &h, &in);
		hdr_release(&h);
		csvr_close(&r);
	} else if (rc < 0) {
		pm->rc = EXIT_FAILURE;
	}
	spool_remove(spool);
}

/*
 * The directory of path when path is the pmc_perf.csv of a workload
 * directory (one with a sysinfo.csv beside it), else NULL.
 */
static char *
workload_of(const char *path)
{
	struct strbuf dir = STRBUF_INIT, sys = STRBUF_INIT;
	const char *slash = strrchr(path, '/');
	const char *base = slash != NULL ? slash + 1 : path;
	int found;

	if (strcmp(base, "pmc_perf.csv") != 0 &&
	    strcmp(base, "pmc_perf.csv.gz") != 0)
		return NULL;
	if (slash == NULL)
		strbuf_addch(&dir, '.');
	else
		strbuf_add(&dir, path, slash == path ? 1 :
		    (size_t)(slash - path));
	found = find_file(dir.buf, "sysinfo", &sys) == 0;
	strbuf_release(&sys);
	if (!found) {
		strbuf_release(&dir);
		return NULL;
	}
	return strbuf_detach(&dir, NULL);
}

static void
input(struct pmc *pm, const char *path)
{
	struct stat st;
	char *dir;

	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		dir_input(pm, path);
	} else if (strcmp(path, "-") != 0 && (dir = workload_of(path))) {
		/* Its sysinfo and roofline records belong with it. */
		warn("'%s' is in the workload directory '%s': reading the "
		    "directory", path, dir);
		dir_input(pm, dir);
		free(dir);
	} else {
		file_input(pm, path);
	}
}

int
main(int argc, char *argv[])
{
	enum { OPT_LABEL = OPT_OWN };
	static const struct option longopts[] = {
		{ "columns", required_argument, NULL, 'c' },
		{ "label", required_argument, NULL, OPT_LABEL },
		OPT__COMMON
	};
	static char obuf[1 << 16];
	static struct pmc pmc = {
		.bad = BAD_INPUT_INIT,
		.rc = EXIT_SUCCESS,
		.run = STRBUF_INIT
	};
	struct pmc *pm = &pmc;
	struct ofile of;
	int ch;

	prog_init(argv[0]);
	prog_usage(usage);
	while ((ch = opt_next(argc, argv, "c:" OPT_COMMON_SHORT, longopts)) !=
	    -1)
		switch (ch) {
		case 'c':
			parse_columns(pm, optarg);
			break;
		case OPT_LABEL:
			pmc.label = optarg;
			set_run(pm, optarg, strlen(optarg));
			break;
		default:
			opt_common(ch, optarg, &opt, usage);
		}
	argc -= optind;
	argv += optind;
	pmc.bad.strict = opt.strict;
	if (opt.where != NULL)
		pmc.where = jqf_compile(opt.where);
	pmc.out = ofile_open(&of, opt.output);
	setvbuf(pmc.out, obuf, _IOFBF, sizeof(obuf));
	progress_init(opt.progress, "records");
	if (argc == 0)
		input(pm, "-");
	for (; argc > 0; argc--, argv++)
		input(pm, *argv);
	progress_done();
	if (bad_input_finish(&pmc.bad) != EXIT_SUCCESS)
		pmc.rc = EXIT_FAILURE;
	pmc.rc = ofile_finish(&of, pmc.rc);
	jqf_free(pmc.where);
	strbuf_release(&pmc.run);
	if (pmc.columns != NULL)
		hmap_release(pmc.columns);
	return close_stdout() != 0 ? EXIT_FAILURE : pmc.rc;
}
