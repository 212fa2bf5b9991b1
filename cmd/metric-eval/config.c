/*
 * config.c: rocprof-compute panel YAML files (libyaml) to metric tables:
 * placeholder rows expanded, cells placed by position, simple_box
 * statistics, unit text, and every evaluated cell compiled once.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "err.h"
#include "me.h"
#include "ndw.h"
#include "xmem.h"

/* rocprof-compute's panels nest about 8 levels. */
#define YAML_MAX_DEPTH 100

static const char *const eval_titles[] = {
	"Value", "Minimum", "Maximum", "Average", "Median", "Min", "Max",
	"Avg", "Pct of Peak", "Peak", "Count", "Mean", "Pct", "Std Dev", "Q1",
	"Q3", "Expression", "Channel", "L2 Cache Hit Rate", "Requests",
	"L2 Read", "L2 Write", "L2 Atomic", "L2-Fabric Requests",
	"L2-Fabric Read", "L2-Fabric Write and Atomic", "L2-Fabric Atomic",
	"L2 Read Req", "L2 Write Req", "L2 Atomic Req", "L2-Fabric Read Req",
	"L2-Fabric Write and Atomic Req", "L2-Fabric Atomic Req",
	"L2-Fabric Read Latency", "L2-Fabric Write Latency",
	"L2-Fabric Atomic Latency", "L2-Fabric Read Stall (PCIe)",
	"L2-Fabric Read Stall (Infinity Fabric\xe2\x84\xa2)",
	"L2-Fabric Read Stall (HBM)", "L2-Fabric Write Stall (PCIe)",
	"L2-Fabric Write Stall (Infinity Fabric\xe2\x84\xa2)",
	"L2-Fabric Write Stall (HBM)", "L2-Fabric Write Starve",
};

const char *const norm_names[NNORMS] = {
	"per_kernel", "per_wave", "per_cycle", "per_second"
};
static const char *const denom_text[] = {
	"1", "SQ_WAVES", "$GRBM_GUI_ACTIVE_PER_XCD",
	"((End_Timestamp - Start_Timestamp) / 1000000000)"
};

void
config_init(struct config *cf, int norm)
{
	memset(cf, 0, sizeof(*cf));
	arena_init(&cf->mem, 1 << 16);
	cf->norm = norm;
}

void
config_release(struct config *cf)
{
	size_t i;

	for (i = 0; i < cf->ntables; i++)
		if (cf->tables[i].heap_rows)
			free(cf->tables[i].rows);
	free(cf->tables);
	arena_release(&cf->mem);
}

static int
is_eval_title(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(eval_titles) / sizeof(eval_titles[0]); i++)
		if (strcmp(eval_titles[i], s) == 0)
			return 1;
	return 0;
}

static int
is_unit_title(const char *s)
{
	return strcasecmp(s, "unit") == 0 || strcasecmp(s, "units") == 0;
}

/* ---- YAML helpers ---- */

struct ydoc {
	yaml_document_t doc;
	const char *file;
};

static yaml_node_t *
ynode(struct ydoc *d, int id)
{
	return yaml_document_get_node(&d->doc, id);
}

/* The text of a scalar node, or NULL for a null, a missing or a
 * non-scalar node. */
static const char *
ytext(yaml_node_t *n)
{
	const char *s;

	if (!n || n->type != YAML_SCALAR_NODE)
		return NULL;
	s = (const char *)n->data.scalar.value;
	if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	    (strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
	    strcmp(s, "NULL") == 0 || strcmp(s, "~") == 0 || *s == '\0'))
		return NULL;
	return s;
}

static yaml_node_t *
yget(struct ydoc *d, yaml_node_t *map, const char *key)
{
	yaml_node_pair_t *p;
	const char *k;

	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (p = map->data.mapping.pairs.start;
	    p < map->data.mapping.pairs.top; p++) {
		k = ytext(ynode(d, p->key));
		if (k && strcmp(k, key) == 0)
			return ynode(d, p->value);
	}
	return NULL;
}

