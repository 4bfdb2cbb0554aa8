import { useRouteLoaderData } from "react-router";

/** The session's CSRF token, which every back-office form posts (the layout's loader provides it). */
export function useCsrfToken(): string {
  const data = useRouteLoaderData("back-office") as { csrf?: string | null } | undefined;
  return data?.csrf ?? "";
}

export function CsrfField() {
  return <input type="hidden" name="csrf" value={useCsrfToken()} />;
}
