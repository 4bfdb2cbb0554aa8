import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";
import type { Kysely } from "kysely";
import sharp from "sharp";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encodeVariant } from "~/features/media/image-encoding.server";
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES, ALT_MESSAGES, mediaVariantUrl } from "~/features/media/media";
import { mediaFile } from "~/features/media/media-files.server";
import { changeAlt, deleteMedia, imageLookupFor, listMedia, storeUpload, type MediaActor } from "~/features/media/media.server";
import { createUser } from "~/features/auth/db/admin-users.server";
import { insertRevision, type PostFields } from "~/features/blog/db/post-editing.server";
import { listAuditEntries } from "~/features/audit/db/audit-log.server";
import { closeDatabase } from "~/db/index.server";
import type { Database } from "~/db/schema";
import { addPost } from "./support/fixtures";
import { engines } from "./support/engines";
import { migratedDatabase } from "./support/migrated-database";

// Uploaded images on both engines: what is taken (by content, within the caps, metadata gone) and
// what is refused (each hostile file with its own message, nothing stored), the audit entries of
// every write, images in use kept, and the files made from them once, on first request.

vi.mock("~/features/media/image-encoding.server", async (importOriginal) => {
  const original = await importOriginal<typeof import("~/features/media/image-encoding.server")>();
  return { ...original, encodeVariant: vi.fn(original.encodeVariant) };
});

/** A PNG chunk: length, type, data, CRC of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real decompression bomb: a valid black 1-bit PNG of width × height pixels whose rows of zeros
 * deflate a thousand to one (30,000 × 30,000 is about 110 KB on disk, 900 megapixels decoded).
 */
