/*
 * test_instr.c: migx2ndjson's instruction parser (instr.c), one table
 * entry per instruction text: the text, then each part it must be taken
 * apart into (NULL: absent).  The expected parts follow the grammar of
 * the MIGraphX notes (sections 3.1-3.5 and the right-anchored parse of
 * 6.4), worked out by hand for each line.
 */
#include "../unit.h"
#include "../../../cmd/migx2ndjson/migx.h"

struct want {
	const char *text;
	int rc;			/* instr_parse's result */
	const char *name, *op, *attrs, *literal, *args, *modargs, *shape;
	const char *tid, *dbg, *param, *time, *pct, *rest;
	int is_return, has_suffix, fork;
};

static const struct want table[] = {
	/* A parameter in a program listing: no timing suffix. */
	{ "main:@0 = @param:x -> float_type, {1, 3}, {3, 1}", 0,
	    .name = "main:@0", .op = "@param", .param = "x",
	    .shape = "float_type, {1, 3}, {3, 1}" },
	/* A perf line: attributes with the code object's trailing comma,
	 * arguments, a shape and the ": T ms, P %" suffix. */
	{ "main:@3 = gpu::code_object[code_object=4096,symbol_name=add,"
	    "global=1024,local=256,](main:@1,main:@2) -> float_type, {64}, "
	    "{1}: 0.0123ms, 2%", 0,
	    .name = "main:@3", .op = "gpu::code_object",
	    .attrs = "code_object=4096,symbol_name=add,global=1024,local=256,",
	    .args = "main:@1,main:@2", .shape = "float_type, {64}, {1}",
	    .time = "0.0123", .pct = "2", .has_suffix = 1 },
	/* A shape attribute holds ", ": the attributes run to the last ']'. */
	{ "main:@1 = hip::hip_allocate_memory[shape=float_type, {256}, {1},"
	    "id=main:scratch] -> float_type, {256}, {1}", 0,
	    .name = "main:@1", .op = "hip::hip_allocate_memory",
	    .attrs = "shape=float_type, {256}, {1},id=main:scratch",
	    .shape = "float_type, {256}, {1}" },
	/* A literal: no arguments follow it. */
	{ "main:@2 = @literal{0.5, 1, 2} -> float_type, {3}, {1}", 0,
	    .name = "main:@2", .op = "@literal", .literal = "{0.5, 1, 2}",
	    .shape = "float_type, {3}, {1}" },
	/* Submodule references after the arguments, a tuple shape. */
	{ "main:@5 = if(main:@4), [If_0_if, If_0_else] -> [float_type, {1}, "
	    "{0}, half_type, {2}, {1}]", 0,
	    .name = "main:@5", .op = "if", .args = "main:@4",
	    .modargs = "If_0_if, If_0_else",
	    .shape = "[float_type, {1}, {0}, half_type, {2}, {1}]" },
	/* 5.7-6.1 print the target id; the shape ends before it. */
	{ "main:@2 = add(main:@0,main:@1) -> float_type, {2}, {1}, "
	    "target_id=0: 0.5ms, 100%", 0,
	    .name = "main:@2", .op = "add", .args = "main:@0,main:@1",
	    .shape = "float_type, {2}, {1}", .tid = "0", .time = "0.5",
	    .pct = "100", .has_suffix = 1 },
	/* develop: ONNX node names after " # ". */
	{ "main:@2 = relu(main:@1) -> float_type, {2}, {1} # Relu_3, Relu_4",
	    0, .name = "main:@2", .op = "relu", .args = "main:@1",
	    .shape = "float_type, {2}, {1}", .dbg = "Relu_3, Relu_4" },
	/* An instruction that never ran: -nan for both numbers. */
	{ "If_0_else:@0 = @param:y -> half_type, {2}, {1}: -nanms, -nan%", 0,
	    .name = "If_0_else:@0", .op = "@param", .param = "y",
	    .shape = "half_type, {2}, {1}", .time = "-nan", .pct = "-nan",
	    .has_suffix = 1 },
	/* Numbers in %g form, and no spaces in the suffix. */
	{ "main:@7 = contiguous(main:@6) -> float_type, {4}, {1}:1e-05ms,1%",
	    0, .name = "main:@7", .op = "contiguous", .args = "main:@6",
	    .shape = "float_type, {4}, {1}", .time = "1e-05", .pct = "1",
	    .has_suffix = 1 },
	/* @return has no shape and no time; the next instruction is glued
	 * onto it in perf output. */
	{ "main:@9 = @return(main:@8)", 0,
	    .name = "main:@9", .op = "@return", .args = "main:@8",
	    .is_return = 1 },
	{ "main:@9 = @return(main:@8,main:@7)next:@0 = @param:z -> "
	    "float_type, {1}, {0}: 0.001ms, 1%", 0,
	    .name = "main:@9", .op = "@return", .args = "main:@8,main:@7",
	    .rest = "next:@0 = @param:z -> float_type, {1}, {0}: 0.001ms, 1%",
	    .is_return = 1 },
	{ "main:@9 = @return(main:@8), target_id=0", 0,
	    .name = "main:@9", .op = "@return", .args = "main:@8",
	    .tid = "0", .is_return = 1 },
	/* DTK builds print "->" without spaces. */
	{ "main:@1 = relu(main:@0)->float_type, {2}, {1}", 0,
	    .name = "main:@1", .op = "relu", .args = "main:@0",
	    .shape = "float_type, {2}, {1}", .fork = 1 },
	/* The name ends at the first " = ", the shape starts at the last
	 * " -> "; what is left does not end in ')', so it has no args. */
	{ "a = b = c(x) -> y -> float_type, {1}, {0}", 0,
	    .name = "a", .op = "b = c(x) -> y",
	    .shape = "float_type, {1}, {0}" },
	{ "a = b = c(x) -> float_type, {1}, {0}", 0,
	    .name = "a", .op = "b = c", .args = "x",
	    .shape = "float_type, {1}, {0}" },
	/* Brackets inside the arguments: the '(' that matches the last ')'. */
	{ "@1 = f(g(h),[i]) -> float_type, {1}, {1}", 0,
	    .name = "@1", .op = "f", .args = "g(h),[i]",
	    .shape = "float_type, {1}, {1}" },
	/* Module arguments after a ',' with no space. */
	{ "@3 = f(@1),[a] -> float_type, {1}, {1}", 0,
	    .name = "@3", .op = "f", .args = "@1", .modargs = "a",
	    .shape = "float_type, {1}, {1}" },
	/* A ']' that closes the attributes is not a module list. */
	{ "@4 = f[x=(1)](@1) -> float_type, {1}, {1}", 0,
	    .name = "@4", .op = "f", .attrs = "x=(1)", .args = "@1",
	    .shape = "float_type, {1}, {1}" },
	{ "@5 = f[x=1] -> float_type, {1}, {1}", 0,
	    .name = "@5", .op = "f", .attrs = "x=1",
	    .shape = "float_type, {1}, {1}" },
	/* An extra ')' leaves the '(' unmatched: no arguments. */
	{ "@6 = f(@1)) -> float_type, {1}, {1}", 0,
	    .name = "@6", .op = "f(@1))", .shape = "float_type, {1}, {1}" },
	/* Not instructions. */
	{ .text = "Summary:", .rc = -1 },
	{ .text = "main:@1 = relu(main:@0)", .rc = -1 },
	{ .text = " = relu(main:@0) -> float_type, {1}, {0}", .rc = -1 },
	{ .text = "x = -> float_type, {1}, {0}", .rc = -1 },
};

