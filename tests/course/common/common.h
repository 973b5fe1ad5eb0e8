/* Shared by every lab program of the course: sizes and the cost model
 * the programs print as their timings (text, as a course's programs do). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_PER_ELEMENT 10.0

static double elapsed_sec(long elements, double factor)
{
	return elements * NS_PER_ELEMENT * factor * 1e-9;
}