function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter method, no interlace
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // each row: filter type 0, then zeros
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(raw, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A photo-like JPEG (noise compresses badly, like a photo), with camera details and a GPS position. */
async function cameraJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } })
    .jpeg({ quality: 80 })
    .withExif({ IFD0: { Make: "Quorvant Cam", Model: "Q1" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1" } })
    .withMetadata({ orientation: 6 }) // taken sideways: shown rotated a quarter turn
    .toBuffer();
}

const file = (bytes: Buffer, name: string, type = "application/octet-stream") => new File([new Uint8Array(bytes)], name, { type });

for (const { engine, skip } of await engines()) {
  describe.skipIf(skip)(`media on ${engine.name}`, () => {
    let db: Kysely<Database>;
    let actor: MediaActor;
    let cacheDir: string;

    beforeEach(async () => {
      ({ db } = await migratedDatabase(engine, 4));
      const user = await createUser(db, { email: `editor-${randomUUID()}@quorvant.com`, roles: ["editor"] });
      actor = { id: user.id, email: user.email, ip: "192.0.2.7" };
      cacheDir = mkdtempSync(path.join(os.tmpdir(), "quorvant-media-"));
    });
    afterEach(async () => {
      await db.destroy();
      rmSync(cacheDir, { recursive: true, force: true });
    });
    afterAll(async () => {
      await closeDatabase();
      await engine.cleanup();
    });

    const mediaRows = () => db.selectFrom("media").select(["id", "content_type", "alt"]).execute();
    const audit = async () => (await listAuditEntries(db, {}, { limit: 100 })).entries;

    it("stores a photo under its own name, turned upright, with its camera details and position removed, and audits it", async () => {
      const result = await storeUpload(db, file(await cameraJpeg(400, 200), "Holiday Photo.JPG", "image/jpeg"), "  A bay at dusk ", actor);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.image).toMatchObject({ width: 200, height: 400, alt: "A bay at dusk" });
      expect(result.image.url).toBe(`/media/${result.image.id}/holiday-photo.jpg`);

      const { data } = await db.selectFrom("media").select("data").where("id", "=", result.image.id).executeTakeFirstOrThrow();
      const stored = await sharp(Buffer.from(data)).metadata();
      expect(stored).toMatchObject({ format: "jpeg", width: 200, height: 400 });
      expect(stored.exif).toBeUndefined();
      expect(stored.orientation).toBeUndefined();
      expect(Buffer.from(data).includes("Quorvant Cam")).toBe(false);

      const [entry] = await audit();
      expect(entry).toMatchObject({
        action: "media.uploaded",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "media",
        targetId: result.image.id,
        ip: "192.0.2.7",
      });
      expect(entry!.details).toMatchObject({ name: "Holiday Photo.JPG", type: "image/jpeg", width: 200, height: 400 });
    });

    it("refuses hostile files, each with its own message, and stores nothing", async () => {
      const jpeg = await cameraJpeg(600, 400);
      const hostile = [
        { name: "page.png", bytes: Buffer.from("<!doctype html><html><body><script>alert(1)</script></body></html>"), expected: UPLOAD_MESSAGES.notImage },
        { name: "huge.png", bytes: pngBomb(30_000, 30_000), expected: UPLOAD_MESSAGES.tooManyPixels(30_000, 30_000) },
        { name: "cut.jpg", bytes: jpeg.subarray(0, Math.floor(jpeg.length / 2)), expected: UPLOAD_MESSAGES.damaged },
        {
          name: "logo.svg",
          bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>'),
          expected: UPLOAD_MESSAGES.svg,
        },
      ];
      expect(hostile[1]!.bytes.length).toBeLessThan(MAX_UPLOAD_BYTES);
      const messages: string[] = [];
      for (const { name, bytes, expected } of hostile) {
        const result = await storeUpload(db, file(bytes, name, "image/png"), "An image", actor);
        expect(result, name).toEqual({ ok: false, fieldErrors: { file: expected } });
        messages.push(expected);
      }
      expect(new Set(messages).size).toBe(hostile.length);
      expect(messages[1]).toContain("30,000 × 30,000 pixels");
      expect(messages[1]).toContain("40 megapixels");
      expect(await mediaRows()).toEqual([]);
      expect(await audit()).toEqual([]);
    });

    it("refuses a file over 10 MB, a missing file and missing alt text, storing nothing", async () => {
      const big = await storeUpload(db, file(Buffer.alloc(MAX_UPLOAD_BYTES + 1), "big.jpg"), "Big", actor);
      expect(big).toEqual({ ok: false, fieldErrors: { file: UPLOAD_MESSAGES.tooLarge } });
      const none = await storeUpload(db, file(Buffer.alloc(0), ""), "", actor);
      expect(none).toEqual({ ok: false, fieldErrors: { file: UPLOAD_MESSAGES.missing, alt: ALT_MESSAGES.missing } });
      const noAlt = await storeUpload(db, file(await cameraJpeg(40, 40), "a.jpg"), " \n ", actor);
      expect(noAlt).toEqual({ ok: false, fieldErrors: { alt: ALT_MESSAGES.missing } });
      expect(await mediaRows()).toEqual([]);
      expect(await audit()).toEqual([]);
    });

    it("stores a PNG named .jpg as the PNG it is", async () => {
      const png = await sharp({ create: { width: 64, height: 32, channels: 4, background: "#2f4fd8aa" } }).png().toBuffer();
      const result = await storeUpload(db, file(png, "diagram.jpg", "image/jpeg"), "A diagram", actor);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.image.url).toBe(`/media/${result.image.id}/diagram.png`);
      expect(await mediaRows()).toEqual([{ id: result.image.id, content_type: "image/png", alt: "A diagram" }]);
      const { data } = await db.selectFrom("media").select("data").executeTakeFirstOrThrow();
      expect((await sharp(Buffer.from(data)).metadata()).format).toBe("png");
    });

    it("audits alt text changes; keeps an image a post uses, by image_url or in its body; deletes it once unused", async () => {
      const stored = await storeUpload(db, file(await cameraJpeg(300, 200), "team.jpg"), "The team", actor);
      if (!stored.ok) throw new Error("upload failed");
      const { id, url } = stored.image;

      expect(await changeAlt(db, id, "", actor)).toEqual({ ok: false, fieldErrors: { alt: ALT_MESSAGES.missing } });
      expect(await changeAlt(db, id, "The team at the offsite", actor)).toEqual({ ok: true });
      expect(await changeAlt(db, randomUUID(), "Nothing", actor)).toEqual({ ok: false, notFound: true });

      const cover = await addPost(db, { title: "Cover story", published_date: "2026-01-01T00:00:00.000Z" });
      await db.updateTable("blog_posts").set({ image_url: url }).where("id", "=", cover.id).execute();
      const inline = await addPost(db, { title: "Inline story", published_date: "2026-01-02T00:00:00.000Z", published: false });
      await db
        .updateTable("blog_posts")
        .set({ content: `Intro\n\n![The team](https://quorvant.com${url})\n` })
        .where("id", "=", inline.id)
        .execute();

      const [item] = await listMedia(db);
      // Taken sideways: stored upright.
      expect(item).toMatchObject({ id, alt: "The team at the offsite", type: "JPEG", width: 200, height: 300 });
      expect(item!.usedBy.map((post) => [post.title, post.published])).toEqual([
        ["Cover story", true],
        ["Inline story", false],
      ]);

      expect(await deleteMedia(db, id, actor)).toEqual({ ok: false, usedBy: ["Cover story", "Inline story"] });
      await db.updateTable("blog_posts").set({ image_url: null }).where("id", "=", cover.id).execute();
      expect(await deleteMedia(db, id, actor)).toEqual({ ok: false, usedBy: ["Inline story"] });
      await db.updateTable("blog_posts").set({ content: "No images now" }).where("id", "=", inline.id).execute();
      expect(await deleteMedia(db, id, actor)).toEqual({ ok: true });
      expect(await mediaRows()).toEqual([]);

      const entries = (await audit()).reverse();
      expect(entries.map((entry) => entry.action)).toEqual(["media.uploaded", "media.alt-changed", "media.deleted"]);
      expect(entries[1]!.details).toEqual({ from: "The team", to: "The team at the offsite" });
      expect(entries.every((entry) => entry.targetId === id && entry.actorId === actor.id)).toBe(true);
    });

    it("keeps an image referred to in any spelling the server resolves, or by a revision; deletes one nobody refers to", async () => {
      const upload = async (name: string) => {
        const stored = await storeUpload(db, file(await cameraJpeg(64, 48), name), "An image", actor);
        if (!stored.ok) throw new Error("upload failed");
        return stored.image.id;
      };
      const id = await upload("team.jpg");
      const unused = await upload("unused.jpg");
      const post = await addPost(db, { title: "Spelled story", published_date: "2026-01-01T00:00:00.000Z" });
      const setPost = (values: { content?: string; image_url?: string | null }) =>
        db.updateTable("blog_posts").set(values).where("id", "=", post.id).execute();
      const usedBy = async () => (await listMedia(db)).find((item) => item.id === id)!.usedBy.map((use) => [use.title, use.onlyInRevisions]);

      const spellings = [
        `![The team](/%6Dedia/${id}/team.jpg)`, // percent-encoded letters: redirected to /media/…
        `![The team](/%6D%65%64%69%61/%${id.charCodeAt(0).toString(16)}${id.slice(1)}/team.jpg)`, // the id's letters too
        `![The team](/media/${id}/other-name.jpg)`, // another name for the same image
        `![The team](https://quorvant.com/media/${id}/x.jpg)`, // the site's own address
        `Intro with [a link](/resources/../media//${id}/team.jpg) to it.`, // dot segment, doubled slash
        `LINK: &#47;media/${id}/team.jpg - The team`,
        `[The team](&#x2F;&#109;edia/${id}/team.jpg)`, // entities, decoded in a Markdown link
      ];
      for (const content of spellings) {
        await setPost({ content });
        expect(await usedBy(), content).toEqual([["Spelled story", false]]);
        expect(await deleteMedia(db, id, actor), content).toEqual({ ok: false, usedBy: ["Spelled story"] });
      }
      await setPost({ content: "No images now", image_url: `/%6Dedia/${id}/team.jpg` });
      expect(await deleteMedia(db, id, actor)).toEqual({ ok: false, usedBy: ["Spelled story"] });
      await setPost({ image_url: null });

      // A draft revision still names it: restoring that revision would bring it back.
      const snapshot: PostFields = {
        title: "Spelled story",
        slug: null,
        excerpt: "Excerpt",
        content: `Draft\n\n![The team](/%6Dedia/${id}/team.jpg)\n`,
        category: "Security",
        author: "Ada",
        published_date: "2026-01-01T00:00:00.000Z",
        read_time: 1,
        read_time_manual: false,
        image_url: null,
        featured: false,
        published: false,
      };
      await db.transaction().execute((trx) => insertRevision(trx, post.id, 1, snapshot, "Draft", null));
      expect(await usedBy()).toEqual([["Spelled story", true]]);
      expect(await deleteMedia(db, id, actor)).toEqual({ ok: false, usedBy: ["Spelled story (an earlier revision)"] });
      await db
        .updateTable("blog_post_revisions")
        .set({ snapshot: JSON.stringify({ ...snapshot, content: "Draft without images" }) })
        .where("post_id", "=", post.id)
        .execute();

      // Not uses: a name that only looks like the path, another site's protocol-relative address.
      await setPost({ content: `media/${id}/team.jpg is not a path; nor is //media/${id}/team.jpg` });
      expect(await usedBy()).toEqual([]);
      expect(await deleteMedia(db, unused, actor)).toEqual({ ok: true });
      expect(await deleteMedia(db, id, actor)).toEqual({ ok: true });
      expect(await mediaRows()).toEqual([]);
    });

    it("draws an uploaded image as a <picture> of AVIF and WebP variants with its intrinsic size", async () => {
      const stored = await storeUpload(db, file(await cameraJpeg(2000, 1000), "wide.jpg"), "Wide", actor);
      if (!stored.ok) throw new Error("upload failed");
      const pictures = await imageLookupFor(db, [`Body with ![x](${stored.image.url})`]);
      const picture = pictures(stored.image.url);
      // Upright: 1000 wide and 2000 high, so variants at 480 and 800 and its own 1000.
      expect(picture).toEqual({
        src: mediaVariantUrl({ id: stored.image.id, fileName: "wide" }, "image/jpeg", 1000),
        width: 1000,
        height: 2000,
        sources: ["avif", "webp"].map((extension) => ({
          type: `image/${extension}`,
          srcSet: [480, 800, 1000].map((width) => `/media/${stored.image.id}/wide.${width}w.${extension} ${width}w`).join(", "),
        })),
      });
      expect(pictures(`/media/${stored.image.id}/other-name.jpg`)).toBeNull();
      expect(pictures(`/media/${randomUUID()}/wide.jpg`)).toBeNull();
      expect(pictures("https://example.com/a.jpg")).toBeNull();
    });

    it("makes each file once, on its first request, even when requests arrive together; nothing else is served", async () => {
      const stored = await storeUpload(db, file(await cameraJpeg(900, 600), "once.jpg"), "Once", actor);
      if (!stored.ok) throw new Error("upload failed");
      const { id } = stored.image;
      const encode = vi.mocked(encodeVariant);
      encode.mockClear();

      const variant = `/media/${id}/once.480w.avif`;
      const files = await Promise.all([1, 2, 3, 4].map(() => mediaFile(db, variant, cacheDir)));
      expect(encode).toHaveBeenCalledTimes(1);
      const first = files[0]!;
      expect(files.every((each) => each && "path" in each && "path" in first && each.path === first.path)).toBe(true);
      if (!("path" in first)) throw new Error("not written to disk");
      expect(first.contentType).toBe("image/avif");
      expect(await sharp(readFileSync(first.path)).metadata()).toMatchObject({ format: "heif", compression: "av1", width: 480 });
      const written = statSync(first.path).mtimeMs;
      await mediaFile(db, variant, cacheDir);
      expect(encode).toHaveBeenCalledTimes(1);
      expect(statSync(first.path).mtimeMs).toBe(written);

      const original = await mediaFile(db, `/media/${id}/once.jpg`, cacheDir);
      expect(original && "path" in original && readFileSync(original.path).length).toBe(
        Number((await db.selectFrom("media").select("bytes").executeTakeFirstOrThrow()).bytes),
      );
      // Another width, format, name or id is not an image of the library.
      for (const other of [`/media/${id}/once.1600w.avif`, `/media/${id}/once.480w.png`, `/media/${id}/twice.480w.avif`, `/media/${randomUUID()}/once.jpg`]) {
        expect(await mediaFile(db, other, cacheDir), other).toBeUndefined();
      }
      expect(encode).toHaveBeenCalledTimes(1);
      expect(existsSync(path.join(cacheDir, id))).toBe(true);
    });
  });
}
