import type { IconName } from "~/assets/icon-names";

// The shapes of page copy kept as data: the content modules fill them, the UI components render them.

/** One entry of a list of features, channels, endpoints, events, badges, benefits... */
export type Item = { title: string; description?: string; icon?: IconName; meta?: string };

/** A link with its label and an optional line of description. */
export type LinkItem = { label: string; to: string; description?: string };

/** A figure and what it counts. */
export type Stat = { value: string; label: string };

/** One option of a native select. */
export type Choice = { value: string; label: string };
