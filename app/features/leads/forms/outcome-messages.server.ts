import { catalogMessage } from "~/features/i18n/messages.server";
import { MAX_FORM_BYTES } from "~/features/leads/forms/body.server";
import { failure, type Outcome, type OutcomeMessage } from "~/features/leads/forms/outcomes";

// What a visitor is told after a submission, in the language of the form's page: each answer is a
// key of the message catalogs (its `.title` and `.description`), put into words when it is sent.
// Only the server's answers read the catalogs: the command-line tools load the registry without them.

/** Answers that are not about one form in particular. */
export const commonOutcomes = {
  invalid: failure("outcome.invalid"),
  rateLimited: failure("outcome.rateLimited"),
  tooLarge: failure("outcome.tooLarge", { limitKb: MAX_FORM_BYTES / 1024 }),
  notAForm: failure("outcome.notAForm"),
} satisfies Record<string, OutcomeMessage>;

/** The answer in words, in `locale`. */
export function outcomeIn(locale: string, { kind, key, values }: OutcomeMessage): Outcome {
  return {
    kind,
    title: catalogMessage(locale, `${key}.title`, values),
    description: catalogMessage(locale, `${key}.description`, values),
  };
}
