import { Link } from "react-router";
import { site } from "~/config/site";

export function Logo({ className = "" }: { className?: string }) {
  return (
    <Link to="/" className={`inline-flex items-center gap-2 text-lg font-bold tracking-tight ${className}`}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8">
        <rect width="32" height="32" rx="8" fill="currentColor" className="text-brand-700" />
        <path d="M16 6l8 3.5v6c0 5-3.4 9.2-8 10.5-4.6-1.3-8-5.5-8-10.5v-6L16 6z" fill="#fff" />
        <circle cx="16" cy="15.5" r="3.2" className="fill-brand-700" />
      </svg>
      <span>{site.company}</span>
      <span className="sr-only"> home</span>
    </Link>
  );
}
