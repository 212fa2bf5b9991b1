/*
 * harness.h: libFuzzer targets that run one profpipe program on each input.
 *
 * A target file names the program's arguments; "@@" stands for the path of
 * a file holding the input, "@DATA@" for the input itself as one argument
 * (cut at its first NUL byte), "@AUX@" for the path of a file holding the
 * target's fixed aux text (a dispatch stream for metric-eval, say).  harness.c runs the program's main() (built
 * with -Dmain=fuzz_prog_main) in a child process for every input, so each
 * run starts from the program's real initial state and may exit() as the
 * program does; the child's coverage counters are copied back to the
 * fuzzer.  A signal, a sanitizer report or a run longer than libFuzzer's
 * -timeout is a crash of the input.
 *
 *	static const char *const fuzz_args[] = { "topn", "--merge", "@@",
 *	    NULL };
 *	FUZZ_PROG(fuzz_args, ".nd")
 *
 * A target with its own preparation defines fuzz_prepare(): it gets the
 * input and the path to write and returns 0 to run, -1 to skip the input.
 */
#ifndef HARNESS_H
#define HARNESS_H

#include <stddef.h>
#include <stdint.h>

struct fuzz_target {
	const char *const *args;
	const char *suffix;	/* of the input file: ".nd", ".db" */
	int (*prepare)(const uint8_t *data, size_t size, const char *path);
	const char *aux;	/* NULL: no @AUX@ file */
};

extern const struct fuzz_target fuzz_target;

#define FUZZ_PROG(args, suffix) \
	const struct fuzz_target fuzz_target = { args, suffix, NULL, NULL };
#define FUZZ_PROG_AUX(args, suffix, aux) \
	const struct fuzz_target fuzz_target = { args, suffix, NULL, aux };
#define FUZZ_PROG_PREPARE(args, suffix, fn) \
	const struct fuzz_target fuzz_target = { args, suffix, fn, NULL };

#endif
