// Types of ./rolling-restart.mjs (plain JavaScript, so that a server needs only Node.js to run it).

export type RollingServer = {
  /** host:port as on its `server` line in the site file's upstream block. */
  address: string;
  /** Its own /healthz, reached directly (not through nginx). */
  healthUrl: string;
  /** Stops it gracefully (SIGTERM, waits for the exit) and starts it again. */
  restart: () => Promise<void>;
};

export type RollingOptions = {
  /** The nginx site file holding `upstream quorvant { ... }`. */
  siteFile: string;
  /** Restarted in this order. */
  servers: RollingServer[];
  /** Checks nginx's configuration and reloads it (graceful). */
  reload: () => Promise<void>;
  /** nginx's pid file (its `pid` directive), to wait for the workers from before a reload; /run/nginx.pid by default. */
  nginxPidFile?: string;
  /** Longest wait for nginx's old workers to finish (then the server is restarted anyway); 30 s by default. */
  drainTimeoutMs?: number;
  /** Longest wait for a restarted server to answer 200; 60 s by default. */
  healthyWithinMs?: number;
  log?: (line: string) => void;
};

export declare function rollingRestart(options: RollingOptions): Promise<void>;
export declare function upstreamServers(text: string): { address: string; down: boolean }[];
export declare function markDown(text: string, address: string, down: boolean): string;
