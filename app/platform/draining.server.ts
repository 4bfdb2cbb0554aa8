// Whether this server is shutting down. Set once, when the server stops accepting connections and
// finishes the requests it has; /healthz then answers 503 so a balancer with health checks stops
// sending here before the server is gone.
let draining = false;

export function startDraining(): void {
  draining = true;
}

export function isDraining(): boolean {
  return draining;
}