/* Replaces every occurrence of from in s by to. */
static char *
replace_all(struct arena *a, const char *s, const char *from, const char *to)
{
	struct strbuf sb = STRBUF_INIT;
	size_t fl = strlen(from);
	const char *q;
	char *r;

	if (!s)
		return NULL;
	if (!strstr(s, from))
		return arena_strndup(a, s, strlen(s));
	while ((q = strstr(s, from)) != NULL) {
		strbuf_add(&sb, s, (size_t)(q - s));
		strbuf_addstr(&sb, to);
		s = q + fl;
	}
	strbuf_addstr(&sb, s);
	r = arena_strndup(a, sb.buf, sb.len);
	strbuf_release(&sb);
	return r;
}

/* ---- building tables ---- */

static struct mtable *
new_table(struct config *cf)
{
	XGROW(cf->tables, cf->ntables + 1, cf->alloc);
	memset(&cf->tables[cf->ntables], 0, sizeof(*cf->tables));
	cf->tables[cf->ntables].order = cf->ntables;
	return &cf->tables[cf->ntables++];
}

static void
table_columns(struct config *cf, struct ydoc *d, struct mtable *mt,
    yaml_node_t *header, int box)
{
	static const char *const box_cols[] = { "Min", "Q1", "Median", "Q3",
	    "Max" };
	yaml_node_pair_t *p;
	size_t n = 0, i;
	const char *k, *v;

	if (!header || header->type != YAML_MAPPING_NODE)
		die("%s: table %d: no header", d->file, mt->table_id);
	n = (size_t)(header->data.mapping.pairs.top -
	    header->data.mapping.pairs.start) + 5;
	mt->cols = arena_alloc(&cf->mem, n * sizeof(*mt->cols));
	mt->col_eval = arena_alloc(&cf->mem, n * sizeof(int));
	mt->col_unit = arena_alloc(&cf->mem, n * sizeof(int));
	if (box)
		for (i = 0; i < 5; i++)
			mt->cols[mt->ncols++] = box_cols[i];
	mt->name_title = "Metric";
	for (p = header->data.mapping.pairs.start;
	    p < header->data.mapping.pairs.top; p++) {
		k = ytext(ynode(d, p->key));
		v = ytext(ynode(d, p->value));
		if (!k)
			continue;
		v = v ? arena_strndup(&cf->mem, v, strlen(v)) : "";
		if (strcmp(k, "metric") == 0)
			mt->name_title = v;
		else if (!(box && strcmp(k, "expr") == 0))
			mt->cols[mt->ncols++] = v;
	}
	for (i = 0; i < mt->ncols; i++) {
		mt->col_eval[i] = is_eval_title(mt->cols[i]);
		mt->col_unit[i] = is_unit_title(mt->cols[i]);
	}
	mt->name_evaluated = is_eval_title(mt->name_title);
}

/* Fills one row's cells by position (rocprof-compute's rule), with each
 * placeholder replaced by rep. */
static void
table_row(struct config *cf, struct ydoc *d, struct mtable *mt,
    const char *name, yaml_node_t *cells, int box, const char *ph,
    const char *rep)
{
	struct mrow *r = &mt->rows[mt->nrows++];
	yaml_node_pair_t *p;
	size_t pos = 0, i;
	const char *k, *v;

	memset(r, 0, sizeof(*r));
	r->name = ph ? replace_all(&cf->mem, name, ph, rep) : name;
	r->cells = arena_alloc(&cf->mem, (mt->ncols + 1) * sizeof(*r->cells));
	memset(r->cells, 0, (mt->ncols + 1) * sizeof(*r->cells));
	if (!cells || cells->type != YAML_MAPPING_NODE)
		return;
	for (p = cells->data.mapping.pairs.start;
	    p < cells->data.mapping.pairs.top; p++) {
		k = ytext(ynode(d, p->key));
		v = ytext(ynode(d, p->value));
		if (v)
			v = ph ? replace_all(&cf->mem, v, ph, rep) :
			    arena_strndup(&cf->mem, v, strlen(v));
		if (k && strcmp(k, "coll_level") == 0) {
			r->coll_level = v;
			continue;
		}
		if (k && strcmp(k, "alias") == 0)
			continue;
		if (box && k && strcmp(k, "expr") == 0) {
			for (i = 0; i < 5 && pos < mt->ncols; i++, pos++) {
				r->cells[pos].text = v;
				r->cells[pos].box = (int)i + 1;
			}
			continue;
		}
		if (pos < mt->ncols)
			r->cells[pos++].text = v;
	}
}

