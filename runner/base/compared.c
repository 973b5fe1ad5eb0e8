/* compared.c - the words for a verdict of compare (compared.h). */
#include "base/compared.h"

const char *compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_SLOWER: return "slower";
	case COMPARE_FASTER: return "faster";
	case COMPARE_NOISY: return "too noisy";
	case COMPARE_WITHIN: break;
	}
	return "within noise";
}
