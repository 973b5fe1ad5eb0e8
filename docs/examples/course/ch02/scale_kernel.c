/* scale_kernel.c - the work of scale.c, in a file of its own. */
void scale(float *x, long n)
{
	for (long i = 0; i < n; i++)
		x[i] *= FACTOR;
}