/* A count written in full ("32", "1e3", "32.0"); -1 if it is not one. */
static long
whole_long(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end != '\0' || !(v >= 0 && v <= 1e9) ||
	    v != trunc(v))
		return -1;
	return (long)v;
}

/* Gives the rows of mt the texts of the panel's metrics_description. */
static void
table_descriptions(struct config *cf, struct ydoc *d, struct mtable *mt,
    yaml_node_t *descs)
{
	const char *s;
	size_t i;

	if (!descs || descs->type != YAML_MAPPING_NODE)
		return;
	for (i = 0; i < mt->nrows; i++) {
		s = ytext(yget(d, descs, mt->rows[i].name));
		if (s)
			mt->rows[i].desc = arena_strndup(&cf->mem, s,
			    strlen(s));
	}
}

static void
load_metric_table(struct config *cf, struct ydoc *d, yaml_node_t *tab,
    int panel_id, const char *panel, struct table *t, int user,
    yaml_node_t *descs)
{
	struct mtable *mt = new_table(cf);
	yaml_node_t *metric = yget(d, tab, "metric");
	yaml_node_t *range;
	const char *s, *style, *ph = NULL, *n_text;
	yaml_node_pair_t *p;
	long i, n = 0;
	int box;
	char rep[32];

	mt->panel_id = panel_id;
	mt->panel = panel;
	mt->file = d->file;
	s = ytext(yget(d, tab, "id"));
	mt->table_id = s ? atoi(s) : 0;
	s = ytext(yget(d, tab, "title"));
	mt->title = s ? arena_strndup(&cf->mem, s, strlen(s)) : "";
	style = ytext(yget(d, tab, "cli_style"));
	box = style && strcmp(style, "simple_box") == 0;
	table_columns(cf, d, mt, yget(d, tab, "header"), box);
	if (!metric || metric->type != YAML_MAPPING_NODE)
		return;		/* "metric: null" is an empty table */
	range = yget(d, metric, "placeholder_range");
	if (range && range->type == YAML_MAPPING_NODE &&
	    range->data.mapping.pairs.top > range->data.mapping.pairs.start) {
		p = range->data.mapping.pairs.start;
		ph = ytext(ynode(d, p->key));
		n_text = ytext(ynode(d, p->value));
		if (n_text && n_text[0] == '$') {
			s = table_sysinfo(t, n_text + 1);
			if (!s)
				die("%s: table %d: placeholder range '%s' "
				    "needs sysinfo '%s' (no sysinfo record?)",
				    d->file, mt->table_id, n_text, n_text + 1);
			n = whole_long(s);
		} else if (n_text)
			n = whole_long(s = n_text);
		if (n_text && n < 0)
			die("%s: table %d: placeholder range '%s' is not a "
			    "count: '%s'", d->file, mt->table_id, n_text, s);
		if (!ph || n < 0 || n > 1000000)
			die("%s: table %d: bad placeholder_range", d->file,
			    mt->table_id);
	}
	n = ph ? n : (long)(metric->data.mapping.pairs.top -
	    metric->data.mapping.pairs.start);
	mt->rows = arena_alloc(&cf->mem, (size_t)(n + 1) * sizeof(*mt->rows));
	for (p = metric->data.mapping.pairs.start;
	    p < metric->data.mapping.pairs.top; p++) {
		s = ytext(ynode(d, p->key));
		if (!s || (ph && strcmp(s, "placeholder_range") == 0))
			continue;
		s = arena_strndup(&cf->mem, s, strlen(s));
		if (!ph) {
			table_row(cf, d, mt, s, ynode(d, p->value), box, NULL,
			    NULL);
			mt->rows[mt->nrows - 1].user = user;
			continue;
		}
		for (i = 0; i < n; i++) {
			snprintf(rep, sizeof(rep), "%ld", i);
			table_row(cf, d, mt, s, ynode(d, p->value), box, ph,
			    rep);
			mt->rows[mt->nrows - 1].user = user;
		}
		break;
	}
	table_descriptions(cf, d, mt, descs);
}

