import { ResponsivePicture } from "~/features/media/components/responsive-picture";
import type { MediaItem } from "~/features/media/media";

/**
 * Choosing one image of the library in a form: a radio list of thumbnails, so it works without
 * JavaScript. The field posts the chosen image's URL (what a post's image_url holds), or "" for
 * "No image" when `allowNone`. Give it the loader's `listMedia` result.
 */
export function MediaPicker({
  images,
  name,
  value,
  legend = "Image from the library",
  allowNone = true,
  error,
}: {
  images: readonly Pick<MediaItem, "id" | "url" | "alt" | "picture" | "width" | "height">[];
  name: string;
  /** The URL currently chosen. */
  value?: string | null;
  legend?: string;
  allowNone?: boolean;
  error?: string;
}) {
  const errorId = `${name}-picker-error`;
  return (
    <fieldset aria-describedby={error ? errorId : undefined}>
      <legend className="text-sm font-medium">{legend}</legend>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {images.length === 0 && !allowNone ? <p className="mt-2 text-sm text-muted">The library has no images yet.</p> : null}
      <ul className="mt-2 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {allowNone ? (
          <li>
            <label className="flex h-full cursor-pointer flex-col gap-2 rounded-lg border border-slate-200 bg-white p-2 text-sm has-checked:border-brand-600 has-checked:ring-2 has-checked:ring-brand-600">
              <span className="flex aspect-video items-center justify-center rounded bg-slate-100 text-muted">No image</span>
              <span className="flex items-center gap-2">
                <input type="radio" name={name} value="" defaultChecked={!value} />
                No image
              </span>
            </label>
          </li>
        ) : null}
        {images.map((image) => (
          <li key={image.id}>
            <label className="flex h-full cursor-pointer flex-col gap-2 rounded-lg border border-slate-200 bg-white p-2 text-sm has-checked:border-brand-600 has-checked:ring-2 has-checked:ring-brand-600">
              <ResponsivePicture
                image={image.picture}
                alt=""
                sizes="240px"
                className="aspect-video w-full rounded bg-slate-100 object-contain"
              />
              <span className="flex items-start gap-2">
                <input type="radio" name={name} value={image.url} defaultChecked={value === image.url} className="mt-1" />
                <span>
                  {image.alt}
                  <span className="block text-xs text-muted">
                    {image.width} × {image.height}
                  </span>
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