static void
slice_is(const char *what, const char *line, struct sl got,
    const char *want)
{
	if (want == NULL && got.p == NULL)
		return;
	if (want == NULL)
		fail_msg("'%s': %s is '%.*s', want none", line, what,
		    (int)got.n, got.p);
	if (got.p == NULL)
		fail_msg("'%s': %s is absent, want '%s'", line, what, want);
	if (got.n != strlen(want) || memcmp(got.p, want, got.n) != 0)
		fail_msg("'%s': %s is '%.*s', want '%s'", line, what,
		    (int)got.n, got.p, want);
}

static void
instructions_are_taken_apart_from_the_right(void **state)
{
	const struct want *w;
	struct instr in;
	struct sl rest;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		w = &table[i];
		if (instr_parse(w->text, strlen(w->text), &in, &rest) !=
		    w->rc)
			fail_msg("'%s': result is not %d", w->text, w->rc);
		if (w->rc != 0)
			continue;
		slice_is("name", w->text, in.name, w->name);
		slice_is("op", w->text, in.op, w->op);
		slice_is("attrs", w->text, in.attrs, w->attrs);
		slice_is("literal", w->text, in.literal, w->literal);
		slice_is("args", w->text, in.args, w->args);
		slice_is("modargs", w->text, in.modargs, w->modargs);
		slice_is("shape", w->text, in.shape, w->shape);
		slice_is("tid", w->text, in.tid, w->tid);
		slice_is("dbg", w->text, in.dbg, w->dbg);
		slice_is("param", w->text, in.param, w->param);
		slice_is("time", w->text, in.time, w->time);
		slice_is("pct", w->text, in.pct, w->pct);
		slice_is("rest", w->text, rest, w->rest);
		assert_int_equal(in.is_return, w->is_return);
		assert_int_equal(in.has_suffix, w->has_suffix);
		assert_int_equal(in.fork, w->fork);
	}
}

