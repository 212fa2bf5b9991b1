/*
 * expr.c: the metric expression language (rocprof-compute 3.3.0 rules):
 * a recursive-descent compiler from Python expression syntax to a postfix
 * program, and an evaluator that runs each instruction over whole columns.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "me.h"
#include "xmem.h"

static const struct {
	const char *name;
	int min, max;
} fns[] = {
	[FN_AVG] = { "AVG", 1, 1 }, [FN_SUM] = { "SUM", 1, 1 },
	[FN_MIN] = { "MIN", 1, 2 }, [FN_MAX] = { "MAX", 1, 2 },
	[FN_MEDIAN] = { "MEDIAN", 1, 1 }, [FN_QUANTILE] = { "QUANTILE", 2, 2 },
	[FN_STD] = { "STD", 1, 1 }, [FN_ROUND] = { "ROUND", 1, 2 },
	[FN_TO_INT] = { "TO_INT", 1, 1 }, [FN_MOD] = { "MOD", 2, 2 },
	[FN_CONCAT] = { "CONCAT", 2, 2 },
};

static const struct {
	const char *name;
	int is_int;
} sysvars[] = {
	{ "cu_per_gpu", 1 }, { "se_per_gpu", 1 }, { "simd_per_cu", 1 },
	{ "sqc_per_gpu", 1 }, { "pipes_per_gpu", 1 },
	{ "lds_banks_per_cu", 1 }, { "max_waves_per_cu", 1 },
	{ "num_xcd", 1 }, { "wave_size", 1 }, { "total_l2_chan", 1 },
	{ "max_sclk", 0 }, { "max_mclk", 0 }, { "cur_sclk", 0 },
	{ "cur_mclk", 0 }, { "num_hbm_channels", 0 },
};

static const char *const builtins[VAR_COUNT] = {
	[VAR_GRBM_GUI_ACTIVE_PER_XCD] = "GRBM_GUI_ACTIVE_PER_XCD",
	[VAR_GRBM_COUNT_PER_XCD] = "GRBM_COUNT_PER_XCD",
	[VAR_GRBM_SPI_BUSY_PER_XCD] = "GRBM_SPI_BUSY_PER_XCD",
	[VAR_NUM_ACTIVE_CUS] = "numActiveCUs",
	[VAR_KERNEL_BUSY_CYCLES] = "kernelBusyCycles",
	[VAR_HBM_BANDWIDTH] = "hbmBandwidth",
};

const char *const builtin_cols[BUILTIN_NCOLS] = {
	"GRBM_GUI_ACTIVE", "GRBM_COUNT", "GRBM_SPI_BUSY", "SQ_BUSY_CU_CYCLES",
	"Start_Timestamp", "End_Timestamp",
};

/* ---- the compiler ---- */

struct cc {
	const char *s, *p;
	struct compile_env *env;
	struct strbuf *err;
	struct ins *ins;
	size_t n, alloc;
	int kinds[256];		/* static kinds of the stack */
	int sp, depth;
	int missing;
	const char *missing_name;
	struct arena *a;
	int failed;
	int nest;		/* open parentheses */
};

static void PRINTF_LIKE(2, 3)
cc_error(struct cc *c, const char *fmt, ...)
{
	va_list ap;

	if (c->failed)
		return;
	c->failed = 1;
	va_start(ap, fmt);
	strbuf_reset(c->err);
	{
		char tmp[512];

		vsnprintf(tmp, sizeof(tmp), fmt, ap);
		strbuf_addstr(c->err, tmp);
	}
	va_end(ap);
}

static void
skip_ws(struct cc *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r')
		c->p++;
}

