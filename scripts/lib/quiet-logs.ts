// The operator's commands print their results on stdout, where the server's JSON log lines would
// also go: only errors may be logged. Imported first, before anything that loads the logger.
if (process.env.LOG_LEVEL !== "silent") process.env.LOG_LEVEL = "error";
