/*
 * probe.cu - the GPU facts labbook records in a bundle's machine.json.
 * Built with no target architecture, so the driver compiles its PTX for
 * whatever card is present. Prints one JSON object; labbook adds the
 * figures that follow from the compute capability (its facts table).
 */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <stdio.h>

static int attr(cudaDeviceAttr a, int dev)
{
	int v = 0;
	cudaDeviceGetAttribute(&v, a, dev);
	return v;
}

/*
 * The card's settings as NVML reports them: persistence mode, ECC, the
 * power limit (enforced and default) and MIG, one JSON member a line, each
 * followed by a comma. NVML is opened at run time; without it, or for a
 * setting the card does not have, nothing is printed.
 */
static void print_settings(int dev)
{
	void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	char bus[32];
	void *h = NULL;
	if (!lib || cudaDeviceGetPCIBusId(bus, sizeof bus, dev) != cudaSuccess)
		return;
	typedef int (*init_fn)(void);
	typedef int (*handle_fn)(const char *, void **);
	typedef int (*one_fn)(void *, unsigned *);
	typedef int (*two_fn)(void *, unsigned *, unsigned *);
	init_fn init = (init_fn)dlsym(lib, "nvmlInit_v2");
	handle_fn by_bus = (handle_fn)dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2");
	if (!init || !by_bus || init() != 0 || by_bus(bus, &h) != 0)
		return;
	one_fn persist = (one_fn)dlsym(lib, "nvmlDeviceGetPersistenceMode");
	two_fn ecc = (two_fn)dlsym(lib, "nvmlDeviceGetEccMode");
	one_fn limit = (one_fn)dlsym(lib, "nvmlDeviceGetEnforcedPowerLimit");
	one_fn deflimit = (one_fn)dlsym(lib, "nvmlDeviceGetPowerManagementDefaultLimit");
	two_fn mig = (two_fn)dlsym(lib, "nvmlDeviceGetMigMode");
	unsigned v, w;
	if (persist && persist(h, &v) == 0)
		printf("  \"persistence_mode\": %s,\n", v ? "true" : "false");
	if (ecc && ecc(h, &v, &w) == 0)
		printf("  \"ecc\": %s,\n", v ? "true" : "false");
	if (limit && limit(h, &v) == 0)
		printf("  \"power_limit_w\": %.0f,\n", v / 1000.0);
	if (deflimit && deflimit(h, &v) == 0)
		printf("  \"power_default_limit_w\": %.0f,\n", v / 1000.0);
	if (mig && mig(h, &v, &w) == 0)
		printf("  \"mig\": %s,\n", v ? "true" : "false");
}

int main(void)
{
	int dev = 0, driver = 0, runtime = 0;
	cudaDeviceProp p;
	cudaError_t err = cudaGetDeviceProperties(&p, dev);
	if (err != cudaSuccess) {
		fprintf(stderr, "probe: %s\n", cudaGetErrorString(err));
		return 1;
	}
	cudaDriverGetVersion(&driver);
	cudaRuntimeGetVersion(&runtime);
	int cc = p.major * 10 + p.minor;
	int sm_khz = attr(cudaDevAttrClockRate, dev);
	int mem_khz = attr(cudaDevAttrMemoryClockRate, dev);
	int bus = attr(cudaDevAttrGlobalMemoryBusWidth, dev);
	char uuid[64];
	const unsigned char *u = (const unsigned char *)p.uuid.bytes;
	snprintf(uuid, sizeof uuid,
	         "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
	         "%02x%02x%02x%02x%02x%02x",
	         u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
	         u[10], u[11], u[12], u[13], u[14], u[15]);
	printf("{\n");
	printf("  \"gpu\": \"%s\",\n", p.name);
	printf("  \"uuid\": \"%s\",\n", uuid);
	printf("  \"cc\": \"%d.%d\",\n", p.major, p.minor);
	printf("  \"arch\": \"sm_%d\",\n", cc);
	printf("  \"sm_count\": %d,\n", p.multiProcessorCount);
	printf("  \"sm_clock_mhz\": %d,\n", sm_khz / 1000);
	printf("  \"mem_clock_mhz\": %d,\n", mem_khz / 1000);
	printf("  \"bus_width_bits\": %d,\n", bus);
	printf("  \"memory_bytes\": %zu,\n", p.totalGlobalMem);
	printf("  \"l2_bytes\": %d,\n", p.l2CacheSize);
	printf("  \"smem_per_sm_bytes\": %zu,\n", p.sharedMemPerMultiprocessor);
	printf("  \"smem_per_block_optin_bytes\": %zu,\n", p.sharedMemPerBlockOptin);
	printf("  \"regs_per_sm\": %d,\n", p.regsPerMultiprocessor);
	printf("  \"max_threads_per_sm\": %d,\n", p.maxThreadsPerMultiProcessor);
	printf("  \"max_blocks_per_sm\": %d,\n", p.maxBlocksPerMultiProcessor);
	printf("  \"warp_size\": %d,\n", p.warpSize);
	print_settings(dev);
	printf("  \"cuda_driver\": \"%d.%d\",\n", driver / 1000, driver % 1000 / 10);
	printf("  \"cuda_runtime\": \"%d.%d\",\n", runtime / 1000, runtime % 1000 / 10);
	printf("  \"bw_theoretical_gbps\": %.1f\n",
	       mem_khz * 1e3 * 2.0 * bus / 8 / 1e9);
	printf("}\n");
	return 0;
}