/* Emits one instruction that pops npop values and pushes one of kind. */
static void
emit(struct cc *c, int op, int sub, int npop, int32_t arg, double num,
    int kind)
{
	struct ins *in;

	if (c->failed)
		return;
	XGROW(c->ins, c->n + 1, c->alloc);
	in = &c->ins[c->n++];
	in->op = (uint8_t)op;
	in->sub = (uint8_t)sub;
	in->nargs = (uint16_t)npop;
	in->arg = arg;
	in->num = num;
	in->kind = (uint8_t)kind;
	c->sp -= npop;
	if (c->sp < 0 || c->sp >= 255) {
		cc_error(c, "expression too deeply nested");
		return;
	}
	c->kinds[c->sp++] = kind;
	if (c->sp > c->depth)
		c->depth = c->sp;
}

static int
accept(struct cc *c, const char *tok)
{
	size_t len = strlen(tok);

	skip_ws(c);
	if (strncmp(c->p, tok, len) != 0)
		return 0;
	if (isalpha((unsigned char)tok[0]) &&
	    (isalnum((unsigned char)c->p[len]) || c->p[len] == '_'))
		return 0;
	c->p += len;
	return 1;
}

static void
expect(struct cc *c, const char *tok)
{
	if (!accept(c, tok))
		cc_error(c, "syntax error at column %d: expected '%s'",
		    (int)(c->p - c->s) + 1, tok);
}

static int
binkind(int a, int b)
{
	if (a == V_NONE || b == V_NONE)
		return V_NONE;
	if (a == V_TEXT || b == V_TEXT)
		return V_TEXT;
	return a == V_VEC || b == V_VEC ? V_VEC : V_SCAL;
}

static void parse_expr(struct cc *c);

static size_t
ident_len(const char *p)
{
	size_t n = 0;

	if (!isalpha((unsigned char)p[0]) && p[0] != '_')
		return 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	return n;
}

static void
parse_variable(struct cc *c)
{
	size_t len = ident_len(c->p), i;
	char name[64];
	double v;

	if (len == 0 || len >= sizeof(name)) {
		cc_error(c, "syntax error at column %d: bad variable name",
		    (int)(c->p - c->s) + 1);
		return;
	}
	memcpy(name, c->p, len);
	name[len] = '\0';
	c->p += len;
	for (i = 0; i < VAR_COUNT; i++)
		if (builtins[i] && strcmp(builtins[i], name) == 0) {
			size_t k;

			for (k = 0; k < BUILTIN_NCOLS; k++)
				table_column(c->env->t, "pmc_perf",
				    builtin_cols[k]);
			emit(c, OP_VAR, 0, 0, (int32_t)i, 0, i <=
			    VAR_GRBM_SPI_BUSY_PER_XCD ? V_VEC : V_SCAL);
			return;
		}
	for (i = 0; i < sizeof(sysvars) / sizeof(sysvars[0]); i++)
		if (strcmp(sysvars[i].name, name) == 0) {
			v = table_sysinfo_num(c->env->t, sysvars[i].name,
			    sysvars[i].is_int);
			emit(c, OP_NUM, 0, 0, 0, v, V_SCAL);
			return;
		}
	cc_error(c, "unknown variable '$%s'", name);
}

/* 0 with the value when the last argument compiled is a constant. */
static int
const_arg(const struct cc *c, double *v)
{
	const struct ins *in = c->ins + c->n - 1;

	if (c->n >= 1 && in->op == OP_NUM) {
		*v = in->num;
		return 0;
	}
	if (c->n >= 2 && in->op == OP_NEG && in[-1].op == OP_NUM) {
		*v = -in[-1].num;
		return 0;
	}
	return -1;
}

/*
 * The domain of a constant argument, as pandas checks it: QUANTILE's q in
 * [0, 1], ROUND's digits an integer.  (Computed ones are checked when
 * evaluated: the cell is blank.)
 */
static void
check_domain(struct cc *c, int f, int nargs)
{
	double v;

	if (nargs != 2 || const_arg(c, &v) != 0)
		return;
	if (f == FN_QUANTILE && !(v >= 0 && v <= 1))
		cc_error(c, "QUANTILE: q must be in [0, 1], not %g", v);
	else if (f == FN_ROUND && !(isfinite(v) && v == trunc(v)))
		cc_error(c, "ROUND: digits must be an integer, not %g", v);
}

