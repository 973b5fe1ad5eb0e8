/* Takes its block as a flag and a value: -dimX 32 -dimY 32. Prints the
 * launch on one line and its numbers on the lines after it. */
#include "../common/common.h"

int main(int argc, char **argv)
{
	int nx = 1 << 10, ny = 1 << 10, dimx = 32, dimy = 32;
	for (int i = 1; i + 1 < argc; i++) {
		if (!strcmp(argv[i], "-dimX"))
			dimx = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-dimY"))
			dimy = atoi(argv[++i]);
	}
	double sec = elapsed_sec((long)nx * ny, dimx * dimy >= 256 ? 0.5 : 1.0);
	double mib = 3.0 * nx * ny * sizeof(float) / sec / (1 << 20);
	printf("%s Starting...\n", argv[0]);
	printf("sumMatrixOnGPU2D <<<(%d,%d), (%d,%d)>>>\n", (nx + dimx - 1) / dimx,
	       (ny + dimy - 1) / dimy, dimx, dimy);
	printf("    elapsed %.6f sec\n", sec);
	printf("Effective bandwidth:\n    %.2f MiB/s\n", mib);
	return 0;
}
