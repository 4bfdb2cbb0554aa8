import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { pinoHttp } from "pino-http";
import { logSafeUrl } from "~/platform/log-safe-url";

// One JSON line per answered request: method, URL, status, time and the request's id (also sent as
// X-Request-Id). The URL goes through logSafeUrl: no credential in a path, and no value of the
// query string that may name a person (a search term, an address), since logs outlive an erasure.

export function requestLogger(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => {
      const id = randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    customAttributeKeys: { reqId: "requestId" },
    quietReqLogger: true,
    serializers: {
      req: (req) => ({ method: req.method, url: logSafeUrl(req.url) }),
      res: (res) => ({ statusCode: res.statusCode }),
    },
  });
}
