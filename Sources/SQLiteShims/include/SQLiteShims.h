#ifndef DITTO_SQLITE_SHIMS_H
#define DITTO_SQLITE_SHIMS_H

#include <sqlite3.h>

/// Non-variadic wrappers around the variadic parts of the SQLite C API, which Swift cannot call.

/// `sqlite3_db_config(db, op, value, NULL)` for the integer on/off options
/// (SQLITE_DBCONFIG_DEFENSIVE, SQLITE_DBCONFIG_TRUSTED_SCHEMA, ...). Returns the SQLite result code.
int ditto_sqlite3_db_config_flag(sqlite3 *db, int op, int value);

/// Option numbers, exported as functions so Swift sees them on SQLite versions whose headers lack them.
int ditto_sqlite3_dbconfig_defensive(void);
int ditto_sqlite3_dbconfig_trusted_schema(void);
int ditto_sqlite3_dbconfig_enable_trigger(void);
int ditto_sqlite3_dbconfig_enable_view(void);
int ditto_sqlite3_dbconfig_enable_load_extension(void);
int ditto_sqlite3_dbconfig_no_ckpt_on_close(void);

/// `SQLITE_TRANSIENT`: tells SQLite to copy bound bytes before the call returns.
sqlite3_destructor_type ditto_sqlite3_transient(void);

#endif
