/* cats.c: colour categories, decided by rules on frame names. */
#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "strbuf.h"
#include "flame2html.h"

/* One colour rule: a name matching it gets category cat. */
struct rule {
	regex_t re;
	size_t cat;
};

static struct {
	struct category cat[64];
	size_t ncat;
	struct rule *rule;
	size_t nrule;
	int defaults;		/* the rules are cats_default()'s */
} cats;

static size_t
cat_add(const char *name, const char *colour)
{
	size_t i;

	for (i = 0; i < cats.ncat; i++)
		if (strcmp(cats.cat[i].name, name) == 0)
			return i;
	if (cats.ncat == sizeof(cats.cat) / sizeof(cats.cat[0]))
		die("more than %zu categories", cats.ncat);
	snprintf(cats.cat[i].name, sizeof(cats.cat[i].name), "%s", name);
	snprintf(cats.cat[i].colour, sizeof(cats.cat[i].colour), "%s", colour);
	cats.ncat++;
	return i;
}

static void
rule_add(const char *re, int flags, size_t cat, const struct srcpos *pos)
{
	char msg[256];
	int e;

	cats.rule = xrealloc(cats.rule, (cats.nrule + 1) * sizeof(*cats.rule));
	if ((e = regcomp(&cats.rule[cats.nrule].re, re,
	    REG_EXTENDED | REG_NOSUB | flags)) != 0) {
		regerror(e, &cats.rule[cats.nrule].re, msg, sizeof(msg));
		die_at(pos, "bad regular expression '%s': %s", re, msg);
	}
	cats.rule[cats.nrule++].cat = cat;
}

/*
 * The default rules: the Ascend reference's keywords (first match wins),
 * with the CUDA and ROCm runtimes added after CANN.
 */
void
cats_default(void)
{
	static const struct srcpos pos = { "default rules", 0 };
	size_t c;

	c = cat_add("CANN/NPU", "#c62828");
	rule_add("cann|ascendcl|aclnn|aclrt|aclmdl|aclprof|hccl", REG_ICASE,
	    c, &pos);
	c = cat_add("CUDA", "#2e7d32");
	rule_add("cuda|cublas|cudnn|cufft|curand|cusparse|cusolver|cutlass|"
	    "nccl|nvtx|cupti", REG_ICASE, c, &pos);
	c = cat_add("HIP/ROCm", "#8e24aa");
	rule_add("rocm|rocblas|rocfft|rocsparse|rocsolver|rocrand|rocprim|"
	    "roctx|roctracer|miopen|rccl|hipblas|hipfft|hipsparse|hipsolver|"
	    "hiprand|hipcub|hsa_", REG_ICASE, c, &pos);
	rule_add("(^|[^[:alnum:]])hip[A-Z]", 0, c, &pos);
	c = cat_add("Framework", "#f9a825");
	rule_add("torch|aten::|c10::|aten_", REG_ICASE, c, &pos);
	c = cat_add("Python", "#ef6c00");
	rule_add("\\.py", 0, c, &pos);
	rule_add("python", REG_ICASE, c, &pos);
	cats.defaults = 1;
}

/*
 * Words of which a name matching a default rule holds one, in any case:
 * the rules' own words, a few cut to a common start ("acl" for aclnn,
 * aclrt, ...; "roc" for rocm, rocblas, ...; "hip" for hipblas, ... and
 * the case-sensitive "hip[A-Z]"; "aten" for aten:: and aten_).  A name
 * holding none of them is "Other" without a regexec() per rule: most
 * names are.  Each word is lower case, and they are in the order of
 * their first byte, which picks the ones to try.
 */
static const char *const default_words[] = {
	".py", "acl", "aten", "ascendcl", "c10::", "cann", "cublas", "cuda",
	"cudnn", "cufft", "cupti", "curand", "cusolver", "cusparse",
	"cutlass", "hccl", "hip", "hsa_", "miopen", "nccl", "nvtx", "python",
	"rccl", "roc", "torch", NULL
};

/* A byte in lower case: ASCII only, as in the C locale regcomp() is in. */
static inline int
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static int
word_at(const char *s, const char *wd)
{
	for (; *wd != '\0'; s++, wd++)
		if (lower((unsigned char)*s) != *wd)
			return 0;	/* a NUL in s stops here too */
	return 1;
}

/* Might s match a default rule?  It has one of default_words if so. */
static int
default_maybe(const char *s)
{
	static unsigned char first[256];	/* c: 1 + its first word */
	const char *const *wd;
	size_t i;
	int c;

	if (first['.'] == 0)	/* the words are in order of their first byte */
		for (i = sizeof(default_words) / sizeof(*default_words) - 1;
		    i-- > 0;)
			first[(unsigned char)default_words[i][0]] =
			    (unsigned char)(i + 1);
	for (; *s != '\0'; s++) {
		c = lower((unsigned char)*s);
		if (first[c] == 0)
			continue;
		for (wd = default_words + first[c] - 1; *wd != NULL &&
		    (*wd)[0] == c; wd++)
			if (word_at(s, *wd))
				return 1;
	}
	return 0;
}

static int
is_colour(const char *s)
{
	size_t i;

	if (s[0] != '#' || strlen(s) != 7)
		return 0;
	for (i = 1; i < 7; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* Reads --categories: lines 'regex category #rrggbb'; '#' starts a comment. */
void
cats_file(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	struct srcpos pos = { path, 0 };
	FILE *fp = fopen(path, "r");
	char *f[3], *p;
	int i;

	if (fp == NULL)
		die_errno("cannot open '%s'", path);
	while (strbuf_getline(&sb, fp) != EOF) {
		pos.line++;
		p = sb.buf + sb.len;
		while (p > sb.buf && isspace((unsigned char)p[-1]))
			*--p = '\0';
		p = sb.buf;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		/* The colour and category are the last two fields. */
		for (i = 2; i > 0; i--) {
			char *sp = strrchr(p, ' '), *tab = strrchr(p, '\t');

			if (tab != NULL && (sp == NULL || tab > sp))
				sp = tab;
			if (sp == NULL)
				die_at(&pos, "expected 'regex category #rrggbb'");
			f[i] = sp + 1;
			while (sp > p && isspace((unsigned char)sp[-1]))
				sp--;
			*sp = '\0';
		}
		f[0] = p;
		if (!is_colour(f[2]))
			die_at(&pos, "bad colour '%s' (want #rrggbb)", f[2]);
		rule_add(f[0], 0, cat_add(f[1], f[2]), &pos);
	}
	if (ferror(fp))
		die_errno("cannot read '%s'", path);
	fclose(fp);
	strbuf_release(&sb);
}

size_t
name_cat(const char *s)
{
	size_t i;

	if (cats.defaults && !default_maybe(s))
		return cats.ncat;
	for (i = 0; i < cats.nrule; i++)
		if (regexec(&cats.rule[i].re, s, 0, NULL, 0) == 0)
			return cats.rule[i].cat;
	return cats.ncat;	/* "Other", added last */
}

/* The number of categories, "Other" included. */
size_t
cat_count(void)
{
	return cats.ncat + 1;
}

const struct category *
cat_get(size_t i)
{
	static const struct category other = { "Other", "#8d6e63" };

	return i < cats.ncat ? &cats.cat[i] : &other;
}
