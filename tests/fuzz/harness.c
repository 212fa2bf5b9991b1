/*
 * harness.c: the libFuzzer side of the program targets (see harness.h).
 *
 * Each input runs in a child process: the program's main() gets a fresh
 * copy of its state, and its exit() is the end of the run.  The child's
 * coverage counters (__sancov_cntrs) go back to the parent through shared
 * memory, so libFuzzer sees what the input reached.  The child's standard
 * streams are /dev/null; sanitizer reports still reach the fuzzer's
 * standard error.  This file is built without coverage instrumentation.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

int fuzz_prog_main(int argc, char **argv);
void __sanitizer_set_report_fd(void *fd);
void __real___sanitizer_set_death_callback(void (*cb)(void));
void __wrap___sanitizer_set_death_callback(void (*cb)(void));
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

extern uint8_t __start___sancov_cntrs[] __attribute__((weak));
extern uint8_t __stop___sancov_cntrs[] __attribute__((weak));

enum { RUN_NONE, RUN_EXITED, RUN_DIED };

struct shared {
	volatile int state;
	volatile int status;
	uint8_t cntrs[];
};

static struct shared *sh;
static size_t ncntrs;
static char dir[256], path[300], aux[300];
static int report_fd = 2;
/* The program's own death callback (ofile.c removes its temporary files):
 * the fuzzer links with --wrap, so the harness's callback stays and calls
 * it. */
static void (*prog_died)(void);

void
__wrap___sanitizer_set_death_callback(void (*cb)(void))
{
	prog_died = cb;
}

static void
copy_counters(void)
{
	if (ncntrs > 0)
		memcpy(sh->cntrs, __start___sancov_cntrs, ncntrs);
}

static void
child_exit(int status, void *arg)
{
	(void)arg;
	copy_counters();
	sh->status = status;
	sh->state = RUN_EXITED;
	_exit(0);
}

static void
child_died(void)
{
	copy_counters();
	sh->state = RUN_DIED;
	if (prog_died != NULL)
		prog_died();
}

static void
remove_dir(void)
{
	unlink(path);
	unlink(aux);
	rmdir(dir);
}

static void
write_file(const char *name, const void *data, size_t size)
{
	FILE *fp;

	if ((fp = fopen(name, "wb")) == NULL ||
	    fwrite(data, 1, size, fp) != size || fclose(fp) != 0) {
		perror(name);
		abort();
	}
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" :
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	(void)argc;
	(void)argv;
	if (__start___sancov_cntrs != NULL)
		ncntrs = (size_t)(__stop___sancov_cntrs -
		    __start___sancov_cntrs);
	sh = mmap(NULL, sizeof(*sh) + ncntrs, PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("fuzz harness: mmap");
		abort();
	}
	snprintf(dir, sizeof(dir), "%s/profpipe-fuzz.XXXXXX", tmp);
	if (mkdtemp(dir) == NULL) {
		perror("fuzz harness: mkdtemp");
		abort();
	}
	snprintf(path, sizeof(path), "%s/input%s", dir, fuzz_target.suffix);
	snprintf(aux, sizeof(aux), "%s/aux", dir);
	atexit(remove_dir);
	if (fuzz_target.aux != NULL)
		write_file(aux, fuzz_target.aux, strlen(fuzz_target.aux));
	if ((report_fd = dup(2)) < 0)
		report_fd = 2;
	return 0;
}

static int
write_input(const uint8_t *data, size_t size)
{
	if (fuzz_target.prepare != NULL)
		return fuzz_target.prepare(data, size, path);
	write_file(path, data, size);
	return 0;
}

/* The child: the program on the input, with its streams on /dev/null. */
static void
child(char **argv, int argc)
{
	int null = open("/dev/null", O_RDWR);

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (null < 0) {
		perror("/dev/null");
		_exit(99);
	}
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	__sanitizer_set_report_fd((void *)(intptr_t)report_fd);
	__real___sanitizer_set_death_callback(child_died);
	on_exit(child_exit, NULL);
	exit(fuzz_prog_main(argc, argv));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[32], *text;
	size_t i;
	int argc = 0, st;
	pid_t pid;

	if (write_input(data, size) != 0)
		return 0;
	text = strndup((const char *)data, size);
	for (i = 0; fuzz_target.args[i] != NULL && argc < 31; i++) {
		const char *a = fuzz_target.args[i];

		argv[argc++] = strdup(strcmp(a, "@@") == 0 ? path :
		    strcmp(a, "@DATA@") == 0 ? text :
		    strcmp(a, "@AUX@") == 0 ? aux : a);
	}
	argv[argc] = NULL;
	sh->state = RUN_NONE;
	fflush(NULL);
	if ((pid = fork()) < 0) {
		perror("fork");
		abort();
	}
	if (pid == 0)
		child(argv, argc);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			perror("waitpid");
			abort();
		}
	if (ncntrs > 0)
		memcpy(__start___sancov_cntrs, sh->cntrs, ncntrs);
	for (i = 0; i < (size_t)argc; i++)
		free(argv[i]);
	free(text);
	if (WIFSIGNALED(st) || sh->state != RUN_EXITED) {
		fprintf(stderr, "fuzz harness: %s %s\n", fuzz_target.args[0],
		    WIFSIGNALED(st) ? strsignal(WTERMSIG(st)) :
		    sh->state == RUN_DIED ? "sanitizer report" :
		    "ended without exit()");
		abort();
	}
	if (sh->status > 2) {
		fprintf(stderr, "fuzz harness: %s exit status %d\n",
		    fuzz_target.args[0], sh->status);
		abort();
	}
	return 0;
}
