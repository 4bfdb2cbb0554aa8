import { createContext, useContext } from "react";

// The per-request CSP nonce reaches <Scripts> and friends through context: the server renders
// with it, the browser hydrates with "" (browsers hide nonce attributes from scripts anyway).
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce() {
  return useContext(NonceContext);
}
