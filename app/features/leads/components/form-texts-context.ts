import { createContext, useContext } from "react";
import type { Translate } from "~/features/leads/forms/form-texts";

// The page's form texts for every form part below its route's component (~/features/leads/forms/form-texts).

const FormTextsContext = createContext<Translate>((key) => key);

/** Gives the form parts below it the page's messages. */
export const FormTextsProvider = FormTextsContext.Provider;

/** The page's form messages (see FormTextsProvider). */
export function useFormText(): Translate {
  return useContext(FormTextsContext);
}
