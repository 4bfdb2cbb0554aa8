// `npx tsx scripts/generate-sample-photos.ts`: draws the sample posts' photographs
// (public/images/photos/*.jpg) from a fixed seed, so the same bytes come out on every machine with
// the same sharp. They stand in for an editor's camera files: large, grainy JPEGs that the build
// turns into small AVIF and WebP variants. Nothing is downloaded.
import path from "node:path";
import sharp from "sharp";

type Rgb = [number, number, number];

/** A small seeded generator (mulberry32): the grain is the same on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

type Photo = {
  file: string;
  width: number;
  height: number;
  seed: number;
  /** Sky colours from top to bottom. */
  sky: [Rgb, Rgb, Rgb];
  /** Soft light bands (aurora) or out-of-focus discs (bokeh). */
  light: "bands" | "discs";
  lightColour: Rgb;
  ground: Rgb;
};

const photos: Photo[] = [
  {
    file: "aurora-over-ridge.jpg",
    width: 2400,
    height: 1350,
    seed: 20250930,
    sky: [
      [8, 14, 40],
      [16, 70, 96],
      [40, 120, 110],
    ],
    light: "bands",
    lightColour: [90, 240, 170],
    ground: [6, 10, 18],
  },
  {
    file: "city-lights-at-dusk.jpg",
    width: 2400,
    height: 1600,
    seed: 20250522,
    sky: [
      [52, 26, 84],
      [196, 84, 96],
      [250, 170, 90],
    ],
    light: "discs",
    lightColour: [255, 214, 150],
    ground: [24, 16, 34],
  },
];

function draw(photo: Photo): Buffer {
  const { width, height } = photo;
  const next = random(photo.seed);
  const pixels = Buffer.alloc(width * height * 3);
  // A ridge line from a few summed sine waves, the same shape at any width.
  const phases = [next() * 6.28, next() * 6.28, next() * 6.28];
  const ridge = (x: number) =>
    height *
    (0.72 +
      0.06 * Math.sin((x / width) * 5 + phases[0]!) +
      0.03 * Math.sin((x / width) * 13 + phases[1]!) +
      0.012 * Math.sin((x / width) * 41 + phases[2]!));
  const discs = Array.from({ length: 90 }, () => ({
    x: next() * width,
    y: height * (0.45 + next() * 0.5),
    r: 18 + next() * 70,
    strength: 0.25 + next() * 0.6,
  }));
  for (let y = 0; y < height; y++) {
    const v = y / height;
    const base = v < 0.5 ? mix(photo.sky[0], photo.sky[1], v / 0.5) : mix(photo.sky[1], photo.sky[2], (v - 0.5) / 0.5);
    for (let x = 0; x < width; x++) {
      let colour: Rgb = base;
      if (photo.light === "bands") {
        const wave =
          y - height * (0.28 + 0.1 * Math.sin((x / width) * 7 + phases[0]!) + 0.04 * Math.sin((x / width) * 23 + phases[1]!));
        const glow = Math.exp(-(wave * wave) / (2 * (height * 0.06) ** 2)) * (0.6 + 0.4 * Math.sin(x / 37 + y / 91));
        colour = mix(colour, photo.lightColour, Math.min(1, glow * 0.8));
      }
      if (y > ridge(x)) colour = mix(photo.ground, colour, Math.max(0, 0.15 - (y - ridge(x)) / height));
      if (photo.light === "discs") {
        for (const disc of discs) {
          const dx = x - disc.x;
          const dy = y - disc.y;
          if (Math.abs(dx) > disc.r || Math.abs(dy) > disc.r) continue;
          const d = Math.sqrt(dx * dx + dy * dy) / disc.r;
          if (d < 1) colour = mix(colour, photo.lightColour, disc.strength * (1 - d ** 6));
        }
      }
      // Film grain: what makes a camera file large.
      const grain = (next() - 0.5) * 22;
      const offset = (y * width + x) * 3;
      pixels[offset] = Math.max(0, Math.min(255, colour[0] + grain));
      pixels[offset + 1] = Math.max(0, Math.min(255, colour[1] + grain));
      pixels[offset + 2] = Math.max(0, Math.min(255, colour[2] + grain));
    }
  }
  return pixels;
}

const outDir = path.resolve("public/images/photos");
for (const photo of photos) {
  const file = path.join(outDir, photo.file);
  const info = await sharp(draw(photo), { raw: { width: photo.width, height: photo.height, channels: 3 } })
    .jpeg({ quality: 92, chromaSubsampling: "4:4:4" })
    .toFile(file);
  console.log(`${path.relative(process.cwd(), file)}: ${info.width}×${info.height}, ${info.size} bytes`);
}
