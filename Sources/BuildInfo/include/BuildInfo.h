#ifndef DITTO_BUILD_INFO_H
#define DITTO_BUILD_INFO_H

/// The commit this binary was built from, as scripts/release passes it
/// (-Xcc -DDITTO_BUILD_COMMIT="…"); "" for other builds.
const char *ditto_build_commit(void);

/// The date it was built, ISO 8601 (-Xcc -DDITTO_BUILD_DATE="…"); "" for other builds.
const char *ditto_build_date(void);

#endif
