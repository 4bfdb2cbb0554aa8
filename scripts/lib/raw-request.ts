import { request } from "node:http";

export type RawResponse = { status: number; headers: Record<string, string>; body: Buffer };

/**
 * One HTTP request whose answer comes back exactly as sent: headers flattened to strings, the
 * body as bytes, compressed bodies not decoded (fetch would decode them).
 */
export function rawRequest(
  url: string,
  { method = "GET", headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const flat: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = String(value);
        resolve({ status: res.statusCode ?? 0, headers: flat, body: Buffer.concat(chunks) });
      });
    })
      .on("error", reject)
      .end();
  });
}
