import { site } from "~/config/site";
import type { EmploymentType, PayPeriod, Position } from "~/features/careers/positions";

// A position's JobPosting structured data (schema.org), as Google for Jobs reads it: its required
// properties (title, description, datePosted, hiringOrganization, and jobLocation, or for remote
// work jobLocationType TELECOMMUTE with applicantLocationRequirements) and the recommended ones the
// position has (validThrough, employmentType, baseSalary, identifier). Only an open position's page
// carries it: a closed one leaves search engines' job listings.

const EMPLOYMENT_TYPES: Record<EmploymentType, string> = {
  "full-time": "FULL_TIME",
  "part-time": "PART_TIME",
  contract: "CONTRACTOR",
  temporary: "TEMPORARY",
  internship: "INTERN",
};

const PAY_UNITS: Record<PayPeriod, string> = { year: "YEAR", month: "MONTH", hour: "HOUR" };

export type JobPostingInput = Position & {
  id: string;
  path: string;
  /** Since when this version is public (ISO). */
  postedAt: string;
  /** The description as the page shows it: HTML (Google reads <p>, <ul>, <li> and line breaks). */
  descriptionHtml: string;
};

export function jobPostingJsonLd(position: JobPostingInput, siteUrl: string): Record<string, unknown> {
  const remote = position.workplace === "remote";
  return {
    "@context": "https://schema.org",
    "@type": "JobPosting",
    title: position.title,
    description: position.descriptionHtml,
    datePosted: position.postedAt,
    ...(position.closesAt ? { validThrough: position.closesAt } : {}),
    employmentType: EMPLOYMENT_TYPES[position.employmentType],
    hiringOrganization: {
      "@type": "Organization",
      name: site.company,
      ...(siteUrl ? { sameAs: siteUrl, logo: `${siteUrl}/favicon.svg` } : {}),
    },
    identifier: { "@type": "PropertyValue", name: site.company, value: position.id },
    ...(siteUrl ? { url: `${siteUrl}${position.path}` } : {}),
    ...(remote
      ? {
          jobLocationType: "TELECOMMUTE",
          ...(position.remoteRegions.length
            ? { applicantLocationRequirements: position.remoteRegions.map((name) => ({ "@type": "AdministrativeArea", name })) }
            : {}),
        }
      : {
          jobLocation: position.locations.map((locality) => ({
            "@type": "Place",
            address: { "@type": "PostalAddress", addressLocality: locality },
          })),
        }),
    ...(position.pay
      ? {
          baseSalary: {
            "@type": "MonetaryAmount",
            currency: position.pay.currency,
            value: {
              "@type": "QuantitativeValue",
              minValue: position.pay.min,
              maxValue: position.pay.max,
              unitText: PAY_UNITS[position.pay.period],
            },
          },
        }
      : {}),
  };
}
