// Run by the concurrency test as a separate process: the same start-up the server performs.
import { closeDatabase, initDatabase } from "~/lib/db/index.server";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
await initDatabase({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2, SEED: "auto" });
await closeDatabase();
