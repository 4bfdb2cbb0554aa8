import { mkdtempSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { rawRequest } from "../../scripts/lib/raw-request";
import { test, expect } from "./support/fixtures";
import { auditActions, backOfficeServerForThisFile, csrfToken, signInAs } from "./support/back-office";
import { withDatabase } from "./support/database";

// An editor uploads an image with its alt text in the browser, finds it in the library, sees it
// drawn as a <picture> of AVIF and WebP variants once a post uses it, and cannot delete it while
// the post does. A hostile file is refused next to its field; sales may not open the library.

const server = backOfficeServerForThisFile(() => ({
  MEDIA_CACHE_DIR: mkdtempSync(path.join(path.resolve(process.env.E2E_DIR ?? ".e2e"), "media-cache-")),
}));
// Each test signs people in with passkeys and encodes images: more than the suite's 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test("an editor uploads an image that a post then shows as a responsive picture, and cannot delete it while in use", async ({
  browser,
}) => {
  const editor = await signInAs(browser, server, ["editor"]);
  const { page } = editor;
  await page.goto(`${server.url}/admin/media`);
  await expect(page.getByRole("heading", { level: 1, name: "Media" })).toBeVisible();

  // An HTML page named like a PNG: refused next to the file field, nothing stored.
  await page.getByLabel("Image file").setInputFiles({
    name: "harbour.png",
    mimeType: "image/png",
    buffer: Buffer.from("<!doctype html><title>Not an image</title><script>alert(1)</script>"),
  });
  await page.getByRole("region", { name: "Upload an image" }).getByLabel("Alt text").fill("Boats in the harbour");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("This file is not an image the site can use")).toBeVisible();
  await expect(page.getByLabel("Image file")).toHaveAttribute("aria-invalid", "true");
  expect(withDatabase(server.databasePath, (db) => db.prepare("SELECT count(*) AS n FROM media").get())).toEqual({ n: 0 });

  const photo = await sharp({
    create: { width: 1800, height: 1200, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 120, sigma: 30 } },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  await page.getByLabel("Image file").setInputFiles({ name: "Harbour at dawn.jpg", mimeType: "image/jpeg", buffer: photo });
  await page.getByRole("region", { name: "Upload an image" }).getByLabel("Alt text").fill("Boats in the harbour");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Uploaded (1800 × 1200)")).toBeVisible();

  const item = page.getByRole("listitem", { name: "Boats in the harbour" });
  await expect(item).toContainText("Harbour at dawn.jpg");
  await expect(item).toContainText("JPEG, 1800 × 1200");
  await expect(item).toContainText("Not used by any post.");
  // Its thumbnail is one of its own variants, made by this server on request.
  const thumbnail = item.getByRole("img", { name: "Boats in the harbour" });
  await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
  expect(await thumbnail.evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(
    /\/media\/[0-9a-f-]{36}\/harbour-at-dawn\.480w\.avif$/,
  );

  const { id, url } = withDatabase(server.databasePath, (db) => {
    const row = db.prepare("SELECT id, file_name FROM media").get() as { id: string; file_name: string };
    return { id: row.id, url: `/media/${row.id}/${row.file_name}.jpg` };
  });
  expect(url).toBe(`/media/${id}/harbour-at-dawn.jpg`);
  expect(auditActions(server, "action LIKE 'media.%'")).toEqual(["media.uploaded"]);

  // A post takes it as its image (the post editor is another page: set here in the database).
  const post = withDatabase(server.databasePath, (db) =>
    db
      .prepare(
        "SELECT id, slug, title FROM blog_posts WHERE published = 1 AND slug IS NOT NULL ORDER BY published_date DESC LIMIT 1",
      )
      .get(),
  ) as { id: string; slug: string; title: string };
  const card = `${server.url}/resources/blog/${post.slug}/og.png`;
  const cardBefore = await page.request.get(card);
  expect(cardBefore.status()).toBe(200);
  withDatabase(server.databasePath, (db) =>
    db.prepare("UPDATE blog_posts SET image_url = ?, updated_at = ? WHERE id = ?").run(url, new Date().toISOString(), post.id),
  );

  const visitor = await browser.newPage();
  const picture = visitor.locator("article picture").filter({ has: visitor.locator(`img[src^="/media/${id}/"]`) });
  // Pages are cached for a second: the edit shows on the next render.
  await expect(async () => {
    await visitor.goto(`${server.url}/resources/blog/${post.slug}`);
    await expect(picture).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  const sources = await picture
    .locator("source")
    .evaluateAll((elements) => elements.map((source) => [source.getAttribute("type"), source.getAttribute("srcset")]));
  expect(sources.map(([type]) => type)).toEqual(["image/avif", "image/webp"]);
  for (const [type, srcset] of sources) {
    const extension = type!.replace("image/", "");
    expect(srcset).toBe(
      [480, 800, 1200, 1600].map((width) => `/media/${id}/harbour-at-dawn.${width}w.${extension} ${width}w`).join(", "),
    );
  }
  const image = picture.locator("img");
  await expect(image).toHaveAttribute("width", "1600");
  await expect(image).toHaveAttribute("height", "1067");
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
  expect(await image.evaluate((element: HTMLImageElement) => element.currentSrc)).toMatch(
    new RegExp(`/media/${id}/harbour-at-dawn\\.\\d+w\\.avif$`),
  );
  const variant = await visitor.request.get(`${server.url}/media/${id}/harbour-at-dawn.800w.webp`);
  expect(variant.status()).toBe(200);
  expect(variant.headers()["content-type"]).toBe("image/webp");
  expect(variant.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect((await sharp(await variant.body()).metadata()).width).toBe(800);
  expect((await visitor.request.get(`${server.url}/media/${id}/harbour-at-dawn.900w.webp`)).status()).toBe(404);
  await visitor.close();

  // Its social card is a new one, drawn over the image.
  const cardAfter = await page.request.get(card);
  expect(cardAfter.status()).toBe(200);
  expect(cardAfter.headers().etag).not.toBe(cardBefore.headers().etag);

  // Back in the library (still showing the image as unused), the editor tries to delete it.
  await item.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("alert")).toContainText(`This image is used by “${post.title}”`);
  await expect(item).toContainText("Used by:");
  await expect(item.getByRole("link", { name: post.title })).toBeVisible();
  expect(withDatabase(server.databasePath, (db) => db.prepare("SELECT count(*) AS n FROM media").get())).toEqual({ n: 1 });
  expect(auditActions(server, "action LIKE 'media.%'")).toEqual(["media.uploaded"]);

  // Its alt text can still change, and that is audited.
  await item.getByLabel("Alt text").fill("Fishing boats in the harbour at dawn");
  await item.getByRole("button", { name: "Save alt text" }).click();
  await expect(page.getByText("The alt text was saved.")).toBeVisible();
  expect(auditActions(server, "action LIKE 'media.%'")).toEqual(["media.uploaded", "media.alt-changed"]);
  await editor.context.close();
});

test("a file over 10 MB is refused with its message and nothing stored; a body far over it is cut off by the server", async ({
  browser,
}) => {
  const editor = await signInAs(browser, server, ["editor"]);
  const { page } = editor;
  const csrf = await csrfToken(page);
  const count = () => withDatabase(server.databasePath, (db) => db.prepare("SELECT count(*) AS n FROM media").get());
  const before = count();
  const upload = (bytes: number) =>
    page.request.post(`${server.url}/admin/media`, {
      headers: { Origin: server.url, "Sec-Fetch-Site": "same-origin" },
      multipart: {
        csrf,
        intent: "upload",
        alt: "Too big",
        file: { name: "big.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(bytes, 0xff) },
      },
      maxRedirects: 0,
    });
  // Just over the cap: the parser stops at 10 MB and the page says so next to the field.
  const over = await upload(10_000_001);
  expect(over.status()).toBe(413);
  expect(await over.text()).toContain("The file is larger than 10 MB");
  // Far over (more than the path's body limit): refused from its Content-Length alone, unread.
  const cookies = (await editor.context.cookies()).map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  const far = await rawRequest(`${server.url}/admin/media`, {
    method: "POST",
    headers: {
      Origin: server.url,
      Cookie: cookies,
      "Content-Type": "multipart/form-data; boundary=x",
      "Content-Length": "12000000",
    },
  });
  expect(far.status).toBe(413);
  expect(far.body.toString()).toBe("Payload too large: An image upload is limited to 10 MB.");
  // Everywhere else a body stays limited to 64 KiB.
  const elsewhere = await page.request.post(`${server.url}/admin/account`, {
    headers: { Origin: server.url, "Sec-Fetch-Site": "same-origin" },
    multipart: { csrf, file: { name: "a.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(100_000) } },
    maxRedirects: 0,
  });
  expect(elsewhere.status()).toBe(413);
  expect(count()).toEqual(before);

  // In the browser the file is checked before it is sent.
  await page.goto(`${server.url}/admin/media`);
  await page
    .getByLabel("Image file")
    .setInputFiles({ name: "big.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(10_000_001) });
  await page.getByRole("region", { name: "Upload an image" }).getByLabel("Alt text").fill("Too big");
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("The file is larger than 10 MB")).toBeVisible();
  expect(count()).toEqual(before);
  await editor.context.close();
});

test("sales may not open the media library", async ({ browser }) => {
  const sales = await signInAs(browser, server, ["sales"]);
  const response = await sales.page.goto(`${server.url}/admin/media`);
  expect(response?.status()).toBe(403);
  await expect(sales.page.getByRole("heading", { name: "You don't have access to this page" })).toBeVisible();
  await expect(sales.page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Media" })).toHaveCount(0);
  await sales.context.close();
});
