/*
 * live.c - what a site built live carries (live.h): live.js, which
 * reloads a page when the stamp it checks changes.
 */
#include "render/live.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* Loaded by every page of a live build: reload when the stamp changes. */
static const char live_js[] =
	"/* labbook watch: reload this page when a build changed the site. */\n"
	"(function () {\n"
	"\tvar seen = null;\n"
	"\twindow.labbook_live = function (stamp) {\n"
	"\t\tif (seen === null)\n"
	"\t\t\tseen = stamp;\n"
	"\t\telse if (stamp !== seen)\n"
	"\t\t\tlocation.reload();\n"
	"\t};\n"
	"\tfunction check() {\n"
	"\t\tvar s = document.createElement('script');\n"
	"\t\ts.src = 'live-stamp.js?' + Date.now();\n"
	"\t\ts.onload = s.onerror = function () {\n"
	"\t\t\ts.remove();\n"
	"\t\t\tsetTimeout(check, 700);\n"
	"\t\t};\n"
	"\t\tdocument.head.appendChild(s);\n"
	"\t}\n"
	"\tcheck();\n"
	"})();\n";

int live_assets_write(const char *site, int live)
{
	char *js = path_join(site, "live.js");
	char *stamp = path_join(site, LIVE_STAMP_FILE);
	int rc = 0;
	if (live) {
		size_t len;
		char *old = file_read(js, &len);
		if (!old || len != sizeof live_js - 1 || memcmp(old, live_js, len))
			rc = file_write_atomic(js, live_js, sizeof live_js - 1);
		free(old);
	} else {
		unlink(js);
		unlink(stamp);
	}
	free(js);
	free(stamp);
	return rc;
}
