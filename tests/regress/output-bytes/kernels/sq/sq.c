#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	FILE *f = fopen(getenv("LAB_RECORDS"), "a");
	for (int i = 1; i <= n; i++)
		fprintf(f, "{\"n\":%d,\"y\":%d,\"s\":\"%s\",\"y_lo\":%g,\"y_hi\":%g}\n",
		        i, i * i, i % 2 ? "odd" : "even", i * i * 0.9, i * i * 1.1);
	fclose(f);
	printf("wrote %d records\n", n);
	return 0;
}