/* The timing suffix alone: where it starts, and its two numbers. */
static const struct {
	const char *text;
	int at;			/* offset of the ':', or -1 */
	const char *time, *pct;
} suffixes[] = {
	{ "x: 0.5ms, 3%", 1, "0.5", "3" },
	{ "x : 2.5 ms , 10 %", 2, "2.5", "10" },
	{ "x: 1.23457e+06ms, 100%", 1, "1.23457e+06", "100" },
	{ "x: -nan(ind)ms, -nan(ind)%", 1, "-nan(ind)", "-nan(ind)" },
	{ "x: infms, inf%", 1, "inf", "inf" },
	{ "x: 0.5ms\xEF\xBC\x8C 3%", 1, "0.5", "3" },	/* full-width comma */
	{ "x: 0.5ms 3%", -1, NULL, NULL },
	{ "x: 0.5s, 3%", -1, NULL, NULL },
	{ "x 0.5ms, 3%", -1, NULL, NULL },
	{ "x: abcms, 3%", -1, NULL, NULL },
	{ "no suffix", -1, NULL, NULL },
};

static void
suffix_is_peeled_with_any_spacing(void **state)
{
	struct sl time, pct;
	size_t i;
	int at;

	(void)state;
	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		at = suffix_peel(suffixes[i].text, strlen(suffixes[i].text),
		    &time, &pct, 0);
		if (at != suffixes[i].at)
			fail_msg("'%s': suffix at %d, want %d",
			    suffixes[i].text, at, suffixes[i].at);
		if (at < 0)
			continue;
		slice_is("time", suffixes[i].text, time, suffixes[i].time);
		slice_is("pct", suffixes[i].text, pct, suffixes[i].pct);
	}
}

/* The scanners' byte table says what the plain definitions say. */
static void
byte_classes_match_their_definitions(void **state)
{
	int c, word, brk;

	(void)state;
	for (c = 0; c < 256; c++) {
		word = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || c == '_';
		brk = c == '(' || c == '[' || c == '{' ? BRK_OPEN :
		    c == ')' || c == ']' || c == '}' ? BRK_CLOSE :
		    c == ',' ? BRK_COMMA : 0;
		if ((isalnum_(c) != 0) != word || brk_class(c) != brk)
			fail_msg("byte 0x%02x: word %d, bracket %d", c,
			    isalnum_(c) != 0, brk_class(c));
		/* A char with the high bit set is the same byte. */
		if (c >= 0x80 && (isalnum_((char)c) || brk_class((char)c)))
			fail_msg("byte 0x%02x as a char", c);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(instructions_are_taken_apart_from_the_right),
		cmocka_unit_test(suffix_is_peeled_with_any_spacing),
		cmocka_unit_test(byte_classes_match_their_definitions),
	};

	return cmocka_run_group_tests_name("migx2ndjson instr", tests, NULL,
	    NULL);
}