/* NAME( ... ): a function call; c->p is at '('. */
static void
parse_call(struct cc *c, const char *name, size_t len)
{
	int nargs = 0, kind = V_SCAL, i, f;

	for (f = 0; f <= FN_CONCAT; f++)
		if (strlen(fns[f].name) == len &&
		    strncmp(fns[f].name, name, len) == 0)
			break;
	if (f > FN_CONCAT) {
		cc_error(c, "unknown function '%.*s'", (int)len, name);
		return;
	}
	if (++c->nest > 200) {
		cc_error(c, "expression too deeply nested");
		return;
	}
	c->p++;
	if (!accept(c, ")")) {
		do {
			parse_expr(c);
			nargs++;
		} while (!c->failed && accept(c, ","));
		expect(c, ")");
	}
	c->nest--;
	if (c->failed)
		return;
	if (nargs < fns[f].min || nargs > fns[f].max) {
		if (fns[f].min == fns[f].max)
			cc_error(c, "%s takes %d argument%s, not %d",
			    fns[f].name, fns[f].min, fns[f].min > 1 ? "s" : "",
			    nargs);
		else
			cc_error(c, "%s takes %d or %d arguments, not %d",
			    fns[f].name, fns[f].min, fns[f].max, nargs);
		return;
	}
	check_domain(c, f, nargs);
	for (i = 0; i < nargs; i++)
		if (c->kinds[c->sp - nargs + i] == V_VEC)
			kind = V_VEC;
	if (f == FN_AVG || f == FN_SUM || f == FN_MEDIAN ||
	    f == FN_QUANTILE || f == FN_STD ||
	    ((f == FN_MIN || f == FN_MAX) && nargs == 1))
		kind = V_SCAL;
	else if (f == FN_CONCAT)
		kind = V_TEXT;
	emit(c, OP_CALL, f, nargs, 0, 0, kind);
}

static void
parse_name(struct cc *c)
{
	const char *start = c->p;
	size_t len = ident_len(c->p);
	char *name;
	long col;

	c->p += len;
	if (len == 4 && strncmp(start, "None", 4) == 0) {
		emit(c, OP_NONE, 0, 0, 0, 0, V_NONE);
		return;
	}
	skip_ws(c);
	if (*c->p == '(') {
		parse_call(c, start, len);
		return;
	}
	/* A channel column: NAME[i] is the column named exactly so. */
	if (*c->p == '[') {
		const char *q = c->p + 1;

		while (isdigit((unsigned char)*q))
			q++;
		if (q == c->p + 1 || *q != ']') {
			cc_error(c, "syntax error at column %d: expected a "
			    "channel number", (int)(c->p - c->s) + 2);
			return;
		}
		c->p = q + 1;
		len = (size_t)(c->p - start);
	}
	name = arena_strndup(c->a, start, len);
	col = c->env->block_missing ? -1 :
	    table_column(c->env->t, c->env->block, name);
	if (col >= 0) {
		emit(c, OP_COL, 0, 0, (int32_t)col, 0, V_VEC);
		return;
	}
	if (c->env->strict_names && !c->env->block_missing) {
		cc_error(c, "unknown counter '%s'", name);
		return;
	}
	if (!c->missing)
		c->missing_name = name;
	c->missing = 1;
	emit(c, OP_MISSING, 0, 0, 0, 0, V_NONE);
}

