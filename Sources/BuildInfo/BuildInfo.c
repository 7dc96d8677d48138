#include "BuildInfo.h"

#ifndef DITTO_BUILD_COMMIT
#define DITTO_BUILD_COMMIT ""
#endif
#ifndef DITTO_BUILD_DATE
#define DITTO_BUILD_DATE ""
#endif

const char *ditto_build_commit(void) { return DITTO_BUILD_COMMIT; }

const char *ditto_build_date(void) { return DITTO_BUILD_DATE; }
