import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { renderAsync } from "@resvg/resvg-js";
import satori, { type SatoriOptions } from "satori";
import { site } from "~/config/site";
import { CARD_HEIGHT, CARD_WIDTH, coverageFromUnicodeRanges, type CardText, type Coverage } from "~/features/social-cards/layout";

// A social card (a post's, a page's): JSX laid out by satori into an SVG (text drawn as paths from
// the fonts below), rasterised by resvg into a 1200×630 PNG. Nothing here is fetched: the card is
// made of its own text, the brand's colours and fonts read from node_modules.

/** The site's brand colours (app/app.css). */
const COLOURS = {
  brand100: "#dbe6fe",
  brand600: "#2f4fd8",
  brand700: "#2540b5",
  brand900: "#1c2f6e",
  ink: "#0f172a",
  white: "#ffffff",
};

/**
 * Inter (SIL Open Font License 1.1), from the @fontsource/inter package: satori reads WOFF but not
 * WOFF2. Every subset Fontsource cuts (Latin, Latin Extended, Greek, Cyrillic, Vietnamese), so a
 * title in any of those scripts is drawn; satori takes each glyph from the first font that has it.
 */
const FONT_SUBSETS = ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "greek", "greek-ext", "vietnamese"];
const FONT_WEIGHTS = [500, 700, 800] as const;

let loaded: { fonts: SatoriOptions["fonts"]; covered: Coverage } | undefined;

/**
 * Read once, on the first card; the same array every time, so satori parses the fonts once too.
 * What they cover comes from the package's own unicode-range list of each subset.
 */
function cardFonts() {
  if (!loaded) {
    const require = createRequire(import.meta.url);
    const ranges = JSON.parse(readFileSync(require.resolve("@fontsource/inter/unicode.json"), "utf8")) as Record<string, string>;
    loaded = {
      fonts: FONT_WEIGHTS.flatMap((weight) =>
        FONT_SUBSETS.map((subset) => ({
          name: "Inter",
          weight,
          style: "normal" as const,
          data: readFileSync(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`)),
        })),
      ),
      covered: coverageFromUnicodeRanges(FONT_SUBSETS.map((subset) => ranges[subset] ?? "")),
    };
  }
  return loaded;
}

function ShieldMark({ size }: { size: number }) {
  // The favicon's mark: a white shield with a blue dot on a rounded brand square.
  return (
    <svg width={size} height={size} viewBox="0 0 32 32">
      <rect width="32" height="32" rx="8" fill={COLOURS.white} />
      <path d="M16 6l8 3.5v6c0 5-3.4 9.2-8 10.5-4.6-1.3-8-5.5-8-10.5v-6L16 6z" fill={COLOURS.brand700} />
      <circle cx="16" cy="15.5" r="3.2" fill={COLOURS.white} />
    </svg>
  );
}

function Card({ text, backdrop }: { text: CardText; backdrop?: string }) {
  return (
    <div
      style={{
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        // Satori sizes boxes as content-box: the padding is inside this fixed 1200×630 only with border-box.
        boxSizing: "border-box",
        padding: "60px 80px 76px",
        position: "relative",
        color: COLOURS.white,
        fontFamily: "Inter",
        backgroundColor: COLOURS.brand900,
        backgroundImage: `linear-gradient(135deg, ${COLOURS.brand900} 0%, ${COLOURS.brand700} 100%)`,
      }}
    >
      {backdrop ? (
        // The card's image under a deep brand-blue veil: the text keeps its contrast.
        <>
          <img
            src={backdrop}
            width={CARD_WIDTH}
            height={CARD_HEIGHT}
            style={{ position: "absolute", left: 0, top: 0, width: CARD_WIDTH, height: CARD_HEIGHT, objectFit: "cover" }}
          />
          <div
            style={{
              display: "flex",
              position: "absolute",
              left: 0,
              top: 0,
              width: CARD_WIDTH,
              height: CARD_HEIGHT,
              backgroundImage: `linear-gradient(135deg, ${COLOURS.brand900}eb 0%, ${COLOURS.brand900}c7 55%, ${COLOURS.brand700}99 100%)`,
            }}
          />
        </>
      ) : null}
      {/* Positioned like the backdrop, so they are painted over it in this order. */}
      <div style={{ display: "flex", position: "relative", alignItems: "center", justifyContent: "space-between" }}>
        <div style={{ display: "flex", alignItems: "center" }}>
          <ShieldMark size={56} />
          <div style={{ display: "flex", marginLeft: 20, fontSize: 36, fontWeight: 800, letterSpacing: -0.5 }}>
            {site.company}
          </div>
          {text.label ? (
            <div style={{ display: "flex", marginLeft: 16, fontSize: 28, fontWeight: 500, color: COLOURS.brand100 }}>
              {text.label}
            </div>
          ) : null}
        </div>
        {text.kicker ? (
          <div
            style={{
              display: "flex",
              maxWidth: 420,
              padding: "10px 22px",
              borderRadius: 999,
              backgroundColor: COLOURS.brand100,
              color: COLOURS.brand900,
              fontSize: 24,
              fontWeight: 700,
              lineClamp: 1,
            }}
          >
            {text.kicker}
          </div>
        ) : null}
      </div>
      <div
        style={{
          display: "block",
          position: "relative",
          fontSize: text.titleFontSize,
          fontWeight: 800,
          lineHeight: 1.12,
          letterSpacing: -1,
          lineClamp: text.titleMaxLines,
          wordBreak: "break-word",
        }}
      >
        {text.title}
      </div>
      <div
        style={{
          display: "block",
          position: "relative",
          fontSize: 28,
          fontWeight: 500,
          color: COLOURS.brand100,
          lineClamp: text.bylineMaxLines,
        }}
      >
        {text.byline}
      </div>
      <div
        style={{
          display: "flex",
          position: "absolute",
          left: 0,
          bottom: 0,
          width: CARD_WIDTH,
          height: 16,
          backgroundColor: COLOURS.brand600,
        }}
      />
    </div>
  );
}

/**
 * One card as a PNG: the text `textOf` makes (keeping only what the fonts cover), over `backdrop`
 * (the card's image as a data URL) when given. CPU-bound (tens of milliseconds): callers keep the
 * result.
 */
export async function renderCard(textOf: (covered: Coverage) => CardText, backdrop?: string): Promise<Buffer> {
  const { fonts, covered } = cardFonts();
  const text = textOf(covered);
  const svg = await satori(<Card text={text} backdrop={backdrop} />, {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts,
    // Emoji and scripts without a font are removed by cardText; anything left is drawn without
    // fetching a thing: no asset is ever loaded from outside.
    loadAdditionalAsset: async () => [],
  });
  // Off the main thread: resvg rasterises on libuv's thread pool.
  const png = await renderAsync(svg, { fitTo: { mode: "original" }, font: { loadSystemFonts: false } });
  return png.asPng();
}
