import Database from "better-sqlite3";

/**
 * Runs SQL directly against a running server's SQLite file, as an editor's tool or an operator
 * would. WAL mode lets the server keep reading while we write.
 */
export function withDatabase<T>(databasePath: string, work: (db: Database.Database) => T): T {
  const db = new Database(databasePath);
  db.pragma("busy_timeout = 5000");
  try {
    return work(db);
  } finally {
    db.close();
  }
}
