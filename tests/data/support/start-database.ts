// Run by the concurrency test as a separate process: the same start-up the server performs.
import { closeDatabase, initDatabase } from "~/db/index.server";
import { seedSampleContent } from "~/features/content/db/content-import.server";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
await initDatabase({ DATABASE_URL: url, DATABASE_POOL_SIZE: 2, SEED: "auto" }, seedSampleContent);
await closeDatabase();
