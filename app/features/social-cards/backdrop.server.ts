import sharp from "sharp";
import { builtImageFile } from "~/features/media/image-manifest.server";
import { mediaCacheDir, mediaFile } from "~/features/media/media-files.server";
import { imageLookupFor } from "~/features/media/media.server";
import { CARD_HEIGHT, CARD_WIDTH } from "~/features/social-cards/layout";
import { getDb } from "~/db/index.server";
import { logger } from "~/platform/logger.server";

// A card's backdrop: the image of the post or page (a built-in one from the build's files, or an
// uploaded one from this server's media files), cropped to the card, as a data URL the card
// embeds. A remote image is never fetched; an image that cannot be read leaves the card without one.

export async function cardBackdrop(
  imageUrl: string | null | undefined,
  { kind, requestId }: { kind: string; requestId?: string },
): Promise<string | undefined> {
  if (!imageUrl?.startsWith("/")) return undefined;
  try {
    const db = getDb();
    const picture = (await imageLookupFor(db, [imageUrl]))(imageUrl);
    if (!picture) return undefined;
    let source: Buffer | string | undefined;
    if (picture.src.startsWith("/media/")) {
      const file = await mediaFile(db, picture.src, mediaCacheDir());
      source = file && ("path" in file ? file.path : file.data);
    } else {
      source = builtImageFile(imageUrl);
    }
    if (!source) return undefined;
    const jpeg = await sharp(source).resize(CARD_WIDTH, CARD_HEIGHT, { fit: "cover" }).jpeg({ quality: 80 }).toBuffer();
    return `data:image/jpeg;base64,${jpeg.toString("base64")}`;
  } catch (error) {
    logger.warn({ requestId, err: error, imageUrl }, `${kind} card drawn without its image`);
    return undefined;
  }
}
