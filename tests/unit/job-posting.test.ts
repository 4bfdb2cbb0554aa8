import { describe, expect, it } from "vitest";
import { jobPostingJsonLd, type JobPostingInput } from "~/features/careers/job-posting";
import { formatPay } from "~/features/careers/positions";

// A position's JobPosting structured data against Google's published requirements for job
// postings: the required properties always (title, description, datePosted, hiringOrganization,
// and jobLocation, or jobLocationType TELECOMMUTE with applicantLocationRequirements for remote
// work), the recommended ones the position has, in the shapes schema.org defines.

const position = (overrides: Partial<JobPostingInput> = {}): JobPostingInput => ({
  id: "0b7d2c9e-0c51-4a43-9d53-5d2f0b1c9a11",
  path: "/company/careers/enterprise-account-executive",
  postedAt: "2026-06-01T09:00:00.000Z",
  descriptionHtml: "<p>Help regulated enterprises adopt AI safely.</p>",
  slug: "enterprise-account-executive",
  title: "Enterprise Account Executive",
  team: "Sales",
  locations: ["London", "New York"],
  workplace: "hybrid",
  remoteRegions: [],
  employmentType: "full-time",
  pay: { min: 70_000, max: 90_000, currency: "EUR", period: "year" },
  summary: "From first call to signed contract.",
  description: "Help regulated enterprises adopt AI safely.",
  responsibilities: [],
  requirements: [],
  hiringContacts: ["sales-hiring@quorvant.com"],
  closesAt: "2026-09-30T23:59:59.000Z",
  ...overrides,
});

const SITE = "https://quorvant.example";

describe("a position's JobPosting", () => {
  it("has every property Google requires, and the recommended ones the position has", () => {
    const ld = jobPostingJsonLd(position(), SITE);
    expect(ld["@context"]).toBe("https://schema.org");
    expect(ld["@type"]).toBe("JobPosting");
    expect(ld.title).toBe("Enterprise Account Executive");
    expect(ld.description).toBe("<p>Help regulated enterprises adopt AI safely.</p>");
    // ISO 8601 dates.
    expect(ld.datePosted).toBe("2026-06-01T09:00:00.000Z");
    expect(ld.validThrough).toBe("2026-09-30T23:59:59.000Z");
    expect(ld.hiringOrganization).toEqual({
      "@type": "Organization",
      name: "Quorvant",
      sameAs: SITE,
      logo: `${SITE}/favicon.svg`,
    });
    expect(ld.jobLocation).toEqual([
      { "@type": "Place", address: { "@type": "PostalAddress", addressLocality: "London" } },
      { "@type": "Place", address: { "@type": "PostalAddress", addressLocality: "New York" } },
    ]);
    expect(ld).not.toHaveProperty("jobLocationType");
    expect(ld.employmentType).toBe("FULL_TIME");
    expect(ld.baseSalary).toEqual({
      "@type": "MonetaryAmount",
      currency: "EUR",
      value: { "@type": "QuantitativeValue", minValue: 70_000, maxValue: 90_000, unitText: "YEAR" },
    });
    expect(ld.identifier).toEqual({ "@type": "PropertyValue", name: "Quorvant", value: position().id });
    expect(ld.url).toBe(`${SITE}/company/careers/enterprise-account-executive`);
    // Who receives applications is not for search engines.
    expect(JSON.stringify(ld)).not.toContain("sales-hiring@");
  });

  it("marks remote work TELECOMMUTE with where applicants may live, without an office", () => {
    const ld = jobPostingJsonLd(
      position({ workplace: "remote", locations: ["Remote (EU or US)"], remoteRegions: ["European Union", "United States"] }),
      SITE,
    );
    expect(ld.jobLocationType).toBe("TELECOMMUTE");
    expect(ld.applicantLocationRequirements).toEqual([
      { "@type": "AdministrativeArea", name: "European Union" },
      { "@type": "AdministrativeArea", name: "United States" },
    ]);
    expect(ld).not.toHaveProperty("jobLocation");
  });

  it("leaves out what the position does not have: no pay range, no closing date", () => {
    const ld = jobPostingJsonLd(position({ pay: null, closesAt: null }), SITE);
    expect(ld).not.toHaveProperty("baseSalary");
    expect(ld).not.toHaveProperty("validThrough");
  });

  it("names each employment type and pay period as schema.org spells them", () => {
    const types = {
      "full-time": "FULL_TIME",
      "part-time": "PART_TIME",
      contract: "CONTRACTOR",
      temporary: "TEMPORARY",
      internship: "INTERN",
    } as const;
    for (const [employmentType, expected] of Object.entries(types))
      expect(jobPostingJsonLd(position({ employmentType: employmentType as keyof typeof types }), SITE).employmentType).toBe(
        expected,
      );
    for (const [period, unit] of [
      ["month", "MONTH"],
      ["hour", "HOUR"],
    ] as const) {
      const ld = jobPostingJsonLd(position({ pay: { min: 20, max: 30, currency: "USD", period } }), SITE);
      expect((ld.baseSalary as { value: { unitText: string } }).value.unitText).toBe(unit);
    }
  });
});

describe("a pay range as the page shows it", () => {
  it("writes the range in its currency, with its period", () => {
    expect(formatPay({ min: 70_000, max: 90_000, currency: "EUR", period: "year" })).toBe("€70,000–€90,000 a year");
    expect(formatPay({ min: 25, max: 25, currency: "USD", period: "hour" })).toBe("US$25 an hour");
    expect(formatPay({ min: 4_000, max: 5_000, currency: "GBP", period: "month" })).toBe("£4,000–£5,000 a month");
  });
});
