import type { ResponsiveImage } from "~/features/media/responsive-image";

/**
 * An image with its AVIF and WebP variants: the browser picks the first type it decodes and, by
 * `sizes`, the smallest width that is sharp enough; the `<img>` is the fallback and carries the
 * intrinsic size, so the box is reserved before any file arrives. `priority` is for the one
 * largest image above the fold (fetched at once, ahead of other images); every other image
 * loads lazily. The `<picture>` takes no box of its own (`display: contents`), so the `<img>` is
 * laid out exactly as it would be without it.
 */
export function ResponsivePicture({
  image,
  alt,
  sizes,
  priority = false,
  className = "",
}: {
  image: ResponsiveImage;
  alt: string;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  return (
    <picture className="contents">
      {image.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        src={image.src}
        alt={alt}
        width={image.width}
        height={image.height}
        loading={priority ? "eager" : "lazy"}
        fetchPriority={priority ? "high" : undefined}
        decoding="async"
        className={className}
      />
    </picture>
  );
}
