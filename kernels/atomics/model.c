/*
 * model.c - what the global histogram's bin sweep should look like, if L2
 * serves a warp's atomics one 32-byte sector at a time.
 *
 * The model: a warp-wide atomicAdd whose 32 lanes hit `bins` 4-byte bins
 * (uniformly at random, as the atomics experiment's input does) reaches L2
 * as one request per 32-byte sector it touches. L2 applies a sector's adds
 * in steps: adds to different words of the sector share a step, adds to one
 * word take one step each, so a sector costs as many steps as its most-hit
 * word has lanes. The sectors of a request are served one after another.
 * One bin then costs 32 steps a warp, and the speed-up over one bin is
 * 32 / steps. Nothing here is fitted to a measurement: the sector and the
 * word sizes are the whole model.
 *
 * For each bin count the program draws --warps random warps and records
 * the mean number of sectors and of steps per warp, and the speed-up. Its
 * random numbers come from a fixed seed, so its records are the same on
 * every machine.
 *
 *   model --bins 1:1024:x2 --warps 50000
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LANES 32
#define WORDS_PER_SECTOR 8 /* 32-byte sectors of 4-byte bins */

static uint64_t next(uint64_t *s) /* splitmix64 */
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The steps and sectors of one warp-wide request to `bins` bins. */
static void one_warp(long bins, uint64_t *seed, int *steps, int *sectors)
{
	long bin[LANES];
	int lanes_on[LANES]; /* lanes on bin[i], for the first lane of each */
	int most[LANES];     /* the most-hit word of each distinct sector */
	long sector[LANES];
	int nsec = 0;
	for (int l = 0; l < LANES; l++) {
		bin[l] = (long)(next(seed) % (uint64_t)bins);
		lanes_on[l] = 0;
		for (int k = 0; k <= l; k++)
			if (bin[k] == bin[l]) {
				lanes_on[k]++;
				break;
			}
	}
	for (int l = 0; l < LANES; l++) {
		if (!lanes_on[l])
			continue;
		long s = bin[l] / WORDS_PER_SECTOR;
		int k = 0;
		while (k < nsec && sector[k] != s)
			k++;
		if (k == nsec) {
			sector[nsec] = s;
			most[nsec++] = 0;
		}
		if (lanes_on[l] > most[k])
			most[k] = lanes_on[l];
	}
	*steps = 0;
	for (int k = 0; k < nsec; k++)
		*steps += most[k];
	*sectors = nsec;
}

/* One whole number at *p, ending at the end of the text or at a character
 * of `ends`; -1 if none. */
static long number(const char **p, const char *ends)
{
	char *end;
	long v = strtol(*p, &end, 10);
	if (end == *p || (*end && !strchr(ends, *end)))
		return -1;
	*p = end;
	return v;
}

/* "a:b:xk" (a, a*k, ... up to b), "a:b:s" (step s) or "a", comma-separated,
 * into v: the count, or -1 on an item that is none of these. */
static int parse_list(const char *text, long *v, int max)
{
	int n = 0;
	const char *p = text;
	while (*p && n < max) {
		long a = number(&p, ",:"), b, step;
		int times = 0;
		if (a < 1)
			return -1;
		if (*p == ':') {
			p++;
			if ((b = number(&p, ":")) < a || *p != ':')
				return -1;
			p++;
			times = *p == 'x';
			p += times;
			if ((step = number(&p, ",")) < 1 + times)
				return -1;
			for (long k = a; k <= b && n < max; k = times ? k * step : k + step)
				v[n++] = k;
		} else {
			v[n++] = a;
		}
		if (*p == ',')
			p++;
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *bins_arg = "1:1024:x2";
	long warps = 50000;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--bins"))
			bins_arg = argv[i + 1];
		else if (!strcmp(argv[i], "--warps"))
			warps = atol(argv[i + 1]);
		else {
			fprintf(stderr, "usage: model [--bins LIST] [--warps N]\n");
			return 2;
		}
	}
	long bins[64];
	int n = parse_list(bins_arg, bins, 64);
	if (n <= 0 || warps <= 0) {
		fprintf(stderr, "--bins needs positive counts (1,2,4 or 1:1024:x2; "
		        "got '%s') and --warps a positive number\n", bins_arg);
		return 2;
	}

	const char *path = getenv("LAB_RECORDS");
	FILE *rec = path ? fopen(path, "a") : stdout;
	if (!rec) {
		perror(path);
		return 1;
	}
	printf("%8s %9s %9s %9s\n", "bins", "sectors", "steps", "speed-up");
	for (int i = 0; i < n; i++) {
		uint64_t seed = 42;
		double steps = 0, sectors = 0;
		for (long w = 0; w < warps; w++) {
			int st, se;
			one_warp(bins[i], &seed, &st, &se);
			steps += st;
			sectors += se;
		}
		steps /= warps;
		sectors /= warps;
		printf("%8ld %9.3f %9.3f %9.3f\n", bins[i], sectors, steps,
		       LANES / steps);
		fprintf(rec, "%s{\"bins\":%ld,\"warps\":%ld,\"sectors\":%.4f,"
		        "\"steps\":%.4f,\"speedup\":%.4f}\n", path ? "" : "record: ",
		        bins[i], warps, sectors, steps, LANES / steps);
	}
	if (path)
		fclose(rec);
	return 0;
}
