/*
 * nd.h: a hand-written NDJSON reader.
 *
 * nd_fields() scans one line once, validates it (RFC 8259: structure,
 * UTF-8, escapes and surrogate pairs) and returns raw slices of the values
 * of the keys asked for.  Values stay as JSON text until the caller asks
 * for a number or a string, so 64-bit integers pass through exactly.
 * Slices point into the line and are valid as long as it is.
 */
#ifndef ND_H
#define ND_H

#include <stddef.h>
#include <stdint.h>

#include "err.h"
#include "strbuf.h"
#include "zin.h"

/* The raw JSON text of one value (a string slice includes its quotes). */
struct nd_slice {
	const char *p;		/* NULL: absent */
	size_t len;
};

enum nd_type {
	ND_BAD = -1, ND_NULL, ND_FALSE, ND_TRUE, ND_NUMBER, ND_STRING,
	ND_ARRAY, ND_OBJECT
};

struct nd_reader {
	struct zin in;
	struct srcpos pos;	/* file and line of the current record */
	const char *line;	/* current line, without '\n' and '\r' */
	size_t len;
	int no_newline;		/* the current line ended at EOF */
	int found;		/* a loop's keys: nd_fields_keys() of it */
};

/* Opens path ("-" or NULL: stdin).  Returns 0, or -1 with errno set. */
int nd_reader_open(struct nd_reader *r, const char *path);
void nd_reader_close(struct nd_reader *r);
/*
 * Reads the next line that is not blank.  Returns 1 (r->line, r->len,
 * r->pos set), 0 at EOF, -1 on a read error.  r->line is the line without
 * the blanks (space, tab, CR) around it, and on line 1 without a UTF-8
 * byte order mark: a record is exactly its JSON text, so a caller may
 * slice it by position.
 */
int nd_read(struct nd_reader *r);
/* What nd_each() does with the records of one input. */
struct nd_loop {
	void (*fn)(struct nd_reader *r, void *arg);	/* each record */
	void *arg;
	struct bad_input *bad;	/* truncated last lines are reported here */
	unsigned refuse;	/* sniff_check() of the first record */
	const char *todo;	/* and its advice (NULL: the default) */
};
/*
 * The input loop of every NDJSON reader (toybox's loopfiles_lines): opens
 * path ("-": standard input), passes the first line that is not blank to
 * sniff_check() with l->refuse (a kind the program cannot use exits 1),
 * calls l->fn(r, l->arg) for each line that is not blank, and closes it.
 * A last line that ends without a newline and is not valid JSON is a
 * truncated record: it goes to l->bad ("truncated last line") instead of
 * l->fn.  Warns "cannot open 'x': why" or "cannot read 'x': why" and
 * returns -1 when the file cannot be opened or read; 0 otherwise.
 */
int nd_each(const char *path, const struct nd_loop *l);
/*
 * What every reader calls a line: trims the blanks around it (and a byte
 * order mark when lineno is 1).  Empty after it: a blank line.
 */
void nd_trim(const char **line, size_t *len, unsigned long lineno);

/*
 * Validates line as one JSON object and sets vals[i] to the value of
 * keys[i] (the last one if a key repeats in the line; .p NULL if absent).
 * The keys[] must be distinct: a member fills only the first that matches.
 * Returns the number of keys found, or -1 when the line is malformed (see
 * nd_error()).  With n == 0 it only validates.
 */
int nd_fields(const char *line, size_t len, const char *const keys[],
    struct nd_slice vals[], size_t n);
/*
 * A set of keys prepared once for many nd_fields_keys() calls: a member's
 * key is looked up by a hash of its bytes, not compared with each key in
 * turn.  ks keeps the pointer keys (not a copy): they must outlive it;
 * nd_keys_release() frees the layout it learns.
 */
#define ND_KEYS_MAX 32
#define ND_KEYS_SLOTS 64
struct nd_keys {
	const char *const *keys;
	size_t n;
	int table;			/* 0: n > ND_KEYS_MAX, no table */
	size_t len[ND_KEYS_MAX];
	uint64_t head[ND_KEYS_MAX];	/* the first 8 bytes, as a word */
	unsigned char slot[ND_KEYS_SLOTS];	/* 1 + index in keys, or 0 */
	/*
	 * The layout of the records read: member j's separator ('{' or
	 * ',') and key up to the ':' after it are the bytes
	 * text[shape[j].off..+len), and key its index in keys (-1: not
	 * wanted).  A member of the next record whose separator and key
	 * are the same bytes has the same key, already checked.  Learned
	 * from the records read member by member, as many members as they
	 * have (text: 32 bytes to spare after the last).
	 */
	struct nd_shape {
		uint32_t off;
		uint16_t len;
		int16_t key;
	} *shape;
	size_t nshape, shape_alloc;
	char *text;
	size_t text_len, text_alloc;
	/* Records left to read member by member, not by the shapes. */
	unsigned known_off;
};
void nd_keys_init(struct nd_keys *ks, const char *const keys[], size_t n);
void nd_keys_release(struct nd_keys *ks);
/*
 * nd_fields() with the keys of ks: vals[] has ks->n entries.  ks learns
 * the layout of the records it reads (which makes records of one layout
 * faster), so one ks serves one stream at a time.
 */
int nd_fields_keys(const char *line, size_t len, struct nd_keys *ks,
    struct nd_slice vals[]);
/*
 * nd_each() that scans each record for the keys of ks before it calls
 * l->fn: vals[] (ks->n of them) and r->found are what nd_fields_keys()
 * sets and returns for it.  The reader finds the line and the values in
 * one pass over the bytes at hand.
 */
int nd_each_keys(const char *path, const struct nd_loop *l,
    struct nd_keys *ks, struct nd_slice vals[]);
/* Validates any one JSON value.  Returns 0, or -1 (see nd_error()). */
int nd_validate(const char *p, size_t len);
/* Why the last nd_fields()/nd_validate() failed, with the column. */
const char *nd_error(void);

/* The type of a value from its first byte (ND_BAD: absent or empty). */
static inline enum nd_type
nd_type(struct nd_slice v)
{
	if (v.p == NULL || v.len == 0)
		return ND_BAD;
	switch (v.p[0]) {
	case '"': return ND_STRING;
	case '{': return ND_OBJECT;
	case '[': return ND_ARRAY;
	case 't': return ND_TRUE;
	case 'f': return ND_FALSE;
	case 'n': return ND_NULL;
	case '-': return ND_NUMBER;
	default:
		return v.p[0] >= '0' && v.p[0] <= '9' ? ND_NUMBER : ND_BAD;
	}
}

/* Iterates over the members of a validated object or array. */
struct nd_iter {
	const char *p, *end;
	int is_object;
};
int nd_iter_init(struct nd_iter *it, struct nd_slice v);  /* -1: not obj/arr */
/* Returns 1 with key (raw, quoted; .p NULL in arrays) and val, 0 at end. */
int nd_iter_next(struct nd_iter *it, struct nd_slice *key,
    struct nd_slice *val);

/* 0 on success; -1 if v is not an integer (no fraction or exponent) in range. */
int nd_val_i64(struct nd_slice v, int64_t *out);
int nd_val_u64(struct nd_slice v, uint64_t *out);
/* 0 on success; -1 if v is not a number. */
int nd_val_f64(struct nd_slice v, double *out);
/* Appends the decoded string to out.  Returns 0, or -1 if not a string. */
int nd_val_str(struct nd_slice v, struct strbuf *out);
/* Compares a raw (quoted, maybe escaped) key or string with s. */
int nd_str_eq(struct nd_slice v, const char *s, size_t len);

#endif