static void
parse_atom(struct cc *c)
{
	char *end;
	double v;

	skip_ws(c);
	if (*c->p == '(') {
		if (++c->nest > 200) {
			cc_error(c, "expression too deeply nested");
			return;
		}
		c->p++;
		parse_expr(c);
		expect(c, ")");
		c->nest--;
	} else if (*c->p == '$') {
		c->p++;
		parse_variable(c);
	} else if (isdigit((unsigned char)*c->p) ||
	    (*c->p == '.' && isdigit((unsigned char)c->p[1]))) {
		v = strtod(c->p, &end);
		c->p = end;
		emit(c, OP_NUM, 0, 0, 0, v, V_SCAL);
	} else if (*c->p == '\'' || *c->p == '"') {
		char q = *c->p++;

		while (*c->p && *c->p != q)
			c->p++;
		if (*c->p != q) {
			cc_error(c, "syntax error: unterminated string");
			return;
		}
		c->p++;
		emit(c, OP_STR, 0, 0, 0, 0, V_TEXT);
	} else if (ident_len(c->p) > 0) {
		parse_name(c);
	} else {
		if (*c->p)
			cc_error(c, "syntax error at column %d: unexpected "
			    "'%c'", (int)(c->p - c->s) + 1, *c->p);
		else
			cc_error(c, "syntax error at column %d: unexpected end",
			    (int)(c->p - c->s) + 1);
	}
}

static void
parse_unary(struct cc *c)
{
	if (c->failed)
		return;
	if (accept(c, "-")) {
		if (++c->nest > 200) {
			cc_error(c, "expression too deeply nested");
			return;
		}
		parse_unary(c);
		c->nest--;
		if (!c->failed)
			emit(c, OP_NEG, 0, 1, 0, 0, c->kinds[c->sp - 1]);
	} else if (accept(c, "+")) {
		if (++c->nest > 200) {
			cc_error(c, "expression too deeply nested");
			return;
		}
		parse_unary(c);
		c->nest--;
	} else {
		parse_atom(c);
	}
}

static void
parse_term(struct cc *c)
{
	int op;

	parse_unary(c);
	while (!c->failed) {
		if (accept(c, "*"))
			op = OP_MUL;
		else if (accept(c, "/"))
			op = OP_DIV;
		else if (accept(c, "%"))
			op = OP_MODOP;
		else
			break;
		parse_unary(c);
		if (!c->failed)
			emit(c, op, 0, 2, 0, 0, binkind(c->kinds[c->sp - 2],
			    c->kinds[c->sp - 1]));
	}
}

/*
 * End_Timestamp - Start_Timestamp of one block becomes the block's exact
 * duration column (timestamps above 2^53 lose nanoseconds as doubles).
 */
static int
fuse_duration(struct cc *c)
{
	const struct column *a, *b;
	long col;

	if (c->n < 2 || c->ins[c->n - 2].op != OP_COL ||
	    c->ins[c->n - 1].op != OP_COL)
		return 0;
	a = &c->env->t->cols[c->ins[c->n - 2].arg];
	b = &c->env->t->cols[c->ins[c->n - 1].arg];
	if (strcmp(a->name, "End_Timestamp") != 0 ||
	    strcmp(b->name, "Start_Timestamp") != 0 ||
	    strcmp(a->block, b->block) != 0)
		return 0;
	col = table_dur_column(c->env->t, a->block);
	if (col < 0)
		return 0;
	c->n -= 2;
	c->sp -= 2;
	emit(c, OP_COL, 0, 0, (int32_t)col, 0, V_VEC);
	return 1;
}

static void
parse_arith(struct cc *c)
{
	int op;

	parse_term(c);
	while (!c->failed) {
		if (accept(c, "+"))
			op = OP_ADD;
		else if (accept(c, "-"))
			op = OP_SUB;
		else
			break;
		parse_term(c);
		if (!c->failed && op == OP_SUB && fuse_duration(c))
			continue;
		if (!c->failed)
			emit(c, op, 0, 2, 0, 0, binkind(c->kinds[c->sp - 2],
			    c->kinds[c->sp - 1]));
	}
}

/* The code from start on is the literal None alone. */
static int
is_none_literal(const struct cc *c, size_t start)
{
	return c->n == start + 1 && c->ins[start].op == OP_NONE;
}

/*
 * X != None and X == None (either side None): pandas compares every row
 * of a column with None, so the result has X's kind.  The None is dropped
 * and a one-operand comparison emitted; X itself is still evaluated, and
 * a missing counter in it still blanks the cell.  None != None is Python's
 * (a constant).
 */
