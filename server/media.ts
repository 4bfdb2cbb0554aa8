import path from "node:path";
import type { RequestHandler } from "express";
import { mediaFile, mediaFileMissing } from "~/features/media/media-files.server";
import { getDb } from "~/db/index.server";
import { logger } from "~/platform/logger.server";
import { isUuid } from "~/db/normalize";
import type { Env } from "~/env.server";
import { surrogateKeyHeaders } from "~/features/cdn/shared-cache.server";
import { MEDIA_KEY, mediaKey } from "~/features/cdn/surrogate-keys";

/**
 * Uploaded images and their responsive variants at /media/<id>/<file>. An id's bytes never
 * change and ids are never reused, so every answer is cached as immutable, like /assets. The
 * first request for a file makes it from the database; after that it is a file on this server's
 * disk, sent the way express.static sends the built-in images.
 */
export function mediaFiles(cacheDir: string, style: Env["CDN_PURGE_STYLE"] = "fastly"): RequestHandler {
  const root = path.resolve(cacheDir);
  const notFound = (res: Parameters<RequestHandler>[1]) =>
    res.status(404).set("Cache-Control", "no-store").type("text/plain").send("Not found.");
  return async (req, res, next) => {
    const pathname = req.baseUrl + req.path;
    try {
      const send = async (retried: boolean): Promise<void> => {
        const file = await mediaFile(getDb(), pathname, root);
        if (!file) return void notFound(res);
        res.set("Content-Type", file.contentType);
        // A CDN keeps it for good too; deleting the image purges it (its id's key).
        const id = pathname.split("/")[2]?.toLowerCase();
        if (id && isUuid(id)) res.set(surrogateKeyHeaders([MEDIA_KEY, mediaKey(id)], style));
        if ("data" in file) {
          res.set("Cache-Control", "public, max-age=31536000, immutable").send(file.data);
          return;
        }
        // Relative to the cache folder, so only the file's own path is checked for dot segments: the
        // folder itself may well sit under one (~/.cache, a test's .e2e), which must not forbid every file.
        const options = { root, maxAge: "1y", immutable: true, dotfiles: "deny" as const };
        res.sendFile(path.relative(root, file.path), options, (error?: NodeJS.ErrnoException) => {
          if (!error || res.headersSent) return;
          if (error.code === "ENOENT" && !retried) {
            mediaFileMissing(file.path);
            send(true).catch(next);
          } else next(error);
        });
      };
      await send(false);
    } catch (error) {
      logger.error({ requestId: res.locals.requestId, err: error, path: pathname }, "media file could not be made");
      if (!res.headersSent)
        res.status(500).set("Cache-Control", "no-store").type("text/plain").send("The image cannot be served right now.");
    }
  };
}
