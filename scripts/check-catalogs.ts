// `npm run build`'s first step (and a test's): every message catalog has the English catalog's
// keys and no others, each message is ICU MessageFormat, and names the English message's arguments.
// Reads the site's catalogs, or those of the folder given as its argument.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { checkCatalogs } from "../app/features/i18n/catalog-check";

const DIR = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "../app/features/i18n/catalogs"));
const catalogs: Record<string, unknown> = {};
for (const file of readdirSync(DIR).filter((name) => name.endsWith(".json"))) {
  try {
    catalogs[file.replace(/\.json$/, "")] = JSON.parse(readFileSync(path.join(DIR, file), "utf8"));
  } catch (error) {
    catalogs[file.replace(/\.json$/, "")] = undefined;
    console.error(`${file}: not JSON (${(error as Error).message})`);
    process.exitCode = 1;
  }
}
const problems = checkCatalogs(catalogs, "en");
for (const problem of problems) console.error(`message catalog ${problem}`);
if (problems.length) process.exitCode = 1;
else if (!process.exitCode) console.log(`message catalogs: ${Object.keys(catalogs).sort().join(", ")} complete and valid`);