static void
cmp_none(struct cc *c, int sub, size_t start, int lnone, int rnone)
{
	int k;

	if (lnone && rnone) {
		c->n = start;
		c->sp -= 2;
		emit(c, OP_NUM, 0, 0, 0, sub == CMP_EQ, V_SCAL);
		return;
	}
	if (rnone) {
		c->n--;
	} else {
		memmove(&c->ins[start], &c->ins[start + 1],
		    (c->n - start - 1) * sizeof(*c->ins));
		c->n--;
		c->kinds[c->sp - 2] = c->kinds[c->sp - 1];
	}
	c->sp--;
	k = c->kinds[c->sp - 1];
	emit(c, OP_CMP, sub == CMP_NE ? CMP_NONE_NE : CMP_NONE_EQ, 1, 0, 0,
	    k == V_TEXT ? V_NONE : k);
}

static void
parse_cmp(struct cc *c)
{
	size_t start = c->n, mid;
	int sub, lnone;

	parse_arith(c);
	if (c->failed)
		return;
	lnone = is_none_literal(c, start);
	mid = c->n;
	if (accept(c, "!="))
		sub = CMP_NE;
	else if (accept(c, "=="))
		sub = CMP_EQ;
	else if (accept(c, "<="))
		sub = CMP_LE;
	else if (accept(c, ">="))
		sub = CMP_GE;
	else if (accept(c, "<"))
		sub = CMP_LT;
	else if (accept(c, ">"))
		sub = CMP_GT;
	else
		return;
	parse_arith(c);
	if (c->failed)
		return;
	if ((sub == CMP_NE || sub == CMP_EQ) &&
	    (lnone || is_none_literal(c, mid)))
		cmp_none(c, sub, start, lnone, is_none_literal(c, mid));
	else
		emit(c, OP_CMP, sub, 2, 0, 0, binkind(c->kinds[c->sp - 2],
		    c->kinds[c->sp - 1]));
}

static void
parse_expr(struct cc *c)
{
	int kx, kc, ky, k;

	parse_cmp(c);
	if (c->failed || !accept(c, "if"))
		return;
	parse_cmp(c);
	expect(c, "else");
	if (++c->nest > 200) {
		cc_error(c, "expression too deeply nested");
		return;
	}
	parse_expr(c);
	c->nest--;
	if (c->failed)
		return;
	kx = c->kinds[c->sp - 3];
	kc = c->kinds[c->sp - 2];
	ky = c->kinds[c->sp - 1];
	if (kx == V_NONE || kc == V_NONE)
		k = V_NONE;
	else
		k = kx == V_VEC || kc == V_VEC || ky == V_VEC ? V_VEC : V_SCAL;
	emit(c, OP_SEL, 0, 3, 0, 0, k);
}

int
expr_compile(const char *text, struct compile_env *env, struct prog *p,
    struct arena *a, struct strbuf *err)
{
	struct cc c;

	memset(&c, 0, sizeof(c));
	c.s = c.p = text;
	c.env = env;
	c.err = err;
	c.a = a;
	parse_expr(&c);
	skip_ws(&c);
	if (!c.failed && *c.p)
		cc_error(&c, "syntax error at column %d: unexpected '%c'",
		    (int)(c.p - c.s) + 1, *c.p);
	if (!c.failed && c.sp != 1)
		cc_error(&c, "syntax error");
	memset(p, 0, sizeof(*p));
	if (c.failed) {
		free(c.ins);
		return -1;
	}
	p->ins = arena_alloc(a, c.n * sizeof(*p->ins));
	memcpy(p->ins, c.ins, c.n * sizeof(*p->ins));
	free(c.ins);
	p->n = c.n;
	p->depth = c.depth;
	p->missing = c.missing;
	p->missing_name = c.missing_name;
	p->kind = c.kinds[0];
	/* A cell that reads the absent coll_level block is blank; one that
	 * needs only variables and numbers (a Peak) is still evaluated. */
	if (env->block_missing && c.missing) {
		p->kind = V_NONE;
		p->missing = 0;
	}
	return 0;
}
