import { browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import { buttonClasses } from "~/ui/button";

// A passkey ceremony from the browser: ask the endpoint for options, let the browser and the
// authenticator make or use the passkey (SimpleWebAuthn), send the answer back. The button stays
// disabled until the page is interactive and the browser supports passkeys.

/** `confirmTo`: the server wants the person to confirm who they are first (the page to do it on). */
type CeremonyResult = { redirectTo?: string; done?: boolean; error?: string; confirmTo?: string };

async function post(endpoint: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { Accept: "application/json" },
    body: new URLSearchParams(fields),
  });
  try {
    return (await response.json()) as Record<string, unknown>;
  } catch {
    return { error: "The server did not answer as expected. Try again." };
  }
}

/** Why the browser's passkey prompt failed, in words for the person. */
function promptProblem(error: unknown): string {
  if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") {
    return "This device already holds a passkey for this account.";
  }
  return "The passkey prompt was closed or timed out. Try again.";
}

export async function runPasskeyCeremony(
  kind: "register" | "authenticate",
  endpoint: string,
  fields: Record<string, string>,
): Promise<CeremonyResult> {
  const begun = await post(endpoint, { ...fields, step: "options" });
  if (typeof begun.error === "string") return begun as CeremonyResult;
  let response: unknown;
  try {
    response =
      kind === "register"
        ? await startRegistration({ optionsJSON: begun.options as Parameters<typeof startRegistration>[0]["optionsJSON"] })
        : await startAuthentication({ optionsJSON: begun.options as Parameters<typeof startAuthentication>[0]["optionsJSON"] });
  } catch (error) {
    return { error: promptProblem(error) };
  }
  return (await post(endpoint, {
    ...fields,
    step: "verify",
    stateId: String(begun.stateId),
    response: JSON.stringify(response),
  })) as CeremonyResult;
}

export function PasskeyButton({
  kind,
  endpoint,
  fields,
  label,
  onDone,
  variant = "primary",
}: {
  kind: "register" | "authenticate";
  endpoint: string;
  fields: Record<string, string>;
  label: string;
  /** What to do once the server accepted the passkey; by default, follow its redirect. */
  onDone?: (result: CeremonyResult) => void;
  variant?: "primary" | "secondary";
}) {
  const navigate = useNavigate();
  const [supported, setSupported] = useState<boolean | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  const run = async () => {
    setBusy(true);
    setProblem("");
    const result = await runPasskeyCeremony(kind, endpoint, fields);
    setBusy(false);
    if (result.confirmTo) return navigate(result.confirmTo);
    if (result.error) return setProblem(result.error);
    if (onDone) return onDone(result);
    if (result.redirectTo) navigate(result.redirectTo);
  };

  return (
    <div>
      <button
        type="button"
        className={buttonClasses(variant)}
        disabled={!supported || busy}
        aria-describedby={problem ? `${kind}-passkey-problem` : undefined}
        onClick={run}
      >
        {busy ? "Waiting for your passkey..." : label}
      </button>
      {supported === false ? (
        <p className="mt-2 text-sm text-red-700">This browser does not support passkeys. Use a current browser.</p>
      ) : null}
      {problem ? (
        <p id={`${kind}-passkey-problem`} role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      ) : null}
      {/* Until the page is interactive (and for good when JavaScript is off) the button cannot work: say why. */}
      {supported === undefined ? (
        <p className="mt-2 text-sm text-muted">Passkeys need JavaScript: turn it on in your browser to use one here.</p>
      ) : null}
    </div>
  );
}