/*
 * How deep a panel file nests, from its text, before libyaml sees it:
 * libyaml's loader takes time quadratic in the depth.  Flow brackets
 * outside quotes and comments count, and so do block levels (indents and
 * "- " entries).  Returns the line where the depth passes max, or 0.
 */
static unsigned long
yaml_too_deep(FILE *fp, int max)
{
	int c, prev = '\n', quote = 0, flow = 0, indent[128], nind = 0;
	int col = 0, bol = 1, dashes = 0;
	unsigned long line = 1;

	while ((c = getc(fp)) != EOF) {
		if (c == '\n') {
			line++;
			bol = 1;
			col = dashes = 0;
			prev = c;
			if (quote == 0)
				continue;
		}
		if (quote != 0) {
			if (c == quote && !(quote == '"' && prev == '\\'))
				quote = 0;
			prev = prev == '\\' && c == '\\' ? 0 : c;
			continue;
		}
		if (c == '#' && (prev == ' ' || prev == '\t' || prev == '\n')) {
			while ((c = getc(fp)) != EOF && c != '\n')
				;
			ungetc(c, fp);
			continue;
		}
		if (bol && c == ' ') {
			col++;
			prev = c;
			continue;
		}
		if (bol && flow == 0 && c == '-') {
			if ((c = getc(fp)) == ' ') {
				dashes++;	/* "- " opens a level */
				col += 2;
				prev = ' ';
				if (nind + dashes > max)
					return line;
				continue;
			}
			ungetc(c, fp);
			c = '-';
		}
		if (bol && flow == 0) {	/* a block level per deeper indent */
			bol = 0;
			col += dashes;
			while (nind > 0 && indent[nind - 1] >= col)
				nind--;
			if (nind == max)
				return line;
			indent[nind++] = col;
		}
		bol = 0;
		if (c == '"' || c == '\'')
			quote = c;
		else if ((c == '[' || c == '{') && ++flow + nind > max)
			return line;
		else if ((c == ']' || c == '}') && flow > 0)
			flow--;
		prev = c;
	}
	return 0;
}

