// Production entry: `npm start`. Everything else lives in server/app.ts (compiled by `npm run build`).
import { startServer } from "./build/server/index.js";

await startServer();
