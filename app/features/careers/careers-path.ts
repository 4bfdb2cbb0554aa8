// The careers page's address, alone: the shared code every page loads (the page cache's query
// rules) needs it, not the rest of the careers code.
export const CAREERS_PATH = "/company/careers";