void
config_load_file(struct config *cf, const char *path, struct table *t,
    int user)
{
	yaml_parser_t parser;
	struct ydoc d;
	yaml_node_t *root, *pc, *ds, *item, *tab;
	yaml_node_item_t *it;
	const char *s, *panel;
	int panel_id;
	unsigned long line;
	size_t ntables;
	FILE *fp;

	if (!(fp = fopen(path, "r")))
		die_errno("cannot open '%s'", path);
	if ((line = yaml_too_deep(fp, YAML_MAX_DEPTH)) != 0)
		die("%s:%lu: nested deeper than %d levels", path, line,
		    YAML_MAX_DEPTH);
	rewind(fp);
	ntables = cf->ntables;
	d.file = arena_strndup(&cf->mem, path, strlen(path));
	if (!yaml_parser_initialize(&parser))
		die("out of memory");
	yaml_parser_set_input_file(&parser, fp);
	if (!yaml_parser_load(&parser, &d.doc))
		die("%s:%lu: %s", path,
		    (unsigned long)parser.problem_mark.line + 1,
		    parser.problem ? parser.problem : "bad YAML");
	root = yaml_document_get_root_node(&d.doc);
	pc = yget(&d, root, "Panel Config");
	if (!pc)
		die("%s: no 'Panel Config' map", path);
	s = ytext(yget(&d, pc, "id"));
	if (!s)
		die("%s: 'Panel Config' has no id", path);
	panel_id = atoi(s);
	s = ytext(yget(&d, pc, "title"));
	panel = s ? arena_strndup(&cf->mem, s, strlen(s)) : "";
	ds = yget(&d, pc, "data source");
	if (ds && ds->type == YAML_SEQUENCE_NODE)
		for (it = ds->data.sequence.items.start;
		    it < ds->data.sequence.items.top; it++) {
			item = ynode(&d, *it);
			tab = yget(&d, item, "metric_table");
			if (tab && tab->type == YAML_MAPPING_NODE)
				load_metric_table(cf, &d, tab, panel_id, panel,
				    t, user, yget(&d, pc, "metrics_description"));
		}
	if (user && cf->ntables == ntables)
		die("%s: panel %d '%s' has no metric tables (a 'data source' "
		    "list of 'metric_table' maps)", path, panel_id, panel);
	yaml_document_delete(&d.doc);
	yaml_parser_delete(&parser);
	fclose(fp);
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir that pass keep (sorted); returns the count. */
static size_t
list_dir(const char *dir, int yaml, char ***out)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	struct stat st;
	char **v = NULL, path[4096];
	size_t n = 0;

	*out = NULL;
	if (!dp)
		return 0;
	while ((e = readdir(dp)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (yaml ? !(S_ISREG(st.st_mode) &&
		    (has_suffix(e->d_name, ".yaml") ||
		    has_suffix(e->d_name, ".yml"))) : !S_ISDIR(st.st_mode))
			continue;
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n++] = xstrdup(e->d_name);
	}
	closedir(dp);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_str);
	*out = v;
	return n;
}

static void
free_list(char **v, size_t n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

/* Dies with the architecture directories that do exist under dir. */
static void NORETURN
die_no_arch(const char *dir, const char *arch)
{
	struct strbuf sb = STRBUF_INIT;
	char **v;
	size_t n, i;

	n = list_dir(dir, 0, &v);
	for (i = 0; i < n; i++) {
		strbuf_addstr(&sb, i ? ", " : "");
		strbuf_addstr(&sb, v[i]);
	}
	free_list(v, n);
	die("no panel configs for '%s' in '%s' (it has: %s)", arch, dir,
	    n ? sb.buf : "nothing");
}

/*
 * A directory named after an architecture (gfx90a) holds that
 * architecture's configs: a workload of another one is an error.
 */
static void
check_arch(const char *dir, const char *arch)
{
	size_t len = strlen(dir), b;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	for (b = len; b > 0 && dir[b - 1] != '/'; b--)
		;
	if (arch == NULL || len - b < 4 || strncmp(dir + b, "gfx", 3) != 0)
		return;
	if (strlen(arch) != len - b || strncmp(dir + b, arch, len - b) != 0)
		die("'%s' holds the panel configs of %.*s, and the workload "
		    "is %s (sysinfo gpu_arch)", dir, (int)(len - b), dir + b,
		    arch);
}

void
config_load_dir(struct config *cf, const char *dir, struct table *t)
{
	char **v, path[4096], *parent, *slash;
	const char *arch;
	struct stat st;
	size_t n, i;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		/* A mistyped architecture directory: list its siblings. */
		parent = xstrdup(dir);
		while ((slash = strrchr(parent, '/')) && slash[1] == '\0')
			*slash = '\0';
		slash = strrchr(parent, '/');
		arch = slash ? dir + (slash - parent) + 1 : dir;
		if (slash)
			*slash = '\0';
		if (!slash || stat(parent, &st) != 0)
			die("cannot open '%s': %s", dir, strerror(ENOENT));
		die_no_arch(slash == parent ? "/" : parent, arch);
	}
	/* A directory of architectures: pick the sysinfo gpu_arch one. */
	arch = table_sysinfo(t, "gpu_arch");
	snprintf(path, sizeof(path), "%s/%s", dir, arch ? arch : "");
	if (!arch || stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
		n = list_dir(dir, 0, &v);
		for (i = 0; i < n && strncmp(v[i], "gfx", 3) != 0; i++)
			;
		free_list(v, n);
		if (i < n && !arch)
			die("'%s' holds architecture directories, and there "
			    "is no sysinfo gpu_arch to choose one", dir);
		if (i < n)
			die_no_arch(dir, arch);
		path[0] = '\0';
		check_arch(dir, arch);
	}
	n = list_dir(path[0] ? path : dir, 1, &v);
	if (n == 0)
		die("'%s' has no panel YAML files", path[0] ? path : dir);
	if (path[0])
		dir = arena_strndup(&cf->mem, path, strlen(path));
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, v[i]);
		config_load_file(cf, path, t, 0);
	}
	free_list(v, n);
}

