import type { Item } from "~/ui/content-types";

export const brandGuidelines: Item[] = [
  { icon: "palette", title: "Colour", description: "Quorvant Blue leads; deep navy and white support it. Use accent colours sparingly and never for body text." },
  { icon: "type", title: "Typography", description: "The system sans-serif stack for interfaces and documents, with a monospace face for code and figures." },
  { icon: "message-square-quote", title: "Voice", description: "Clear, calm and precise. We explain risk plainly and never use fear to sell." },
];

export const logoDos: string[] = [
  "Use the full-colour logo on white or very light backgrounds.",
  "Use the white logo on Quorvant Blue or on dark photography with enough contrast.",
  "Keep clear space around the logo equal to the height of the shield mark.",
  "Scale the logo proportionally and keep it at least 24 px tall on screen.",
];

export const logoDonts: string[] = [
  "Don't stretch, rotate, skew or outline the logo.",
  "Don't recolour the logo or place it on busy, low-contrast backgrounds.",
  "Don't add effects such as shadows, gradients or glows.",
  "Don't combine the logo with other marks to imply a partnership without written approval.",
];

export const brandAssets: Item[] = [
  { icon: "image", title: "Logo Package", meta: "SVG, PNG · 2.4 MB", description: "Full-colour, white and black versions of the logo and the shield mark, in vector and raster formats." },
  { icon: "palette", title: "Colour Palette", meta: "ASE, PDF · 180 KB", description: "Primary and secondary colours with HEX, RGB and CMYK values and accessible pairings." },
  { icon: "type", title: "Typography Guide", meta: "PDF · 1.1 MB", description: "Type scale, weights, line lengths and examples for web, slides and print." },
  { icon: "file-text", title: "Brand Guidelines", meta: "PDF · 6.8 MB", description: "The complete guide: logo, colour, typography, imagery, voice and co-branding rules." },
];
