#include "SQLiteShims.h"

int ditto_sqlite3_db_config_flag(sqlite3 *db, int op, int value) {
  int applied = 0;
  return sqlite3_db_config(db, op, value, &applied);
}

#ifndef SQLITE_DBCONFIG_TRUSTED_SCHEMA
#define SQLITE_DBCONFIG_TRUSTED_SCHEMA 1017
#endif
#ifndef SQLITE_DBCONFIG_ENABLE_VIEW
#define SQLITE_DBCONFIG_ENABLE_VIEW 1015
#endif
#ifndef SQLITE_DBCONFIG_DEFENSIVE
#define SQLITE_DBCONFIG_DEFENSIVE 1010
#endif

int ditto_sqlite3_dbconfig_defensive(void) { return SQLITE_DBCONFIG_DEFENSIVE; }
int ditto_sqlite3_dbconfig_trusted_schema(void) { return SQLITE_DBCONFIG_TRUSTED_SCHEMA; }
int ditto_sqlite3_dbconfig_enable_trigger(void) { return SQLITE_DBCONFIG_ENABLE_TRIGGER; }
int ditto_sqlite3_dbconfig_enable_view(void) { return SQLITE_DBCONFIG_ENABLE_VIEW; }
int ditto_sqlite3_dbconfig_enable_load_extension(void) { return SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION; }
int ditto_sqlite3_dbconfig_no_ckpt_on_close(void) { return SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE; }

sqlite3_destructor_type ditto_sqlite3_transient(void) { return SQLITE_TRANSIENT; }