void
config_add_user(struct config *cf, const char *def)
{
	const char *eq = strchr(def, '=');
	struct mtable *mt;
	struct mrow *r;
	size_t nl;

	nl = strcspn(def, "\n\r");	/* messages are one line */
	if (!eq || eq == def || !eq[1 + strspn(eq + 1, " \t")])
		die_usage("-e '%.*s%s': expected 'NAME = EXPR'", (int)nl, def,
		    def[nl] != '\0' ? "..." : "");
	if (def + nl < eq)
		die_usage("-e '%.*s...': the name is not one line", (int)nl,
		    def);
	nl = (size_t)(eq - def);
	while (nl > 0 && isspace((unsigned char)def[nl - 1]))
		nl--;
	mt = cf->ntables ? &cf->tables[cf->ntables - 1] : NULL;
	if (!mt || mt->panel_id != 9900) {
		mt = new_table(cf);
		mt->panel_id = 9900;
		mt->panel = "User metrics";
		mt->file = "-e";
		mt->table_id = 9901;
		mt->title = "User metrics";
		mt->name_title = "Metric";
		mt->cols = arena_alloc(&cf->mem, sizeof(*mt->cols));
		mt->col_eval = arena_alloc(&cf->mem, sizeof(int));
		mt->col_unit = arena_alloc(&cf->mem, sizeof(int));
		mt->cols[0] = "Value";
		mt->col_eval[0] = 1;
		mt->col_unit[0] = 0;
		mt->ncols = 1;
		mt->heap_rows = 1;
	}
	mt->rows = xrealloc(mt->rows, (mt->nrows + 1) * sizeof(*mt->rows));
	r = &mt->rows[mt->nrows++];
	memset(r, 0, sizeof(*r));
	r->name = arena_strndup(&cf->mem, def, nl);
	r->user = 1;
	r->cells = arena_alloc(&cf->mem, sizeof(*r->cells));
	memset(r->cells, 0, sizeof(*r->cells));
	r->cells[0].text = arena_strndup(&cf->mem, eq + 1, strlen(eq + 1));
}

