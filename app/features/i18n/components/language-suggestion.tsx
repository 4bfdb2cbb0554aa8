import { useEffect, useState } from "react";
import { suggestedLanguage, usePageLanguages, type OtherLanguage } from "~/platform/page-languages";

// The suggestion of another language the browser prefers: drawn by the browser alone after the
// page loaded (never by the server, so the cached page is one copy for everyone, and no visitor is
// redirected), in the suggested language. Dismissed, it stays away for that language.

const DISMISSED_KEY = "language-suggestion-dismissed";

/** The languages dismissed before: a JSON list of tags (anything else stored there is none). */
function dismissedLanguages(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(DISMISSED_KEY) ?? "[]");
    return Array.isArray(stored) ? stored.map(String) : [];
  } catch {
    // Storage refused (private mode) or unreadable: none dismissed.
    return [];
  }
}

export function LanguageSuggestion() {
  const languages = usePageLanguages();
  const [offer, setOffer] = useState<OtherLanguage | undefined>();
  useEffect(() => {
    setOffer(
      languages
        ? suggestedLanguage(navigator.languages ?? [navigator.language], languages, new Set(dismissedLanguages()))
        : undefined,
    );
  }, [languages]);
  if (!offer) return null;
  return (
    <section
      aria-label={offer.suggestion.label}
      lang={offer.tag}
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-xl items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-lg"
    >
      <p className="flex-1">
        {offer.suggestion.text}{" "}
        <a href={offer.path} hrefLang={offer.tag} className="font-medium text-brand-700 underline">
          {offer.suggestion.open}
        </a>
      </p>
      <button
        type="button"
        aria-label={offer.suggestion.dismiss}
        className="flex size-11 shrink-0 cursor-pointer items-center justify-center rounded-md text-lg hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600"
        onClick={() => {
          try {
            localStorage.setItem(DISMISSED_KEY, JSON.stringify([...dismissedLanguages(), offer.tag]));
          } catch {
            // Storage refused: dismissed for this page only.
          }
          setOffer(undefined);
        }}
      >
        <span aria-hidden="true">×</span>
      </button>
    </section>
  );
}
