/*
 * /bin/hello: the first program Folium runs in ring 3. A static binary,
 * unmodified: printf goes out through writev (and ioctl TIOCGWINSZ, as
 * stdout is a terminal), the last line through write. `hello fail` exits
 * with status 3, so a shell can see a failure; `hello env` also prints
 * the environment and what the kernel put in the auxiliary vector (Linux:
 * create_elf_tables), e.g. "auxv: AT_PAGESZ 4096".
 */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

extern char **environ;

static void print_auxv(void)
{
	const char *execfn = (const char *)getauxval(AT_EXECFN);
	const char *platform = (const char *)getauxval(AT_PLATFORM);
	const unsigned char *rnd = (const unsigned char *)getauxval(AT_RANDOM);
	unsigned int rnd_or = 0;

	for (int i = 0; rnd && i < 16; i++)
		rnd_or |= rnd[i];
	printf("auxv: AT_PAGESZ %lu\n", getauxval(AT_PAGESZ));
	printf("auxv: AT_CLKTCK %lu\n", getauxval(AT_CLKTCK));
	printf("auxv: AT_SECURE %lu\n", getauxval(AT_SECURE));
	printf("auxv: AT_PHENT %lu\n", getauxval(AT_PHENT));
	printf("auxv: AT_EXECFN %s\n", execfn ? execfn : "(none)");
	printf("auxv: AT_PLATFORM %s\n", platform ? platform : "(none)");
	printf("auxv: AT_RANDOM %s\n", rnd && rnd_or ? "16 bytes, not all zero" : "missing");
	printf("auxv: AT_ENTRY %s\n", getauxval(AT_ENTRY) ? "set" : "missing");
}

int main(int argc, char **argv)
{
	static const char greeting[] = "hello from ring 3\n";
	int env = argc > 1 && strcmp(argv[1], "env") == 0;

	for (int i = 0; i < argc; i++)
		printf("argv[%d] = \"%s\"\n", i, argv[i]);
	if (env) {
		for (char **e = environ; *e; e++)
			printf("env: %s\n", *e);
		print_auxv();
	}
	fflush(stdout);
	if (write(STDOUT_FILENO, greeting, sizeof(greeting) - 1) != sizeof(greeting) - 1)
		return 1;
	if (argc > 1 && strcmp(argv[1], "fail") == 0)
		return 3;
	return 0;
}
