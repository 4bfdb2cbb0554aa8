import { pino } from "pino";

// One JSON line per event on stdout. The level comes from LOG_LEVEL (read directly so that
// modules can log before the rest of the configuration is validated).
const level = process.env.LOG_LEVEL ?? "info";

export const logger = pino({
  level: ["debug", "info", "warn", "error", "silent"].includes(level) ? level : "info",
  base: undefined,
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
});
