import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  careerApplicationSchema,
  contactSalesSchema,
  demoRequestSchema,
  requestedPositionOf,
} from "~/features/leads/forms/schemas";
import { constraintsOf } from "~/features/leads/components/use-lead-form";

// The shared schemas exactly as the action runs them: through Conform, from form data.
function parse<Schema extends z.ZodType>(schema: Schema, fields: Record<string, string>) {
  return parseWithZod(new URLSearchParams(fields), { schema });
}

const demo = { first_name: "Grace", last_name: "Hopper", email: "grace@example.com", company: "Navy" };
const career = { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", why_quorvant: "Engines." };

describe("contact sales schema", () => {
  it("accepts an empty submission, stored as entered with product General", () => {
    const result = parse(contactSalesSchema, {});
    expect(result.status).toBe("success");
    expect(result.status === "success" && result.value).toEqual({
      first_name: "",
      last_name: "",
      email: "",
      company: "",
      phone: "",
      product_name: "General",
      message: "",
    });
  });

  it("refuses a malformed email, an unknown product and over-long fields", () => {
    expect(parse(contactSalesSchema, { email: "nope" }).reply().error).toHaveProperty("email");
    expect(parse(contactSalesSchema, { product_name: "Other" }).reply().error).toHaveProperty("product_name");
    expect(parse(contactSalesSchema, { first_name: "x".repeat(101) }).reply().error).toHaveProperty("first_name");
    expect(parse(contactSalesSchema, { phone: "1".repeat(41) }).reply().error).toHaveProperty("phone");
    expect(parse(contactSalesSchema, { message: "x".repeat(5001) }).reply().error).toHaveProperty("message");
    expect(parse(contactSalesSchema, { message: "x".repeat(5000), product_name: "Sentinel" }).status).toBe("success");
  });
});

describe("demo request schema", () => {
  it("requires first name, last name, business email and company", () => {
    const error = parse(demoRequestSchema, {}).reply().error ?? {};
    expect(Object.keys(error).sort()).toEqual(["company", "email", "first_name", "last_name"]);
    expect(error.email).toEqual(["Please enter your business email."]);
    expect(parse(demoRequestSchema, { ...demo, first_name: "   " }).reply().error).toHaveProperty("first_name");
  });

  it("defaults the product to Sentinel and keeps company size to its options", () => {
    const ok = parse(demoRequestSchema, demo);
    expect(ok.status === "success" && ok.value).toMatchObject({ product_name: "Sentinel", company_size: "", job_title: "" });
    for (const size of ["1-10", "11-50", "51-200", "201-500", "500+"]) {
      expect(parse(demoRequestSchema, { ...demo, company_size: size }).status).toBe("success");
    }
    expect(parse(demoRequestSchema, { ...demo, company_size: "1000+" }).reply().error).toHaveProperty("company_size");
    expect(parse(demoRequestSchema, { ...demo, email: "grace@localhost" }).reply().error).toHaveProperty("email");
  });
});

describe("career application schema", () => {
  it("requires the four fields and turns an empty years of experience into null", () => {
    const error = parse(careerApplicationSchema, {}).reply().error ?? {};
    expect(Object.keys(error).sort()).toEqual(["email", "first_name", "last_name", "why_quorvant"]);
    const ok = parse(careerApplicationSchema, { ...career, years_experience: "" });
    expect(ok.status === "success" && ok.value.years_experience).toBeNull();
    const seven = parse(careerApplicationSchema, { ...career, years_experience: "7" });
    expect(seven.status === "success" && seven.value.years_experience).toBe(7);
  });

  it("refuses negative, fractional and absurd years, unknown work styles and non-public links", () => {
    for (const years of ["-1", "2.5", "81", "ten"]) {
      expect(parse(careerApplicationSchema, { ...career, years_experience: years }).reply().error, years).toHaveProperty(
        "years_experience",
      );
    }
    expect(parse(careerApplicationSchema, { ...career, work_style: "remote" }).reply().error).toHaveProperty("work_style");
    for (const url of [
      "ftp://example.com/cv",
      "javascript:alert(1)",
      "http://localhost/cv",
      "example.com/cv",
      `https://example.com/${"x".repeat(2048)}`,
    ]) {
      expect(parse(careerApplicationSchema, { ...career, resume_url: url }).reply().error, url).toHaveProperty("resume_url");
    }
    const ok = parse(careerApplicationSchema, {
      ...career,
      resume_url: "https://example.com/cv.pdf",
      linkedin_profile: "https://www.linkedin.com/in/ada",
      work_style: "hybrid",
    });
    expect(ok.status).toBe("success");
  });
});

describe("control characters", () => {
  // A one-line value with a line break would forge a line of the sales email ("Budget: approved").
  it("one-line fields lose every control character, line breaks included", () => {
    const result = parse(demoRequestSchema, {
      ...demo,
      first_name: "Grace\r\nBudget: approved",
      last_name: "Hop\u0000per\u2028x",
      company: "Navy\nPriority: urgent",
      job_title: "Rear\tAdmiral\u0085",
      phone: "+1 555\r0100",
    });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toMatchObject({
      first_name: "Grace Budget: approved",
      last_name: "Hop per x",
      company: "Navy Priority: urgent",
      job_title: "Rear Admiral",
      phone: "+1 555 0100",
    });
    for (const field of ["first_name", "last_name", "company", "job_title", "phone"] as const) {
      // eslint-disable-next-line no-control-regex
      expect(result.value[field]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    }
    const contact = parse(contactSalesSchema, { first_name: "A\nB", company: "C\rD" });
    expect(contact.status === "success" && [contact.value.first_name, contact.value.company]).toEqual(["A B", "C D"]);
    const application = parse(careerApplicationSchema, { ...career, current_position: "Analyst\nSalary: 1M" });
    expect(application.status === "success" && application.value.current_position).toBe("Analyst Salary: 1M");
  });

  it("multi-line fields keep their line breaks (as \\n) and nothing else", () => {
    const result = parse(demoRequestSchema, { ...demo, message: "First line.\r\nSecond\tline.\rThird\u0007 line.\u2028Fourth." });
    expect(result.status === "success" && result.value.message).toBe("First line.\nSecond line.\nThird line.\nFourth.");
    const application = parse(careerApplicationSchema, { ...career, why_quorvant: "One\r\nTwo\u001b[31m" });
    expect(application.status === "success" && application.value.why_quorvant).toBe("One\nTwo[31m");
  });

  it("links keep no line break or tab", () => {
    const result = parse(careerApplicationSchema, { ...career, resume_url: "https://example.com/cv\r\n\tX: y" });
    expect(result.status === "success" && result.value.resume_url).toBe("https://example.com/cvX: y");
  });
});

describe("browser constraints", () => {
  it("carry required, length caps and number bounds to the inputs", () => {
    const demoConstraints = constraintsOf(demoRequestSchema);
    expect(demoConstraints.first_name).toMatchObject({ required: true, maxLength: 100 });
    expect(demoConstraints.email).toMatchObject({ required: true, maxLength: 254 });
    expect(demoConstraints.job_title).toMatchObject({ required: false, maxLength: 100 });
    const careerConstraints = constraintsOf(careerApplicationSchema);
    expect(careerConstraints.years_experience).toMatchObject({ required: false, min: 0, max: 80, step: 1 });
    expect(careerConstraints.why_quorvant).toMatchObject({ required: true, maxLength: 5000 });
    expect(careerConstraints.resume_url).toMatchObject({ maxLength: 2048 });
    expect(Object.values(constraintsOf(contactSalesSchema)).some((constraint) => constraint.required)).toBe(false);
  });
});

describe("an application's position field", () => {
  it("reads a position id as one short line and never refuses what it holds", () => {
    expect(requestedPositionOf(null)).toBeUndefined();
    expect(requestedPositionOf("")).toBeUndefined();
    expect(requestedPositionOf("   ")).toBeUndefined();
    expect(requestedPositionOf(" 7b0e6f5e-0000-4000-8000-000000000000 ")).toBe("7b0e6f5e-0000-4000-8000-000000000000");
    expect(requestedPositionOf("a\r\nBcc: x@example.com")).toBe("a Bcc: x@example.com");
    expect(requestedPositionOf("x".repeat(5000))).toHaveLength(100);
    expect(requestedPositionOf(new File(["x"], "x.txt"))).toBeUndefined();
  });
});
