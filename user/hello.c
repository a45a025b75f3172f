/*
 * /bin/hello: the first program Folium runs in ring 3. A static musl
 * binary, unmodified: printf goes out through writev (and ioctl
 * TIOCGWINSZ, as stdout is a terminal), the last line through write.
 * `hello fail` exits with status 3, so a shell can see a failure.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static const char greeting[] = "hello from ring 3\n";

	for (int i = 0; i < argc; i++)
		printf("argv[%d] = \"%s\"\n", i, argv[i]);
	fflush(stdout);
	if (write(STDOUT_FILENO, greeting, sizeof(greeting) - 1) != sizeof(greeting) - 1)
		return 1;
	if (argc > 1 && strcmp(argv[1], "fail") == 0)
		return 3;
	return 0;
}