static int
cmp_table(const void *a, const void *b)
{
	const struct mtable *x = a, *y = b;

	if (x->panel_id != y->panel_id)
		return x->panel_id < y->panel_id ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static void
compile_cell(struct config *cf, struct table *t, struct mtable *mt,
    struct mrow *r, size_t col, struct strbuf *err)
{
	struct mcell *cell = &r->cells[col];
	struct compile_env env;
	const char *text;
	char acc[256];

	text = replace_all(&cf->mem, cell->text, "$denom",
	    denom_text[cf->norm]);
	memset(&env, 0, sizeof(env));
	env.t = t;
	env.strict_names = r->user;
	env.block = r->coll_level ? r->coll_level : "pmc_perf";
	if (t->rocpd) {
		/* rocpd: the accumulate counters are <coll_level>_ACCUM in
		 * the single pmc_perf block. */
		snprintf(acc, sizeof(acc), "%s_ACCUM", env.block);
		text = replace_all(&cf->mem, text, "SQ_ACCUM_PREV_HIRES", acc);
		env.block = "pmc_perf";
	}
	env.block_missing = table_block(t, env.block) == NULL;
	if (expr_compile(text, &env, &cell->prog, &cf->mem, err) == 0 &&
	    (cell->box || cell->prog.kind != V_VEC))
		return;
	if (err->len == 0)
		strbuf_addstr(err, "gives one value per dispatch, not one "
		    "value (wrap it in AVG, MIN, MAX, ...)");
	die("%s: panel %d '%s', table %d.%d '%s', metric '%s', column '%s': "
	    "%s", mt->file, mt->panel_id, mt->panel, mt->table_id / 100,
	    mt->table_id % 100, mt->title, r->name, mt->cols[col], err->buf);
}

void
config_compile(struct config *cf, struct table *t)
{
	struct strbuf err = STRBUF_INIT;
	size_t i, j, k;

	if (cf->ntables > 1)
		qsort(cf->tables, cf->ntables, sizeof(*cf->tables), cmp_table);
	for (i = 0; i < cf->ntables; i++) {
		struct mtable *mt = &cf->tables[i];

		for (j = 0; j < mt->nrows; j++)
			for (k = 0; k < mt->ncols; k++) {
				struct mcell *c = &mt->rows[j].cells[k];

				/* '' is a blank cell */
				if (c->text &&
				    !c->text[strspn(c->text, " \t\n")])
					c->text = NULL;
				if (mt->col_unit[k])
					c->text = config_unit_text(cf, c->text);
				else if (mt->col_eval[k] && c->text &&
				    c->box <= 1)
					compile_cell(cf, t, mt, &mt->rows[j], k,
					    &err);
			}
	}
	strbuf_release(&err);
}

/* Length of "(Word + $normUnit)" at p (spaces around '+' optional), with
 * the word in *w and *wl; 0 if p does not start one. */
static size_t
norm_unit_at(const char *p, const char **w, size_t *wl)
{
	const char *q = p + 1;

	if (*p != '(')
		return 0;
	*w = q;
	while (isalnum((unsigned char)*q) || *q == '_')
		q++;
	*wl = (size_t)(q - *w);
	while (*q == ' ')
		q++;
	if (*q++ != '+')
		return 0;
	while (*q == ' ')
		q++;
	if (strncmp(q, "$normUnit)", 10) != 0)
		return 0;
	return (size_t)(q + 10 - p);
}

char *
config_unit_text(struct config *cf, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p, *w, *nu = norm_names[cf->norm];
	size_t i, n, wl;
	char *r;

	for (p = s ? s : ""; *p; ) {
		if ((n = norm_unit_at(p, &w, &wl)) > 0) {
			/* "(Req + $normUnit)" -> "Req per kernel" */
			strbuf_add(&sb, w, wl);
			strbuf_addch(&sb, ' ');
			for (i = 0; nu[i]; i++)
				strbuf_addch(&sb, nu[i] == '_' ? ' ' : nu[i]);
			p += n;
		} else {
			strbuf_addch(&sb, *p++);
		}
	}
	/* Python str.capitalize(): first upper, the rest lower. */
	for (i = 0; i < sb.len; i++)
		sb.buf[i] = (char)(i == 0 ? toupper((unsigned char)sb.buf[i]) :
		    tolower((unsigned char)sb.buf[i]));
	r = arena_strndup(&cf->mem, sb.buf, sb.len);
	strbuf_release(&sb);
	return r;
}

void
config_put_table(struct ndw *w, const struct mtable *mt)
{
	char id[32];

	ndw_i64(w, "panel_id", mt->panel_id);
	ndw_strz(w, "panel", mt->panel);
	snprintf(id, sizeof(id), "%d.%d", mt->table_id / 100,
	    mt->table_id % 100);
	ndw_strz(w, "table_id", id);
	ndw_strz(w, "table", mt->title);
}
