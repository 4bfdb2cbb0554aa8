import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { MediaPicker } from "~/features/media/admin/media-picker";
import { formatBytes, mediaFileName, mediaIdsIn, mediaPicture, mediaUrl, parseMediaPath } from "~/features/media/media";
import { mediaIdOfUrl, mediaIdsReferencedBy } from "~/features/media/media-references";

// Uploaded images' URLs: made from the image's id and a clean name, read back exactly, and never
// confused with anything else under /media.

const ID = "0b6c8a70-1111-4c3a-9a1b-123456789abc";

describe("media URLs", () => {
  it("names a file by the uploaded name's letters and digits", () => {
    expect(mediaFileName("Team Photo (1) Ünïcode.JPG")).toBe("team-photo-1-unicode");
    expect(mediaFileName("../../etc/passwd")).toBe("etc-passwd");
    expect(mediaFileName(".png")).toBe("image");
    expect(mediaFileName("photo.800w.png")).toBe("photo-800w");
    expect(mediaFileName(`${"a".repeat(100)}.png`)).toHaveLength(60);
  });

  it("reads back the image and its variants, and nothing else", () => {
    const url = mediaUrl({ id: ID, fileName: "team", contentType: "image/png" });
    expect(url).toBe(`/media/${ID}/team.png`);
    expect(parseMediaPath(url)).toEqual({ kind: "original", id: ID, fileName: "team", extension: "png" });
    expect(parseMediaPath(`/media/${ID}/team.800w.avif?x=1`)).toEqual({
      kind: "variant",
      id: ID,
      fileName: "team",
      width: 800,
      type: "image/avif",
    });
    for (const other of [
      `/media/${ID}/team.800w.gif`,
      `/media/${ID.toUpperCase()}/team.png`,
      `/media/${ID}/../team.png`,
      `/media/${ID}/sub/team.png`,
      `/media/not-an-id/team.png`,
      `/assets/media/${ID}/team.png`,
    ]) {
      expect(parseMediaPath(other), other).toBeUndefined();
    }
  });

  it("finds the images a post's text refers to, as site paths or absolute URLs", () => {
    const other = "1b6c8a70-1111-4c3a-9a1b-123456789abc";
    expect(
      mediaIdsIn([`![a](/media/${ID}/a.png)\n![b](https://quorvant.com/media/${other}/b.jpg) /media/${ID}/a.png`, null]),
    ).toEqual([ID, other]);
  });

  it("draws the same picture shape as built-in images: AVIF and WebP at the standard widths, never upscaled", () => {
    expect(
      mediaPicture({ id: ID, fileName: "wide", contentType: "image/png", width: 3000, height: 1000, hasAlpha: true }),
    ).toEqual({
      src: `/media/${ID}/wide.1600w.png`,
      width: 1600,
      height: 533,
      sources: ["avif", "webp"].map((extension) => ({
        type: `image/${extension}`,
        srcSet: [480, 800, 1200, 1600].map((width) => `/media/${ID}/wide.${width}w.${extension} ${width}w`).join(", "),
      })),
    });
    const small = mediaPicture({ id: ID, fileName: "s", contentType: "image/jpeg", width: 500, height: 500, hasAlpha: false });
    expect(small.src).toBe(`/media/${ID}/s.500w.jpg`);
    expect(small.sources[0]!.srcSet).toBe(`/media/${ID}/s.500w.avif 500w`);
  });

  it("writes sizes for people", () => {
    expect([formatBytes(10_000_000), formatBytes(1_234_567), formatBytes(340_000), formatBytes(12)]).toEqual([
      "10 MB",
      "1.2 MB",
      "340 KB",
      "1 KB",
    ]);
  });
});

describe("the media picker", () => {
  const image = (id: string, alt: string) => {
    const dimensions = { id, fileName: "photo", contentType: "image/jpeg" as const, width: 1000, height: 500, hasAlpha: false };
    return { id, url: mediaUrl(dimensions), alt, width: 1000, height: 500, picture: mediaPicture(dimensions) };
  };

  it("is a radio list of thumbnails posting the chosen image's URL, with the current one checked, without JavaScript", () => {
    const other = "1b6c8a70-1111-4c3a-9a1b-123456789abc";
    const html = renderToStaticMarkup(
      <MediaPicker
        images={[image(ID, "The team"), image(other, "The office")]}
        name="image_url"
        value={`/media/${other}/photo.jpg`}
      />,
    );
    const radios = [...html.matchAll(/<input[^>]*>/g)].map(([input]) => [
      /value="([^"]*)"/.exec(input)![1],
      input.includes("checked"),
    ]);
    expect(radios).toEqual([
      ["", false],
      [`/media/${ID}/photo.jpg`, false],
      [`/media/${other}/photo.jpg`, true],
    ]);
    expect(html).toContain("<legend");
    expect(html).toContain('type="image/avif"');
    expect(html).toContain("The office");
  });
});

describe("media references", () => {
  it("reads an image's id from every spelling of its address the server resolves to it", () => {
    for (const url of [
      `/media/${ID}/photo.jpg`,
      `/%6Dedia/${ID}/photo.jpg`,
      `/%6d%65%64%69%61/%30${ID.slice(1)}/photo.800w.webp`,
      `/media//${ID}/photo.jpg`,
      `/blog/../media/${ID}/photo.jpg`,
      `/blog/%2e%2e/media/${ID}/photo.jpg`,
      `\\media\\${ID}\\photo.jpg`,
      `https://quorvant.com/media/${ID}/another-name.jpg?v=1#top`,
      `HTTP://localhost:3000/media/${ID}/x.png`,
      `&#47;media/${ID}/photo.jpg`,
    ]) {
      expect(mediaIdOfUrl(url), url).toBe(ID);
    }
  });

  it("reads nothing from what is no address of an uploaded image", () => {
    for (const url of [
      `media/${ID}/photo.jpg`,
      `//media/${ID}/photo.jpg`,
      `mailto:someone@example.com?body=/media/${ID}/x.jpg`,
      `/assets/${ID}/photo.jpg`,
      `/media/not-an-id/photo.jpg`,
      `/media%2F${ID}/photo.jpg`,
    ]) {
      expect(mediaIdOfUrl(url), url).toBeUndefined();
    }
  });

  it("finds the ids in a post's markup, whatever construct holds the address", () => {
    const other = "11111111-2222-4333-8444-555555555555";
    const markup = `Intro [see](/%6Dedia/${ID}/a.jpg "title") and more.\n\n![Alt](</media/${other}/b c.jpg>)\n\nLINK: /media/${ID}/a.jpg - Card`;
    expect([...mediaIdsReferencedBy([markup, null, ""])].sort()).toEqual([ID, other].sort());
  });
});
